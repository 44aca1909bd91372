# SPDX-License-Identifier: GPL-2.0
# overview: every available elevator on one simhba sata-7200 disk.
#  - a streaming reader against a streaming buffered writer (deceptive
#    idleness: what the reader gets while writeback runs);
#  - two sequential readers of distant regions.
# Each measurement lasts 10 s x BENCH_SCALE.

secs=$(awk -v s="$BENCH_SCALE" 'BEGIN { t = int(10 * s); print (t < 2 ? 2 : t) }')
dev=$(bench_disk sata-7200)
scheds=$(bench_schedulers "$dev")
if bench_smoke; then
	# the smallest size (smoke test): the baseline and the newcomer only
	scheds=$(for s in mq-deadline anticipatory; do grep -qw -- "$s" <<<"$scheds" && echo "$s"; done)
	bench_note "smallest size: only mq-deadline and anticipatory"
fi
size=$(($(cat /sys/block/"$dev"/size) * 512))
region=$((size / 4))
bench_plan $(($(echo $scheds | wc -w) * BENCH_RUNS * 2))

# Writeback must reach the disk within a measurement, as on the small-memory
# machines of the time: start it at 16 MB of dirty data, throttle at 64 MB.
echo $((16 << 20)) >/proc/sys/vm/dirty_background_bytes
echo $((64 << 20)) >/proc/sys/vm/dirty_bytes

# sectors read and written so far: fields 3 and 7 of the disk's stat
disk_sectors() { awk '{ print $3, $7 }' /sys/block/"$dev"/stat; }

for run in $(seq 1 "$BENCH_RUNS"); do
	for s in $scheds; do
		echo "$s" >/sys/block/"$dev"/queue/scheduler || {
			bench_note "cannot select $s on $dev"
			continue
		}
		bench_step "elevator=$s run $run: reader + buffered writer (${secs} s)"
		bench_drop_caches
		read -r r0 w0 < <(disk_sectors)
		fio --output-format=json --output="$TEST_TMP/rw.json" \
		    --time_based --runtime="$secs" --filename=/dev/"$dev" \
		    --name=reader --rw=read --bs=64k --ioengine=psync \
		    --offset=0 --size=$region \
		    --name=writer --rw=write --bs=1M --ioengine=psync \
		    --offset=$((2 * region)) --size=$region >/dev/null 2>&1
		read -r r1 w1 < <(disk_sectors)
		sync
		bench_row "{\"elevator\": \"$s\", \"device\": \"$dev\"}" \
			"{\"reader_MBps\": $(fio_mbps "$TEST_TMP/rw.json" reader read), \"disk_write_MBps\": $(awk -v a=$w0 -v b=$w1 -v t=$secs 'BEGIN { printf "%.2f", (b - a) * 512 / 1e6 / t }'), \"disk_read_MBps\": $(awk -v a=$r0 -v b=$r1 -v t=$secs 'BEGIN { printf "%.2f", (b - a) * 512 / 1e6 / t }')}"

		bench_step "elevator=$s run $run: 2 sequential readers (${secs} s)"
		bench_drop_caches
		fio --output-format=json --output="$TEST_TMP/2r.json" \
		    --time_based --runtime="$secs" --filename=/dev/"$dev" \
		    --name=r2 --rw=read --bs=64k --ioengine=psync --numjobs=2 \
		    --size=$region --offset_increment=$((2 * region)) \
		    --group_reporting >/dev/null 2>&1
		bench_row "{\"elevator\": \"$s\", \"device\": \"$dev\"}" \
			"{\"two_readers_MBps\": $(fio_mbps "$TEST_TMP/2r.json" r2 read)}"
	done
done
