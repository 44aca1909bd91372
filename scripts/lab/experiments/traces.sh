# SPDX-License-Identifier: GPL-2.0
# traces: what each elevator does with the disk behind the overview's
# headlines, seen in a blktrace of a fixed window.  On one simhba
# sata-7200 disk, per elevator the kernel offers:
#   reader+writer  the overview's streaming buffered reader against a
#                  streaming buffered writer (bench_reader_writer)
#   2 readers      two synchronous (O_DIRECT) sequential readers of
#                  distant regions, started 1 s apart (bench_seq_readers)
# Each runs SECS seconds (10 x BENCH_SCALE, at least 6); the trace starts
# with the measured window (a second after the last reader started, for
# the 2 readers) and lasts TRACE seconds (2, 1 at the smoke size) plus the
# second blktrace takes to start.  A row per workload and elevator: the
# workload's own metrics (as in the overview: the tracer's load is in
# them, so they are not the overview's numbers), and the trace's summary
# (parsers.py trace_summary(): the window's read and write MB/s,
# dispatches, seeks and their distances, merges, the queue-to-dispatch,
# dispatch-to-completion and queue-to-completion times per direction, the
# events blktrace dropped) with the dispatches (time, sector, the process
# that queued the request) and the schedulers' decisions counted by kind
# in the row's detail.  The first run's trace itself is kept beside the
# results, gzipped: traces-WORKLOAD-ELEVATOR.txt.gz, the lines the
# summary read but the merges (see _traced).
# At the smoke size (BENCH_SCALE below 0.01, as lab/007 runs it) only
# anticipatory and cfq run, for 4 s each with 1 s traced: the two
# schedulers whose messages the summary reads.

PROGRAMS="blktrace blkparse gzip"

secs=$(awk -v s="$BENCH_SCALE" 'BEGIN { t = int(10 * s); print (t < 6 ? 6 : t) }')
trace=2
if bench_smoke; then
	secs=4
	trace=1
fi
if ! command -v blktrace >/dev/null || ! command -v blkparse >/dev/null; then
	bench_note "blktrace is not installed: no traces"
	exit 0
fi
# read the tools before anything is measured (a wait for a program on the
# host's root is a jump of the instruction-counted clock)
{ blktrace -V; blkparse -V; gzip -V; } >/dev/null 2>&1
dev=$(bench_disk sata-7200) || exit 0
scheds=$(bench_schedulers "$dev")
if bench_smoke; then
	scheds=$(tr ' ' '\n' <<<"$scheds" | grep -xE 'anticipatory|cfq' | tr '\n' ' ')
	bench_note "smallest size: only anticipatory and cfq"
fi
size=$(($(cat /sys/block/"$dev"/size) * 512))
region=$((size / 4))
bench_plan $(($(echo $scheds | wc -w) * BENCH_RUNS * 2))
bench_small_writeback

# _traced WORKLOAD ELEVATOR METRICS RUN: the row of a traced workload (its
# metrics and the trace's summary), and the first run's trace kept.  The
# summary reads the requests' queue, merge, dispatch and completion
# events and anticipatory's and cfq's messages (bfq's many messages, and
# the events the summary does not read, would make the trace several
# times larger); the kept trace is the same without the merges.
_traced()
{
	local name=traces-${1// /-}-$2

	bench_trace_stop "$dev" '%a %p %C %S %n %d' |
		awk '$2 ~ /^[QMFDC]$/ || $1 == "dropped" ||
		     ($6 == "m" && ($8 == "as" || $8 ~ /^cfq[0-9]/))' \
		>"$TEST_TMP/trace.txt"
	if ! bench_parse trace-summary "$TEST_TMP/trace.txt" >"$TEST_TMP/trace.json" \
			2>"$TEST_TMP/trace.err"; then
		bench_note "elevator $2, $1: the trace has no event ($(head -c 200 "$TEST_TMP/trace.err"))"
		bench_row "{\"workload\": \"$1\", \"elevator\": \"$2\"}" "{$3}"
		return
	fi
	if [ "$4" = 1 ]; then
		# without the merges, which the summary counts: a buffered
		# writer's 4 KiB bios make most of a trace's lines
		awk '$2 != "M" && $2 != "F"' "$TEST_TMP/trace.txt" |
			gzip -n -9 >"$TEST_TMP/trace.txt.gz"
		bench_keep "$TEST_TMP/trace.txt.gz" "$name.txt.gz"
	fi
	# the summary in a file: a few hundred KiB would pass no argument
	python3 - "$1" "$2" "{$3}" "$TEST_TMP/trace.json" >>"$BENCH_ROWS" <<'PY'
import json, sys
wl, elev, m = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
with open(sys.argv[4]) as fh:
    s = json.load(fh)
m.update(s['metrics'])
print(json.dumps({'config': {'workload': wl, 'elevator': elev},
                  'metrics': m, 'detail': s['detail']}))
for d in ('read', 'write'):
    if s['metrics'].get('d2c_%s_max_ms' % d) is None:
        print(json.dumps({'note': 'elevator %s, %s: no %s completed in the '
                          'traced window' % (elev, wl, d)}))
    if s['metrics'].get('q2d_%s_max_ms' % d) is None:
        print(json.dumps({'note': 'elevator %s, %s: no %s both queued and '
                          'dispatched in the traced window' % (elev, wl, d)}))
    if s['metrics'].get('q2c_%s_max_ms' % d) is None:
        print(json.dumps({'note': 'elevator %s, %s: no %s both queued and '
                          'completed in the traced window' % (elev, wl, d)}))
if not s['metrics'].get('seeks'):
    print(json.dumps({'note': 'elevator %s, %s: no seek in the traced '
                      'window' % (elev, wl)}))
PY
}

for run in $(seq 1 "$BENCH_RUNS"); do
	for s in $scheds; do
		bench_select "$dev" "$s" || continue
		bench_step "elevator=$s run $run: reader + buffered writer (${secs} s, ${trace} s traced)"
		if ! m=$(BENCH_TRACE_SECS=$trace bench_within $((3 * secs + 60)) \
				bench_reader_writer "$dev" "$secs" 0 $((2 * region)) $region); then
			bench_trace_end
			bench_stalled "$dev" "$s" $((3 * secs + 60)) \
				"reader + buffered writer"
			break 2
		fi
		_traced reader+writer "$s" "$m" "$run"
		bench_step "elevator=$s run $run: 2 sequential readers (${secs} s, ${trace} s traced)"
		bench_drop_caches "$dev"
		m=$(BENCH_TRACE_SECS=$trace bench_seq_readers "$dev" "$secs" 2 \
			$region two_readers)
		_traced "2 readers" "$s" "$m" "$run"
	done
done
