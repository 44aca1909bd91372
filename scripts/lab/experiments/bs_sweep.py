# SPDX-License-Identifier: GPL-2.0
"""Seed 003: sequential reads through sg_dd and O_DIRECT dd at 1K..64K
transfers, real/user/sys and cs/s per size as the seed printed them.

The guest side is bs-sweep.sh, next to this file."""

from experiment import Experiment, NO_9P
from parsers import fmt_time
from report import fmt
from stats import median_of


def fmt_bs_sweep(exp, agg, notes, ctx):
    """Seed 003: per device and path, real/user/sys and cs/s per size."""
    text = []
    seen = []
    for r in agg:
        k = (r['config'].get('device'), r['config'].get('path'))
        if k not in seen:
            seen.append(k)
    for dev, path in seen:
        rows = [r for r in agg if r['config'].get('device') == dev and
                r['config'].get('path') == path]
        text.append('%s, %s (%s MB per size):' % (dev, path,
                                                  ctx.get('mb', '?')))
        text.append('\t%-11s %-10s %-10s %8s %8s' % ('real', 'user', 'sys',
                                                     'cs/s', 'MB/s'))
        for r in rows:
            def t(m):
                v = median_of(r, m)
                return fmt_time(v) if v is not None else '-'
            text.append('%sK\t%-11s %-10s %-10s %8s %8s' % (
                r['config'].get('size_kb'), t('real_s'), t('user_s'),
                t('sys_s'), fmt(median_of(r, 'cs_per_s')),
                fmt(median_of(r, 'MBps'))))
        text.append('')
    return '\n'.join(text)


EXPERIMENT = Experiment(
    'bs-sweep',
    'seed 003: sequential reads through sg_dd and O_DIRECT dd, '
    '1K..64K transfers, u320-10k disk and an array LUN',
    [('real_s', 'real s'), ('user_s', 'user s'),
     ('sys_s', 'sys s'), ('cs_per_s', 'cs/s'), ('MBps', 'MB/s')],
    minutes=8, formatter=fmt_bs_sweep, no_icount=NO_9P)
