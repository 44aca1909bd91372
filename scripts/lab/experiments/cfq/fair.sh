# SPDX-License-Identifier: GPL-2.0
# cfq's workload "fair" (fair time; part disk), sourced by ../cfq.sh: the
# simhba sata-7200 disk under cfq, 4 processes of different kinds at once
# for $long seconds (sequential 64 KiB and random 4 KiB O_DIRECT readers,
# each with and without think time), traced with blktrace, cfq's messages
# too (blktrace notify).  fair-rows.py, beside this file, makes the rows
# from fio's reports and the trace (parsers.py blk-time).
# Rows: config {workload: "fair time", process, elevator: "cfq"}, one per
# kind; metrics:
#   time_share     the process's share of the time the disk was busy (the
#                  time from the disk's last completion, or the start of
#                  its busy period, to a completion is the completed
#                  request's: a request waiting in the disk's own queue is
#                  not charged for the others'); read_MBps
#   p50_ms, p90_ms, p99_ms, p999_ms (99.9), max_ms
#                  its read completion latency's distribution (fio's own
#                  percentiles)
#   slices         the slices cfq gave the process (set_active); slice_ms,
#                  their mean length (set_slice)
#   in_sync, in_sync_noidle, ...
#                  the fraction of its slices served in each workload type
#   held_share     its share of the time cfq gave the disk to a queue (from
#                  set_active to its expiry: its slices as used, idling
#                  included), which goal 6 judges
# A trace that lost events (blktrace dropped some, or a completion has no
# dispatch) has no time shares, and a note.

# cfq_tree PID: PID and the processes below it, all generations, one "PID
# COMM PARENT'S_COMM" a line (comms in parentheses, as /proc/PID/stat has
# them).  Read from /proc with bash's own read, without starting a program:
# over the 9p root each program started costs the guest up to a second on
# the instruction-counted clock.
cfq_tree()
{
	local -A kids=() comm=() parent=()
	local f pid c ppid todo=("$1")

	for f in /proc/[0-9]*/stat; do
		read -r pid c _ ppid _ 2>/dev/null <"$f" || continue
		kids[$ppid]+=" $pid"
		comm[$pid]=$c
		parent[$pid]=$ppid
	done
	while [ ${#todo[@]} -gt 0 ]; do
		pid=${todo[0]}
		todo=("${todo[@]:1}")
		[ -n "${comm[$pid]:-}" ] || continue
		echo "$pid ${comm[$pid]} ${comm[${parent[$pid]}]:-?}"
		# shellcheck disable=SC2206
		todo+=(${kids[$pid]:-})
	done
}

# cfq_fair DEV: the fair-time rows, one per kind of process.
cfq_fair()
{
	local dev=$1 size kinds k i=0 pids=() p kid t tree

	bench_step "fair time: 4 kinds of reader under cfq, traced (${long} s)"
	if ! command -v blktrace >/dev/null || ! command -v blkparse >/dev/null; then
		bench_note "blktrace is not installed: no fair-time rows"
		return
	fi
	bench_select "$dev" cfq || return
	size=$(($(cat /sys/block/"$dev"/size) * 512 / 4))
	kinds=("seq:--rw=read --bs=64k"
	       "seq think 4ms:--rw=read --bs=64k --thinktime=4000"
	       "rand:--rw=randread --bs=4k --norandommap"
	       "rand think 20ms:--rw=randread --bs=4k --norandommap --thinktime=20000")
	# read the tools before the measured interval (the clock jumps while a
	# guest waits for a program over 9p)
	blktrace -V >/dev/null 2>&1
	blkparse -V >/dev/null 2>&1
	sleep 0
	bench_trace_start "$dev" notify
	: >"$TEST_TMP/fair.map"
	for k in "${kinds[@]}"; do
		# shellcheck disable=SC2086
		fio --output-format=json --output="$TEST_TMP/f$i.json" \
		    --name=f$i --filename=/dev/"$dev" --direct=1 --ioengine=psync \
		    --offset=$((i * size)) --size=$size --time_based \
		    --runtime="$long" ${k#*:} >/dev/null 2>&1 &
		pids+=($!)
		i=$((i + 1))
	done
	# The map names each fio's processes, the job that does the reads
	# among them (a fio whose parent is a fio: "fio ... &" is a subshell,
	# then fio, which forks the job once started).  It is read while the
	# job runs, from one look at /proc that shows the job: a map taken
	# after a fixed wait, with a program started per process, came too
	# late for a short job (it had ended) or too early (not forked yet).
	i=0
	for p in "${pids[@]}"; do
		for ((t = 0; t < 200; t++)); do
			tree=$(cfq_tree "$p")
			[[ $tree != *"(fio) (fio)"* ]] || break
			kill -0 "$p" 2>/dev/null || break
			sleep 0.02
		done
		[[ $tree == *"(fio) (fio)"* ]] ||
			bench_note "fair time: the map has no fio job process for ${kinds[$i]%%:*}"
		while read -r kid _; do
			echo "map $kid ${kinds[$i]%%:*}"
		done <<<"$tree" >>"$TEST_TMP/fair.map"
		i=$((i + 1))
	done
	wait "${pids[@]}"
	bench_trace_stop "$dev" | cat "$TEST_TMP/fair.map" - >"$TEST_TMP/fair.trace"
	bench_parse blk-time "$TEST_TMP/fair.trace" >"$TEST_TMP/fair.json"
	python3 "$cfqdir/fair-rows.py" "$TEST_TMP" "${#kinds[@]}" \
		"${kinds[@]%%:*}" >"$TEST_TMP/fair.rows"
	cat "$TEST_TMP/fair.rows" >>"$BENCH_ROWS"
}
