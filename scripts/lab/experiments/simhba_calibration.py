# SPDX-License-Identifier: GPL-2.0
"""simhba's profiles measured against the model: sequential MB/s in the
outer and inner zone, 4 KiB random IOPS at QD1 and QD32, and whether
each is within CAL_TOLERANCE of what the model expects.

The guest side is simhba-calibration.sh, next to this file."""

from experiment import Experiment
from stats import median_of


# the simhba model's figures are good within this fraction
CAL_TOLERANCE = 0.10


def goals(e, agg):
    """Each profile's figures within CAL_TOLERANCE of the model's."""
    out = []
    for r in agg:
        for k, what in (('seq_outer', 'sequential, outer zone'),
                        ('seq_inner', 'sequential, inner zone'),
                        ('rand_qd1', 'random QD1'),
                        ('rand_qd32', 'random QD32')):
            x = median_of(r, k + '_ratio')
            if x is None:
                continue
            out.append('%s %s: %.3f of expected, %s' % (
                r['config'].get('profile'), what, x,
                'within 10%' if abs(x - 1) <= CAL_TOLERANCE else
                'outside 10%'))
    return out


EXPERIMENT = Experiment(
    'simhba-calibration',
    'simhba profiles: sequential MB/s (outer, inner zone) and '
    '4 KiB random IOPS (QD1, QD32) against the model',
    [('seq_outer_MBps', 'outer MB/s'),
     ('seq_outer_expected', 'expected'),
     ('seq_outer_ratio', 'ratio'),
     ('seq_inner_MBps', 'inner MB/s'),
     ('seq_inner_expected', 'expected'),
     ('seq_inner_ratio', 'ratio'),
     ('rand_qd1_iops', 'QD1 IOPS'),
     ('rand_qd1_expected', 'expected'),
     ('rand_qd1_ratio', 'ratio'),
     ('rand_qd32_iops', 'QD32 IOPS'),
     ('rand_qd32_expected', 'expected'),
     ('rand_qd32_ratio', 'ratio')],
    minutes=5,
    goals=goals)
