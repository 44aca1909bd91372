# SPDX-License-Identifier: GPL-2.0
# anticipatory (issue 4's benchmarks): anticipatory, mq-deadline, bfq, kyber
# and none on one simhba sata-7200 disk, in the same boot, with ratios to
# mq-deadline:
#   1. a streaming reader plus a streaming buffered writer: reader MB/s and
#      total (reader + writeback reaching the disk) MB/s;
#   2. 2 and 4 concurrent sequential readers of distant regions: aggregate;
#   3. a seeky OLTP-like mix: 8 random 4 KiB sync readers plus one O_SYNC
#      4 KiB random writer: total IOPS;
#   4. scheduler overhead: 4 KiB random-read IOPS on null_blk (no delay),
#      4 jobs at QD 8, in thousands.
# Each measurement lasts 10 s x BENCH_SCALE (at least 1 s).

secs=$(bench_size 10 1)
bench_ctx seconds "$secs"
want="anticipatory mq-deadline bfq kyber none"
if bench_smoke; then
	want="anticipatory mq-deadline"
	bench_note "smallest size: only anticipatory and mq-deadline"
fi
dev=$(bench_disk sata-7200)
avail=$(bench_schedulers "$dev")
scheds=
for s in $want; do
	if grep -qw -- "$s" <<<"$avail"; then
		scheds="$scheds $s"
	else
		bench_note "elevator $s is not available in this kernel: its row is missing"
	fi
done
size=$(($(cat /sys/block/"$dev"/size) * 512))
region=$((size / 8))
nb=
if modprobe null_blk nr_devices=1 queue_mode=2 gb=4 irqmode=0 completion_nsec=0 \
		submit_queues=2 >/dev/null 2>&1 && [ -b /dev/nullb0 ]; then
	nb=nullb0
else
	bench_note "null_blk is not available: no scheduler-overhead column"
fi
bench_plan $(($(wc -w <<<"$scheds") * BENCH_RUNS * 5))

echo $((16 << 20)) >/proc/sys/vm/dirty_background_bytes
echo $((64 << 20)) >/proc/sys/vm/dirty_bytes
disk_sectors() { awk '{ print $3, $7 }' /sys/block/"$dev"/stat; }
rate() { awk -v a="$1" -v b="$2" -v t="$secs" 'BEGIN { printf "%.2f", (b - a) * 512 / 1e6 / t }'; }
fio_total_iops()
{
	python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print('%.1f' % sum(job['read']['iops'] + job['write']['iops'] for job in j['jobs']))
PY
}

for run in $(seq 1 "$BENCH_RUNS"); do
	for s in $scheds; do
		cfg="{\"elevator\": \"$s\", \"device\": \"$dev\"}"
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
		    --offset=$((4 * region)) --size=$region >/dev/null 2>&1
		read -r r1 w1 < <(disk_sectors)
		sync
		rd=$(fio_mbps "$TEST_TMP/rw.json" reader read 2>/dev/null || echo null)
		bench_row "$cfg" "{\"reader_MBps\": $rd, \"total_MBps\": $(awk -v a="$(rate "$r0" "$r1")" -v b="$(rate "$w0" "$w1")" 'BEGIN { printf "%.2f", a + b }'), \"writer_disk_MBps\": $(rate "$w0" "$w1")}"

		for n in 2 4; do
			bench_step "elevator=$s run $run: $n sequential readers (${secs} s)"
			bench_drop_caches
			fio --output-format=json --output="$TEST_TMP/seq.json" \
			    --time_based --runtime="$secs" --filename=/dev/"$dev" \
			    --name=seq --rw=read --bs=64k --ioengine=psync --numjobs=$n \
			    --size=$region --offset_increment=$((size / n)) \
			    --group_reporting >/dev/null 2>&1
			bench_row "$cfg" "{\"seq${n}_MBps\": $(fio_mbps "$TEST_TMP/seq.json" seq read 2>/dev/null || echo null)}"
		done

		bench_step "elevator=$s run $run: OLTP-like mix (${secs} s)"
		fio --output-format=json --output="$TEST_TMP/oltp.json" \
		    --time_based --runtime="$secs" --filename=/dev/"$dev" \
		    --direct=1 --ioengine=psync --bs=4k --size=$((size / 4)) \
		    --name=rd --rw=randread --numjobs=8 --norandommap \
		    --name=wr --rw=randwrite --sync=1 --numjobs=1 --norandommap \
		    >/dev/null 2>&1
		bench_row "$cfg" "{\"oltp_iops\": $(fio_total_iops "$TEST_TMP/oltp.json" 2>/dev/null || echo null)}"

		bench_step "elevator=$s run $run: null_blk 4 KiB random reads (${secs} s)"
		[ -n "$nb" ] || continue
		if ! echo "$s" >/sys/block/$nb/queue/scheduler 2>/dev/null; then
			bench_note "cannot select $s on null_blk"
			continue
		fi
		fio --output-format=json --output="$TEST_TMP/nb.json" \
		    --time_based --runtime="$secs" --filename=/dev/$nb \
		    --name=nb --rw=randread --bs=4k --direct=1 --ioengine=libaio \
		    --iodepth=8 --numjobs=4 --norandommap --group_reporting \
		    >/dev/null 2>&1
		bench_row "$cfg" "{\"nullblk_kiops\": $(awk -v i="$(fio_total_iops "$TEST_TMP/nb.json" 2>/dev/null)" 'BEGIN { if (i == "") print "null"; else printf "%.2f", i / 1000 }')}"
	done
done
