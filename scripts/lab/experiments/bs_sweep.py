# SPDX-License-Identifier: GPL-2.0
"""Seed 003: sequential reads through sg_dd and O_DIRECT dd at 1K..64K
transfers, real/user/sys and cs/s per size as the seed printed them.

The guest side is bs-sweep.sh, next to this file."""

from experiment import Experiment, NO_9P, ratio_effect
from parsers import fmt_time
from report import fmt
from seeds import SEED_003, SEED_003_CS_PER_S
from stats import config_median, median_of


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


def seed_table():
    """Seed 003's own real/user/sys per transfer size and device."""
    text = []
    for dev, sizes in SEED_003.items():
        text.append('%s, sgp_dd (the same amount of data at every size):'
                    % dev)
        text.append('\t%-11s %-10s %-10s' % ('real', 'user', 'sys'))
        for kb, t in sorted(sizes.items()):
            text.append('%dK\t%-11.3f %-10.3f %-10.3f' % ((kb,) + t))
        text.append('context switches/s: %s' % ', '.join(
            '%dK ~%d' % kv for kv in sorted(SEED_003_CS_PER_S[dev].items())))
        text.append('')
    return '\n'.join(text)


# the seed's devices -> the lab's (simhba has no mirror: a raid0 of 2)
SEED_003_DEVICE = {'u320 disk': 'u320-10k', 'hw mirror': 'array-raid0x2'}


def seed_003_figures(sdev):
    """The seed's figures per device, each [(what, metric, small size, its
    figure, large size, its figure)]: system and elapsed time of 1K
    transfers against 64K, and context switches a second against the
    largest size it quotes them for."""
    t = SEED_003[sdev]
    small, big = min(t), max(t)
    cs = SEED_003_CS_PER_S[sdev]
    return [('system time', 'sys_s', small, t[small][2], big, t[big][2]),
            ('elapsed time', 'real_s', small, t[small][0], big, t[big][0]),
            ('context switches a second', 'cs_per_s', min(cs), cs[min(cs)],
             max(cs), cs[max(cs)])]


def effects(e, agg):
    """Seed 003's effects per device, through sg: system time, elapsed
    time and context switches a second of 1K transfers against the
    largest size the seed gives each for."""
    out = []
    for sdev, dev in SEED_003_DEVICE.items():
        rows = [r for r in agg if r['config'].get('device') == dev and
                r['config'].get('path') == 'sg']
        for what, m, small, fs, big, fb in seed_003_figures(sdev):
            out.append(ratio_effect(
                'sequential reads through sg, %s (seed: %s): %s of %dK '
                'transfers against %dK' % (dev, sdev, what, small, big),
                fs / fb, config_median(rows, 'size_kb', small, m),
                config_median(rows, 'size_kb', big, m), rows, m,
                missing='the %dK or %dK %s not measured'
                % (small, big, what)))
    return out


EXPERIMENT = Experiment(
    'bs-sweep',
    'seed 003: sequential reads through sg_dd and O_DIRECT dd, '
    '1K..64K transfers, u320-10k disk and an array LUN',
    [('real_s', 'real s'), ('user_s', 'user s'),
     ('sys_s', 'sys s'), ('cs_per_s', 'cs/s'), ('MBps', 'MB/s')],
    minutes=8, formatter=fmt_bs_sweep, no_icount_9p=NO_9P, seed='003',
    seed_table=seed_table, effects=effects,
    # the numbers fmt_bs_sweep and effects write, no value of a run
    # (republish.py: every number on the results page has a source)
    constants=(('1 2 4 8 16 32 64', 'the transfer sizes swept, 1K to 64K '
                '(bs-sweep.sh, the seed\'s)'),
               ('320 10 0 2', 'the devices: the u320-10k profile (the '
                'seed\'s u320 disk) and array-raid0x2 (its hw mirror)')))
