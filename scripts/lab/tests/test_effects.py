# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the seed effects and goals the results page's summary
reads (experiments/NAME.py: effects, seed_table; experiment.py, stats.py)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import stats  # noqa: E402
from experiment import Goal, goal_effects, ratio_effect  # noqa: E402
from experiments import bs_sweep, dbt2, ioc_random, raid0_dd, \
    sg_segments  # noqa: E402


class EffectTest(unittest.TestCase):
    def test_direction_beyond_the_spread(self):
        d = stats.direction
        self.assertEqual(d(1.13, 1.05, 1.05), 'not reproduced')
        self.assertEqual(d(1.13, 1.0501, 1.05), 'reproduced')
        self.assertEqual(d(1.13, 0.9, 1.0), 'not reproduced')
        self.assertEqual(d(0.5, 1 / 1.05, 1.05), 'not reproduced')
        self.assertEqual(d(0.5, 0.95, 1.05), 'reproduced')
        self.assertEqual(d(0.5, 1.0, 1.0), 'not reproduced')
        self.assertEqual(d(0.5, None), 'missing')

    def test_noise_is_the_largest_spread(self):
        agg = [{'config': {'a': 1}, 'metrics': {}, 'runs': {'m': [2, 3]}},
               {'config': {'a': 2}, 'metrics': {}, 'runs': {'m': [4, 5]}}]
        self.assertEqual(stats.noise(agg, 'm'), 1.5)
        self.assertEqual(stats.noise(agg, 'other'), 1.0)

    def test_ratio_effect(self):
        rows = [{'config': {}, 'metrics': {}, 'runs': {'m': [10, 11]}}]
        x = ratio_effect('w', 0.5, 9.5, 10.0, rows, 'm', 'because')
        self.assertEqual((x.seed, x.measured, x.result),
                         ('0.50x', '0.95x', 'not reproduced'))
        self.assertIn('max/min 1.100); because', x.why)
        x = ratio_effect('w', 0.5, 9.0, 10.0, rows, 'm', 'because')
        self.assertEqual((x.measured, x.result), ('0.90x', 'reproduced'))
        x = ratio_effect('w', 0.5, 9.5, 10.0, [], 'm', 'because')
        self.assertEqual(x.result, 'reproduced')
        self.assertNotIn('because', x.why)
        # printed with the decimals that show its side of the spread
        x = ratio_effect('w', 2.0, 1.1004, 1.0, rows, 'm')
        self.assertEqual((x.measured, x.result), ('1.1004x', 'reproduced'))
        x = ratio_effect('w', 2.0, None, 1.0, rows, 'm', missing='gone')
        self.assertEqual((x.measured, x.result, x.why),
                         ('missing', 'missing',
                          'gone in this run (see its notes)'))

    def test_goal_results(self):
        got = goal_effects([('a', '1.23x met'), ('b', '0.998x NOT met'),
                            ('c', 'no data'), ('d', 'missing (x)'),
                            ('e', '3/3 served, max 1 ms vs 2 ms met')], '13')
        self.assertEqual([(x.measured, x.result, x.source) for x in got],
                         [('1.23x', 'met', 'issue 13'),
                          ('0.998x', 'not met', 'issue 13'),
                          ('missing', 'missing', 'issue 13'),
                          ('missing', 'missing', 'issue 13'),
                          ('3/3 served, max 1 ms vs 2 ms', 'met',
                           'issue 13')])
        self.assertEqual(got[0].why, 'goal of issue 13, from the medians '
                         'of this run')
        # a goal judged on another basis says which, and is still a pair
        g = Goal('f', '3/3 served (worst of 3 runs) met',
                 "the worst of this run's 3 runs")
        self.assertEqual(dict([g]), {'f': '3/3 served (worst of 3 runs) met'})
        x = goal_effects([g], '13')[0]
        self.assertEqual((x.measured, x.result, x.why),
                         ('3/3 served (worst of 3 runs)', 'met',
                          "goal of issue 13, from the worst of this run's 3 "
                          'runs'))

    def test_raid0_later_kernels_against_the_base(self):
        agg = [{'config': {'kernel': 'base'}, 'metrics': {},
                'runs': {'MBps': [100, 100, 60]}},
               {'config': {'kernel': 'full'}, 'metrics': {},
                'runs': {'MBps': [100, 79, 81]}}]
        x = raid0_dd.effects(raid0_dd.EXPERIMENT, agg)[0]
        self.assertEqual((x.measured, x.result),
                         ('1 of 3 runs (full bad)', 'reproduced'))
        agg[1]['runs']['MBps'][1] = 80
        x = raid0_dd.effects(raid0_dd.EXPERIMENT, agg)[0]
        self.assertEqual((x.measured, x.result),
                         ('0 of 3 runs (full good)', 'not reproduced'))
        self.assertIn('bisected its slow runs to 54a6eb5c', x.why)
        # one kernel configuration cannot show a difference between kernels
        x = raid0_dd.effects(raid0_dd.EXPERIMENT, agg[1:])[0]
        self.assertEqual(x.result, 'missing')
        # ... and a second one would not show the seed's either
        self.assertIn('bisected its slow runs to 54a6eb5c', x.why)
        x = raid0_dd.effects(raid0_dd.EXPERIMENT, [])[0]
        self.assertEqual((x.measured, x.result), ('missing', 'missing'))

    def test_dbt2_bouncing_with_a_64_bit_mask(self):
        def row(bits, runs, e='mq-deadline'):
            return {'config': {'table': 'stp', 'elevator': e,
                               'dma_bits': bits},
                    'metrics': {'bounce_bytes': {
                        'median': sorted(runs)[len(runs) // 2]}},
                    'runs': {'bounce_bytes': runs}}
        # another elevator first, with another spread: not the one judged
        other = row(32, [10e6, 40e6, 90e6], 'anticipatory')
        # the seed's bound: 2 x 6387 ticks of 89420, rounded up
        self.assertEqual(dbt2.seed_bounce_x(), 0.15)
        x = dbt2.bounce_effect([other, row(32, [70e6, 71e6, 75e6]),
                                row(64, [0, 0, 0])])
        self.assertEqual((x.seed, x.measured, x.result),
                         ('at most 0.15x', '0.00x', 'reproduced'))
        self.assertIn('max/min 1.071', x.why)
        self.assertIn("deadline pair still bounced with the patch (1.02x)",
                      x.why)
        # 64 bits bouncing as much as 32 is not the seed's effect
        x = dbt2.bounce_effect([other, row(32, [70e6, 71e6, 75e6]),
                                row(64, [60e6, 70e6, 72e6])])
        self.assertEqual((x.measured, x.result),
                         ('0.99x', 'not reproduced'))
        # a ratio inside the spread of either width is not either: 0.90x
        # against 64 bits' own spread, 1.2 (32 bits' alone is 1.071)
        x = dbt2.bounce_effect([other, row(32, [70e6, 71e6, 75e6]),
                                row(64, [58e6, 63.9e6, 69.6e6])])
        self.assertEqual((x.measured, x.result),
                         ('0.90x', 'not reproduced'))
        self.assertIn('max/min 1.200', x.why)
        # nothing bounced at 32 bits: measured, but no ratio
        x = dbt2.bounce_effect([other, row(32, [0, 0, 0]),
                                row(64, [0, 0, 0])])
        self.assertEqual((x.measured, x.result),
                         ('no ratio (0 / 0)', 'not reproduced'))
        # no 64-bit run: missing, not 0
        x = dbt2.bounce_effect([other, row(32, [70e6, 71e6, 75e6])])
        self.assertEqual((x.measured, x.result), ('missing', 'missing'))
        self.assertNotIn('firmware', x.why)

    def test_dbt2_goal_names_the_wall_clocks_spread(self):
        def row(e, runs):
            return {'config': {'table': 'stp', 'elevator': e,
                               'dma_bits': 32},
                    'metrics': {'notpm': {
                        'median': sorted(runs)[len(runs) // 2]}},
                    'runs': {'notpm': runs}}
        agg = [row('mq-deadline', [500.0, 600.0, 700.0]),
               row('cfq', [300.0, 450.0, 660.0])]
        x = goal_effects([dbt2.dbt2_goal(agg)], '13')[0]
        self.assertEqual((x.measured, x.result), ('0.75x', 'not met'))
        self.assertIn('NOTPM runs moved by up to 2.20x', x.why)
        # one run: no spread to name
        agg = [row('mq-deadline', [600.0]), row('cfq', [620.0])]
        x = goal_effects([dbt2.dbt2_goal(agg)], '13')[0]
        self.assertEqual(x.why, 'goal of issue 13, from the medians of this '
                         'run')

    def test_ioc_random_looks_for_the_collapse_in_bfq_groups(self):
        def row(n, setup, runs):
            return {'config': {'N': n, 'setup': setup},
                    'metrics': {'MBps': {'median': sorted(runs)[1]}},
                    'runs': {'MBps': runs}}
        agg = [row(n, s, [v, v, v * 1.01]) for n in (2, 4, 8)
               for s, v in (('base', 12.0), ('ioc idle', 12.0))]
        agg += [row(2, 'bfq groups', [7.0, 7.2, 7.4]),
                row(4, 'bfq groups', [11.0, 11.5, 11.9])]
        got = {x.what: x for x in ioc_random.effects(None, agg)}
        self.assertEqual(len(got), 6)
        x = got["N=2 random readers, striped LUN: bfq groups against base "
                "(seed: 2.6's ioc idle)"]
        self.assertEqual((x.seed, x.measured, x.result),
                         ('0.53x', '0.60x', 'reproduced'))
        # a loss inside the runs' spread is not the seed's collapse
        x = got["N=4 random readers, striped LUN: bfq groups against base "
                "(seed: 2.6's ioc idle)"]
        self.assertEqual((x.measured, x.result), ('0.96x', 'not reproduced'))
        self.assertIn("bfq's idling per group", x.why)
        x = got["N=8 random readers, striped LUN: bfq groups against base "
                "(seed: 2.6's ioc idle)"]
        self.assertEqual((x.measured, x.result), ('missing', 'missing'))
        self.assertIn('bfq groups or base not measured', x.why)
        # the lab's cfq is still judged against the same seed figure
        x = got['N=8 random readers, striped LUN: ioc idle against base']
        self.assertEqual((x.seed, x.measured, x.result),
                         ('0.19x', '1.00x', 'not reproduced'))

    def test_bs_sweep_judges_time_and_switches(self):
        # each metric its own spread: real 1.5, sys 1.1, cs/s 1.2
        spread = {'real_s': 1.5, 'sys_s': 1.1, 'cs_per_s': 1.2}

        def row(dev, kb, path, real, sys_s, cs):
            m = {'real_s': real, 'sys_s': sys_s, 'cs_per_s': cs}
            return {'config': {'device': dev, 'path': path, 'size_kb': kb},
                    'metrics': {k: {'median': v} for k, v in m.items()},
                    'runs': {k: [v, v * spread[k]] for k, v in m.items()}}
        agg = [row('u320-10k', 1, 'sg', 0.39, 0.39, 36000),
               row('u320-10k', 64, 'sg', 0.30, 0.02, 36000),
               # dio rows are not the seed's sg path
               row('u320-10k', 1, 'dio', 9.0, 9.0, 9e5),
               row('array-raid0x2', 1, 'sg', 0.40, 0.39, 36000),
               row('array-raid0x2', 32, 'sg', 0.12, 0.02, 12000)]
        got = [(x.what.split('): ', 1)[1], x.seed, x.measured, x.result)
               for x in bs_sweep.effects(None, agg)]
        self.assertEqual(got, [
            ('system time of 1K transfers against 64K', '23.93x',
             '19.50x', 'reproduced'),
            # inside real time's own spread (1.5), not sys time's (1.1)
            ('elapsed time of 1K transfers against 64K', '6.81x', '1.30x',
             'not reproduced'),
            ('context switches a second of 1K transfers against 64K',
             '9.36x', '1.00x', 'not reproduced'),
            # the array ran no 64K: missing, whatever ran at 32K
            ('system time of 1K transfers against 64K', '35.69x',
             'missing', 'missing'),
            ('elapsed time of 1K transfers against 64K', '5.54x',
             'missing', 'missing'),
            ('context switches a second of 1K transfers against 64K',
             '11.62x', 'missing', 'missing')])
        agg[4]['config']['size_kb'] = 64
        got = [(x.measured, x.result)
               for x in bs_sweep.effects(None, agg)][3:]
        self.assertEqual(got, [('19.50x', 'reproduced'),
                               ('3.33x', 'reproduced'),
                               ('3.00x', 'reproduced')])

    def test_sg_segments_vmstat_samples_keep_iowait(self):
        # 6.12's vmstat splits iowait (wa) out of id; the seed's 2.5 one
        # counted it as idle: the sample rows must show it
        r = {'config': {'sg_segments': 32, 'max_sectors': 512},
             'metrics': {}, 'runs': {},
             'details': [{'vmstat': [{'bi': 387891, 'in': 2846, 'cs': 2981,
                                      'us': 4, 'sy': 11, 'id': 0,
                                      'wa': 85}]}]}
        t = sg_segments.fmt_sg_segments(None, [r], [], {})
        self.assertIn('     bi     in      cs  us  sy  id  wa', t)
        self.assertIn('387891   2846    2981   4  11   0  85', t)
        self.assertIn('wa (iowait) is counted in id', t)

    def test_sg_segments_why_names_the_links(self):
        def row(seg, busy):
            m = {'MBps': {'median': 392.0}}
            if busy is not None:
                m['link_busy_pct'] = {'median': busy}
            return {'config': {'sg_segments': seg}, 'metrics': m,
                    'runs': {'MBps': [392.0, 393.0]}}
        x = sg_segments.effects(None, [row(32, 98.6), row(64, 98.7)])[0]
        self.assertIn('81-100 %', x.why)
        self.assertIn('here the links to the host were 98.6 % (32) and '
                      '98.7 % (64) busy', x.why)
        # not measured: no figure made up for it
        x = sg_segments.effects(None, [row(32, None), row(64, 98.7)])[0]
        self.assertNotIn('here the links to the host', x.why)

    def test_seed_tables_are_the_seeds(self):
        t = dbt2.seed_table()
        for v in ('1313', '1304', '1143', '1175', '9582.1'):
            self.assertIn(v, t)
        t = ioc_random.seed_table()
        self.assertRegex(t, r'rnd +rd +8 +37.1 +37.1 +6.8 +7.1')
        t = bs_sweep.seed_table()
        self.assertIn('64K     16.873      0.057      0.430', t.expandtabs())
        t = raid0_dd.seed_table()
        self.assertIn('result      base          bad       bad', t)
        # the averages as the seed printed them, in whole MB/s
        self.assertRegex(t, r'MB/s \(avg\)\s+280\s+163\s+191\s+155\n')


if __name__ == '__main__':
    unittest.main()
