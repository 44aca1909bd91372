# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the number crunching in scripts/lab/bench.py."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import bench  # noqa: E402

ROWS = '''
{"config": {"elevator": "mq-deadline"}, "metrics": {"mbps": 10}}
{"config": {"elevator": "bfq"}, "metrics": {"mbps": 30}}
{"note": "simhba is not available"}
{"config": {"elevator": "mq-deadline"}, "metrics": {"mbps": 14}}
{"config": {"elevator": "bfq"}, "metrics": {"mbps": 36}}
{"config": {"elevator": "mq-deadline"}, "metrics": {"mbps": 12}}
{"config": {"elevator": "bfq"}, "metrics": {"mbps": 33, "iops": 5}}
{"note": "simhba is not available"}
'''


class AggregateTest(unittest.TestCase):
    def setUp(self):
        self.agg, self.notes = bench.aggregate(bench.parse_rows(ROWS))

    def test_median_min_max_per_config(self):
        self.assertEqual([r['config']['elevator'] for r in self.agg],
                         ['mq-deadline', 'bfq'])
        self.assertEqual(self.agg[0]['metrics']['mbps'],
                         {'median': 12.0, 'min': 10.0, 'max': 14.0})
        self.assertEqual(self.agg[1]['runs']['mbps'], [30.0, 36.0, 33.0])
        self.assertEqual(self.agg[1]['metrics']['iops']['median'], 5.0)

    def test_notes_once(self):
        self.assertEqual(self.notes, ['simhba is not available'])

    def test_ratio_to_baseline(self):
        r = bench.ratios(self.agg, ('elevator', 'mq-deadline'))
        self.assertAlmostEqual(r[(1, 'mbps')], 33.0 / 12.0)
        self.assertAlmostEqual(r[(0, 'mbps')], 1.0)
        self.assertNotIn((1, 'iops'), r)     # no baseline value

    def test_no_baseline_row(self):
        self.assertEqual(bench.ratios(self.agg, ('elevator', 'cfq')), {})

    def test_table(self):
        exp = bench.Experiment('t', 'test', [('mbps', 'MB/s')],
                               baseline=('elevator', 'mq-deadline'))
        text = bench.table(exp, self.agg, self.notes)
        self.assertIn('12.0 (10.0-14.0)', text)
        self.assertIn('2.75', text)
        self.assertIn('note: simhba is not available', text)


class ListTest(unittest.TestCase):
    def test_unknown_name_fails_with_list(self):
        self.assertEqual(bench.main(['overview,nosuch']), 2)


if __name__ == '__main__':
    unittest.main()
