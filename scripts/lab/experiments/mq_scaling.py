# SPDX-License-Identifier: GPL-2.0
"""Every elevator on a 4-queue null_blk disk in a 4-vCPU guest: 4 KiB
random reads from 1, 2 and 4 CPUs, IOPS on the instruction-counted clock,
and how they grow with the CPUs.

The guest side is mq-scaling.sh, next to this file."""

from experiment import Experiment, Part
from report import cell, render
from stats import median_of

CPUS = (1, 2, 4)


def scaling_table(agg):
    """kIOPS per elevator at 1, 2 and 4 CPUs, the ratio of 4 CPUs to 1,
    and each elevator's kIOPS as a ratio to mq-deadline's at 4 CPUs."""
    elev = []
    for r in agg:
        if r['config'].get('elevator') not in elev:
            elev.append(r['config'].get('elevator'))

    def kiops(e, n):
        v = [median_of(r, 'kiops') for r in agg
             if r['config'].get('elevator') == e and
             r['config'].get('cpus') == n]
        return v[0] if v else None
    base = kiops('mq-deadline', 4)
    lines = []
    for e in elev:
        k = [kiops(e, n) for n in CPUS]
        grow = k[2] / k[0] if k[0] and k[2] is not None else None
        lines.append([e] + [cell(x) for x in k] +
                     [cell(grow, '%.2fx'),
                      cell(k[2] / base if base and k[2] is not None
                           else None, '%.2fx')])
    text = render(['elevator'] + ['%d CPU%s' % (n, 's'[:n > 1])
                                  for n in CPUS] +
                  ['4 / 1 CPU', 'x mq-deadline at 4'], lines, 1)
    text.append('kIOPS of 4 KiB random reads on null_blk (4 hardware '
                'contexts), QD 8 per CPU, instruction-counted clock: the '
                'median of the runs.  The vCPUs share one instruction '
                'counter, so the guest\'s instructions per request set '
                'the IOPS whatever the CPU count: 4 / 1 CPU is 1.00 '
                'without contention, and below it by the instructions the '
                'extra CPUs spend waiting (a spinning lock, a shared '
                'queue) and by what the deeper total queue (8 per CPU) '
                'costs; "missing": not measured')
    return text


def fmt_mq_scaling(exp, agg, notes, ctx):
    return '\n'.join(scaling_table(agg))


EXPERIMENT = Experiment(
    'mq-scaling',
    'every elevator on a 4-queue null_blk disk, 4 vCPUs: 4 KiB random '
    'reads from 1, 2 and 4 CPUs (icount clock)',
    [('kiops', 'kIOPS'), ('kiops_p99_us', 'p99 us')],
    baseline=('elevator', 'mq-deadline'), minutes=10,
    parts=[Part(None, 10, accel='icount')], cpus=4,
    formatter=fmt_mq_scaling,
    # the numbers fmt_mq_scaling writes, no value of a run (republish.py:
    # every number on the results page has a source)
    constants=(('1 2 4', 'the CPU counts submitting (mq-scaling.sh)'),
               ('8', 'the queue depth per CPU, 8 (mq-scaling.sh)'),
               ('1.00', 'the baseline\'s ratio to itself, and 4 / 1 CPU '
                'without contention')))
