# SPDX-License-Identifier: GPL-2.0
"""Seed 002: N random readers on a striped simhba LUN under each I/O
control setup, in the seed's table, and issue 13's goal 1 per N.

The guest side is ioc-random.sh, next to this file."""

from experiment import Experiment, ratio_effect
from report import goal_lines, render
from seeds import SEED_002, SEED_002_SETUPS, seed_002
from stats import config_median, median_of, verdict


IOC_SETUPS = SEED_002_SETUPS


# issue 13's goal 1: the "ioc idle" column >= 0.9x base with the same N
IOC_GOAL = ('ioc idle', 0.9)


def ioc_goals(agg):
    """Issue 13's goal 1 per N that ran: [(what, verdict)], the verdict
    from the ratio of this run's medians (verdict()), with seed 002's
    ratio beside it; 'missing' when either column was not measured."""
    setup, want = IOC_GOAL
    ns = []
    for r in agg:
        n = r['config'].get('N')
        if n is not None and n not in ns:
            ns.append(n)
    out = []
    for n in ns:
        def med(su):
            v = [median_of(r, 'MBps') for r in agg
                 if r['config'].get('N') == n and
                 r['config'].get('setup') == su]
            return v[0] if v else None
        a, b = med(setup), med('base')
        what = 'N=%s: %s >= %gx base' % (n, setup, want)
        sb, si = seed_002(n, 'base'), seed_002(n, setup)
        if sb and si is not None:
            what += ' (seed 002: %.2fx)' % (si / sb)
        if a is None or not b:
            out.append((what, 'missing (%s not measured)' %
                        (setup if a is None else 'base')))
        else:
            out.append((what, verdict(a / b, want)))
    return out


def ioc_table(agg):
    """Seed 002's table: Mode RdWr N, then one column per setup (the
    seed's, then any other the rows have), the median sum of MB/s."""
    setups = list(IOC_SETUPS)
    for r in agg:
        s = r['config'].get('setup')
        if s not in setups:
            setups.append(s)
    ns = []
    for r in agg:
        if r['config'].get('N') not in ns:
            ns.append(r['config'].get('N'))
    lines = []
    for n in ns:
        cells = ['rnd', 'rd', str(n)]
        for s in setups:
            v = [median_of(r, 'MBps') for r in agg
                 if r['config'].get('N') == n and r['config'].get('setup') == s]
            cells.append('%.1f' % v[0] if v and v[0] is not None
                         else 'missing')
        lines.append(cells)
    text = render(['Mode', 'RdWr', 'N'] + setups, lines, 2)
    text.append('MB/s, sum over the N readers; "missing": not measured in '
                'this run (see the notes; never estimated)')
    return text


def fmt_ioc_random(exp, agg, notes, ctx):
    """Seed 002's table, then issue 13's goal, met or not, per N."""
    text = ioc_table(agg)
    text.append('')
    text += goal_lines('goal of issue 13 (cfq), ratio to base with the same '
                       'N measured in this run:', ioc_goals(agg))
    return '\n'.join(text)


def goals(e, agg):
    """Issue 13's goal 1 per N."""
    return ['%s: %s' % g for g in ioc_goals(agg)]


def seed_table():
    """Seed 002's own table."""
    return '\n'.join(render(
        ['Mode', 'RdWr', 'N'] + SEED_002_SETUPS,
        [['rnd', 'rd', str(n)] + ['%.1f' % v for v in SEED_002[n]]
         for n in sorted(SEED_002)], 2) +
        ['MB/s, sum over the N readers; MSA1000 striped LUN, 2.6'])


# why the seed's effect is not expected here
IOC_WHY_NOT = ('issue 13 sets the lab\'s cfq the goal ioc idle >= 0.9x base '
               'on this LUN: the seed\'s loss is what it is built to avoid')


# the setup of 6.12's own group scheduler that idles per group as 2.6's
# cfq groups did: the seed's effect, looked for where it can still be
BFQ_GROUPS = 'bfq groups'
BFQ_WHY_NOT = ("bfq's idling per group did not cost this LUN throughput")


def effects(e, agg):
    """Seed 002's effect per N: "ioc idle" against "base" (the lab's cfq,
    built to avoid it), then "bfq groups" against "base" (6.12's bfq,
    which idles per group)."""
    setup = IOC_GOAL[0]
    out = []
    for su, why_not in ((setup, IOC_WHY_NOT), (BFQ_GROUPS, BFQ_WHY_NOT)):
        for n in sorted(SEED_002):
            rows = [r for r in agg if r['config'].get('N') == n]
            out.append(ratio_effect(
                'N=%d random readers, striped LUN: %s against base%s'
                % (n, su, '' if su == setup else
                   " (seed: 2.6's ioc idle)"),
                seed_002(n, setup) / seed_002(n, 'base'),
                config_median(rows, 'setup', su, 'MBps'),
                config_median(rows, 'setup', 'base', 'MBps'), rows, 'MBps',
                why_not, '%s or base not measured' % su))
    return out


EXPERIMENT = Experiment(
    'ioc-random',
    'seed 002: N=2,4,8 random readers on a 4-member striped '
    'simhba LUN; base / ioc off / ioc no idle / ioc idle (cfq), '
    'and bfq with and without groups',
    [('MBps', 'MB/s')], baseline=('setup', 'base'), minutes=4,
    formatter=fmt_ioc_random,
    goals=goals, seed='002', seed_table=seed_table, effects=effects,
    # the numbers fmt_ioc_random, effects and seed_table write, no value
    # of a run (republish.py: every number on the results page has a
    # source)
    constants=(('2 4 8', 'the seed\'s reader counts N (ioc-random.sh)'),
               ('1000 2.6 32', 'the seed\'s array and kernel: MSA1000, '
                '2.6.32-rc')))
