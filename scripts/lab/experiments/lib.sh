# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest side of the experiments (scripts/lab/experiments/*.sh),
# sourced by scripts/lab/experiments/run.  An experiment script reports:
#
#   bench_plan N                 how many steps it will take (for progress)
#   bench_step "what"            one step starts (prints progress)
#   bench_row CONFIG_JSON METRICS_JSON [DETAIL_JSON]
#                                one measurement of one configuration (a
#                                null metric: could not be measured); the
#                                detail (samples, profiles) is kept as is
#   bench_ctx KEY VALUE          a fact for the table's caption (sizes)
#   bench_note "text"            something the table must say (a missing
#                                scheduler, a fallback device)
#
# Rows go to $LAB_OUT/$BENCH_ID.rows (JSON lines) for bench.py; BENCH_ID is
# the experiment's name, or NAME.PART when run sets BENCH_PART.


# The programs an experiment may run, for make bench's root on tmpfs
# (scripts/lab/runner.py reads the PROGRAMS="..." lines of
# tests/common/programs, of lib.sh and of the experiment's script;
# boot.sh's LAB_GUEST_ROOT): the runners' common ones in
# tests/common/programs, those these helpers add here, an experiment's
# own in its script.  A program missing from the lists is not found in
# that root.
PROGRAMS="nproc nice renice setsid flock pgrep python3 fio"

# Every fio the experiments start gets the same random seed (BENCH_SEED,
# set by bench.py, recorded in the results' JSON): a job's own --randseed,
# given after it, still wins.  fio's default (randrepeat=1) is a fixed
# seed too; this makes it explicit and one knob.
export BENCH_SEED=${BENCH_SEED:-1}
fio() { command fio --randseed="$BENCH_SEED" "$@"; }

# The smallest size (BENCH_SCALE < 0.01, the smoke test) shortens every
# measurement and drops sizes (numbers of readers, transfer sizes), never a
# configuration: every elevator and setup an experiment has at full size
# still gets its row, so the smoke test (tests/lab/007) sees each one.
bench_smoke() { awk -v s="$BENCH_SCALE" 'BEGIN { exit !(s < 0.01) }'; }

. "$LAB_TOP/tests/common/rc"
. "$LAB_TOP/tests/simhba/rc"

# The rows, the context and the raw files go to $LAB_OUT.  In a root on
# tmpfs (boot.sh's LAB_GUEST_ROOT) that is the guest's memory until the
# job ends, so no write waits for the host between measurements.
BENCH_DIR=$LAB_OUT
BENCH_ROWS=$BENCH_DIR/${BENCH_ID:-$BENCH_EXP}.rows
: >"$BENCH_ROWS"
: >"$BENCH_DIR/${BENCH_ID:-$BENCH_EXP}.ctx"
_bench_steps=0
_bench_step=0

bench_plan() { _bench_steps=$1; echo "bench: plan $1" >&2; }

bench_step()
{
	_bench_step=$((_bench_step + 1))
	echo "bench: step $_bench_step/$_bench_steps $*" >&2
}

bench_row()
{
	if [ -n "${3:-}" ]; then
		printf '{"config": %s, "metrics": %s, "detail": %s}\n' "$1" "$2" "$3" >>"$BENCH_ROWS"
	else
		printf '{"config": %s, "metrics": %s}\n' "$1" "$2" >>"$BENCH_ROWS"
	fi
}

bench_ctx()
{
	echo "$1=$2" >>"$BENCH_DIR/${BENCH_ID:-$BENCH_EXP}.ctx"
}

# bench_icount: this guest's clock counts instructions (LAB_ACCEL=icount).
bench_icount() { grep -qw 'blk26.accel=icount' /proc/cmdline; }

# bench_keep FILE NAME: keep a raw file (a tool's report, samples) beside
# the results as NAME, in $LAB_OUT with the rows.
bench_keep()
{
	cp "$1" "$BENCH_DIR/$2"
}

bench_note()
{
	printf '{"note": "%s"}\n' "$*" >>"$BENCH_ROWS"
	echo "bench: note: $*" >&2
}

# The I/O schedulers a disk offers (loading every scheduler module first,
# those named foo-iosched and those with that alias, as cfq.ko).
bench_schedulers()
{
	local s

	_sched_modules >/dev/null
	s=$(_schedulers "$1")
	bench_ctx schedulers "$(echo $s)"
	echo "$s"
}

# bench_select DEV SCHED: make SCHED DEV's scheduler, or say in a note that
# it cannot be (and fail).
bench_select()
{
	echo "$2" >/sys/block/"$1"/queue/scheduler 2>/dev/null && return 0
	bench_note "cannot select $2 on $1"
	return 1
}

# bench_configs DEV [EXTRA...]: the configurations an experiment runs on
# DEV, one a line, each an elevator and its tunables as NAME=VALUE ("cfq
# slice_sync=400 low_latency=0"): those BENCH_VARIANTS names (comma
# separated; a note for each whose elevator DEV lacks, and one that the
# others did not run), or else every elevator DEV offers, each followed
# by the EXTRA configurations of that elevator (a note for each of
# anticipatory, cfq and bfq that DEV lacks).
bench_configs()
{
	local dev=$1 offered v e want=()

	shift
	offered=" $(echo $(bench_schedulers "$dev")) "
	if [ -n "${BENCH_VARIANTS:-}" ]; then
		IFS=, read -r -a want <<<"$BENCH_VARIANTS"
		for v in "${want[@]}"; do
			if [[ "$offered" == *" ${v%% *} "* ]]; then
				echo "$v"
			else
				bench_note "BENCH_VARIANTS: elevator ${v%% *} is not available in this kernel"
			fi
		done
		bench_note "BENCH_VARIANTS=$BENCH_VARIANTS: the other configurations did not run"
		return 0
	fi
	# the elevators the goals compare: a row each, or a note
	for v in anticipatory cfq bfq; do
		[[ "$offered" == *" $v "* ]] ||
			bench_note "elevator $v is not available in this kernel: its rows are missing"
	done
	for v in $offered; do
		echo "$v"
		for e in "$@"; do
			[ "${e%% *}" != "$v" ] || echo "$e"
		done
	done
}

# bench_config DEV CONF: a new instance of CONF's elevator on DEV with
# CONF's tunables (bench_configs); fails, with a note, when the elevator
# or a tunable is refused.
bench_config()
{
	local s=${2%% *} t

	# a switch to the running elevator would keep its tunables
	[ "$2" = "$s" ] && ! grep -qF "[$s]" /sys/block/"$1"/queue/scheduler ||
		echo none >/sys/block/"$1"/queue/scheduler
	bench_select "$1" "$s" || return 1
	for t in ${2#"$s"}; do
		[[ "$t" == ?*=* ]] &&
		echo "${t#*=}" >/sys/block/"$1"/queue/iosched/"${t%%=*}" 2>/dev/null && continue
		bench_note "configuration $2: cannot set $t on $1's elevator; its rows are missing"
		return 1
	done
}

# bench_parts: the parts of an experiment with a disk and an overhead part
# to run: BENCH_PART, or both when it is empty; fails on another part.
bench_parts()
{
	case ${BENCH_PART:-} in
	disk | overhead) echo "$BENCH_PART" ;;
	'') echo "disk overhead" ;;
	*) echo "$BENCH_EXP: unknown part '$BENCH_PART' (known: disk, overhead)" >&2
	   return 2 ;;
	esac
}

# bench_within SECS CMD...: run CMD, its output to stdout once it ends;
# status 124 when it has not ended within SECS seconds (it is left running:
# a process waiting for stalled I/O cannot be killed).
bench_within()
{
	local secs=$1 pid i

	shift
	"$@" >"$TEST_TMP/within.out" 2>/dev/null &
	pid=$!
	for ((i = 0; i < secs * 10; i++)); do
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid"
			i=$?
			cat "$TEST_TMP/within.out"
			return $i
		fi
		sleep 0.1
	done
	return 124
}

# bench_stalled DEV SCHED SECS WHAT: WHAT did not end within SECS s under
# SCHED: a note with what the scheduler holds (its debugfs state and stats,
# when it has them) and the disk's in-flight counts.  The caller measures
# nothing more on DEV.
bench_stalled()
{
	local d=/sys/kernel/debug/block/$1/sched what

	what=$(cat "$d/state" "$d/stats" 2>/dev/null | tr '\n"' ' ' | tr -s ' ')
	bench_note "elevator $2: $4 did not end within $3 s (its I/O stalled; the disk is left as it is, nothing more is measured on it): in flight $(tr -s ' ' </sys/block/"$1"/inflight); ${what:-no debugfs state}"
}

# bench_disk PROFILE: set up one simhba LUN of PROFILE (nostore: data is not
# kept, reads return zeros) and print its name; without simhba, fall back to
# the first virtio scratch disk (BENCH_ROOT=9p: the root on tmpfs boots
# without them) and say so.
bench_disk()
{
	local profile=$1 d

	if _have_module simhba >/dev/null &&
	   _simhba_load 1 profile="$profile" nostore=1 >/dev/null; then
		d=$(_simhba_disks | head -n1)
		echo "$d"
		return
	fi
	if d=$(_scratch_name 0 2>/dev/null) && [ -n "$d" ]; then
		bench_note "simhba is not available: measuring the virtio scratch disk instead of $profile"
		echo "$d"
		return
	fi
	bench_note "simhba is not available, and this boot has no virtio scratch disk: $profile not measured"
	return 1
}

# bench_drop_caches [DEV...]: a cold start.  With devices, only their
# cached blocks are written back and dropped (BLKFLSBUF): the programs the
# guest runs stay cached, and need not be read again over the 9p root,
# which on the instruction-counted clock costs an idle guest up to seconds
# of guest time per request (Documentation/block/blk26-lab.rst).  Without,
# every cache of the guest is dropped.
bench_drop_caches()
{
	local d

	sync
	if [ $# -eq 0 ]; then
		echo 3 >/proc/sys/vm/drop_caches
		return
	fi
	for d in "$@"; do
		blockdev --flushbufs /dev/"$d"
	done
}

# fio_mbps FILE JOBNAME read|write: bandwidth in MB/s of the jobs named
# JOBNAME of a fio JSON report (their sum when there are several).
fio_mbps()
{
	bench_parse fio-mbps "$2" "$3" "$1"
}

# fio_total_iops FILE: the read and write IOPS of every job of a fio JSON
# report, summed.
fio_total_iops()
{
	bench_parse fio-iops "$1"
}

# fio_read_p99 ms|us JOBNAME FILE...: the 99th percentile of the read
# completion latency (fio's clat) of the jobs named JOBNAME in the fio
# reports FILE... (written with --output-format=json+), in ms or us, or
# null: fio's latency buckets of all those jobs added up, and fio's own
# rule for a percentile (parsers.py's fio-read-p99).
fio_read_p99()
{
	local unit=$1 job=$2

	shift 2
	bench_parse fio-job-p99 "$job" "$unit" "$@" 2>/dev/null || echo null
}

# fio_lat_fields PREFIX JOBNAME read|write ms|us FILE...: JSON metric
# fields of the completion latency distribution (fio's clat) of the jobs
# named JOBNAME in the fio reports FILE... (written with
# --output-format=json+), direction read or write: PREFIX_p50_ms,
# PREFIX_p90_ms, PREFIX_p99_ms, PREFIX_p999_ms (99.9), PREFIX_max_ms and
# the other points of parsers.py's LAT_PCTS, which draw its CDF; each
# null when not measured.
fio_lat_fields()
{
	local prefix=$1 job=$2 ddir=$3 unit=$4 out

	shift 4
	out=$(bench_parse fio-job-lat "$job" "$ddir" "$unit" "$prefix" "$@" 2>/dev/null) ||
		out=$(bench_parse fio-job-lat "$job" "$ddir" "$unit" "$prefix" /dev/null)
	out=${out#\{}
	printf '%s' "${out%\}}"
}

# Writeback must reach the disk within a measurement, as on the small-memory
# machines of the time: start it at 16 MB of dirty data, throttle at 64 MB.
bench_small_writeback()
{
	echo $((16 << 20)) >/proc/sys/vm/dirty_background_bytes
	echo $((64 << 20)) >/proc/sys/vm/dirty_bytes
}

# bench_reader_writer DEV SECS READER_OFFSET WRITER_OFFSET SIZE [NREADERS
# [NWRITERS [THINK_US]]]: a streaming buffered reader (64 KiB reads;
# NREADERS of them, default 1, SIZE bytes apart from READER_OFFSET on,
# started 1 s apart) against a streaming buffered writer (1 MiB writes;
# NWRITERS of them, default 1, each writing its own SIZE / NWRITERS bytes
# from WRITER_OFFSET on, all started together) for SECS seconds.  With
# THINK_US (> 0) the readers read with O_DIRECT, one read at a time, and
# think THINK_US microseconds after each read: a reader slower than the
# page cache's read-ahead would hide.  Prints JSON
# metric fields: reader_MBps and writer_MBps (what the readers got and
# what the writers wrote into the page cache, each summed), the
# distribution of the readers' read latency and of the writers' write
# latency (fio_lat_fields: reader_p50_ms ... reader_max_ms, writer_p50_ms
# ... writer_max_ms; a buffered write waits for the page cache, and for
# writeback when balance_dirty_pages() throttles it), and disk_read_MBps,
# disk_write_MBps, total_MBps and disk_write_share_pct (what reached the
# disk, and the writes' percentage of it, from its stat file, read twice
# while fio runs: from a tenth of SECS after the last reader started to
# nine tenths, divided by the time that passed between the two
# readings).  fio's own start can take long (its binary may
# come from the host), so the window starts from its first I/O.  Every job
# is measured over the same SECS from the last reader's start (fio's
# ramp_time); started together, bfq would merge the readers' queues (see
# bench_seq_readers).  With BENCH_TRACE_SECS (> 0) the disk is traced
# (bench_trace_start, the schedulers' messages too) from the measured
# window's start, for a second more than that (blktrace's start), and the
# trace is left in $TEST_TMP/bt for bench_trace_stop.
bench_reader_writer()
{
	local dev=$1 secs=$2 roff=$3 woff=$4 size=$5 n=${6:-1} nw=${7:-1}
	local think=${8:-0} r0 w0 r1 w1 rd wr t0 t1 pid i wsize jobs=() rx=()

	[ "$think" -gt 0 ] && rx=(--direct=1 --thinktime="$think")
	for ((i = 0; i < n; i++)); do
		jobs+=(--name=reader --rw=read --bs=64k --ioengine=psync "${rx[@]}"
		       --offset=$((roff + i * size)) --size="$size")
		[ "$n" = 1 ] || jobs+=(--startdelay=$i --ramp_time=$((n - 1 - i)))
	done
	# whole MiB each, so that no writer's 1 MiB writes overlap the next's
	wsize=$((size / nw >> 20 << 20))
	for ((i = 0; i < nw; i++)); do
		jobs+=(--name=writer --rw=write --bs=1M --ioengine=psync
		       --offset=$((woff + i * wsize)) --size="$wsize")
		[ "$n" = 1 ] || jobs+=(--ramp_time=$((n - 1)))
	done
	bench_drop_caches "$dev"
	# --invalidate=0: the cache is dropped just above.  fio's own
	# invalidation of a job's file (BLKFLSBUF) waits in sync_blockdev()
	# for all of the device's writeback, so a reader started after the
	# writer sat there for the whole run and read nothing.
	fio --output-format=json+ --output="$TEST_TMP/rw.json" --invalidate=0 \
	    --time_based --runtime="$secs" --filename=/dev/"$dev" \
	    "${jobs[@]}" >/dev/null 2>&1 &
	pid=$!
	read -r r0 w0 < <(awk '{ print $3 + $7, 0 }' /sys/block/"$dev"/stat)
	while kill -0 "$pid" 2>/dev/null &&
	      [ "$(awk '{ print $3 + $7 }' /sys/block/"$dev"/stat)" = "$r0" ]; do
		sleep 0.02
	done
	sleep "$(awk -v s="$secs" -v n="$n" 'BEGIN { print n - 1 + s / 10 }')"
	# the time and the disk's counters in one reading
	read -r t0 r0 w0 < <(awk 'NR == 1 { t = $1 } NR == 2 { print t, $3, $7 }' \
		/proc/uptime /sys/block/"$dev"/stat)
	if [ "${BENCH_TRACE_SECS:-0}" -gt 0 ]; then
		bench_trace_start "$dev" notify
		sleep "$BENCH_TRACE_SECS"
		bench_trace_end
		# the rest of the window, whatever the tracer took
		sleep "$(awk -v s="$secs" -v t0="$t0" 'NR == 1 {
			r = t0 + s * 8 / 10 - $1; print r > 0 ? r : 0 }' /proc/uptime)"
	else
		sleep "$(awk -v s="$secs" 'BEGIN { print s * 8 / 10 }')"
	fi
	read -r t1 r1 w1 < <(awk 'NR == 1 { t = $1 } NR == 2 { print t, $3, $7 }' \
		/proc/uptime /sys/block/"$dev"/stat)
	# a window that outlasted fio measured its end, not the streams
	kill -0 "$pid" 2>/dev/null || t1=
	wait "$pid" || t1=
	sync
	rd=$(fio_mbps "$TEST_TMP/rw.json" reader read 2>/dev/null || echo null)
	wr=$(fio_mbps "$TEST_TMP/rw.json" writer write 2>/dev/null || echo null)
	printf '%s, ' "$(fio_lat_fields reader reader read ms "$TEST_TMP/rw.json")"
	printf '%s, ' "$(fio_lat_fields writer writer write ms "$TEST_TMP/rw.json")"
	printf '"writer_MBps": %s, ' "$wr"
	if [ -z "$t1" ]; then
		printf '"reader_MBps": %s, "disk_read_MBps": null, ' "$rd"
		printf '"disk_write_MBps": null, "total_MBps": null, '
		printf '"disk_write_share_pct": null'
		return
	fi
	awk -v rd="$rd" -v r0="$r0" -v r1="$r1" -v w0="$w0" -v w1="$w1" \
	    -v t0="$t0" -v t1="$t1" 'BEGIN {
		t = t1 - t0
		r = (r1 - r0) * 512 / 1e6 / t; w = (w1 - w0) * 512 / 1e6 / t
		printf "\"reader_MBps\": %s, \"disk_read_MBps\": %.2f, ", rd, r
		printf "\"disk_write_MBps\": %.2f, \"total_MBps\": %.2f, ", w, r + w
		if (r + w > 0)
			printf "\"disk_write_share_pct\": %.1f", 100 * w / (r + w)
		else
			printf "\"disk_write_share_pct\": null"
	}'
}

# bench_seq_readers DEV SECS N SIZE NAME: N synchronous sequential readers
# (O_DIRECT, 64 KiB, one read at a time), each SIZE bytes from its own
# region (DEV's capacity / N apart), for SECS seconds.  The readers start
# 1 s apart, and all are measured over the same SECS, from the start of the
# last one.  Started together, their processes would share one bfq queue
# (bfq's stable merging of queues created at about the same time; blktrace
# names it bfqSHARED-), which serves the regions alternately and never idles
# for one reader.  Prints JSON metric fields: NAME_MBps, their aggregate
# MB/s, and the distribution of their read latency (fio_lat_fields:
# NAME_p50_ms ... NAME_p99_ms ... NAME_max_ms); each null when not
# measured.  With BENCH_TRACE_SECS (> 0) the disk is traced as in
# bench_reader_writer, from a second after the last reader started.
bench_seq_readers()
{
	local dev=$1 secs=$2 n=$3 size=$4 name=$5 cap i jobs=() mb pid

	cap=$(($(cat /sys/block/"$dev"/size) * 512))
	for ((i = 0; i < n; i++)); do
		jobs+=(--name=seq --offset=$((i * (cap / n))) --startdelay=$i
		       --ramp_time=$((n - 1 - i)))
	done
	fio --output-format=json+ --output="$TEST_TMP/seq.json" \
	    --time_based --runtime="$secs" --filename=/dev/"$dev" \
	    --rw=read --bs=64k --ioengine=psync --direct=1 --size="$size" \
	    --group_reporting "${jobs[@]}" >/dev/null 2>&1 &
	pid=$!
	if [ "${BENCH_TRACE_SECS:-0}" -gt 0 ]; then
		# from a second after the last reader started
		sleep "$n"
		bench_trace_start "$dev" notify
		sleep "$BENCH_TRACE_SECS"
		bench_trace_end
	fi
	wait "$pid"
	mb=$(fio_mbps "$TEST_TMP/seq.json" seq read 2>/dev/null || echo null)
	printf '"%s_MBps": %s, %s' "$name" "$mb" \
		"$(fio_lat_fields "$name" seq read ms "$TEST_TMP/seq.json")"
}

# bench_trace_start DEV [ACTION...]: trace DEV's inserts, dispatches and
# completions (blktrace queue, issue, complete; and the ACTIONs, as
# blktrace's -a names them: notify for the schedulers' messages) into
# $TEST_TMP/bt until bench_trace_stop.
bench_trace_start()
{
	local dev=$1 a acts=(-a queue -a issue -a complete)

	shift
	rm -rf "$TEST_TMP/bt"
	mkdir -p "$TEST_TMP/bt"
	for a in "$@"; do
		acts+=(-a "$a")
		# read in bench_trace_stop, which a subshell may not share
		[ "$a" != notify ] || : >"$TEST_TMP/bt/.notify"
	done
	blktrace -d /dev/"$dev" "${acts[@]}" -D "$TEST_TMP/bt" \
		>"$TEST_TMP/bt.log" 2>&1 &
	# in a file: the shell that ends the trace may be another subshell
	echo $! >"$TEST_TMP/bt/.pid"
	sleep 1
}

# bench_trace_end: stop tracing, and wait until blktrace has written its
# files (bench_trace_stop reads the trace later, when reading it no longer
# takes the guest's CPU from a measurement).  Any shell may end it: the
# tracer need not be its child.
bench_trace_end()
{
	local pid i

	read -r pid 2>/dev/null <"$TEST_TMP/bt/.pid" || return 0
	rm -f "$TEST_TMP/bt/.pid"
	kill -INT "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 600; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
}

# bench_trace_stop DEV [FORMAT]: end the trace; print blkparse's lines
# "SECONDS ACTION PID SECTOR" (parsers.py blk-time, blk-wait; or FORMAT,
# blkparse's -f without its time, which leads every line: "%a %p %C %S %n
# %d" adds the command, the sectors and the RWBS flags), the messages traced (notify)
# as blkparse prints them, and "dropped N", the events blktrace says it
# dropped ("dropped ?" when it did not say).  The messages are read from
# the trace's files (parsers.py blktrace_messages()): blkparse 1.2 skips
# those that carry a cgroup id, as every message of a queue in a cgroup
# (the root one too) does here; the message lines of a blkparse that
# prints them are left out.
bench_trace_stop()
{
	local n

	bench_trace_end
	blkparse -q -D "$TEST_TMP/bt" -i "$1" -f "%T.%9t ${2:-%a %p %S}\n" 2>/dev/null |
		awk '$6 != "m" && $7 != "m"'
	[ ! -e "$TEST_TMP/bt/.notify" ] ||
		python3 - "$TEST_TMP/bt/$1".blktrace.* <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ['LAB_TOP'], 'scripts', 'lab'))
from parsers import blktrace_messages
data = []
for f in sys.argv[1:]:
    try:
        data.append(open(f, 'rb').read())
    except OSError:
        pass
for line in blktrace_messages(data):
    print(line)
PY
	n=$(awk '/Total:.* events \(dropped [0-9]/ {
		sub(/.*\(dropped /, ""); d += $1; f = 1 } END { if (f) print d }' \
		"$TEST_TMP/bt.log")
	echo "dropped ${n:-?}"
}

# bench_size DEFAULT MIN: DEFAULT x BENCH_SCALE, an integer, at least MIN.
bench_size()
{
	awk -v d="$1" -v m="$2" -v s="$BENCH_SCALE" \
		'BEGIN { v = int(d * s + 0.5); print (v < m ? m : v) }'
}

# bench_parse KIND [ARG...] FILE...: the host's parser of the files' text
# (scripts/lab/parsers.py; KIND: vmstat, readprofile, time, pgbench,
# pgbench-script-tps, sg-window, blk-time, fio-read-p99, fio-job-p99,
# fio-iops, fio-mbps, fio-deadlines, startup), as JSON.  The guest reads it from the host's tree.
bench_parse()
{
	python3 "$LAB_TOP/scripts/lab/parsers.py" "$@"
}

# System-wide counters, for deltas: "ctxt intr user nice sys idle iowait
# irq softirq" (jiffies for the CPU times).
bench_stat()
{
	awk '$1 == "ctxt" { c = $2 } $1 == "intr" { i = $2 }
	     $1 == "cpu" { u = $2; n = $3; s = $4; id = $5; w = $6; q = $7; sq = $8 }
	     END { print c, i, u, n, s, id, w, q, sq }' /proc/stat
}

# bench_rate_delta "BEFORE" "AFTER" SECONDS: JSON fields cs, cs_per_s and
# in_per_s over the interval; a rate over no measured time is null (not
# measured).
bench_rate_delta()
{
	awk -v a="$1" -v b="$2" -v t="$3" '
	function rate(n) { return t > 0 ? sprintf("%.1f", n / t) : "null" }
	BEGIN {
		split(a, x); split(b, y)
		printf "\"cs\": %d, \"cs_per_s\": %s, \"in_per_s\": %s", y[1] - x[1], rate(y[1] - x[1]), rate(y[2] - x[2])
	}'
}

# bench_stat_delta "BEFORE" "AFTER" SECONDS: bench_rate_delta's fields, then
# cpu_pct (busy), us_pct and sy_pct over the interval: shares of the CPU
# ticks that passed, null when none did (an interval shorter than a tick).
bench_stat_delta()
{
	bench_rate_delta "$@"
	awk -v a="$1" -v b="$2" '
	function pct(n) { return tot > 0 ? sprintf("%.1f", 100 * n / tot) : "null" }
	BEGIN {
		split(a, x); split(b, y)
		tot = 0
		for (i = 3; i <= 9; i++) tot += y[i] - x[i]
		printf ", \"cpu_pct\": %s, ", pct(tot - (y[6] - x[6]) - (y[7] - x[7]))
		printf "\"us_pct\": %s, \"sy_pct\": %s", pct(y[3] - x[3] + y[4] - x[4]), pct(y[5] - x[5] + y[8] - x[8] + y[9] - x[9])
	}'
}

# Wall clock in seconds with nanoseconds.
bench_now() { date +%s.%N; }

# bench_ioc_setup SETUP: "ELEVATOR GROUPS" of one of seed 002's setups (and
# the extra bfq ones), GROUPS 1 for one cgroup per reader; nothing for an
# unknown setup.
bench_ioc_setup()
{
	case $1 in
	base) echo mq-deadline 0 ;;
	"ioc off") echo cfq 0 ;;
	"ioc no idle" | "ioc idle") echo cfq 1 ;;
	bfq) echo bfq 0 ;;
	"bfq groups" | "bfq groups slice_idle=0") echo bfq 1 ;;
	esac
}

# bench_io_groups: enable the cgroup v2 io controller for child groups;
# fails when it is not available.
bench_io_groups()
{
	local cg=/sys/fs/cgroup

	[ -f $cg/cgroup.controllers ] && grep -qw io $cg/cgroup.controllers &&
		echo +io >$cg/cgroup.subtree_control 2>/dev/null
}

# bench_ioc_random DEV SECS NLIST CONFIG SETUP...: seed 002's measurement.
# Per setup and per N of NLIST ("2 4 8"), N random readers of DEV (O_DIRECT,
# 64 KiB, psync, each its own process, region and --randseed) for SECS
# seconds; one row per measurement, its config CONFIG (JSON members ending
# with a comma, or empty) plus N, setup and elevator, its metric MBps (the
# sum of the readers' bandwidth).  Setups (bench_ioc_setup): base
# (mq-deadline), "ioc off" (cfq, no groups), "ioc no idle" (cfq, a cgroup
# per reader, group_idle=0), "ioc idle" (cfq, a cgroup per reader, default
# idling), bfq, "bfq groups", "bfq groups slice_idle=0".  A setup whose
# scheduler or cgroups the kernel lacks is a note, never a row.  Takes one
# bench_step per setup and N.
bench_ioc_random()
{
	local dev=$1 secs=$2 nlist=$3 config=$4 setup sched groups n i pids
	local cg=/sys/fs/cgroup grp size sum iosched

	shift 4
	size=$(($(cat /sys/block/"$dev"/size) * 512))
	iosched=/sys/block/$dev/queue/iosched
	for setup in "$@"; do
		read -r sched groups < <(bench_ioc_setup "$setup")
		for n in $nlist; do
			bench_step "$setup ($sched): $n random readers (${secs} s)"
			if [ "$groups" = 1 ] && ! bench_io_groups; then
				bench_note "cgroup v2 io controller not available: no $setup column"
				continue
			fi
			bench_select "$dev" "$sched" || continue
			case $setup in
			"ioc no idle") echo 0 >$iosched/group_idle ;;
			"ioc idle") echo 8 >$iosched/group_idle ;;
			"bfq groups slice_idle=0") echo 0 >$iosched/slice_idle ;;
			esac
			case $sched in
			cfq | bfq) [ "$setup" = "bfq groups slice_idle=0" ] ||
				echo 8 >$iosched/slice_idle ;;
			esac
			[ "$sched" != cfq ] || [ "$setup" = "ioc no idle" ] ||
				echo 8 >$iosched/group_idle
			pids=()
			for i in $(seq 1 "$n"); do
				grp=
				if [ "$groups" = 1 ]; then
					grp=$cg/bench-r$i
					mkdir -p "$grp"
				fi
				(
					[ -z "$grp" ] || echo $BASHPID >"$grp/cgroup.procs"
					exec fio --output-format=json --output="$TEST_TMP/r$i.json" \
					    --time_based --runtime="$secs" --filename=/dev/"$dev" \
					    --name=r --rw=randread --bs=64k --direct=1 \
					    --ioengine=psync --norandommap --randseed="$i" \
					    --offset=$(((i - 1) * (size / n))) --size=$((size / n)) \
					    >/dev/null 2>&1
				) &
				pids+=($!)
			done
			wait "${pids[@]}"
			sum=$(bench_parse fio-mbps r read \
				$(seq -f "$TEST_TMP/r%g.json" 1 "$n"))
			[ -n "$sum" ] || sum=null
			bench_row "{$config\"N\": $n, \"setup\": \"$setup\", \"elevator\": \"$sched\"}" "{\"MBps\": $sum}"
		done
	done
	rmdir $cg/bench-r* 2>/dev/null
	return 0
}

# bench_nullblk [QUEUES [POLL]]: load null_blk with one device that
# completes at once (4 GiB, queue depth per queue of the default, QUEUES
# submit queues, default 2: a hardware context each, and POLL poll queues,
# default null_blk's) and print its name; fails when null_blk is not
# available.
bench_nullblk()
{
	modprobe null_blk nr_devices=1 queue_mode=2 gb=4 irqmode=0 \
		completion_nsec=0 submit_queues="${1:-2}" \
		${2:+poll_queues="$2"} >/dev/null 2>&1 &&
		[ -b /dev/nullb0 ] && echo nullb0
}

# bench_nullblk_turns NB SECS METRIC WHAT CONFIG SCHED...: BENCH_RUNS rows of
# METRIC (null_blk 4 KiB random reads, NB_JOBS jobs (default 4) at QD 8,
# kIOPS; with NB_PIN=1 job i runs on CPU i only) per scheduler, each row's config CONFIG (JSON members ending with a comma, or
# empty) plus the elevator.  Each run is cut into slices of about 2 s that
# rotate through the schedulers, so that slow drifts of the host hit them
# all alike; a scheduler's row is the mean of its slices.  Each row also
# has the 99th percentile of the read latency over all its slices, in us
# (fio_read_p99), named as METRIC with _p99_us for _kiops.  WHAT names the
# clock in the progress lines.
bench_nullblk_turns()
{
	local nb=$1 secs=$2 metric=$3 what=$4 config=$5 nslices slice run i s
	local p99=${3%_kiops}_p99_us kiops jobs=${NB_JOBS:-4} pin=()
	local -A sum

	shift 5
	[ "${NB_PIN:-0}" = 0 ] ||
		pin=(--cpus_allowed=0-$((jobs - 1)) --cpus_allowed_policy=split)
	nslices=$((secs / 2 > 0 ? secs / 2 : 1))
	slice=$((secs / nslices))
	for run in $(seq 1 "$BENCH_RUNS"); do
		sum=()
		rm -f "$TEST_TMP"/nb-*.json
		for ((i = 1; i <= nslices; i++)); do
			for s in "$@"; do
				[ "$i" = 1 ] && bench_step "elevator=$s run $run: null_blk 4 KiB random reads, $what ($nslices x ${slice} s, in turns)"
				echo "$s" >/sys/block/"$nb"/queue/scheduler 2>/dev/null || continue
				fio --output-format=json+ --output="$TEST_TMP/nb-$s-$i.json" \
				    --time_based --runtime="$slice" --filename=/dev/"$nb" \
				    --name=nb --rw=randread --bs=4k --direct=1 --ioengine=libaio \
				    --iodepth=8 --numjobs="$jobs" "${pin[@]}" \
				    --norandommap --group_reporting \
				    >/dev/null 2>&1
				sum[$s]="${sum[$s]:-} $(fio_total_iops "$TEST_TMP/nb-$s-$i.json" 2>/dev/null || echo x)"
			done
		done
		for s in "$@"; do
			if ! grep -qw -- "$s" /sys/block/"$nb"/queue/scheduler; then
				bench_note "cannot select $s on null_blk"
				continue
			fi
			kiops=$(awk -v l="${sum[$s]:-}" 'BEGIN {
				n = split(l, v); t = 0
				for (i = 1; i <= n; i++) { if (v[i] == "x") { print "null"; exit } t += v[i] }
				if (n) printf "%.2f", t / n / 1000; else print "null" }')
			bench_row "{$config\"elevator\": \"$s\"}" \
				"{\"$metric\": $kiops, \"$p99\": $(fio_read_p99 us nb "$TEST_TMP/nb-$s-"[0-9]*.json)}"
		done
	done
}
