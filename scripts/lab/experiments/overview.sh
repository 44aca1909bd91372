# SPDX-License-Identifier: GPL-2.0
# overview: every available elevator on one simhba sata-7200 disk.
#  - a streaming reader against a streaming buffered writer (deceptive
#    idleness: what the reader gets while writeback runs);
#  - the same reader against four buffered writers, each streaming its own
#    quarter of the writer's region (a backup and a few copies at once):
#    metrics with "_4w" in their names;
#  - a slow reader beside one buffered writer: O_DIRECT, one 64 KiB read
#    at a time, 20 ms of think time after each, longer than cfq's
#    slice_idle and anticipatory's antic_expire, so that idling for it is
#    a wait in vain: what the disk total loses (metrics with "_slow");
#  - two synchronous (O_DIRECT) sequential readers of distant regions,
#    started 1 s apart.
# Each elevator's row records writeback throttling's latency target
# (queue/wbt_lat_usec) while it ran: a kernel with wbt runs mq-deadline
# with it, and bfq, cfq and anticipatory without.
# Each measurement lasts 10 s x BENCH_SCALE.  BENCH_VARIANTS (comma
# separated, each an elevator and its tunables as NAME=VALUE) runs those
# configurations instead of every elevator at its defaults.

secs=$(awk -v s="$BENCH_SCALE" 'BEGIN { t = int(10 * s); print (t < 2 ? 2 : t) }')
dev=$(bench_disk sata-7200)
# every elevator, or the configurations BENCH_VARIANTS names
mapfile -t confs < <(bench_configs "$dev")
size=$(($(cat /sys/block/"$dev"/size) * 512))
region=$((size / 4))
bench_plan $((${#confs[@]} * BENCH_RUNS * 4))

bench_small_writeback

for run in $(seq 1 "$BENCH_RUNS"); do
	for s in "${confs[@]}"; do
		bench_config "$dev" "$s" || continue
		bench_step "elevator=$s run $run: reader + buffered writer (${secs} s)"
		if ! m=$(bench_within $((3 * secs + 60)) bench_reader_writer \
				"$dev" "$secs" 0 $((2 * region)) $region); then
			bench_stalled "$dev" "$s" $((3 * secs + 60)) \
				"reader + buffered writer"
			break 2
		fi
		# writeback throttling's latency target while this elevator
		# runs: its default (75000 us on a disk) under mq-deadline, 0
		# where the elevator turns it off; null without wbt
		wbt=$(cat /sys/block/"$dev"/queue/wbt_lat_usec 2>/dev/null || echo null)
		bench_row "{\"elevator\": \"$s\", \"device\": \"$dev\"}" "{$m, \"wbt_lat_usec\": $wbt}"

		bench_step "elevator=$s run $run: reader + 4 buffered writers (${secs} s)"
		if ! m=$(bench_within $((3 * secs + 60)) bench_reader_writer \
				"$dev" "$secs" 0 $((2 * region)) $region 1 4); then
			bench_stalled "$dev" "$s" $((3 * secs + 60)) \
				"reader + 4 buffered writers"
			break 2
		fi
		# reader_MBps -> reader_4w_MBps, reader_p99_ms -> reader_p99_4w_ms,
		# disk_write_share_pct -> disk_write_share_4w_pct
		bench_row "{\"elevator\": \"$s\", \"device\": \"$dev\"}" \
			"{$(sed -E 's/"([a-z0-9_]+)_(MBps|ms|pct)"/"\1_4w_\2"/g' <<<"$m")}"

		bench_step "elevator=$s run $run: slow reader (20 ms think) + buffered writer (${secs} s)"
		if ! m=$(bench_within $((3 * secs + 60)) bench_reader_writer \
				"$dev" "$secs" 0 $((2 * region)) $region 1 1 20000); then
			bench_stalled "$dev" "$s" $((3 * secs + 60)) \
				"slow reader + buffered writer"
			break 2
		fi
		bench_row "{\"elevator\": \"$s\", \"device\": \"$dev\"}" \
			"{$(sed -E 's/"([a-z0-9_]+)_(MBps|ms|pct)"/"\1_slow_\2"/g' <<<"$m")}"

		bench_step "elevator=$s run $run: 2 sequential readers (${secs} s)"
		bench_drop_caches "$dev"
		bench_row "{\"elevator\": \"$s\", \"device\": \"$dev\"}" \
			"{$(bench_seq_readers "$dev" "$secs" 2 $region two_readers)}"
	done
done
