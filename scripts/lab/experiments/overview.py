# SPDX-License-Identifier: GPL-2.0
"""Every elevator on a simhba sata-7200 disk: a streaming reader against a
buffered writer, and 2 sequential readers (the generic table only), and
where anticipatory and cfq stand against the baseline a distribution's
user has: mq-deadline with writeback throttling (wbt).

The guest side is overview.sh, next to this file."""

from experiment import Experiment, goal_effects
from report import table
from stats import median_of, verdict

# the goals of the Debian-shaped kernel: (elevator, metric, ratio to
# mq-deadline at least, what)
BASELINE_GOALS = [
    (s, m, want, what % s)
    for s in ('anticipatory', 'cfq')
    for m, want, what in (
        ('reader_MBps', 2.0, '%s reader with a buffered writer >= 2x '
         'mq-deadline'),
        ('total_MBps', 0.95, '%s disk total with a buffered writer >= '
         '0.95x mq-deadline'))]


def baseline_goals(agg):
    """[(what, verdict)] per kernel configuration that ran (the rows'
    kernel key, when KERNELS= named several): each goal of
    BASELINE_GOALS from this run's medians.  The line names whether
    mq-deadline ran with wbt (its rows' wbt_lat_usec, which the JSON and
    CSV keep)."""
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
        base = ('mq-deadline' if wbt is None else
                'mq-deadline with wbt' if wbt else 'mq-deadline without wbt')
        for s, m, want, what in BASELINE_GOALS:
            a, b = med(s, m), med('mq-deadline', m)
            what = what.replace('mq-deadline', base)
            if k:
                what = '%s: %s' % (k, what)
            if a is None or not b:
                out.append((what, 'no data (%s not measured)' %
                            (s if a is None else 'mq-deadline')))
            else:
                out.append((what, verdict(a / b, want)))
    return out


def fmt_overview(exp, agg, notes, ctx):
    """The measurements (the generic table), then the goals against the
    baseline users have, met or not."""
    goals = baseline_goals(agg)
    width = max([len(w) for w, _ in goals] + [60])
    return '\n'.join(
        [table(exp, agg, []), '',
         'goals against the baseline users have (ratios to mq-deadline '
         'measured in this run, on the same kernel):'] +
        ['  %-*s %s' % (width, w, v) for w, v in goals])


def goals(e, agg):
    return ['%s: %s' % g for g in baseline_goals(agg)]


def effects(e, agg):
    return goal_effects(baseline_goals(agg), '31')


EXPERIMENT = Experiment(
    'overview',
    'every elevator on a simhba sata-7200 disk: streaming reader '
    'vs buffered writer, and 2 sequential readers',
    [('reader_MBps', 'reader MB/s'),
     ('disk_write_MBps', 'writer MB/s'),
     ('two_readers_MBps', '2 readers MB/s')],
    baseline=('elevator', 'mq-deadline'), minutes=15, kernels=True,
    formatter=fmt_overview, goals=goals, effects=effects)
