# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/lab/figures.py: what each figure draws, its
caption, its error bars, and the run's report page.

The fixtures are the JSON documents of a real smallest-size run
(fixtures/run-cfe4f0a, RUNS=1), an sg-segments run with vmstat samples,
and the smallest-size runs of the experiments that came after them: cfq
(fixtures/run-6646cc3) and mq-scaling (fixtures/run-bd4336d).
"""

import copy
import json
import math
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import bench  # noqa: E402
import figures  # noqa: E402
import parsers  # noqa: E402
import report  # noqa: E402
import seeds  # noqa: E402

FIX = os.path.join(os.path.dirname(__file__), 'fixtures')
RUN = os.path.join(FIX, 'run-cfe4f0a')
RUN_ID = '20261130-173201'


# experiments newer than RUN: their own smallest-size run
LATER = {'cfq': os.path.join(FIX, 'run-6646cc3'),
         'mq-scaling': os.path.join(FIX, 'run-bd4336d'),
         'startup': os.path.join(FIX, 'run-d139576'),
         'traces': os.path.join(FIX, 'run-3fde253')}


def load(name, path=None):
    path = path or LATER.get(name, RUN)
    with open(os.path.join(path, name + '.json')) as fh:
        return json.load(fh)


def all_docs():
    return {e.name: load(e.name) for e in bench.EXPERIMENTS}


def with_runs(doc, n):
    """The document as if each measured value had come from n runs
    spread 10% either side of its median."""
    d = copy.deepcopy(doc)
    d['runs'] = n
    for r in d['rows']:
        for s in r['metrics'].values():
            s['min'], s['max'] = s['median'] * 0.9, s['median'] * 1.1
        r['runs'] = {m: [s['min'], s['median'], s['max']]
                     for m, s in r['metrics'].items()}
    return d


def series(fig, panel, title):
    got = [s for s in fig.panels[panel].series if s.title == title]
    assert len(got) == 1, (title, [s.title for s in
                                   fig.panels[panel].series])
    return got[0]


class EveryExperimentTest(unittest.TestCase):
    def test_each_experiment_has_its_figure(self):
        self.assertEqual(set(figures.FIGURES), set(bench.BY_NAME))

    def test_fixture_figures_draw_only_numbers(self):
        docs = all_docs()
        for name, doc in docs.items():
            fig = figures.build(name, doc, RUN_ID, docs)
            self.assertTrue(any(p.drawn() for p in fig.panels), name)
            for p in fig.panels:
                for s in p.series:
                    for pt in s.points:
                        self.assertTrue(all(isinstance(v, float) or
                                            isinstance(v, int)
                                            for v in pt[:2]), (name, pt))
                        self.assertTrue(math.isfinite(pt[1]), (name, pt))


IOC = {'experiment': 'ioc-random', 'kernel': 'k', 'series': 's',
       'runs': 1, 'scale': 1, 'notes': [],
       'lab': {'parts': [{'part': None, 'accel': 'tcg', 'cpus': 1}],
               'seed': 1},
       'rows': [
           {'config': {'N': 2, 'setup': 'base'},
            'metrics': {'MBps': {'median': 10.0, 'min': 10.0,
                                 'max': 10.0}}},
           {'config': {'N': 2, 'setup': 'bfq'},
            'metrics': {'MBps': {'median': 5.0, 'min': 5.0, 'max': 5.0}}},
           {'config': {'N': 4, 'setup': 'base'},
            'metrics': {'MBps': {'median': 20.0, 'min': 20.0,
                                 'max': 20.0}}},
           # measured nothing: not a 0 bar, named as missing
           {'config': {'N': 4, 'setup': 'bfq'}, 'metrics': {}},
       ]}


class MissingTest(unittest.TestCase):
    def test_missing_value_not_drawn_and_named(self):
        fig = figures.build('ioc-random', IOC, 'r1')
        bfq = series(fig, 0, 'bfq')
        self.assertEqual([p[1] for p in bfq.points], [5.0])
        rat = series(fig, 1, 'bfq')
        self.assertEqual([p[1] for p in rat.points], [0.5])
        self.assertIn('bfq N=4', fig.missing)
        self.assertIn('bfq N=4', fig.caption[-1])
        self.assertTrue(fig.caption[-1].startswith('missing, not drawn'))
        # the setups CFQ would bring: seed marks only, named missing
        self.assertEqual(series(fig, 0, 'ioc off').points, [])
        self.assertIn('ioc off N=2', fig.missing)
        self.assertEqual([p[1] for p in
                          series(fig, 0, 'seed 002: ioc off').points],
                         [17.1, 27.1, 37.1])

    def test_missing_value_has_no_data_line(self):
        fig = figures.build('ioc-random', IOC, 'r1')
        text = figures.script(fig, 'x.png')
        k = fig.panels[0].series.index(series(fig, 0, 'bfq'))
        block = text.split('$d0_%d << EOD\n' % k)[1].split('EOD')[0]
        self.assertEqual(len(block.splitlines()), 1)
        self.assertNotIn('NaN', text)

    def test_real_run_missing_metric(self):
        # the 32-segment row of this run has no per-call figures
        fig = figures.build('sg-segments', load('sg-segments'), RUN_ID)
        meas = series(fig, 2, 'measured')
        self.assertEqual(len(meas.points), 1)
        self.assertGreater(meas.points[0][0], 0.5)      # the 64 slot
        self.assertIn('context switches per call, 32 segments', fig.missing)
        self.assertIn('vmstat samples, 32 segments', fig.missing)

    def test_null_median_is_missing(self):
        doc = copy.deepcopy(IOC)
        doc['rows'][1]['metrics']['MBps']['median'] = None
        fig = figures.build('ioc-random', doc, 'r1')
        self.assertEqual(series(fig, 0, 'bfq').points, [])
        self.assertIn('bfq N=2', fig.missing)



def one(v):
    return {'median': v, 'min': v, 'max': v}


def cfq_doc():
    rows = []
    for n, su, v in ((2, 'base', 20.0), (2, 'ioc idle', 19.0),
                     (4, 'base', 30.0)):
        rows.append({'config': {'workload': 'striped', 'N': n, 'setup': su},
                     'metrics': {'MBps': one(v)}})
    for w, sh in ((100, 0.07), (200, 0.13), (400, None), (800, 0.53)):
        rows.append({'config': {'workload': 'weights', 'weight': w,
                                'elevator': 'cfq'},
                     'metrics': {} if sh is None else {'share': one(sh)}})
    for e, r in (('mq-deadline', 4.0), ('cfq', 40.0)):
        rows.append({'config': {'workload': 'readers+writer',
                                'elevator': e},
                     'metrics': {'reader_MBps': one(r),
                                 'disk_read_MBps': one(r + 1),
                                 'disk_write_MBps': one(20.0)}})
    for p, sh in (('seq', 0.6), ('rand', 0.4)):
        rows.append({'config': {'workload': 'fair time', 'process': p,
                                'elevator': 'cfq'},
                     'metrics': {'time_share': one(sh),
                                 'p99_ms': one(100 * sh)}})
    rows.append({'config': {'workload': 'null_blk', 'elevator': 'cfq'},
                 'metrics': {'nullblk_kiops': one(95.0)}})
    for n, lat in ((16, 150.0), (64, None)):
        rows.append({'config': {'workload': 'scale', 'N': n,
                                'elevator': 'cfq'},
                     'metrics': {'max_lat_ms': one(lat) if lat else None,
                                 'bound_ms': one(max(300.0, n * 16.0))}})
    for n, e, us in ((16, 'mq-deadline', 8.0), (16, 'cfq', 10.0),
                     (64, 'mq-deadline', 8.2), (64, 'cfq', 10.4)):
        rows.append({'config': {'workload': 'scale cost', 'N': n,
                                'elevator': e},
                     'metrics': {'us_per_io': one(us)}})
    return dict(IOC, experiment='cfq', rows=rows)


class CfqFigureTest(unittest.TestCase):
    def test_ioc_random_draws_the_cfq_columns(self):
        doc = copy.deepcopy(IOC)
        doc['rows'].append({'config': {'N': 2, 'setup': 'ioc idle'},
                            'metrics': {'MBps': one(9.0)}})
        fig = figures.build('ioc-random', doc, 'r1')
        self.assertEqual([p[1] for p in series(fig, 0, 'ioc idle').points],
                         [9.0])
        self.assertEqual([p[1] for p in series(fig, 1, 'ioc idle').points],
                         [0.9])
        self.assertNotIn('ioc idle N=2', fig.missing)
        self.assertIn('ioc idle N=4', fig.missing)

    def test_each_workload_in_its_panel(self):
        fig = figures.build('cfq', cfq_doc(), 'r1')
        titles = [p.title for p in fig.panels]
        # the last two: the readers' and the writer's latency tails
        self.assertEqual(len(titles), 11, titles)
        # striped: the seed's setups from the striped rows only
        self.assertEqual([p[1] for p in series(fig, 0, 'ioc idle').points],
                         [19.0])
        self.assertEqual([p[1] for p in series(fig, 0, 'base').points],
                         [20.0, 30.0])
        # weights: a missing share is named, the wanted share drawn
        self.assertEqual([p[1] for p in
                          series(fig, 2, 'measured share').points],
                         [0.07, 0.13, 0.53])
        self.assertIn('share of weight 400', fig.missing)
        want = series(fig, 2, 'weight / sum of weights').points
        self.assertEqual([round(p[1], 4) for p in want],
                         [0.0667, 0.1333, 0.2667, 0.5333])
        # readers and writer: mq-deadline's row of that workload, not the
        # striped base row
        rd = series(fig, 3, "the reader's own MB/s").points
        self.assertEqual([p[1] for p in rd], [4.0, 40.0])
        self.assertEqual([p[1] for p in series(fig, 4, 'disk time').points],
                         [60.0, 40.0])
        self.assertEqual(fig.panels[4].hlines[0][0], 50.0)
        self.assertEqual([p[1] for p in series(fig, 5, 'p99').points],
                         [60.0, 40.0])
        self.assertEqual([p[1] for p in series(
            fig, 6, 'instruction-counted clock').points], [95.0])
        # scale: the longest read against the round, a missing one named
        self.assertEqual([p[1] for p in series(
            fig, 7, 'max latency of any reader').points], [150.0])
        self.assertIn('max latency, N=64', fig.missing)
        self.assertEqual([p[1] for p in series(
            fig, 7, 'round: max(target_latency, N x 2 x slice_idle)').points],
            [300.0, 1024.0])
        self.assertEqual([p[1] for p in series(fig, 8, 'cfq').points],
                         [10.0, 10.4])
        self.assertEqual([p[1] for p in series(fig, 8, 'mq-deadline').points],
                         [8.0, 8.2])


class ErrorBarTest(unittest.TestCase):
    def bars(self, fig):
        """(series with points that have a min-max, clauses drawing
        them) over the whole figure."""
        text = figures.script(fig, 'x.png')
        spread = sum(1 for p in fig.panels for s in p.series
                     if s.points and any(x[2] is not None
                                         for x in s.points))
        return spread, text.count('with yerrorbars')

    def test_no_error_bars_with_one_run(self):
        docs = all_docs()
        for name, doc in docs.items():
            self.assertEqual(doc['runs'], 1)
            fig = figures.build(name, doc, RUN_ID, docs)
            # raid0-dd's one run is 5 dd runs: its medians have a spread
            self.assertEqual(self.bars(fig), (1, 1) if name == 'raid0-dd'
                             else (0, 0), name)

    def test_error_bars_on_every_measured_series_with_runs(self):
        docs = {k: with_runs(v, 3) for k, v in all_docs().items()}
        for name, doc in docs.items():
            fig = figures.build(name, doc, RUN_ID, docs)
            if name == 'traces':
                # one run's trace: its dispatches, no medians, no bars
                self.assertEqual(self.bars(fig), (0, 0))
                continue
            measured = sum(1 for p in fig.panels for s in p.series
                           if s.points and not s.seed and
                           s.style != 'hbars')
            spread, clauses = self.bars(fig)
            self.assertGreater(clauses, 0, name)
            self.assertEqual(spread, clauses, name)
            # raid0-dd's marks are the runs themselves: its medians carry
            # the bars; everywhere else every measured series does
            if name != 'raid0-dd':
                self.assertEqual(clauses, measured, name)

    def test_seed_never_has_error_bars(self):
        doc = with_runs(load('ioc-random'), 3)
        fig = figures.build('ioc-random', doc, RUN_ID)
        for p in fig.panels:
            for s in p.series:
                if s.seed:
                    self.assertTrue(all(x[2] is None for x in s.points))

    def test_error_bar_is_min_max(self):
        doc = with_runs(IOC, 3)
        doc['rows'][1]['metrics']['MBps'] = {'median': 5.0, 'min': 4.0,
                                             'max': 7.0}
        fig = figures.build('ioc-random', doc, 'r1')
        self.assertEqual(series(fig, 0, 'bfq').points[0][1:], (5.0, 4.0,
                                                               7.0))
        self.assertIn('median of 3 runs, bars min-max', fig.caption[0])


class CaptionTest(unittest.TestCase):
    def test_caption_fields(self):
        docs = all_docs()
        for name, doc in docs.items():
            fig = figures.build(name, doc, RUN_ID, docs)
            head = fig.caption[0]
            for want in ('kernel 6.12.117-blk26',
                         'series %s' % (
                             os.path.basename(LATER[name])[4:]
                             if name in LATER else 'cfe4f0a'),
                         'run %s' % doc.get('run', RUN_ID),
                         # the runs measured: raid0-dd's one is 5 dd runs
                         'median of 5 runs' if name == 'raid0-dd' else
                         '1 run (no spread)', 'scale 0.001'):
                self.assertIn(want, head, name)
            clock = 'TCG' if name in ('bs-sweep', 'dbt2') else \
                'icount (shift 0)'
            self.assertIn('clock %s' % clock, head, name)
            self.assertIn(figures.quote(head), figures.script(fig, 'x.png'))

    def test_runs_from_the_data(self):
        # RUNS=5 asked for, each figure measured once: the caption, the
        # report's text and its page say 1 run, and no bar is drawn
        doc = dict(load('simhba-calibration'), runs=5)
        fig = figures.build('simhba-calibration', doc, RUN_ID)
        self.assertIn('1 run (no spread)', fig.caption[0])
        self.assertFalse(fig.errors)
        e = bench.BY_NAME['simhba-calibration']
        head = report.experiment_text(e, doc, 'x', False).splitlines()[0]
        self.assertIn(', 1 run, ', head)
        page = figures.report_html(RUN_ID, [{
            'name': e.name, 'doc': doc, 'text': '', 'verdicts': [],
            'png': None, 'caption': [], 'files': []}])
        self.assertIn('<td>runs measured</td><td>1 run</td>', page)
        # three runs of one figure, one of the others: said per figure
        doc = copy.deepcopy(doc)
        for r in doc['rows']:
            r['runs']['seq_outer_MBps'] *= 3
        fig = figures.build('simhba-calibration', doc, RUN_ID)
        self.assertTrue(fig.errors)
        self.assertIn('median of 1 run (seq_outer_MBps: 3 runs), bars '
                      'min-max', fig.caption[0])

    def test_run_id_from_the_document(self):
        doc = dict(load('overview'), run='20991231-000000')
        fig = figures.build('overview', doc, 'dir-name')
        self.assertIn('run 20991231-000000', fig.caption[0])

    def test_clock_per_part_and_unrecorded(self):
        doc = copy.deepcopy(load('anticipatory'))
        doc['lab']['parts'][1]['accel'] = 'tcg'
        self.assertEqual(figures.clock_text(doc),
                         'disk: icount (shift 0), overhead: TCG')
        self.assertEqual(figures.clock_text({}), 'not recorded')


class DataTest(unittest.TestCase):
    """Which values land on which axis."""

    def test_anticipatory_read_latency_p99(self):
        doc = copy.deepcopy(load('anticipatory'))
        p99 = {'anticipatory': {'reader_p99_ms': 20.5, 'seq2_p99_ms': 2.5,
                                'seq4_p99_ms': 3.5, 'oltp_p99_ms': 90.0,
                                'nullblk_p99_us': 310.0},
               'mq-deadline': {'reader_p99_ms': 800.0, 'seq2_p99_ms': 30.0,
                               'oltp_p99_ms': 95.0, 'nullblk_p99_us': 290.0}}
        for r in doc['rows']:
            for m, v in p99[r['config']['elevator']].items():
                r['metrics'][m] = one(v)
        fig = figures.build('anticipatory', doc, RUN_ID)
        self.assertEqual(fig.panels[4].ylabel, 'ms (log scale)')
        self.assertTrue(fig.panels[4].logy)
        self.assertFalse(fig.panels[5].logy)
        scr = figures.script(fig, 'x.png').split('\n')
        logs = [line for line in scr if 'logscale y' in line]
        # set for the p99 panel only, unset for every other (twice in
        # the latency tails' panels, which have nothing to draw here)
        self.assertEqual(logs.count('set logscale y 10'), 1)
        self.assertEqual(logs.count('unset logscale y'), 9)
        self.assertEqual(fig.panels[5].ylabel, 'us')
        self.assertEqual([p[1] for p in series(
            fig, 4, 'p99, reader with a writer').points], [20.5, 800.0])
        self.assertEqual([p[1] for p in series(
            fig, 4, 'p99, OLTP readers').points],
                         [90.0, 95.0])
        self.assertEqual([p[1] for p in series(
            fig, 5, 'p99, instruction-counted clock').points], [310.0, 290.0])
        # not measured: named, not drawn as 0
        self.assertEqual([p[1] for p in series(
            fig, 4, 'p99, 4 readers').points],
                         [3.5])
        self.assertIn('p99, 4 readers, mq-deadline', fig.missing)
        self.assertNotIn('p99, 2 readers, mq-deadline', fig.missing)
        self.assertFalse(any('not measured by this experiment' in c
                             for c in fig.caption))
        self.assertTrue(any(c.startswith('read latency p99: the 99th '
                                         'percentile') for c in fig.caption))
        # nothing measured: no log axis (an empty one makes gnuplot fail)
        empty = figures.build('anticipatory', load('anticipatory'), RUN_ID)
        self.assertNotIn('set logscale y 10', figures.script(empty, 'x.png'))

    def test_bs_sweep_per_mb_and_seed_ratio(self):
        fig = figures.build('bs-sweep', load('bs-sweep'), RUN_ID)
        self.assertEqual(fig.panels[0].ylabel, 'ms of sys time per MB')
        self.assertTrue(all(p.logx2 for p in fig.panels))
        s = series(fig, 0, 'u320-10k, sg')
        self.assertEqual([(x, round(y, 3)) for x, y, _, _ in s.points],
                         [(1, 216.0), (64, 10.0)])        # mb = 1
        cs = series(fig, 1, 'array-raid0x2, dio')
        self.assertEqual([y for _, y, _, _ in cs.points], [2347.0, 330.0])
        seed = series(fig, 2, 'seed 003: u320 disk')
        self.assertTrue(seed.seed)
        self.assertAlmostEqual(seed.points[0][1], 10.289 / 0.430)
        self.assertAlmostEqual(seed.points[-1][1], 1.0)

    def test_sg_segments_seed_beside_measured(self):
        fig = figures.build('sg-segments', load('sg-segments'), RUN_ID)
        seed = series(fig, 0, 'seed 001 (2.5.47-mm3)')
        self.assertEqual([round(y, 1) for _, y, _, _ in seed.points],
                         [round(seeds.seed_001(32)['MBps'], 1),
                          round(seeds.seed_001(64)['MBps'], 1)])
        meas = series(fig, 0, 'measured')
        self.assertEqual([round(y, 1) for _, y, _, _ in meas.points],
                         [380.8, 394.7])

    def test_sg_segments_vmstat_over_time(self):
        doc = load('sg-segments-vmstat', FIX)
        fig = figures.build('sg-segments', doc, 'r')
        line = series(fig, 4, '32 segments')
        self.assertEqual([x for x, _, _, _ in line.points],
                         [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
        self.assertEqual(line.points[1][1], 3059)
        self.assertNotIn('vmstat samples, 32 segments', fig.missing)

    def test_raid0_threshold(self):
        fig = figures.build('raid0-dd', load('raid0-dd'), RUN_ID)
        runs = load('raid0-dd')['rows'][0]['runs']['MBps']
        self.assertEqual(len(series(fig, 0, 'one dd run').points), len(runs))
        y, title = fig.panels[0].hlines[0]
        self.assertAlmostEqual(y, 0.8 * sorted(runs)[len(runs) // 2])
        self.assertEqual(fig.panels[1].hlines[0][0], 0.8 * 279)

    def test_calibration_band(self):
        fig = figures.build('simhba-calibration',
                            load('simhba-calibration'), RUN_ID)
        self.assertEqual([y for y, _ in fig.panels[0].hlines],
                         [1.1, 1.0, 0.9])
        self.assertIn('4 KiB random, QD32, u320-10k: no expected value',
                      fig.missing)

    def test_overview_latency_cdfs(self):
        doc = copy.deepcopy(load('overview'))
        elev = [r['config']['elevator'] for r in doc['rows']]
        for i, r in enumerate(doc['rows']):
            for pct in parsers.LAT_PCTS:
                r['metrics'][parsers.lat_key('reader', pct, 'ms')] = \
                    one(pct * (i + 1))
        fig = figures.build('overview', doc, RUN_ID)
        cdf = [p for p in fig.panels if p.logx]
        self.assertEqual(len(cdf), 2)
        rd = series(fig, fig.panels.index(cdf[0]), elev[1])
        # x: the latency at each percentile, y: the share slower
        self.assertEqual(rd.points[0][:2], (2, 99))
        self.assertEqual(rd.points[-1][:2], (199.8, 0.1))
        self.assertEqual(len(rd.points), len(parsers.LAT_PCTS) - 1)
        # the writer's was not measured: named missing, nothing drawn
        self.assertFalse(cdf[1].drawn())
        self.assertIn("the writer's buffered writes: latency tail, %s"
                      % elev[0], fig.missing)
        scr = figures.script(fig, 'x.png')
        self.assertEqual(scr.count('set logscale x 10'), 2)
        # the drawn panel's log axis from 0.05 % to all; the empty panel
        # keeps no range and no log axis
        self.assertEqual(scr.count('set yrange [0.05:100.0]'), 1)
        self.assertEqual(scr.count('set logscale y 10'), 1)

    def test_traces_dispatch_order(self):
        doc = load('traces')
        fig = figures.build('traces', doc, RUN_ID)
        # a panel per workload and elevator of the run
        self.assertEqual([p.title for p in fig.panels],
                         ['reader+writer, anticipatory', 'reader+writer, cfq',
                          '2 readers, anticipatory', '2 readers, cfq'])
        row = [r for r in doc['rows']
               if r['config'] == {'workload': '2 readers',
                                  'elevator': 'cfq'}][0]
        det = row['details'][0]
        # every dispatch drawn once, at its time (s) and sector (GiB), in
        # its process's series
        got = sorted((round(x, 6), y, s.title) for s in fig.panels[3].series
                     for x, y, _, _ in s.points)
        want = sorted((round(t / 1e3, 6), g,
                       figures.proc_style(det['procs'][i], det['procs'])[0])
                      for t, g, i in det['dispatch'])
        self.assertEqual(got, want)
        # the two readers in two colours, the same in every panel
        cols = {s.title: s.color for s in fig.panels[3].series}
        self.assertEqual(len(set(cols.values())), len(cols))
        self.assertEqual(figures.proc_style('kworker/u4:2 30', [])[2],
                         '#e08a3c')
        self.assertEqual(figures.proc_style('?', [])[0],
                         'queued before the window')
        self.assertIn('not drawn', ' '.join(figures.build(
            'traces', dict(doc, rows=doc['rows'] + [dict(
                doc['rows'][0], config={'workload': 'reader+writer',
                                        'elevator': 'kyber'})]),
            RUN_ID).caption))

    def test_overview_ceiling_from_the_run(self):
        docs = all_docs()
        fig = figures.build('overview', docs['overview'], RUN_ID, docs)
        self.assertEqual(fig.panels[0].hlines[0][0], 67.8)
        fig = figures.build('overview', docs['overview'], RUN_ID)
        self.assertEqual(fig.panels[0].hlines, [])
        self.assertTrue(any('media ceiling not drawn' in c
                            for c in fig.caption))


class ReportTest(unittest.TestCase):
    def sections(self):
        return [{'name': n, 'doc': d, 'text': 'table of %s' % n,
                 'verdicts': [], 'png': None, 'caption': [],
                 'files': [n + '.json']} for n, d in all_docs().items()]

    def test_page_lists_every_experiment(self):
        page = figures.report_html(RUN_ID, self.sections())
        for e in bench.EXPERIMENTS:
            self.assertIn('<h2 id="%s">' % e.name, page)
            self.assertIn('<a href="#%s">' % e.name, page)
            self.assertIn('table of %s' % e.name, page)
        self.assertNotIn('http', page)

    def test_goal_verdicts(self):
        v = report.goal_verdicts(bench.BY_NAME['simhba-calibration'],
                                load('simhba-calibration'))
        self.assertIn('u320-10k sequential, outer zone: 0.999 of expected, '
                      'within 10%', v)
        self.assertIn('ssd random QD32: 1.156 of expected, outside 10%', v)
        doc = {'rows': [{'config': {'kernel': 'a'},
                         'runs': {'MBps': [100, 101, 99]}},
                        {'config': {'kernel': 'b'},
                         'runs': {'MBps': [100, 70, 99]}}]}
        self.assertEqual(report.goal_verdicts(bench.BY_NAME['raid0-dd'], doc),
                         ['b: bad (bad: a run below 0.8x the a median)'])
        self.assertEqual(report.goal_verdicts(bench.BY_NAME['dbt2'], doc),
                         ['cfq NOTPM >= 0.97x mq-deadline (dma_bits=32): '
                          'missing (cfq not measured)'])
        v = report.goal_verdicts(bench.BY_NAME['raid0-dd'], load('raid0-dd'))
        self.assertEqual(len(v), 1)
        self.assertTrue(v[0].startswith('only default ran'))

    @unittest.skipUnless(shutil.which('gnuplot'), 'gnuplot not installed')
    def test_report_of_a_run(self):
        d = tempfile.mkdtemp()
        try:
            run = os.path.join(d, RUN_ID)
            shutil.copytree(RUN, run)
            for name, path in LATER.items():
                shutil.copy(os.path.join(path, name + '.json'), run)
            with open(os.devnull, 'w') as null:
                old, sys.stdout = sys.stdout, null
                try:
                    self.assertEqual(bench.report_dir(run), 0)
                finally:
                    sys.stdout = old
            with open(os.path.join(run, 'index.html')) as fh:
                page = fh.read()
            for e in bench.EXPERIMENTS:
                self.assertTrue(os.path.getsize(os.path.join(
                    run, e.name + '.png')) > 0, e.name)
                self.assertIn('<h2 id="%s">' % e.name, page)
                self.assertIn('alt="%s figure" src="data:image/png;base64,'
                              % e.name, page)
            # context, goal verdicts and notes of the run
            self.assertIn('<td>clock</td><td>icount (shift 0)</td>', page)
            self.assertIn('<td>RUNS</td><td>1</td>', page)
            self.assertIn('2 sequential readers &gt;= 3x mq-deadline: '
                          '12.19x met', page)
            self.assertIn('smallest size: N=2 only', page)
            self.assertIn('<a href="dbt2.csv">', page)
            self.assertTrue(os.path.exists(os.path.join(run, 'dbt2.csv')))
        finally:
            shutil.rmtree(d)


if __name__ == '__main__':
    unittest.main()
