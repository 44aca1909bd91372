# SPDX-License-Identifier: GPL-2.0
# cfq (issue 13's benchmarks), every goal judged on ratios measured in the
# same run.  Rows carry a "workload" key:
#
# Part "disk" (BENCH_PART=disk, or empty):
#   striped        seed 002's table on a simhba raid0 LUN of 4 u320-10k
#                  members (64 KiB chunks, tagged queue depth 32): N = 2, 4,
#                  8 random readers, setups base (mq-deadline), ioc off,
#                  ioc no idle and ioc idle (bench_ioc_random, as the
#                  ioc-random experiment measures them); MBps.
#   weights        on a simhba sata-7200 disk, 4 cgroups of io.cfq.weight
#                  100, 200, 400 and 800, each one sequential O_DIRECT reader
#                  of its own 256 MiB region (all in the outer zone, so that
#                  bytes measure the time spent reading); share: the group's
#                  bytes over all groups' bytes, counted (io.stat rbytes)
#                  over one window in which all 4 readers run, so that the
#                  readers' staggered starts and ends are not measured
#                  (bench.py compares it with the weight's share of the
#                  weights).
#   readers+writer the same disk, 2 streaming buffered readers (started
#                  1 s apart) against a streaming buffered writer, for
#                  mq-deadline, cfq, bfq and anticipatory
#                  (bench_reader_writer); reader_MBps is the readers' sum.
#                  Measured last: a measurement that does not end (stalled
#                  I/O) is a note with the scheduler's state, and nothing
#                  more runs on that disk.
#   fair time      the same disk under cfq, 4 processes of different kinds
#                  at once (sequential 64 KiB and random 4 KiB O_DIRECT
#                  readers, each with and without think time), traced
#                  with blktrace: time_share is the process's share of the
#                  time the disk was busy (the time from the disk's last
#                  completion, or the start of its busy period, to a
#                  completion is the completed request's: a request waiting
#                  in the disk's own queue is not charged for the others'),
#                  p50_ms, p90_ms, p99_ms, p999_ms (99.9) and max_ms its
#                  read completion latency's distribution (fio's own
#                  percentiles).  cfq's messages are traced too (blktrace notify):
#                  slices, the slices cfq gave the process (set_active),
#                  slice_ms their mean length (set_slice), in_sync,
#                  in_sync_noidle, ... the fraction of its slices served
#                  in each workload type; held_share, its share of the
#                  time cfq gave the disk to a queue (from set_active to
#                  its expiry: its slices as used, idling included), which
#                  goal 6 judges.  A trace that lost events
#                  (blktrace dropped some, or a completion has no
#                  dispatch) has no time shares, and a note.
#   scale          the same disk under cfq, N = 16, 64 and 256 random 4 KiB
#                  O_DIRECT readers (psync, one process each, one read at a
#                  time): served, how many of the N completed a read at
#                  all; max_lat_ms, the longest read of any of them (with
#                  one read at a time, the longest gap between a process's
#                  completions); bound_ms, the round that low_latency aims
#                  at for N busy queues: target_latency, or N slices of the
#                  shortest slice it gives (2 x slice_idle) when those do
#                  not fit in it; min_ios and mean_ios per process.
#                  Traced with blktrace (queue: its inserts; issue;
#                  complete):
#                  max_sched_ms, the longest a read waited in cfq (insert
#                  to dispatch), which is what cfq decides and what the
#                  round bounds; max_disk_ms, the longest at the disk
#                  (dispatch to completion: the disk's own queue, which
#                  reorders for the shortest positioning time and ages a
#                  command for at most ncq_age_ms).
#   cooperators    the same disk, 4 threads reading one stream in turn
#                  (tests/common/coop-reader: each takes the next 64 KiB
#                  chunk of a 1 GiB region, passes the turn on and reads
#                  it with O_DIRECT), under mq-deadline, bfq, cfq
#                  (cooperators 1, the default) and cfq with cooperators
#                  0 (setup cfq-unmerged): threads_MBps, what the threads
#                  read; seeks_per_kread, the disk's seeks (simhba's
#                  counters) per 1000 reads; cfq's row carries
#                  coop_merges, the processes it moved to a merged queue,
#                  as a detail.
#
# Part "overhead" (BENCH_PART=overhead, or empty; it runs first), in a
# guest whose clock counts instructions (elsewhere it is skipped):
#   null_blk       4 KiB random-read kIOPS on null_blk, cfq, mq-deadline and
#                  bfq in 2 s turns (bench_nullblk_turns, as anticipatory).
#   scale cost     null_blk, cfq and mq-deadline, N = 16, 64 and 256
#                  processes of 4 KiB O_DIRECT random reads (psync; null_blk
#                  completes them as they are issued): us_per_io, guest time
#                  per read, which on this clock is path length (1 us is
#                  1000 instructions).
#
# Each measurement lasts 10 s x BENCH_SCALE (at least 1 s); weights, fair
# time and scale 20 s x BENCH_SCALE (at least 2 s).  At the smallest size
# the striped table has N=2 only and the scale workload N=16 only.
#
# BENCH_ONLY (optional, comma separated) runs only the workloads named:
# striped, weights, fair, readers (readers+writer), null_blk, scale,
# scale-cost, cooperators.

# beyond lib.sh's (make bench's root on tmpfs)
PROGRAMS="blktrace blkparse"

secs=$(bench_size 10 1)
long=$(bench_size 20 2)
bench_ctx seconds "$secs"
bench_ctx seconds_weights "$long"
parts=$(bench_parts) || exit 2
nlist="2 4 8"
setups=("base" "ioc off" "ioc no idle" "ioc idle")
mixed="mq-deadline cfq bfq anticipatory"
overhead="mq-deadline cfq bfq"
weights="100 200 400 800"
scale_n="16 64 256"
scale_cost="mq-deadline cfq"
if bench_smoke; then
	nlist=2
	scale_n=16
	bench_note "smallest size: striped N=2 only; scale N=16 only"
fi
# want WORKLOAD: BENCH_ONLY is unset or names WORKLOAD.
want() { [ -z "${BENCH_ONLY:-}" ] || [[ ",$BENCH_ONLY," == *",$1,"* ]]; }
coop_setups="mq-deadline bfq cfq cfq-unmerged"
if [ -n "${BENCH_ONLY:-}" ]; then
	bench_note "BENCH_ONLY=$BENCH_ONLY: the other workloads did not run"
	want cooperators || coop_setups=
	want striped || nlist=
	want readers || mixed=
	want null_blk || overhead=
	want scale-cost || scale_cost=
fi
disk=0
[[ " $parts " != *" disk "* ]] || disk=1
nb=
if [[ " $parts " == *" overhead "* ]]; then
	nb=$(bench_nullblk) ||
		bench_note "null_blk is not available: no scheduler-overhead rows"
fi
have_simhba=0
if [ $disk = 1 ]; then
	if _have_module simhba >/dev/null; then
		have_simhba=1
	else
		bench_note "simhba is not available: no striped, weights, readers+writer or fair-time rows"
	fi
fi

# What this kernel offers, from a disk that exists now (make bench's root
# on tmpfs boots without the virtio scratch disks).
if [ -n "$nb" ]; then
	avail=$(bench_schedulers "$nb")
else
	avail=$(bench_schedulers "$(bench_disk sata-7200)")
fi
have() { grep -qw -- "$1" <<<"$avail"; }
pick()
{
	local s out=

	for s in "$@"; do
		if have "$s"; then
			out="$out $s"
		else
			bench_note "elevator $s is not available in this kernel: its rows are missing"
		fi
	done
	echo "$out"
}
groups=0
if have cfq && bench_io_groups; then
	mkdir -p /sys/fs/cgroup/bench-probe
	[ -e /sys/fs/cgroup/bench-probe/io.cfq.weight ] && groups=1
	rmdir /sys/fs/cgroup/bench-probe
fi
[ $groups = 1 ] || [ $disk = 0 ] ||
	bench_note "no io.cfq.weight (cfq, cgroup v2 io controller, CFQ_GROUP_IOSCHED): no weights rows"
mixed=$(pick $mixed)
overhead=$(pick $overhead)
scale_cost=$(pick $scale_cost)
have cfq || setups=("base")
have cfq || scale_cost=
# the setups whose elevator this kernel has
coop=
for s in $coop_setups; do
	if have "${s%-unmerged}"; then
		coop="$coop $s"
	elif [ "$s" != cfq-unmerged ]; then
		bench_note "elevator $s is not available in this kernel: its cooperators row is missing"
	fi
done
want weights || groups=0
fair=0
scale=
if have cfq; then
	want fair && fair=1
	want scale && scale=$scale_n
fi

steps=0
if [ $have_simhba = 1 ]; then
	steps=$((${#setups[@]} * $(wc -w <<<"$nlist") + $(wc -w <<<"$mixed") +
		 groups + fair + $(wc -w <<<"$scale") + $(wc -w <<<"$coop")))
fi
[ -z "$nb" ] || ! bench_icount ||
	steps=$((steps + $(wc -w <<<"$overhead") +
		 $(wc -w <<<"$scale_cost") * $(wc -w <<<"$scale_n")))
bench_plan $((steps * BENCH_RUNS))

# cfq_coop DEV: one row per setup of the cooperators workload, each
# reading the same region (the same zone) from its start.
cfq_coop()
{
	local dev=$1 setup s out s0 r0 reads rd seeks merges on t

	for setup in $coop; do
		s=${setup%-unmerged}
		bench_step "cooperators: $setup, 4 threads reading one stream in turn (${secs} s)"
		bench_select "$dev" "$s" || continue
		on=1
		[ "$setup" = cfq ] || on=0
		[ "$s" != cfq ] || echo "$on" >/sys/block/"$dev"/queue/iosched/cooperators
		s0=$(_simhba_stat "$dev" seeks)
		r0=$(_simhba_stat "$dev" reads)
		if ! out=$("$LAB_TOP/tests/common/coop-reader" /dev/"$dev" 4 64 0 \
				1024 seq:"$secs"); then
			bench_note "cooperators: coop-reader failed under $setup"
			continue
		fi
		read -r _ reads _ t <<<"$out"
		rd=$(($(_simhba_stat "$dev" reads) - r0))
		seeks=$(($(_simhba_stat "$dev" seeks) - s0))
		merges=
		[ "$setup" != cfq ] || merges=$(_sched_stat "$dev" coop_merges)
		bench_row "{\"workload\": \"cooperators\", \"elevator\": \"$s\", \"setup\": \"$setup\"}" \
			"{\"threads_MBps\": $(awk -v n="$reads" -v t="$t" 'BEGIN { printf "%.2f", n * 64 / 1024 / t }'), \"seeks_per_kread\": $((rd > 0 ? seeks * 1000 / rd : 0))}" \
			${merges:+"{\"coop_merges\": $merges}"}
	done
	bench_select "$dev" cfq >/dev/null 2>&1 &&
		echo 1 >/sys/block/"$dev"/queue/iosched/cooperators
}

# cfq_weights DEV: one row per group of the weights workload.
cfq_weights()
{
	local dev=$1 cg=/sys/fs/cgroup w i=0 pids=() p ok=1 num t
	local -A from to

	bench_step "weights $weights, one sequential reader each (${long} s)"
	bench_select "$dev" cfq || return
	num=$(cat /sys/block/"$dev"/dev)
	# run sleep once before the measured window: the first run reads it
	# over 9p, which moves the guest's clock (see cfq_fair)
	sleep 0.1
	for w in $weights; do
		mkdir -p $cg/bench-w$w
		echo "default $w" >$cg/bench-w$w/io.cfq.weight
		(
			echo $BASHPID >$cg/bench-w$w/cgroup.procs
			exec fio --output-format=json --output="$TEST_TMP/w$w.json" \
			    --name=w$w --filename=/dev/"$dev" --rw=read --bs=64k \
			    --direct=1 --ioengine=psync --offset=$((i * 256))M \
			    --size=256M --time_based --runtime=$((long + 15)) \
			    >/dev/null 2>&1
		) &
		pids+=($!)
		i=$((i + 1))
	done
	# the window opens once every group has read (within 10 s), and
	# closes before any reader ends
	for ((t = 0; t < 100; t++)); do
		for w in $weights; do
			[ "$(_cgroup_rbytes $cg/bench-w$w "$num")" != 0 ] || break
		done
		[ "$(_cgroup_rbytes $cg/bench-w$w "$num")" = 0 ] || break
		sleep 0.1
	done
	sleep 1
	for w in $weights; do
		from[$w]=$(_cgroup_rbytes $cg/bench-w$w "$num")
	done
	sleep "$long"
	for w in $weights; do
		to[$w]=$(_cgroup_rbytes $cg/bench-w$w "$num")
	done
	for p in "${pids[@]}"; do
		kill -0 "$p" 2>/dev/null || ok=0
	done
	for w in $weights; do
		[ "${from[$w]}" != 0 ] || ok=0
	done
	[ $ok = 1 ] ||
		bench_note "weights: not every reader ran through the window: no shares"
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}"
	for w in $weights; do
		echo "$w $((to[$w] - from[$w])) $ok"
	done | awk '{ w[NR] = $1; b[NR] = $2; ok = $3; tot += $2 }
		END { for (i = 1; i <= NR; i++) {
			share = (ok && tot > 0) ? sprintf("%.5f", b[i] / tot) : "null"
			printf "%d %s %.2f\n", w[i], share, b[i] / 1e6 } }' \
		>"$TEST_TMP/shares"
	while read -r w share mb; do
		bench_row "{\"workload\": \"weights\", \"weight\": $w, \"elevator\": \"cfq\"}" \
			"{\"share\": $share, \"read_MB\": $mb}"
		rmdir $cg/bench-w$w 2>/dev/null
	done <"$TEST_TMP/shares"
}

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
	python3 - "$TEST_TMP" "${#kinds[@]}" "${kinds[@]%%:*}" <<'PY' >"$TEST_TMP/fair.rows"
import json, os, sys
sys.path.insert(0, os.path.join(os.environ['LAB_TOP'], 'scripts', 'lab'))
from parsers import (cfq_slice_note, cfq_workload_key, cfq_workload_names,
                     fio_jobs)
d, n, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
try:
    t = json.load(open(d + '/fair.json'))
except (OSError, ValueError):
    t = {}
busy = t.get('busy_s') or 0
if t.get('note'):
    print(json.dumps({'note': 'fair time: ' + t['note']}))
elif not busy:
    print(json.dumps({'note': 'fair time: the trace saw no request at the '
                      'disk: no time shares'}))
if t.get('dropped', 0) is None:
    print(json.dumps({'note': 'fair time: blktrace did not say whether it '
                      'dropped events'}))
served = t.get('served') or {}
# the time cfq gave the disk to anyone (from set_active to expiry); none
# from a trace that lost events (its messages may be among them)
lossy = bool(t.get('note')) or t.get('dropped', 0) is None
held = 0 if lossy else sum(v.get('held_s') or 0 for v in served.values())
if not served:
    print(json.dumps({'note': 'fair time: the trace has no cfq messages: '
                      'no workload types'}))
for i, name in enumerate(names[:n]):
    lat, mb = {}, None
    try:
        j = fio_jobs(open('%s/f%d.json' % (d, i)).read())[0]['read']
        # fio's own percentiles of the read latency, and its longest
        for k, pct in (('p50_ms', '50.000000'), ('p90_ms', '90.000000'),
                       ('p99_ms', '99.000000'), ('p999_ms', '99.900000')):
            lat[k] = j['clat_ns']['percentile'][pct] / 1e6
        lat['max_ms'] = j['clat_ns']['max'] / 1e6
        mb = j['bw_bytes'] / 1e6
    except (OSError, ValueError, KeyError, IndexError):
        pass
    s = t.get('kinds', {}).get(name)
    share = s / busy if busy and s is not None else None
    if busy and s is None:
        # its requests were queued by a process the map did not name
        print(json.dumps({'note': 'fair time: no disk time attributed to '
                          '%s in the trace: its share is missing' % name}))
    # the workloads cfq served it in: the fraction of its slices in each
    sv = served.get(name) or {}
    wl = sv.get('workloads') or {}
    n_sl = sum(wl.values())
    if served and not n_sl:
        print(json.dumps({'note': 'fair time: cfq\'s messages name no slice '
                          'of %s: its workload type is missing' % name}))
    elif cfq_slice_note(name, sv):
        print(json.dumps({'note': cfq_slice_note(name, sv)}))
    m = {'time_share': share, 'read_MBps': mb,
         'held_share': (sv.get('held_s') or 0) / held if held else None,
         'slices': n_sl if served else None,
         'slice_ms': (sum(sv['slices_us']) / len(sv['slices_us']) / 1e3
                      if sv.get('slices_us') else None)}
    for k in ('p50_ms', 'p90_ms', 'p99_ms', 'p999_ms', 'max_ms'):
        m[k] = lat.get(k)
    # every type in every run (0 where it was not served), so that the
    # medians over the runs compare alike
    for w in (cfq_workload_names() if n_sl else []) + sorted(wl):
        m[cfq_workload_key(w)] = wl.get(w, 0) / n_sl
    print(json.dumps({'config': {'workload': 'fair time', 'process': name,
                                 'elevator': 'cfq'},
                      'metrics': m}))
PY
	cat "$TEST_TMP/fair.rows" >>"$BENCH_ROWS"
}

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
		python3 - "$TEST_TMP/scale.json" "$n" "$tl" "$idle" "$TEST_TMP/scale.trace" \
			"$trace" <<'PY' >>"$BENCH_ROWS"
import json, os, sys
sys.path.insert(0, os.path.join(os.environ['LAB_TOP'], 'scripts', 'lab'))
from parsers import cfq_workload_key, cfq_workload_names, fio_jobs, parse_blk_wait
n, tl, idle = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
m = dict.fromkeys(('served', 'max_lat_ms', 'min_ios', 'mean_ios', 'iops'))
w = parse_blk_wait(open(sys.argv[5]).read()) if sys.argv[6] == '1' else {}
m['traced'] = w.get('requests')
m['trace_unmatched'] = w.get('unmatched')
total = None
try:
    jobs = [j['read'] for j in fio_jobs(open(sys.argv[1]).read())]
    if len(jobs) == n:
        ios = [j['total_ios'] for j in jobs]
        total = sum(ios)
        m.update({'served': sum(1 for i in ios if i > 0),
                  'max_lat_ms': max(j['lat_ns']['max'] for j in jobs) / 1e6,
                  'min_ios': min(ios), 'mean_ios': sum(ios) / n,
                  'iops': sum(j['iops'] for j in jobs)})
except (OSError, ValueError, KeyError, TypeError):
    pass
# the waits count only when the trace saw every read fio made whole and
# nothing it could not match (a dropped event, a late start): else they
# are missing, never a maximum over part of the reads
if w and total and w['requests'] >= total and w['unmatched'] == 0:
    m['max_sched_ms'] = w['max_sched_ms']
    m['max_disk_ms'] = w['max_disk_ms']
else:
    m['max_sched_ms'] = m['max_disk_ms'] = None
    if w:
        print(json.dumps({'note': 'scale N=%d: the trace saw %d of %s reads '
                          'whole, %d events unmatched: no wait in cfq'
                          % (n, w['requests'], total, w['unmatched'])}))
# low_latency's round for n busy queues: target_latency, or n of the
# shortest slice it gives (2 x slice_idle) when those do not fit in it
m['bound_ms'] = max(tl, n * 2 * idle)
print(json.dumps({'config': {'workload': 'scale', 'N': n, 'elevator': 'cfq'},
                  'metrics': m}))
PY
	done
}

# cfq_scale_cost NB: BENCH_RUNS scale cost rows per N of $scale_n and
# scheduler of $scale_cost, on null_blk.
cfq_scale_cost()
{
	local nb=$1 n s iops run

	for run in $(seq 1 "$BENCH_RUNS"); do
		for n in $scale_n; do
			for s in $scale_cost; do
				bench_step "scale cost: elevator=$s run $run, $n processes of null_blk 4 KiB random reads (${secs} s)"
				bench_select "$nb" "$s" || continue
				fio --output-format=json --output="$TEST_TMP/sc.json" \
				    --name=sc --filename=/dev/"$nb" --rw=randread \
				    --bs=4k --direct=1 --ioengine=psync --norandommap \
				    --numjobs="$n" --group_reporting --time_based \
				    --runtime="$secs" >/dev/null 2>&1
				iops=$(fio_total_iops "$TEST_TMP/sc.json" 2>/dev/null)
				bench_row "{\"workload\": \"scale cost\", \"N\": $n, \"elevator\": \"$s\"}" \
					"$(awk -v i="$iops" 'BEGIN {
						if (i > 0) printf "{\"us_per_io\": %.4f, \"kiops\": %.2f}", 1e6 / i, i / 1000
						else print "{\"us_per_io\": null, \"kiops\": null}" }')"
			done
		done
	done
}

stalled=0
for run in $(seq 1 "$BENCH_RUNS"); do
	[ $have_simhba = 1 ] || break
	if [ -z "$nlist" ]; then
		:	# not wanted (BENCH_ONLY)
	elif _simhba_load 1 profile=raid0 raid_members=4 raid_member=u320-10k \
			raid_chunk_kb=64 qdepth=32 nostore=1 >/dev/null; then
		dev=$(_simhba_disks | head -n1)
		bench_ioc_random "$dev" "$secs" "$nlist" '"workload": "striped", ' \
			"${setups[@]}"
	else
		bench_note "cannot load simhba's striped LUN: no striped rows"
	fi
	dev=$(bench_disk sata-7200)
	bench_ctx device "$dev"
	[ $groups = 0 ] || cfq_weights "$dev"
	[ $fair = 0 ] || cfq_fair "$dev"
	[ -z "$scale" ] || cfq_scale "$dev"
	[ -z "$coop" ] || cfq_coop "$dev"
	# last: a stall here (bench_stalled) leaves the disk unusable
	bench_small_writeback
	size=$(($(cat /sys/block/"$dev"/size) * 512))
	region=$((size / 8))
	for s in $mixed; do
		bench_select "$dev" "$s" || continue
		bench_step "elevator=$s run $run: 2 readers + buffered writer (${secs} s)"
		if m=$(bench_within $((3 * secs + 60)) bench_reader_writer "$dev" \
				"$secs" 0 $((4 * region)) $region 2); then
			bench_row "{\"workload\": \"readers+writer\", \"elevator\": \"$s\"}" "{$m}"
		else
			bench_stalled "$dev" "$s" $((3 * secs + 60)) \
				"2 readers + buffered writer"
			stalled=1
			break 2
		fi
	done
done
[ $have_simhba = 0 ] || [ "$stalled" = 1 ] || _simhba_unload

[ -n "$nb" ] || exit 0
if bench_icount; then
	# shellcheck disable=SC2086
	[ -z "$overhead" ] ||
		bench_nullblk_turns "$nb" "$secs" nullblk_kiops \
			"instruction-counted clock" '"workload": "null_blk", ' \
			$overhead
	[ -z "$scale_cost" ] || cfq_scale_cost "$nb"
else
	bench_note "the overhead part needs a guest booted with LAB_ACCEL=icount: skipped"
fi
