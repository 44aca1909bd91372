# SPDX-License-Identifier: GPL-2.0
"""Every elevator on a simhba sata-7200 disk: a streaming reader against one
and against four buffered writers, a reader thinking 20 ms between reads
against one, and 2 sequential readers (the generic
table only); where anticipatory and cfq stand against the baseline a
distribution's user has, mq-deadline with writeback throttling (wbt), and
against bfq on the reader/writer trade.

The guest side is overview.sh, next to this file."""

from experiment import Experiment, goal_effects
from report import fmt, lat_table, render, table
from stats import median_of, verdict

# the goals, per issue: (elevator, metric, ratio at least, baseline
# elevator, what).  The ratio is elevator's metric over the baseline's, in
# this run, on the same kernel.
BASELINE_GOALS = {
    # the Debian-shaped kernel: against the baseline users have
    '31': [(s, m, want, 'mq-deadline', what % s)
           for s in ('anticipatory', 'cfq')
           for m, want, what in (
               ('reader_MBps', 2.0, '%s reader with a buffered writer >= '
                '2x mq-deadline'),
               ('total_MBps', 0.95, '%s disk total with a buffered writer '
                '>= 0.95x mq-deadline'))],
    # the reader/writer Pareto front beside buffered writers
    '34': [
        ('cfq', 'reader_MBps', 1.0, 'bfq',
         'cfq reader with a buffered writer >= bfq'),
        ('cfq', 'disk_write_MBps', 1.0, 'bfq',
         'cfq writer beside a reader >= bfq'),
        ('anticipatory', 'reader_MBps', 1.0, 'bfq',
         'anticipatory reader with a buffered writer >= bfq'),
        ('anticipatory', 'disk_write_MBps', 0.35, 'mq-deadline',
         'anticipatory writer beside a reader >= 0.35x mq-deadline'),
        ('cfq', 'reader_4w_MBps', 0.8, 'bfq',
         'cfq reader with 4 buffered writers >= 0.8x bfq')] +
    [(s, 'total_slow_MBps', 0.95, 'mq-deadline',
      '%s disk total, a reader thinking 20 ms beside a buffered writer, '
      '>= 0.95x mq-deadline' % s) for s in ('anticipatory', 'cfq')],
}


def baseline_goals(agg, issues=None):
    """[(what, verdict)] per kernel configuration that ran (the rows'
    kernel key, when KERNELS= named several): each goal of
    BASELINE_GOALS (of the issues named, default all) from this run's
    medians.  A line against mq-deadline names whether it ran with wbt
    (its rows' wbt_lat_usec, which the JSON and CSV keep)."""
    kernels = []
    for r in agg:
        if r['config'].get('kernel') not in kernels:
            kernels.append(r['config'].get('kernel'))
    out = []
    for k in kernels:
        def med(e, m):
            v = [median_of(r, m) for r in agg
                 if r['config'].get('elevator') == e and
                 r['config'].get('kernel') == k]
            return v[0] if v else None
        wbt = med('mq-deadline', 'wbt_lat_usec')
        dl = ('mq-deadline' if wbt is None else
              'mq-deadline with wbt' if wbt else 'mq-deadline without wbt')
        for issue in sorted(BASELINE_GOALS):
            if issues is not None and issue not in issues:
                continue
            for s, m, want, base, what in BASELINE_GOALS[issue]:
                a, b = med(s, m), med(base, m)
                what = what.replace('mq-deadline', dl)
                if k:
                    what = '%s: %s' % (k, what)
                if a is None or not b:
                    out.append((what, 'no data (%s not measured)' %
                                (s if a is None else base)))
                else:
                    out.append((what, verdict(a / b, want)))
    return out


# the latency distributions the overview shows: (metric prefix, the
# workload's tag in the metric's name, what)
LATENCIES = [
    ('reader', '', 'read, beside 1 writer'),
    ('writer', '', 'write, 1 writer'),
    ('reader', '4w', 'read, beside 4 writers'),
    ('writer', '4w', 'write, 4 writers'),
    ('reader', 'slow', 'read, slow reader')]


def fmt_overview(exp, agg, notes, ctx):
    """The measurements (the generic table), the writers' share of the
    disk and the latency distributions, then the goals against the
    baseline users have, met or not."""
    goals = baseline_goals(agg)
    width = max([len(w) for w, _ in goals] + [60])
    share = render(
        ['elevator', 'writes % of disk, 1 writer', '4 writers',
         'slow reader'],
        [[str(r['config'].get('elevator'))] +
         [fmt(median_of(r, m)) for m in (
             'disk_write_share_pct', 'disk_write_share_4w_pct',
             'disk_write_share_slow_pct')] for r in agg])
    return '\n'.join(
        [table(exp, agg, []), ''] + share + [''] +
        lat_table(agg, 'elevator', LATENCIES) + ['',
         'goals (ratios to the baseline named, measured in this run, on '
         'the same kernel):'] +
        ['  %-*s %s' % (width, w, v) for w, v in goals])


def goals(e, agg):
    return ['%s: %s' % g for g in baseline_goals(agg)]


def effects(e, agg):
    return [x for issue in sorted(BASELINE_GOALS)
            for x in goal_effects(baseline_goals(agg, [issue]), issue)]


EXPERIMENT = Experiment(
    'overview',
    'every elevator on a simhba sata-7200 disk: streaming reader '
    'vs 1 and 4 buffered writers, a slow (thinking) reader vs a buffered '
    'writer, and 2 sequential readers',
    [('reader_MBps', 'reader MB/s'),
     ('disk_write_MBps', 'writer MB/s'),
     ('reader_4w_MBps', 'reader, 4 writers MB/s'),
     ('disk_write_4w_MBps', '4 writers MB/s'),
     ('reader_slow_MBps', 'slow reader MB/s'),
     ('total_slow_MBps', 'total, slow reader MB/s'),
     ('two_readers_MBps', '2 readers MB/s')],
    baseline=('elevator', 'mq-deadline'), minutes=15, kernels=True,
    formatter=fmt_overview, goals=goals, effects=effects,
    # the numbers fmt_overview and goals write, no value of a run
    # (republish.py: every number on the results page has a source)
    constants=(('1 2 4', 'the readers and writers of overview.sh\'s '
                'workloads: 1 and 4 buffered writers, 2 readers'),
               ('20', 'the slow reader\'s think time, 20 ms '
                '(overview.sh), in issue 4\'s goals'),
               ('1.00', 'the baseline\'s ratio to itself')))
