# SPDX-License-Identifier: GPL-2.0
# anticipatory (issue 4's benchmarks): anticipatory, mq-deadline, bfq, kyber
# and none, with ratios to mq-deadline measured in the same run.
#
# Part "disk" (BENCH_PART=disk, or empty), on one simhba sata-7200 disk:
#   1. a streaming reader plus a streaming buffered writer: reader MB/s and
#      total (reader + writeback reaching the disk) MB/s;
#   2. 2 and 4 concurrent sequential readers of distant regions: aggregate.
#      The readers are synchronous (O_DIRECT, 64 KiB, one read at a time),
#      the case anticipation is for.  Buffered readers issue async
#      readahead and keep a request queued, so deadline's sorted dispatch
#      already serves them in long runs (both do about the same there).
#      The readers start 1 s apart (see bench_seq_readers: bfq merges the
#      queues of readers that start together);
#   3. a seeky OLTP-like mix: 8 random 4 KiB sync readers plus one O_SYNC
#      4 KiB random writer: total IOPS;
#   4. scheduler overhead, by the wall clock: 4 KiB random-read IOPS on
#      null_blk (no delay), 4 jobs at QD 8, in thousands (nullblk_wall_kiops).
#      Under TCG this rate follows how busy the host is: 2 s slices of one
#      scheduler have measured from 0.6x to 1.8x mq-deadline's slice of the
#      same round.
#
# Part "overhead" (BENCH_PART=overhead, or empty), in a guest whose clock
# counts instructions (bench.py boots it with LAB_ACCEL=icount; elsewhere
# it is skipped):
#   4. the same null_blk load, nullblk_kiops; 10^9 / IOPS is then the
#      instructions the whole guest (fio included) spends per I/O, and
#      repeated runs agree within about 1 %.
#
# Beside each throughput, the read latency of the workload's readers (all
# of them together; for the null_blk load, all its slices), from fio's own
# completion-latency buckets: for the disk workloads its distribution
# (fio_lat_fields: reader_, seq2_, seq4_ and oltp_ (the 8 readers) p50 ...
# p99.9 and max in ms, and the writers' beside them: writer_ (buffered
# writes) and oltp_write_ (the O_SYNC writer)), for null_blk its 99th
# percentile (fio_read_p99): nullblk_p99_us and nullblk_wall_p99_us.
# Every reader is a fio job; the latency is that of one read call (psync)
# or one request (libaio, null_blk).
#
# Each measurement lasts 10 s x BENCH_SCALE (at least 1 s); the null_blk
# ones rotate through the schedulers in slices of about 2 s.

secs=$(bench_size 10 1)
bench_ctx seconds "$secs"
want="anticipatory mq-deadline bfq kyber none"
parts=$(bench_parts) || exit 2

# The parts that measure null_blk in this guest: the wall-clock figure
# needs a wall clock, the overhead part the counted one.
icount=0
! bench_icount || icount=1
nbparts=
for p in $parts; do
	case $p:$icount in
	disk:0 | overhead:1) nbparts="$nbparts $p" ;;
	esac
done
nb=
if [ -n "$nbparts" ]; then
	nb=$(bench_nullblk) ||
		bench_note "null_blk is not available: no scheduler-overhead column"
fi
dev=
if [[ " $parts " == *" disk "* ]]; then
	dev=$(bench_disk sata-7200)
	bench_ctx device "$dev"
fi
avail=$(bench_schedulers "${dev:-${nb:-}}")
scheds=
for s in $want; do
	if grep -qw -- "$s" <<<"$avail"; then
		scheds="$scheds $s"
	else
		bench_note "elevator $s is not available in this kernel: its row is missing"
	fi
done
nsched=$(wc -w <<<"$scheds")
steps=0
[ -z "$dev" ] || steps=$((steps + nsched * BENCH_RUNS * 4))
[ -z "$nb" ] || steps=$((steps + nsched * BENCH_RUNS * $(wc -w <<<"$nbparts")))
bench_plan "$steps"

if [ -n "$dev" ]; then
	bench_small_writeback
	size=$(($(cat /sys/block/"$dev"/size) * 512))
	region=$((size / 8))
	for run in $(seq 1 "$BENCH_RUNS"); do
		for s in $scheds; do
			cfg="{\"elevator\": \"$s\"}"
			bench_select "$dev" "$s" || continue
			bench_step "elevator=$s run $run: reader + buffered writer (${secs} s)"
			bench_row "$cfg" "{$(bench_reader_writer "$dev" "$secs" 0 $((4 * region)) $region)}"

			for n in 2 4; do
				bench_step "elevator=$s run $run: $n sequential readers (${secs} s)"
				bench_drop_caches "$dev"
				bench_row "$cfg" "{$(bench_seq_readers "$dev" "$secs" $n $region seq$n)}"
			done

			bench_step "elevator=$s run $run: OLTP-like mix (${secs} s)"
			fio --output-format=json+ --output="$TEST_TMP/oltp.json" \
			    --time_based --runtime="$secs" --filename=/dev/"$dev" \
			    --direct=1 --ioengine=psync --bs=4k --size=$((size / 4)) \
			    --name=rd --rw=randread --numjobs=8 --norandommap \
			    --name=wr --rw=randwrite --sync=1 --numjobs=1 --norandommap \
			    >/dev/null 2>&1
			bench_row "$cfg" "{\"oltp_iops\": $(fio_total_iops "$TEST_TMP/oltp.json" 2>/dev/null || echo null), $(fio_lat_fields oltp rd read ms "$TEST_TMP/oltp.json"), $(fio_lat_fields oltp_write wr write ms "$TEST_TMP/oltp.json")}"
		done
	done
fi

# The null_blk runs come after the disk workloads.
for p in $parts; do
	case $p:$icount in
	disk:1)
		bench_note "null wall kIOPS needs a wall clock (LAB_ACCEL=tcg): this guest's clock counts instructions, see null kIOPS" ;;
	overhead:0)
		bench_note "the overhead part needs a guest booted with LAB_ACCEL=icount: skipped" ;;
	disk:0)
		[ -z "$nb" ] ||
			bench_nullblk_turns "$nb" "$secs" nullblk_wall_kiops "wall clock" "" $scheds ;;
	overhead:1)
		[ -z "$nb" ] ||
			bench_nullblk_turns "$nb" "$secs" nullblk_kiops "instruction-counted clock" "" $scheds ;;
	esac
done
# nothing of this experiment stays for the next one in the boot
[ -z "$nb" ] || modprobe -r null_blk 2>/dev/null || true
