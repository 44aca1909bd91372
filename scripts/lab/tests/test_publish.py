# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the published results page (scripts/lab/publish.py)."""

import glob
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
sys.path.insert(0, os.path.dirname(__file__))
import bench  # noqa: E402
from fakes import fake_draw  # noqa: E402
import publish  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(__file__), 'fixtures')
RUN_ID = '20261201-010203'
MACHINE = {'cpu': 'Test CPU 7', 'cpus': 2, 'mem_bytes': 8 * 2 ** 30,
           'host_kernel': '6.1.0-test', 'qemu': 'QEMU emulator version 9.8'}

# two roots as runner.root_doc records them: B has another fio
ROOT_A = {'root': 'tmpfs', 'sha256': '0123456789abcdef' + '0' * 48,
          'packages': ['bash 5.2.15-2+b8', 'fio 3.33-3',
                       'libc6 2.36-9+deb12u9'],
          'unowned': ['/etc/passwd', '<tree>/scripts/lab/']}
ROOT_B = dict(ROOT_A, sha256='fedcba9876543210' + '1' * 48,
              packages=['bash 5.2.15-2+b8', 'fio 3.35-1',
                        'libc6 2.36-9+deb12u9'])

try:
    import docutils.core
except ImportError:
    docutils = None


def summary(text):
    """{effect: (seed's figure, measured, result, why)} of a page."""
    lines = text.split('.. list-table::', 1)[1].split('\nThe experiments',
                                                       1)[0].splitlines()
    rows, cur = [], None
    for line in lines:
        if line.startswith('   * - '):
            cur = [line[7:]]
            rows.append(cur)
        elif line.startswith('     - ') and cur is not None:
            cur.append(line[7:])
    return {r[1].replace('\\', ''): tuple(c.replace('\\', '')
                                          for c in r[2:])
            for r in rows[1:]}


def drawn(name, run_id=RUN_ID):
    return b'\x89PNG drawn %s of %s' % (name.encode(), run_id.encode())


class PublishTest(unittest.TestCase):
    """A run made of the fixtures (every experiment, the smallest size),
    made full-size by editing its JSON where a test needs it."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.run = os.path.join(self.tmp, 'results', RUN_ID)
        os.makedirs(self.run)
        for f in glob.glob(os.path.join(FIXTURES, 'run-cfe4f0a', '*.json')) + \
                [os.path.join(FIXTURES, 'run-6646cc3', 'cfq.json'),
                 os.path.join(FIXTURES, 'run-bd4336d', 'mq-scaling.json'),
                 os.path.join(FIXTURES, 'run-d139576', 'startup.json'),
                 os.path.join(FIXTURES, 'run-3fde253', 'traces.json')]:
            shutil.copy(f, self.run)
        for e in bench.EXPERIMENTS:
            # a bench-time figure, which publish does not copy
            with open(os.path.join(self.run, e.name + '.png'), 'wb') as fh:
                fh.write(b'\x89PNG bench-time figure of ' + e.name.encode())
        self.out = os.path.join(self.tmp, 'doc', 'blk26-results.rst')
        self.figs = os.path.join(self.tmp, 'doc', 'blk26-results')
        # gnuplot draws in test_pubdata.py; here a figure is its name and
        # run id
        patch = mock.patch.object(publish, 'draw_figure', fake_draw)
        patch.start()
        self.addCleanup(patch.stop)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def edit(self, name, fn):
        p = os.path.join(self.run, name + '.json')
        with open(p) as fh:
            doc = json.load(fh)
        fn(doc)
        with open(p, 'w') as fh:
            json.dump(doc, fh)

    def full_size(self, measured=True):
        """Every experiment at SCALE 1 with RUNS=3, and (measured) each
        figure in 3 runs, so that the page is no draft."""
        def one(doc):
            doc.update(scale=1, runs=3, run=RUN_ID, series='abc1234',
                       machine=MACHINE)
            # 3 runs asked and measured: the fixtures' runs repeated (the
            # medians the page prints are the rows' own)
            n = 3 * (5 if doc['experiment'] == 'raid0-dd' else 1)
            for r in doc.get('rows') or [] if measured else []:
                for m, v in (r.get('runs') or {}).items():
                    if v:
                        r['runs'][m] = (v * n)[:max(n, len(v))]
        for e in bench.EXPERIMENTS:
            self.edit(e.name, one)

    def publish(self, *args, runs=None):
        """(status, message, the page or None) of publishing runs (the
        run of setUp when None)."""
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            st = bench.main(['--publish'] + (runs or [self.run]) +
                            ['--out', self.out] + list(args))
        page = None
        if os.path.exists(self.out):
            with open(self.out) as fh:
                page = fh.read()
        return st, out.getvalue() + err.getvalue(), page

    def assertNothingWritten(self):
        self.assertFalse(os.path.exists(self.out))
        self.assertFalse(os.path.exists(self.figs))

    # --- what is refused ---------------------------------------------------

    def test_small_scale_refused_without_draft(self):
        st, msg, page = self.publish()
        self.assertEqual(st, 2)
        self.assertIn('SCALE 0.001, below 1', msg)
        self.assertNothingWritten()

    def test_small_scale_is_a_draft(self):
        st, msg, page = self.publish('--draft')
        self.assertEqual(st, 0, msg)
        self.assertIn('(DRAFT)', page.splitlines()[5])
        self.assertIn('**DRAFT**: not a full-size run of every experiment '
                      '(SCALE 0.001, below 1;', page)

    def test_scale_of_one_small_experiment_named(self):
        self.full_size()
        self.edit('bs-sweep', lambda d: d.update(scale=0.5))
        st, msg, _ = self.publish()
        self.assertEqual(st, 2)
        self.assertIn('SCALE 0.5, below 1: bs-sweep', msg)
        self.assertNothingWritten()

    def test_fewer_than_three_runs_refused(self):
        # one run has no spread: a seed effect could not be told from noise
        self.full_size()
        self.edit('cfq', lambda d: d.update(runs=1))
        st, msg, _ = self.publish()
        self.assertEqual(st, 2)
        self.assertIn('fewer than 3 runs: cfq (RUNS=1)', msg)
        self.assertNothingWritten()

    def test_fewer_than_three_runs_measured_refused(self):
        # RUNS=5 asked, but the script measured once: counted in the rows
        self.full_size()

        def once(d):
            for r in d['rows']:
                r['runs'] = {m: v[:1] for m, v in r['runs'].items()}
        self.edit('simhba-calibration', once)
        st, msg, _ = self.publish()
        self.assertEqual(st, 2)
        self.assertIn('fewer than 3 runs: simhba-calibration (every '
                      'figure: 1 run measured)', msg)
        self.assertNothingWritten()

    def test_one_figure_measured_fewer_times_refused(self):
        # every figure in 3 runs but one of cfq's, measured once (as
        # its scale cost was until cfq.sh looped over the runs): the
        # page would judge a goal on 1 run; 2 runs are fewer than 3 too
        for n, words in ((1, '1 run'), (2, '2 runs')):
            self.full_size()

            def cut(d):
                for r in d['rows']:
                    v = r['runs'].get('nullblk_kiops')
                    if v:
                        r['runs']['nullblk_kiops'] = v[:n]
            self.edit('cfq', cut)
            st, msg, _ = self.publish()
            self.assertEqual(st, 2)
            self.assertIn('fewer than 3 runs: cfq (nullblk_kiops: %s '
                          'measured)' % words, msg)
            self.assertNothingWritten()
        # raid0-dd's five dd runs of one run are one run
        self.full_size()
        self.edit('raid0-dd', lambda d: [r['runs'].update(
            MBps=r['runs']['MBps'][:5]) for r in d['rows']])
        st, msg, _ = self.publish()
        self.assertIn('raid0-dd (every figure: 1 run measured)', msg)

    def test_missing_experiment_refused_or_draft(self):
        self.full_size()
        os.unlink(os.path.join(self.run, 'dbt2.json'))
        st, msg, _ = self.publish()
        self.assertEqual(st, 2)
        self.assertIn('experiments missing: dbt2', msg)
        self.assertNothingWritten()
        st, msg, page = self.publish('--draft')
        self.assertEqual(st, 0, msg)
        self.assertIn('**DRAFT**', page)
        row = summary(page)["OLTP: anticipatory's NOTPM against deadline's "
                            "(dma_bits=32)"]
        self.assertEqual(row, ('0.87x', 'missing', 'missing',
                               'dbt2 is not in this run'))
        self.assertIn('**missing**: dbt2 is not in this run.', page)
        self.assertFalse(os.path.exists(os.path.join(self.figs,
                                                     'dbt2.png')))

    def test_machine_not_recorded_refused(self):
        self.full_size()
        for e in bench.EXPERIMENTS:
            self.edit(e.name, lambda d: d.pop('machine'))
        st, msg, _ = self.publish()
        self.assertEqual(st, 2)
        self.assertIn('the machine is not recorded', msg)

    def test_mixed_or_dirty_series_refused(self):
        self.full_size()
        self.edit('cfq', lambda d: d.update(series='abc1234-dirty'))
        st, msg, _ = self.publish()
        self.assertEqual(st, 2)
        self.assertIn('2 series commits', msg)
        self.assertIn('uncommitted changes', msg)

    def test_bad_input_writes_nothing(self):
        os.makedirs(os.path.join(self.tmp, 'empty'))
        for path, want in ((os.path.join(self.tmp, 'nowhere'),
                            'not a results directory'),
                           (os.path.join(self.tmp, 'empty'),
                            'no experiment\'s JSON in it')):
            self.run = path
            st, msg, _ = self.publish('--draft')
            self.assertEqual(st, 2)
            self.assertIn(want, msg)
            self.assertFalse(os.path.exists(self.out))

    def test_broken_json_writes_nothing(self):
        with open(os.path.join(self.run, 'overview.json'), 'w') as fh:
            fh.write('{"experiment": "overview", "rows": [')
        st, msg, _ = self.publish('--draft')
        self.assertEqual(st, 2)
        self.assertIn('overview.json: not a results JSON', msg)
        self.assertNothingWritten()
        with open(os.path.join(self.run, 'overview.json'), 'w') as fh:
            json.dump({'experiment': 'cfq', 'rows': []}, fh)
        st, msg, _ = self.publish('--draft')
        self.assertEqual(st, 2)
        self.assertIn('not the results JSON of overview', msg)
        self.assertNothingWritten()

    # --- several runs --------------------------------------------------------

    SECOND = '20261202-030405'
    MOVED = ('dbt2', 'cfq')

    def split_run(self, tree2='t1'):
        """Move MOVED to a second run (its own id and figures); every JSON
        names kernel source t1, the second run's tree2."""
        self.full_size()
        for e in bench.EXPERIMENTS:
            self.edit(e.name, lambda d: d.update(kernel_tree={'default':
                                                              't1'}))
        self.run2 = os.path.join(self.tmp, 'results', self.SECOND)
        os.makedirs(self.run2)
        for n in self.MOVED:
            self.edit(n, lambda d: d.update(run=self.SECOND, kernel_tree={
                'default': tree2}))
            for ext in ('.json', '.png'):
                shutil.move(os.path.join(self.run, n + ext), self.run2)

    def publish2(self, *args):
        return self.publish(*args, runs=[self.run, self.run2])

    def test_two_runs_of_one_kernel_source(self):
        self.split_run()
        st, msg, page = self.publish2()
        self.assertEqual(st, 0, msg)
        self.assertNotIn('DRAFT', page)
        self.assertIn('bench runs %s to %s\n' % (RUN_ID, self.SECOND), page)
        self.assertIn(':Runs: %s (' % RUN_ID, page)
        self.assertIn('; %s (cfq, dbt2)' % self.SECOND, page)
        self.assertIn(':Dates: 2026-12-01 01:02:03 to 2026-12-02 03:04:05 '
                      '(the runs\' starts', page)
        self.assertIn(':Kernel source tree: default t1', page)
        # each figure drawn from its own run's JSON
        for n in self.MOVED:
            with open(os.path.join(self.figs, n + '.png'), 'rb') as fh:
                self.assertEqual(fh.read(), drawn(n, self.SECOND))
        with open(os.path.join(self.figs, 'overview.png'), 'rb') as fh:
            self.assertEqual(fh.read(), drawn('overview'))
        # and each run's data beside the page, under its own id
        data = os.path.join(self.figs, 'data')
        self.assertEqual(sorted(os.listdir(data)), [RUN_ID, self.SECOND,
                                                 'context.json'])
        self.assertEqual(sorted(os.listdir(os.path.join(data,
                                                        self.SECOND))),
                         ['cfq.csv.gz', 'cfq.json.gz', 'dbt2.csv.gz',
                          'dbt2.json.gz'])

    def test_two_runs_of_two_kernel_sources_refused(self):
        self.split_run(tree2='t2')
        st, msg, _ = self.publish2()
        self.assertEqual(st, 2)
        self.assertIn('the runs booted 2 kernel sources as default: t1, t2',
                      msg)
        self.assertNothingWritten()

    def test_two_runs_without_kernel_source_refused(self):
        self.split_run()
        self.edit('overview', lambda d: d.pop('kernel_tree'))
        st, msg, _ = self.publish2()
        self.assertEqual(st, 2)
        self.assertIn('2 run ids (%s, %s), and the kernel source is not '
                      'recorded (kernel_tree) in: overview'
                      % (RUN_ID, self.SECOND), msg)
        self.assertNothingWritten()

    def test_two_runs_of_one_experiment_refused(self):
        self.split_run()
        shutil.copy(os.path.join(self.run2, 'cfq.json'), self.run)
        st, msg, _ = self.publish2('--draft')
        self.assertEqual(st, 2)
        self.assertIn('cfq is in both %s and %s' % (self.run, self.run2),
                      msg)
        self.assertNothingWritten()

    def give_roots(self, first, second=None):
        """Every part of the first run ran in root first, of the second
        run (MOVED) in second (runner.root_doc's record, or None: not
        recorded, a JSON from before bench.py recorded it)."""
        def one(doc):
            for p in doc['lab']['parts']:
                p.pop('guest_root', None)
                rec = second if doc.get('run') == self.SECOND else first
                if rec is not None:
                    p['guest_root'] = rec
        for e in bench.EXPERIMENTS:
            run = self.run2 if e.name in self.MOVED and \
                getattr(self, 'run2', None) else self.run
            p = os.path.join(run, e.name + '.json')
            with open(p) as fh:
                doc = json.load(fh)
            one(doc)
            with open(p, 'w') as fh:
                json.dump(doc, fh)

    def test_one_guest_root(self):
        self.full_size()
        self.give_roots(ROOT_A)
        st, msg, page = self.publish()
        self.assertEqual(st, 0, msg)
        self.assertIn('\n:Guest root: every run\'s guest ran the same root '
                      '(sha256 %s)\n' % ROOT_A['sha256'][:16], page)

    def test_two_runs_of_two_roots(self):
        # the host's fio changed between the runs: the page names the
        # runs of each root and the package, not those that stayed
        self.split_run()
        self.give_roots(ROOT_A, ROOT_B)
        st, msg, page = self.publish2()
        self.assertEqual(st, 0, msg)
        line = [x for x in page.splitlines()
                if x.startswith(':Guest root:')]
        self.assertEqual(len(line), 1, line)
        line = line[0].replace('\\', '')
        self.assertIn(':Guest root: the guests ran different roots: sha256 '
                      '0123456789abcdef: %s (overview, ' % RUN_ID, line)
        self.assertIn('; sha256 fedcba9876543210: %s (cfq:disk, '
                      'cfq:overhead, dbt2); the packages whose versions '
                      'differ between them: fio 3.33-3 (%s), 3.35-1 (%s)'
                      % (self.SECOND, RUN_ID, self.SECOND), line)
        self.assertNotIn('bash', line)
        # the same packages, another root (another job, another lab):
        # said so
        self.give_roots(ROOT_A, dict(ROOT_B, packages=ROOT_A['packages']))
        _, _, page = self.publish2()
        self.assertIn('cfq:overhead, dbt2); no package\'s version differs '
                      'between them\n', page)

    def test_guest_root_not_recorded(self):
        # the fixtures' JSON is older than the record: the page says so
        self.full_size()
        st, msg, page = self.publish()
        self.assertEqual(st, 0, msg)
        self.assertIn('\n:Guest root: not recorded\n', page)
        # one run recorded, the other not: which is which
        self.split_run()
        self.give_roots(None, ROOT_B)
        _, _, page = self.publish2()
        self.assertIn(':Guest root: not every guest\'s root is recorded: '
                      'not recorded: %s (' % RUN_ID, page)
        self.assertIn('; sha256 fedcba9876543210: %s (cfq:disk, '
                      'cfq:overhead, dbt2)\n' % self.SECOND, page)

    def test_guest_root_over_9p(self):
        runs = {'r1': ['overview'], 'r2': ['cfq']}

        def docs(a, b):
            return {'overview': {'lab': {'parts': [{'part': None,
                                                    'guest_root': a}]}},
                    'cfq': {'lab': {'parts': [{'part': 'disk',
                                               'guest_root': b}]}}}
        nine = {'root': '9p'}
        self.assertEqual(publish.roots_text(runs, docs(nine, nine)),
                         'every run\'s guest ran the host\'s root over 9p, '
                         'no hash')
        self.assertEqual(publish.roots_text(runs, docs(ROOT_A, nine)),
                         'the guests ran different roots: sha256 '
                         '0123456789abcdef: r1 (overview); the host\'s root '
                         'over 9p, no hash: r2 (cfq:disk)')
        # a boot that stopped before it packed its root
        stopped = {'root': 'tmpfs', 'sha256': None, 'packages': None,
                   'unowned': None}
        self.assertEqual(publish.roots_text(runs, docs(stopped, stopped)),
                         'not recorded')
        self.assertEqual(publish.roots_text(runs, docs(
            ROOT_A, dict(ROOT_B, packages=None))),
            'the guests ran different roots: sha256 0123456789abcdef: r1 '
            '(overview); sha256 fedcba9876543210: r2 (cfq:disk); the '
            'packages\' versions are not recorded')

    # --- a full-size run ---------------------------------------------------

    def test_older_model_said_on_the_page(self):
        self.full_size()
        with mock.patch.object(publish, 'model_changes',
                               return_value=['1234567 simhba: a fix']):
            st, msg, page = self.publish()
        self.assertEqual(st, 0, msg)
        self.assertIn('**Measured on an older model**: simhba changed '
                      'after these runs\' series commit (abc1234), in '
                      '1234567 simhba: a fix.', page)
        _, _, page = self.publish()
        self.assertNotIn('older model', page)

    def test_full_run_header_and_figures(self):
        self.full_size()
        os.makedirs(self.figs)
        stale = os.path.join(self.figs, 'overview.png')
        with open(stale, 'w') as fh:
            fh.write('an older run')
        st, msg, page = self.publish()
        self.assertEqual(st, 0, msg)
        self.assertNotIn('DRAFT', page)
        for field in (':Run: %s' % RUN_ID,
                      ':Date: 2026-12-01 01:02:03',
                      ':Kernel: 6.12.117-blk26',
                      ':Series commit: abc1234',
                      ':RUNS: 3', ':SCALE: 1',
                      ':Machine: Test CPU 7, 2 CPUs, 8.0 GiB memory; host '
                      'kernel 6.1.0-test; QEMU emulator version 9.8',
                      ':Clock: icount shift=0 (1 ns per instruction): '
                      'overview, simhba-calibration'):
            self.assertIn(field, page)
        self.assertIn('tcg (the host\'s wall clock): bs-sweep, dbt2; '
                      'seed 1', page)
        for e in bench.EXPERIMENTS:
            self.assertIn('\n%s%s\n' % (e.name, ' (seed %s)' % e.seed
                                        if e.seed else ''), page)
            self.assertIn('.. figure:: blk26-results/%s.png' % e.name, page)
            # drawn from the JSON, not the run's bench-time figure: the
            # older one beside the page is replaced
            with open(os.path.join(self.figs, e.name + '.png'), 'rb') as fh:
                self.assertEqual(fh.read(), drawn(e.name))

    def test_nothing_measured_no_figure(self):
        os.makedirs(self.figs)
        stale = os.path.join(self.figs, 'overview.png')
        with open(stale, 'w') as fh:
            fh.write('an older run')
        self.edit('overview', lambda d: d.update(rows=[]))
        st, msg, page = self.publish('--draft')
        self.assertEqual(st, 0, msg)
        self.assertIn('Figure: **missing** (the run measured nothing of '
                      'overview to draw).', page)
        self.assertFalse(os.path.exists(stale))

    def test_figure_not_drawn_refused(self):
        with mock.patch.object(publish, 'draw_figure',
                               return_value=(False, [])):
            st, msg, _ = self.publish('--draft')
        self.assertEqual(st, 2)
        self.assertIn('the figure could not be drawn', msg)
        self.assertNothingWritten()

    def test_sections_hold_tables_seed_tables_spread_notes(self):
        # the fixtures' own runs: one of some figures, a draft
        self.full_size(measured=False)
        st, _, page = self.publish('--draft')
        sec = page.split('\nraid0-dd (seed 004)\n', 1)[1].split(
            '\nsg-segments (seed 001)\n', 1)[0]
        # the measured runs, then the seed's own table, in literal blocks
        self.assertIn('    revision    default\n                141.4', sec)
        self.assertIn('    revision    2.6.25.8-fc8  54a6eb5c', sec)
        self.assertLess(sec.index('141.4'), sec.index('2.6.25.8-fc8'))
        self.assertIn('Spread::\n\n    spread: max/min of the runs', sec)
        self.assertIn('\n      MB/s                 1.035  (kernel=default)',
                      sec)
        self.assertIn('Spread::\n\n    no spread: fewer than 2 runs',
                      page.split('\noverview\n', 1)[1])
        sec = page.split('\nioc-random (seed 002)\n', 1)[1]
        self.assertIn('* columns ioc off, ioc no idle and ioc idle need '
                      'CFQ', sec)
        # a generic table says missing, not -
        sec = page.split('\nsimhba-calibration\n', 1)[1].split(
            '\nraid0-dd (seed 004)\n', 1)[0]
        self.assertIn('missing', sec)
        self.assertNotRegex(sec, r' - ')

    def test_summary_rows_from_the_run(self):
        self.full_size()
        st, _, page = self.publish()
        rows = summary(page)
        self.assertEqual(rows['20 direct-I/O readers: MB/s, 64 segments '
                              'against 32'][:3],
                         ('1.13x', '1.04x', 'reproduced'))
        self.assertEqual(rows['20 direct-I/O readers: context switches '
                              'per call, 64 segments against 32'][:3],
                         ('0.54x', 'missing', 'missing'))
        self.assertEqual(rows[next(k for k in rows
                                   if k.startswith('bouncing: bytes'))][:3],
                         ('at most 0.15x', '0.00x', 'reproduced'))
        self.assertEqual(rows['N=2 random readers, striped LUN: ioc idle '
                              'against base'][:3],
                         ('0.53x', 'missing', 'missing'))
        r = rows['dd to md raid0: runs of later kernels below 0.8x the '
                 'base median']
        self.assertEqual(r[:3], ('8 of 15 runs (54a6eb5c bad, '
                                 '54a6eb5c-nohighmem bad, 2.6.26-rc8 bad)',
                                 '0 of 15 runs (default, the only kernel '
                                 'configuration: against its own median)',
                                 'missing'))
        # one kernel cannot show a difference between kernels
        self.assertIn('between two (KERNELS=a,b)', r[3])
        # cfq's goal (anticipatory's of the same name comes first)
        self.assertEqual(rows['null_blk 4 KiB random-read IOPS >= 0.9x '
                              'mq-deadline (icount)'][1:3],
                         ('0.88x', 'not met'))
        self.assertEqual(rows['reader MB/s with a streaming writer >= 5x '
                              'mq-deadline'][1:3], ('16.26x', 'met'))
        self.assertEqual(rows['weight 100: share / weight share (0.0667) '
                              'within 10%'][1:3], ('0.894x', 'not met'))
        # a run before cfq's messages were traced: goal 6's types missing
        self.assertEqual(rows['fair time, workload type unknown (seq, seq '
                              'think 4ms, rand, rand think 20ms)'][1:3],
                         ('missing', 'missing'))
        self.assertEqual(rows['fair time: every process served (disk time '
                              'share > 0)'][1:3], ('4/4 served', 'met'))
        # the seeds first, in order, then the issues' goals
        labels = [line[7:] for line in page.splitlines()
                  if line.startswith('   * - ')][1:]
        self.assertEqual(labels, ['seed 000'] * 2 + ['seed 001'] * 2 +
                         ['seed 002'] * 6 + ['seed 003'] * 6 + ['seed 004'] +
                         ['issue 4'] * 8 + ['issue 13'] * 15 +
                         # the overview's goals against mq-deadline with wbt,
                         # then against bfq (not measured there: missing)
                         ['issue 31'] * 4 +
                         # startup's: 4 loads x 4 goals, 5 of the 40 ms
                         # reader (one per load, idle too); the trade
                         # against bfq (5) and the slow reader's disk
                         # total (2)
                         ['issue 32'] * 21 +
                         # the overview's 7, cfq's cooperators 2
                         ['issue 34'] * 9)

    def test_every_figure_follows_the_json(self):
        self.full_size()
        _, _, before = self.publish()

        def sg(doc):
            for r in doc['rows']:
                if r['config']['sg_segments'] == 64:
                    r['metrics']['MBps']['median'] *= 2

        def raid(doc):
            doc['rows'][0]['runs']['MBps'][2] = 50.0

        def header(doc):
            doc['kernel'] = '6.12.999-other'
            doc['machine'] = dict(MACHINE, cpu='Other CPU')
        self.edit('sg-segments', sg)
        self.edit('raid0-dd', raid)
        for e in bench.EXPERIMENTS:
            self.edit(e.name, header)
        _, _, page = self.publish()
        rows = summary(page)
        self.assertEqual(rows['20 direct-I/O readers: MB/s, 64 segments '
                              'against 32'][1], '2.07x')
        self.assertEqual(rows['dd to md raid0: runs of later kernels below '
                              '0.8x the base median'][1:3],
                         ('1 of 15 runs (default, the only kernel '
                          'configuration: against its own median)',
                          'missing'))
        self.assertIn(':Kernel: 6.12.999-other', page)
        self.assertIn(':Machine: Other CPU', page)
        self.assertIn('                50.0', page)
        self.assertNotEqual(before, page)

    def test_missing_metric_prints_missing(self):
        self.full_size()

        def drop(doc):
            for r in doc['rows']:
                if r['config'].get('size_kb') == 64:
                    r['metrics'].pop('sys_s')
                    r['runs'].pop('sys_s')
        self.edit('bs-sweep', drop)
        st, _, page = self.publish()
        r = summary(page)['sequential reads through sg, u320-10k (seed: '
                          'u320 disk): system time of 1K transfers against '
                          '64K']
        self.assertEqual(r[:3], ('23.93x', 'missing', 'missing'))
        self.assertIn('not measured in this run', r[3])

    def test_runs_measured_from_the_data(self):
        # RUNS=3 asked for, every figure measured once: the section, its
        # table and its caption say 1 run, not 3 (a draft: 1 run)
        self.full_size(measured=False)
        st, _, page = self.publish('--draft')
        sec = page.split('\nsimhba-calibration\n', 1)[1].split(
            '\nraid0-dd (seed 004)\n', 1)[0]
        self.assertIn(':RUNS, SCALE: 3, 1\n:Runs measured: 1 run\n', sec)
        self.assertIn('Measured (1 run, no min-max)::', sec)
        self.assertNotIn('3 runs', sec)
        self.assertIn('1 run (no spread)', sec)

        # three runs of every figure but one
        def three(doc):
            for r in doc['rows']:
                for m, v in r['runs'].items():
                    if m != 'rand_qd1_iops':
                        r['runs'][m] = v * 3
        self.edit('simhba-calibration', three)
        st, _, page = self.publish('--draft')
        sec = page.split('\nsimhba-calibration\n', 1)[1].split(
            '\nraid0-dd (seed 004)\n', 1)[0]
        self.assertIn(':Runs measured: 3 runs (rand\\_qd1\\_iops: 1 run)\n',
                      sec)
        self.assertIn('Measured (median, min-max of the runs)::', sec)
        self.assertIn('median of 3 runs (rand\\_qd1\\_iops: 1 run), bars '
                      'min-max', sec)
        # a goal is judged on the medians unless its why says otherwise
        self.assertIn('a goal is met or not by the medians of this run, '
                      'unless its why names another basis', page)

    # --- bench.py --spread --------------------------------------------------

    def spread(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            st = bench.main(['--spread'] + list(args))
        return st, out.getvalue(), err.getvalue()

    def test_spread_table(self):
        def runs(doc, v):
            doc['rows'] = [
                {'config': {'elevator': 'a'}, 'metrics': {},
                 'runs': {'MBps': [10.0, 11.0, 10.5]}},
                {'config': {'elevator': 'b'}, 'metrics': {},
                 'runs': {'MBps': [v, 2 * v, 1.5 * v]}},
                {'config': {'elevator': 'c'}, 'metrics': {},
                 'runs': {'MBps': [4.0, 4.0, 4.0]}},
                {'config': {'elevator': 'd'}, 'metrics': {},
                 'runs': {'MBps': [3.0]}}]
        self.edit('raid0-dd', lambda d: runs(d, 5.0))
        st, out, err = self.spread('icount=' + self.run)
        self.assertEqual((st, err), (0, ''))
        rows = out.split('   * - raid0-dd\n', 1)[1].splitlines()
        # the largest (and where), then the median of the configurations
        # with two runs or more; one run is no spread
        self.assertEqual(rows[:2], ['     - MB/s',
                                    '     - 2.000 (elevator=b) / 1.100'])
        self.assertIn('icount: largest max/min', out)
        # an experiment without two runs of anything is left out
        self.assertNotIn('dbt2', out)

    def test_spread_label_of_several_runs(self):
        # one label twice: one column of both runs' experiments
        self.split_run()
        cols = {e.name: e.columns[0][0] for e in bench.EXPERIMENTS}
        for n, d in (('raid0-dd', self.run), ('cfq', self.run2)):
            p = os.path.join(d, n + '.json')
            with open(p) as fh:
                doc = json.load(fh)
            doc['rows'] = [{'config': {'elevator': 'b'}, 'metrics': {},
                            'runs': {cols[n]: [5.0, 10.0]}}]
            with open(p, 'w') as fh:
                json.dump(doc, fh)
        st, out, err = self.spread('icount=' + self.run,
                                   'icount=' + self.run2)
        self.assertEqual((st, err), (0, ''))
        self.assertIn('   * - raid0-dd\n', out)
        self.assertIn('   * - cfq\n', out)
        self.assertEqual(out.count('icount: largest max/min'), 1)
        # the same experiment in both: an error, as for make publish
        shutil.copy(os.path.join(self.run2, 'cfq.json'), self.run)
        st, out, err = self.spread('icount=' + self.run,
                                   'icount=' + self.run2)
        self.assertEqual(st, 2)
        self.assertIn('cfq is in both', err)

    def test_spread_bad_input(self):
        for args in ([], ['nolabel'], ['x=' + self.tmp]):
            st, out, err = self.spread(*args)
            self.assertEqual((st, out), (2, ''))
            self.assertTrue(err)

    @unittest.skipIf(docutils is None, 'docutils is not installed')
    def test_page_is_valid_restructuredtext(self):
        self.full_size()
        note = '- a note_ with *stars*, |bars|, `ticks` and a \\'
        self.edit('overview', lambda d: d.update(notes=[note]))
        st, _, page = self.publish()
        err = io.StringIO()
        tree = docutils.core.publish_doctree(
            page, settings_overrides={'report_level': 2, 'halt_level': 5,
                                      'warning_stream': err})
        self.assertEqual(err.getvalue(), '')
        # the note reads as written: its markup characters are text
        self.assertIn(note, tree.astext())


class ModelChangesTest(unittest.TestCase):
    def git(self, *args):
        return subprocess.run(['git', '-C', self.top, '-c', 'user.name=t',
                               '-c', 'user.email=t@t'] + list(args),
                              capture_output=True, text=True,
                              check=True).stdout.strip()

    def commit(self, path, msg):
        full = os.path.join(self.top, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, 'a') as fh:
            fh.write(msg + '\n')
        self.git('add', path)
        self.git('commit', '-q', '-m', msg)
        return self.git('rev-parse', '--short', 'HEAD')

    def setUp(self):
        self.top = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.top)
        self.git('init', '-q')

    def test_model_commits_after_the_series(self):
        base = self.commit('README', 'start')
        self.commit('scripts/lab/x.py', 'lab: not the model')
        fix = self.commit('drivers/scsi/simhba/simhba_model.c',
                          'simhba: a model fix')
        self.commit('drivers/scsi/simhba/simhba_kunit.c',
                    'simhba: KUnit: not the model')
        self.assertEqual(publish.model_changes(base, self.top),
                         ['%s simhba: a model fix' % fix])
        self.assertEqual(publish.model_changes(fix, self.top), [])
        # a run with uncommitted changes counts from its commit
        self.assertEqual(publish.model_changes(base + '-dirty', self.top),
                         ['%s simhba: a model fix' % fix])
        # several series: what any one of them lacks
        self.assertEqual(publish.model_changes(fix + ', ' + base,
                                               self.top),
                         ['%s simhba: a model fix' % fix])
        # a commit git does not know: cannot tell
        self.assertIsNone(publish.model_changes('0123abc', self.top))


class ClockTextTest(unittest.TestCase):
    def test_one_name_per_experiment_and_clock(self):
        # KERNELS=base,full: two boots of raid0-dd on one clock
        boot = {'part': None, 'accel': 'icount', 'cpus': 1}
        docs = {'raid0-dd': {'lab': {'parts': [boot, dict(boot)],
                                     'seed': 1}}}
        self.assertEqual(publish.clock_text(docs),
                         'icount shift=0 (1 ns per instruction): raid0-dd; '
                         'seed 1')


if __name__ == '__main__':
    unittest.main()
