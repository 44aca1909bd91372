# SPDX-License-Identifier: GPL-2.0
"""What each elevator does with the disk behind the overview's headlines:
a blktrace window of the streaming reader beside a buffered writer and of
two sequential readers, per elevator, summarised (latency per stage,
seeks, merges, the schedulers' decisions by kind) and drawn as dispatch
order over time.

The guest side is traces.sh, next to this file."""

import statistics

from experiment import Experiment
from parsers import TRACE_PCTS
from report import lat_table, render, table

WORKLOADS = ('reader+writer', '2 readers')
# the per-stage latencies of a trace's summary: (prefix, tag, what)
STAGES = [('%s_%s' % (st, d), '', '%s %s' % (st.upper(), d))
          for d in ('read', 'write') for st in ('q2d', 'd2c', 'q2c')]


def messages(r):
    """{kind: the median over the runs of the messages of that kind} of a
    row's traces (a run without a kind counted 0)."""
    runs = [d.get('messages') or {} for d in r.get('details') or []]
    out = {}
    for k in sorted({k for m in runs for k in m}):
        out[k] = statistics.median(m.get(k, 0) for m in runs)
    return out


def messages_table(agg):
    """The schedulers' decisions in the traced windows, by kind: a line
    per kind and workload, a column per elevator that sent any ('-':
    none of that kind)."""
    elev = []
    for r in agg:
        if messages(r) and r['config'].get('elevator') not in elev:
            elev.append(r['config'].get('elevator'))
    if not elev:
        return ['no scheduler message in the traces']
    lines = []
    for w in WORKLOADS:
        rows = {r['config'].get('elevator'): messages(r) for r in agg
                if r['config'].get('workload') == w}
        for k in sorted({k for m in rows.values() for k in m}):
            lines.append([w, k] + [str(rows.get(e, {}).get(k, '-'))
                                   for e in elev])
    return render(['workload', 'decision (blktrace message)'] + elev,
                  lines, 2)


def fmt_traces(exp, agg, notes, ctx):
    text = [table(exp, agg, [])]
    for w in WORKLOADS:
        rows = [r for r in agg if r['config'].get('workload') == w]
        if rows:
            text += ['', '%s: time per stage in the traced window (ms; '
                     'Q queued, D dispatched, C completed)' % w]
            text += lat_table(rows, 'elevator', STAGES, pcts=TRACE_PCTS)
    text += ['', "the schedulers' decisions in the traced windows (the "
             'median count of the runs):']
    text += messages_table(agg)
    return '\n'.join(text)


EXPERIMENT = Experiment(
    'traces',
    'blktrace windows behind the overview, every elevator on a simhba '
    'sata-7200 disk: a streaming reader beside a buffered writer, and 2 '
    'sequential readers; stage latencies, seeks, decisions, dispatch '
    'order',
    [('trace_read_MBps', 'traced reads MB/s'),
     ('trace_write_MBps', 'traced writes MB/s'),
     ('seeks', 'seeks'),
     ('seek_p50_GiB', 'seek p50 GiB'),
     ('merges', 'merges'),
     ('q2c_read_p99_ms', 'read Q2C p99 ms'),
     ('early_write', 'writes queued before')],
    baseline=('elevator', 'mq-deadline'), minutes=10, formatter=fmt_traces)
