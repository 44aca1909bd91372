# SPDX-License-Identifier: GPL-2.0
"""The startup experiment's host side (experiments/startup.py): a start
over the cap prints as "> CAP" and fails a goal that needs it, in any run
of a configuration, and the goals compare cfq and anticipatory with bfq."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from experiments import startup  # noqa: E402
from stats import aggregate  # noqa: E402


def row(elev, load, times, cap=120.0, bg=None, misses=None):
    """The rows one run gives (elevator, load): the starts' metrics as
    parsers.startup_stats makes them, and the 40 ms reader's."""
    done = sorted(t for t in times if t is not None)
    over = len(times) - len(done)
    ranked = done + [None] * over
    m = {'starts': len(times), 'over_cap': over, 'cap_s': cap,
         'start_mean_s': sum(done) / len(done) if not over else None,
         'start_p90_s': ranked[-(-len(ranked) * 9 // 10) - 1],
         'start_max_s': done[-1] if not over else None}
    if bg is not None:
        m['bg_MBps'] = bg
    out = [{'config': {'elevator': elev, 'load': load}, 'metrics': m}]
    if misses is not None:
        out.append({'config': {'elevator': elev, 'load': load},
                    'metrics': {'rt_reads': 25, 'rt_misses': misses}})
    return out


def run(*rows):
    agg, _ = aggregate([r for rs in rows for r in rs])
    return agg


class StartupTableTest(unittest.TestCase):
    def test_over_the_cap_in_one_run_of_two(self):
        # run 1 within the cap, run 2 over it: the median of run 1 alone
        # would be a number the configuration did not reach
        agg = run(row('cfq', 'idle', [3.0]),
                  row('cfq', '5 seq readers', [10.0], bg=40.0),
                  row('cfq', '5 seq readers', [None], bg=42.0))
        text = '\n'.join(startup.startup_table(agg))
        line = [x for x in text.splitlines()
                if x.startswith('cfq') and '5 seq readers' in x][0]
        self.assertEqual(line.split()[4:8],
                         ['>', '120', '>', '120'])
        self.assertIn('over the cap', line)
        self.assertNotIn('10.0', line)

    def test_misses_of_deadlines_due(self):
        # the deadlines due, not the reads made, are what a miss is of;
        # a run without them shows its late reads of its reads
        rt = {'config': {'elevator': 'bfq', 'load': 'idle'},
              'metrics': {'rt_reads': 80, 'rt_deadlines': 250,
                          'rt_misses': 175}}
        agg = run(row('bfq', 'idle', [3.0]), [rt])
        r = [a for a in agg if a['config']['elevator'] == 'bfq'][0]
        self.assertEqual(startup.misses_cell(r), '175.0/250.0')
        agg = run(row('bfq', 'idle', [3.0], misses=5))
        self.assertEqual(startup.misses_cell(agg[0]), '5.00/25.0')

    def test_goals_against_bfq(self):
        agg = run(row('bfq', 'idle', [3.0], misses=0),
                  row('bfq', '5 seq writers', [4.0, 5.0], bg=30.0, misses=2),
                  row('cfq', 'idle', [3.0], misses=0),
                  row('cfq', '5 seq writers', [5.0, 6.0], bg=20.0, misses=1),
                  row('anticipatory', 'idle', [3.0]),
                  row('anticipatory', '5 seq writers', [5.0, None], bg=30.0))
        g = dict(startup.startup_goals(agg))
        # 5.5 / 4.5: within 1.25x
        self.assertEqual(g['cfq start-up with 5 seq writers <= 1.25x bfq'],
                         '1.22x met')
        self.assertEqual(
            g['anticipatory start-up with 5 seq writers <= 2x bfq'],
            'over the cap (120 s) NOT met')
        self.assertEqual(g['cfq load MB/s during the starts, 5 seq writers '
                           '>= 0.8x bfq'], '0.67x NOT met')
        self.assertEqual(g['anticipatory load MB/s during the starts, 5 seq '
                           'writers >= 0.8x bfq'], '1.00x met')
        self.assertEqual(g['cfq 40 ms reader misses with 5 seq writers <= '
                           'bfq'], '1.00 vs 2.00 met')
        # the idle disk is no load: no start-up goal for it
        self.assertNotIn('cfq start-up with idle <= 1.25x bfq', g)

    def test_bfq_over_the_cap_gives_no_ratio(self):
        agg = run(row('bfq', '5 seq readers', [None]),
                  row('cfq', '5 seq readers', [50.0]))
        g = dict(startup.startup_goals(agg))
        self.assertEqual(g['cfq start-up with 5 seq readers <= 1.25x bfq'],
                         'no ratio: bfq over the cap (120 s)')

    def test_variants_judged_apart(self):
        # a configuration with tunables is held to its elevator's bound,
        # printed apart, never as the goal of the elevator's defaults
        agg = run(row('bfq', '5 seq writers', [4.0], bg=30.0, misses=2),
                  row('cfq', '5 seq writers', [6.0], bg=30.0, misses=3),
                  row('cfq slice_sync=400', '5 seq writers', [4.4], bg=30.0,
                      misses=1),
                  row('anticipatory x=1', '5 seq writers', [9.0], bg=20.0))
        self.assertEqual(startup.variant_bounds(
            ['bfq', 'cfq', 'cfq slice_sync=400', 'anticipatory x=1']),
            [('cfq slice_sync=400', 1.25), ('anticipatory x=1', 2.0)])
        g = dict(startup.startup_goals(agg))
        self.assertEqual(g['cfq start-up with 5 seq writers <= 1.25x bfq'],
                         '1.50x NOT met')
        self.assertFalse([w for w in g if 'slice_sync' in w or 'x=1' in w])
        v = dict(startup.startup_goals(agg, variants=True))
        self.assertEqual(v['cfq slice_sync=400 start-up with 5 seq writers '
                           '<= 1.25x bfq'], '1.10x met')
        self.assertEqual(v['anticipatory x=1 start-up with 5 seq writers '
                           '<= 2x bfq'], '2.25x NOT met')
        self.assertEqual(v['cfq slice_sync=400 40 ms reader misses with 5 '
                           'seq writers <= bfq'], '1.00 vs 2.00 met')
        self.assertNotIn('cfq start-up with 5 seq writers <= 1.25x bfq', v)
        text = startup.fmt_startup(None, agg, [], {})
        self.assertIn('the same bounds for the other configurations', text)
        self.assertIn('cfq slice_sync=400 start-up with 5 seq writers', text)
        self.assertEqual([e.what for e in startup.effects(None, agg)
                          if 'slice_sync' in e.what], [])


if __name__ == '__main__':
    unittest.main()
