# SPDX-License-Identifier: GPL-2.0
# overview: every available elevator on one simhba sata-7200 disk.
#  - a streaming reader against a streaming buffered writer (deceptive
#    idleness: what the reader gets while writeback runs);
#  - two synchronous (O_DIRECT) sequential readers of distant regions,
#    started 1 s apart.
# Each elevator's row records writeback throttling's latency target
# (queue/wbt_lat_usec) while it ran: a kernel with wbt runs mq-deadline
# with it, and bfq, cfq and anticipatory without.
# Each measurement lasts 10 s x BENCH_SCALE.

secs=$(awk -v s="$BENCH_SCALE" 'BEGIN { t = int(10 * s); print (t < 2 ? 2 : t) }')
dev=$(bench_disk sata-7200)
scheds=$(bench_schedulers "$dev")
# the 2.6 schedulers this series brings back: a row each, or a note
for s in anticipatory cfq; do
	grep -qw -- "$s" <<<"$scheds" ||
		bench_note "elevator $s is not available in this kernel: its row is missing"
done
size=$(($(cat /sys/block/"$dev"/size) * 512))
region=$((size / 4))
bench_plan $(($(echo $scheds | wc -w) * BENCH_RUNS * 2))

bench_small_writeback

for run in $(seq 1 "$BENCH_RUNS"); do
	for s in $scheds; do
		bench_select "$dev" "$s" || continue
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

		bench_step "elevator=$s run $run: 2 sequential readers (${secs} s)"
		bench_drop_caches "$dev"
		bench_row "{\"elevator\": \"$s\", \"device\": \"$dev\"}" \
			"{$(bench_seq_readers "$dev" "$secs" 2 $region two_readers)}"
	done
done
