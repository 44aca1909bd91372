# SPDX-License-Identifier: GPL-2.0
# cfq's workload "scale" (part disk), sourced by ../cfq.sh: the simhba
# sata-7200 disk under cfq, N = 16, 64 and 256 ($scale; 16 only at the
# smallest size) random 4 KiB O_DIRECT readers (psync, one process each,
# one read at a time) for $long seconds, traced with blktrace (queue: its
# inserts; issue; complete).  scale-rows.py, beside this file, makes the
# row from fio's report and the trace (parsers.py parse_blk_wait).
# Rows: config {workload: "scale", N, elevator: "cfq"}; metrics:
#   served         how many of the N completed a read at all
#   max_lat_ms     the longest read of any of them (with one read at a
#                  time, the longest gap between a process's completions)
#   bound_ms       the round that low_latency aims at for N busy queues:
#                  target_latency, or N slices of the shortest slice it
#                  gives (2 x slice_idle) when those do not fit in it
#   min_ios, mean_ios per process; iops, all of them
#   max_sched_ms   the longest a read waited in cfq (insert to dispatch),
#                  which is what cfq decides and what the round bounds
#   max_disk_ms    the longest at the disk (dispatch to completion: the
#                  disk's own queue, which reorders for the shortest
#                  positioning time and ages a command for at most
#                  ncq_age_ms)
#   traced, trace_unmatched  the reads the trace saw whole, the events it
#                  could not match (the waits are null, with a note,
#                  unless it saw every read and matched every event)

# cfq_scale DEV: a scale row per N of $scale, N random readers under cfq.
cfq_scale()
{
	local dev=$1 n q=/sys/block/$1/queue/iosched tl idle trace=1

	if ! command -v blktrace >/dev/null || ! command -v blkparse >/dev/null; then
		bench_note "blktrace is not installed: the scale rows have no wait in cfq"
		trace=0
	fi
	# read the tools before the measured interval (the clock jumps while a
	# guest waits for a program over 9p)
	[ $trace = 0 ] || { blktrace -V; blkparse -V; } >/dev/null 2>&1
	for n in $scale; do
		bench_step "scale: $n random 4 KiB readers under cfq (${long} s)"
		bench_select "$dev" cfq || return
		tl=$(cat $q/target_latency)
		idle=$(cat $q/slice_idle)
		: >"$TEST_TMP/scale.trace"
		[ $trace = 0 ] || bench_trace_start "$dev"
		fio --output-format=json --output="$TEST_TMP/scale.json" \
		    --name=scale --filename=/dev/"$dev" --rw=randread --bs=4k \
		    --direct=1 --ioengine=psync --norandommap --numjobs="$n" \
		    --time_based --runtime="$long" >/dev/null 2>&1
		[ $trace = 0 ] || bench_trace_stop "$dev" >"$TEST_TMP/scale.trace"
		python3 "$cfqdir/scale-rows.py" "$TEST_TMP/scale.json" "$n" "$tl" \
			"$idle" "$TEST_TMP/scale.trace" "$trace" >>"$BENCH_ROWS"
	done
}
