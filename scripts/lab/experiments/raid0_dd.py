# SPDX-License-Identifier: GPL-2.0
"""Seed 004: dd bs=1024k to md raid0 over 4 simhba LUNs per kernel
configuration, in the seed's table, and good or bad against the first.

The guest side is raid0-dd.sh, next to this file."""

import statistics

from experiment import Experiment
from stats import good_bad


def fmt_raid0(exp, agg, notes, ctx):
    """Seed 004: one column per kernel configuration, the runs, the
    average, the % change against the first column, good or bad."""
    cols = [r for r in agg if 'MBps' in r['runs']]
    if not cols:
        return 'no kernel configuration could run'
    names = [str(r['config'].get('kernel', '?')) for r in cols]
    nrun = max(len(r['runs']['MBps']) for r in cols)
    lines = [['revision'] + names]
    for i in range(nrun):
        lines.append([''] + ['%.1f' % r['runs']['MBps'][i]
                             if i < len(r['runs']['MBps']) else '-'
                             for r in cols])
    avgs = [statistics.mean(r['runs']['MBps']) for r in cols]
    lines.append(['MB/s (avg)'] + ['%.1f' % a for a in avgs])
    lines.append(['% change'] + ['%.0f%%' % (100 * (a / avgs[0] - 1))
                                 for a in avgs])
    res = ['base'] + [good_bad(cols[0]['runs']['MBps'], r['runs']['MBps'])
                      for r in cols[1:]]
    lines.append(['result'] + res)
    widths = [max(len(line[j]) for line in lines) for j in range(len(lines[0]))]
    text = ['  '.join(c.ljust(w) for c, w in zip(line, widths)).rstrip()
            for line in lines]
    base = cols[0]['runs']['MBps']
    low = sum(1 for r in base if r < 0.8 * statistics.median(base))
    if low:
        text.append('noise: %d of the %d base runs are themselves below 0.8x '
                    'the base median' % (low, len(base)))
    text.append('')
    text.append('dd if=/dev/zero of=/dev/md0 bs=1024k count=%s, md raid0 '
                'over 4 simhba u320-10k LUNs; bad: a run below 0.8x the '
                'base median' % ctx.get('count', '?'))
    return '\n'.join(text)


def goals(e, agg):
    """Seed 004's good or bad of each kernel configuration against the
    first."""
    cols = [r for r in agg if r.get('runs', {}).get('MBps')]
    if not cols:
        return ['no kernel configuration could run']
    base = cols[0]['runs']['MBps']
    name = cols[0]['config'].get('kernel', '?')
    if len(cols) == 1:
        return ['only %s ran: no kernel configuration to compare with '
                'it (KERNELS=a,b)' % name]
    return ['%s: %s (bad: a run below 0.8x the %s median)'
            % (r['config'].get('kernel', '?'),
               good_bad(base, r['runs']['MBps']), name)
            for r in cols[1:]]


EXPERIMENT = Experiment(
    'raid0-dd',
    'seed 004: dd bs=1024k to md raid0 over 4 simhba LUNs, five '
    'runs per kernel configuration (KERNELS=a,b)',
    [('MBps', 'MB/s')], minutes=6, kernels=True,
    formatter=fmt_raid0,
    goals=goals)
