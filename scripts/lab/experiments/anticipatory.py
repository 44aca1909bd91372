# SPDX-License-Identifier: GPL-2.0
"""Issue 4: the anticipatory scheduler against mq-deadline, bfq, kyber and
none: its goals, met or not, and each workload's read latency p99.

The guest side is anticipatory.sh, next to this file."""

from experiment import Effect, Experiment, Part, goal_effects
from report import fmt, render
from stats import at_least, median_of, ratios, verdict


ANTIC_GOALS = [
    ('reader_MBps', 5.0, 'reader MB/s with a streaming writer >= 5x mq-deadline'),
    ('total_MBps', 1.0, 'total MB/s with a streaming writer >= mq-deadline'),
    ('seq2_MBps', 3.0, '2 sequential readers >= 3x mq-deadline'),
    ('seq4_MBps', 3.0, '4 sequential readers >= 3x mq-deadline'),
    ('oltp_iops', 0.97, 'seeky OLTP-like mix >= 0.97x mq-deadline'),
    ('nullblk_kiops', 0.9, 'null_blk 4 KiB random-read IOPS >= 0.9x mq-deadline'
     ' (icount)'),
]


ANTIC_WALL = ('  (null_blk by the wall clock, noisy under TCG: not the '
              'goal)')


def antic_goals(exp, agg):
    """Issue 4's goals: [(goal, verdict)] from this run's medians, or
    None when anticipatory did not run.  The wall-clock null_blk line
    (ANTIC_WALL) is information, not a goal."""
    rat = ratios(agg, exp.baseline)
    idx = [i for i, r in enumerate(agg)
           if r['config'].get('elevator') == 'anticipatory']
    if not idx:
        return None
    i = idx[0]
    out = []
    for m, want, what in ANTIC_GOALS:
        x = rat.get((i, m))
        out.append((what, 'no data' if x is None else verdict(x, want)))
    wall = rat.get((i, 'nullblk_wall_kiops'))
    out.append((ANTIC_WALL, 'no data' if wall is None else '%.2fx' % wall))
    bfq = [j for j, r in enumerate(agg) if r['config'].get('elevator') == 'bfq']
    for m in ('seq2_MBps', 'seq4_MBps'):
        a, b = median_of(agg[i], m), (median_of(agg[bfq[0]], m)
                                      if bfq else None)
        out.append(('%s >= bfq' % m.replace('_MBps', ' readers'),
                    at_least(a, b)))
    return out


# each workload's throughput and the read latency p99 beside it: (label,
# throughput metric, p99 metric or None, p99 unit)
ANTIC_WORKLOADS = [
    ('reader with a writer, MB/s', 'reader_MBps', 'reader_p99_ms', 'ms'),
    ('reader and writer together, MB/s', 'total_MBps', None, ''),
    ('2 sequential readers, MB/s', 'seq2_MBps', 'seq2_p99_ms', 'ms'),
    ('4 sequential readers, MB/s', 'seq4_MBps', 'seq4_p99_ms', 'ms'),
    ('OLTP-like mix, IOPS', 'oltp_iops', 'oltp_p99_ms', 'ms'),
    ('null_blk, kIOPS (icount)', 'nullblk_kiops', 'nullblk_p99_us', 'us'),
    ('null_blk, kIOPS (wall clock)', 'nullblk_wall_kiops',
     'nullblk_wall_p99_us', 'us'),
]


def antic_latency(agg):
    """Each workload's median throughput with the median of its read
    latency p99 beside it, one column per elevator; 'missing' for a value
    not measured.  A workload no elevator measured has no line."""
    def one(v, unit=''):
        return 'missing' if v is None else fmt(v) + unit
    lines = []
    for what, m, p, unit in ANTIC_WORKLOADS:
        if not any(m in r['metrics'] or p in r['metrics'] for r in agg):
            continue
        if p is None:
            lines.append([what] + [one(median_of(r, m)) for r in agg])
            continue
        lines.append([what] + ['%s, p99 %s' % (
            one(median_of(r, m)), one(median_of(r, p), ' ' + unit))
            for r in agg])
    if not lines:
        return []
    return (['each workload: median throughput, and p99: the median over '
             'the runs of the 99th percentile of the read latency (fio):'] +
            render(['workload'] + [str(r['config'].get('elevator'))
                                   for r in agg], lines))


def fmt_anticipatory(exp, agg, notes, ctx):
    """Issue 4's goals, met or not, from this run's medians, and each
    workload's throughput with its read latency p99."""
    goals = antic_goals(exp, agg)
    text = ['goals of the anticipatory scheduler (ratios to mq-deadline '
            'measured in this run):']
    if goals is None:
        text.append('  anticipatory did not run: no goal can be checked')
    else:
        for what, v in goals:
            text.append('  %-60s %s' % (what, v))
    lat = antic_latency(agg)
    if lat:
        text += [''] + lat
    return '\n'.join(text)


def goals(e, agg):
    """Issue 4's goals, without the wall-clock null_blk line."""
    out = antic_goals(e, agg)
    if out is None:
        return ['anticipatory did not run: no goal can be checked']
    return ['%s: %s' % (w.strip(), v) for w, v in out if w != ANTIC_WALL]


def effects(e, agg):
    """Issue 4's goals for the summary, one line each."""
    out = antic_goals(e, agg)
    if out is None:
        return [Effect("issue 4's goals", '', 'missing', 'missing',
                       'anticipatory did not run (see its notes)',
                       'issue 4')]
    return goal_effects([g for g in out if g[0] != ANTIC_WALL], '4')


EXPERIMENT = Experiment(
    'anticipatory',
    'issue 4: anticipatory vs mq-deadline, bfq, kyber, none on '
    'sata-7200, and null_blk overhead (icount clock)',
    [('reader_MBps', 'reader MB/s'),
     ('reader_p99_ms', 'reader p99 ms'),
     ('total_MBps', 'total MB/s'),
     ('seq2_MBps', '2 seq MB/s'), ('seq2_p99_ms', '2 seq p99 ms'),
     ('seq4_MBps', '4 seq MB/s'), ('seq4_p99_ms', '4 seq p99 ms'),
     ('oltp_iops', 'OLTP IOPS'), ('oltp_p99_ms', 'OLTP p99 ms'),
     ('nullblk_kiops', 'null kIOPS'),
     ('nullblk_p99_us', 'null p99 us'),
     ('nullblk_wall_kiops', 'null wall kIOPS'),
     ('nullblk_wall_p99_us', 'null wall p99 us')],
    baseline=('elevator', 'mq-deadline'),
    # The disk part on one vCPU, which boot.sh records on the counted
    # clock: two runs then give the same figures to the last digit
    # (on two vCPUs they parted from the first row; blk26-lab.rst, "The
    # same run twice").  The null_blk part keeps two: what it measures
    # includes the scheduler's lock taken from two CPUs.
    parts=[Part('disk', 6, cpus=1), Part('overhead', 4, accel='icount')],
    cpus=2,
    formatter=fmt_anticipatory,
    goals=goals, effects=effects,
    # the numbers fmt_anticipatory and goals write, no value of a run
    # (republish.py: every number on the results page has a source)
    constants=(('2 4', 'the sequential readers of issue 4\'s workloads '
                '(anticipatory.sh: seq2, seq4)'),))
