# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the data kept beside the results page (pubdata.py) and
of the page drawn again from it (republish.py)."""

import glob
import gzip
import io
import json
import os
import re
import shutil
import struct
import sys
import tempfile
import unittest
import zlib
from contextlib import redirect_stderr, redirect_stdout
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
sys.path.insert(0, os.path.dirname(__file__))
import bench  # noqa: E402
from fakes import fake_draw  # noqa: E402
import publish  # noqa: E402
import pubdata  # noqa: E402
import republish  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(__file__), 'fixtures')
RUN_ID = '20261201-010203'
# a small run of several experiments, and a second run (cfq's own id)
RUN = [('run-cfe4f0a', n) for n in ('simhba-calibration', 'raid0-dd',
                                     'ioc-random')]
CFQ_RUN = '20261130-182451'

HAVE_GNUPLOT = shutil.which('gnuplot') is not None


def chunk(kind, body):
    return struct.pack('>I4s', len(body), kind) + body + \
        struct.pack('>I', zlib.crc32(kind + body))


class Fixture(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.run = os.path.join(self.tmp, 'results', RUN_ID)
        os.makedirs(self.run)
        for d, n in RUN:
            shutil.copy(os.path.join(FIXTURES, d, n + '.json'), self.run)
        self.out = os.path.join(self.tmp, 'doc', 'blk26-results.rst')
        self.figs = os.path.join(self.tmp, 'doc', 'blk26-results')
        self.data = os.path.join(self.figs, 'data')

    def publish(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            st = bench.main(['--publish', self.run, '--out', self.out,
                             '--draft'] + list(args))
        return st, out.getvalue() + err.getvalue()


class DataTest(Fixture):

    def test_gz_has_no_time_or_name(self):
        a = pubdata.gz(b'x' * 1000)
        self.assertEqual(a, pubdata.gz(b'x' * 1000))
        self.assertEqual(a[4:8], b'\0\0\0\0')          # MTIME
        self.assertFalse(a[3] & 0x08)                   # no FNAME
        self.assertEqual(gzip.decompress(a), b'x' * 1000)

    def test_png_clean_drops_time_and_text(self):
        sig = b'\x89PNG\r\n\x1a\n'
        ihdr = chunk(b'IHDR', b'\0' * 13)
        png = sig + ihdr + chunk(b'tIME', b'\x07\xea\x0c\x01\0\0\0') + \
            chunk(b'tEXt', b'Software\0gnuplot') + chunk(b'IDAT', b'x') + \
            chunk(b'IEND', b'')
        self.assertEqual(pubdata.png_clean(png), sig + ihdr +
                         chunk(b'IDAT', b'x') + chunk(b'IEND', b''))
        self.assertEqual(pubdata.png_clean(b'no png'), b'no png')

    def test_publish_writes_the_data(self):
        with mock.patch.object(publish, 'draw_figure', fake_draw):
            st, msg = self.publish()
        self.assertEqual(st, 0, msg)
        files = sorted(os.listdir(os.path.join(self.data, RUN_ID)))
        self.assertEqual(files, sorted('%s.%s.gz' % (n, k) for _, n in RUN
                                       for k in ('json', 'csv')))
        with gzip.open(os.path.join(self.data, RUN_ID,
                                    'raid0-dd.json.gz')) as fh, \
                open(os.path.join(self.run, 'raid0-dd.json'), 'rb') as src:
            self.assertEqual(fh.read(), src.read())
        # the CSV written from the JSON's rows when the run has none
        with gzip.open(os.path.join(self.data, RUN_ID,
                                    'raid0-dd.csv.gz'), 'rt') as fh:
            self.assertTrue(fh.readline().startswith('kernel,'))

    def test_kept_traces_with_the_data(self):
        # a run's kept, gzipped raw files of an experiment on the page go
        # with its data, byte for byte; another experiment's do not
        g = os.path.join(self.run, 'guest-0')
        os.makedirs(g)
        trace = pubdata.gz(b'0.1 D 9 k 0 8 R\n')
        for f in ('raid0-dd-x.txt.gz', 'cfq-y.txt.gz', 'raid0-dd-z.txt'):
            with open(os.path.join(g, f), 'wb') as fh:
                fh.write(trace)
        with mock.patch.object(publish, 'draw_figure', fake_draw):
            st, msg = self.publish()
        self.assertEqual(st, 0, msg)
        files = os.listdir(os.path.join(self.data, RUN_ID))
        self.assertIn('raid0-dd-x.txt.gz', files)
        self.assertNotIn('cfq-y.txt.gz', files)
        self.assertNotIn('raid0-dd-z.txt', files)
        with open(os.path.join(self.data, RUN_ID, 'raid0-dd-x.txt.gz'),
                  'rb') as fh:
            self.assertEqual(fh.read(), trace)
        # and the directory is still publish's own to prune
        self.assertTrue(pubdata.managed(os.path.join(self.data, RUN_ID)))

    def test_stale_run_removed(self):
        os.makedirs(os.path.join(self.data, '20200101-000000'))
        with open(os.path.join(self.data, '20200101-000000',
                               'cfq.json.gz'), 'wb') as fh:
            fh.write(pubdata.gz(b'{}'))
        os.makedirs(os.path.join(self.data, RUN_ID))
        old = os.path.join(self.data, RUN_ID, 'dbt2.json.gz')
        with open(old, 'wb') as fh:
            fh.write(pubdata.gz(b'{}'))
        with mock.patch.object(publish, 'draw_figure', fake_draw):
            st, msg = self.publish()
        self.assertEqual(st, 0, msg)
        self.assertEqual(sorted(os.listdir(self.data)),
                         [RUN_ID, pubdata.CONTEXT])
        self.assertFalse(os.path.exists(old))

    def test_page_of_the_data_not_of_git(self):
        # what git told at publish time is kept in the data: a simhba
        # commit after it, or a clone where git cannot tell, leaves the
        # page drawn again the same
        told = ['1234567 simhba: a fix']
        shutil.copy(os.path.join(FIXTURES, 'run-6646cc3', 'cfq.json'),
                    self.run)
        with mock.patch.object(publish, 'draw_figure', fake_draw), \
                mock.patch.object(publish, 'model_changes',
                                  return_value=told):
            st, msg = self.publish()
        self.assertEqual(st, 0, msg)
        with open(os.path.join(self.data, pubdata.CONTEXT)) as fh:
            self.assertEqual(json.load(fh)['simhba_changes'], told)
        with open(self.out) as fh:
            text = fh.read()
        self.assertIn('in 1234567 simhba: a fix.', text)
        for now in (told + ['89abcde simhba: unrelated'], None, []):
            again = os.path.join(self.tmp, 'again')
            with mock.patch.object(publish, 'draw_figure', fake_draw), \
                    mock.patch.object(publish, 'model_changes',
                                      return_value=now):
                st, msg = republish.republish(self.data, again,
                                              bench.EXPERIMENTS)
                self.assertEqual(st, 0, msg)
                self.assertEqual(republish.check(self.out, self.data,
                                                 bench.EXPERIMENTS), [])
                note = republish.model_note(self.data)
            with open(os.path.join(again, 'blk26-results.rst')) as fh:
                self.assertEqual(fh.read(), text, now)
            shutil.rmtree(again)
            if now and len(now) > 1:
                self.assertIn('simhba changed after the page was published '
                              '(89abcde simhba: unrelated)', note)
            else:
                self.assertIsNone(note)

    def test_other_files_left_alone(self):
        # only a run's directory of data files is publish's to prune
        keep = [os.path.join(self.data, 'README'),
                os.path.join(self.data, 'notes', 'x.txt'),
                os.path.join(self.data, '20200101-000000', 'why.txt'),
                os.path.join(self.data, '20200101-000000', 'cfq.json.gz')]
        for p in keep:
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'wb') as fh:
                fh.write(b'not publish\'s')
        with mock.patch.object(publish, 'draw_figure', fake_draw):
            st, msg = self.publish()
        self.assertEqual(st, 0, msg)
        for p in keep:
            self.assertTrue(os.path.exists(p), p)

    def test_bad_run_id_refused(self):
        for rid in ('../evil', '..', 'a b', 'x/y'):
            with open(os.path.join(self.run, 'raid0-dd.json')) as fh:
                doc = json.load(fh)
            doc['run'] = rid
            with open(os.path.join(self.run, 'raid0-dd.json'), 'w') as fh:
                json.dump(doc, fh)
            with mock.patch.object(publish, 'draw_figure', fake_draw):
                st, msg = self.publish()
            self.assertEqual(st, 2, rid)
            self.assertIn('run id %r cannot name a directory' % rid, msg)
            self.assertIn('nothing written', msg)
            self.assertFalse(os.path.exists(self.out))
        self.assertIn('cannot name', pubdata.run_id_error('.'))
        self.assertIsNone(pubdata.run_id_error('20261201-010203'))

    def test_bound_refused_nothing_written(self):
        with mock.patch.object(pubdata, 'LIMIT', 1000):
            st, msg = self.publish()
        self.assertEqual(st, 2)
        self.assertIn('more than the bound of 1000', msg)
        self.assertIn('nothing written', msg)
        self.assertFalse(os.path.exists(self.out))
        self.assertFalse(os.path.exists(self.figs))

    def test_bound_is_documented(self):
        self.assertEqual(pubdata.LIMIT, 4 * 2 ** 20)
        self.assertIn('4 MiB', publish.__doc__)
        rst = os.path.join(os.path.dirname(__file__), '..', '..', '..',
                           'Documentation', 'block', 'blk26-lab.rst')
        with open(rst) as fh:
            self.assertIn('4 MiB', fh.read())

    def test_unpack_nothing(self):
        with self.assertRaises(pubdata.DataError):
            pubdata.unpack(os.path.join(self.tmp, 'none'),
                           os.path.join(self.tmp, 'x'))


@unittest.skipUnless(HAVE_GNUPLOT, 'no gnuplot')
class RepublishTest(Fixture):
    """The run published with its figures drawn by gnuplot, then drawn
    again from its data alone."""

    def setUp(self):
        super().setUp()
        run2 = os.path.join(self.tmp, 'results', CFQ_RUN)
        os.makedirs(run2)
        shutil.copy(os.path.join(FIXTURES, 'run-6646cc3', 'cfq.json'), run2)
        self.runs = [self.run, run2]
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            st = bench.main(['--publish'] + self.runs +
                            ['--out', self.out, '--draft'])
        self.assertEqual(st, 0, err.getvalue())

    def check(self, page=None):
        return republish.check(page or self.out, self.data,
                               bench.EXPERIMENTS)

    def test_same_bytes_again(self):
        again = os.path.join(self.tmp, 'again')
        st, msg = republish.republish(self.data, again, bench.EXPERIMENTS)
        self.assertEqual(st, 0, msg)
        for f in ['blk26-results.rst'] + [
                'blk26-results/%s.png' % n for n in
                ('simhba-calibration', 'raid0-dd', 'ioc-random', 'cfq')]:
            with open(os.path.join(self.tmp, 'doc', f), 'rb') as a, \
                    open(os.path.join(again, f), 'rb') as b:
                self.assertEqual(a.read(), b.read(), f)
        self.assertEqual(self.check(), [])

    def test_figure_byte_caught(self):
        p = os.path.join(self.figs, 'cfq.png')
        with open(p, 'rb') as fh:
            b = bytearray(fh.read())
        b[100] ^= 1
        with open(p, 'wb') as fh:
            fh.write(b)
        self.assertEqual(self.check(), ['cfq.png: not the figure drawn '
                                        'again from the data (gnuplot: the '
                                        'same data draws the same bytes '
                                        'with the same gnuplot, cairo and '
                                        'fonts)'])

    def test_page_number_caught(self):
        with open(self.out) as fh:
            text = fh.read()
        self.assertIn('\n                141.4\n', text)
        with open(self.out, 'w') as fh:
            fh.write(text.replace('\n                141.4\n',
                                  '\n                141.5\n'))
        bad = self.check()
        self.assertIn('the page differs from the one drawn again', bad[0])
        self.assertTrue(any('141.5 is no number of the data (drawn from '
                            'it: 141.4)' in b for b in bad), bad)

    def test_invented_number_in_the_code_caught(self):
        # the code writes a number no data gives: the pages agree, the
        # number does not move with the data and is nowhere in it
        real = publish.machine_text
        with mock.patch.object(publish, 'machine_text',
                               lambda d: real(d) + ', 4711 bogomips'):
            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                bench.main(['--publish'] + self.runs +
                           ['--out', self.out, '--draft'])
            bad = self.check()
        self.assertEqual(len(bad), 1, bad)
        self.assertIn('4711 has no source', bad[0])

    def test_data_bytes_checked(self):
        # the same JSON compressed otherwise, and a file of no run of
        # the page, are not what publish writes
        p = os.path.join(self.data, CFQ_RUN, 'cfq.json.gz')
        with open(p, 'rb') as fh:
            raw = gzip.decompress(fh.read())
        with open(p, 'wb') as fh:
            fh.write(gzip.compress(raw, compresslevel=1, mtime=0))
        with open(os.path.join(self.data, CFQ_RUN, 'dbt2.csv.gz'),
                  'wb') as fh:
            fh.write(pubdata.gz(b'x'))
        self.assertEqual(self.check(), [
            'data %s/cfq.json.gz: not the bytes publish writes (make '
            'republish OUT=%s writes it again)' % (CFQ_RUN, self.tmp +
                                                   '/doc'),
            'data %s/dbt2.csv.gz: no run or experiment of the page (make '
            'republish OUT=%s writes it again)' % (CFQ_RUN, self.tmp +
                                                   '/doc')])

    def test_stale_page_data_gone(self):
        shutil.rmtree(self.data)
        bad = self.check()
        self.assertIn('cannot be drawn again', bad[0])


class TokensTest(unittest.TestCase):

    def test_tokens(self):
        # a number glued to a unit or a name is a token too; a name's is
        # structural only where a pattern says so (republish.STRUCTURAL)
        t = [x for _, x in republish.tokens(
            'sata-7200 64KiB 6.12.117-blk26 141.4 0.87x (3/5) 2026-12-02, '
            '10% 0m0.323s 20ms')]
        self.assertEqual(t, ['7200', '64', '6.12', '117', '26', '141.4',
                             '0.87', '3', '5', '2026', '12', '02', '10', '0',
                             '0.323', '20'])

    def test_skeleton(self):
        self.assertEqual(republish.skeleton('a   1.5  b 2x 20ms'),
                         'a # b #x #ms')

    def test_structural_names(self):
        line = '.. figure:: blk26-results/raid0-dd.png 0m1.5s'
        pats = republish.STRUCTURAL + republish.names(bench.EXPERIMENTS)
        self.assertEqual([t for st, t in republish.tokens(line)
                          if not republish.structural(line, st, pats)],
                         ['1.5'])


class NumbersTest(Fixture):
    """Every number on a page has a source, and only where the page puts
    it: figures drawn without gnuplot."""

    def setUp(self):
        super().setUp()
        patch = mock.patch.object(publish, 'draw_figure', fake_draw)
        patch.start()
        self.addCleanup(patch.stop)

    def publish_files(self, files):
        """Publish (a draft) the fixture JSONs given, each in a run of
        its fixture directory, and check the page: the problems."""
        shutil.rmtree(os.path.join(self.tmp, 'results'))
        shutil.rmtree(os.path.join(self.tmp, 'doc'), ignore_errors=True)
        dirs = set()
        for f in files:
            d = os.path.join(self.tmp, 'results',
                             os.path.basename(os.path.dirname(f)))
            os.makedirs(d, exist_ok=True)
            shutil.copy(f, d)
            dirs.add(d)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            st = bench.main(['--publish'] + sorted(dirs) +
                            ['--out', self.out, '--draft'])
        self.assertEqual(st, 0, err.getvalue())
        return republish.check(self.out, self.data, bench.EXPERIMENTS)

    def test_every_fixture_passes_its_own_check(self):
        # the constants an experiment's code writes are declared next to
        # it, whichever experiments the data holds
        files = sorted(glob.glob(os.path.join(FIXTURES, 'run-*', '*.json')))
        self.assertEqual(len(files), len(bench.EXPERIMENTS))
        for f in files:
            self.assertEqual(self.publish_files([f]), [], f)
        self.assertEqual(self.publish_files(files), [])

    def test_page_of_another_name(self):
        # --out doc/foo.rst: its figures and data in doc/foo/, and the
        # check draws the page again under that name
        self.out = os.path.join(self.tmp, 'doc', 'foo.rst')
        st, msg = self.publish()
        self.assertEqual(st, 0, msg)
        data = os.path.join(self.tmp, 'doc', 'foo', 'data')
        out = io.StringIO()
        with redirect_stdout(out):
            st = bench.main(['--republish', '--check', '--page', self.out,
                             '--data', data])
        self.assertEqual(st, 0, out.getvalue())
        again = os.path.join(self.tmp, 'again')
        self.assertEqual(republish.republish(data, again, bench.EXPERIMENTS,
                                             'foo.rst')[0], 0)
        with open(self.out) as a, open(os.path.join(again, 'foo.rst')) as b:
            self.assertEqual(a.read(), b.read())

    def invented(self, text):
        """The problems of a page whose code writes text, no data's, in
        its header."""
        real = publish.machine_text
        with mock.patch.object(publish, 'machine_text',
                               lambda d: real(d) + text):
            st, msg = self.publish()
            self.assertEqual(st, 0, msg)
            return republish.check(self.out, self.data, bench.EXPERIMENTS)

    def test_small_invented_numbers_caught(self):
        for text, t in ((', 3 spare CPUs', '3'), (', 12 spare CPUs', '12'),
                        (', a tick of 20ms', '20'), (', 1K pages', '1')):
            bad = self.invented(text)
            self.assertEqual(len(bad), 1, (text, bad))
            self.assertIn('%s has no source' % t, bad[0])

    def test_number_glued_to_a_unit_changed_caught(self):
        real = publish.machine_text
        with mock.patch.object(publish, 'machine_text',
                               lambda d: real(d) + ', %.0fms' % (
                                   d['raid0-dd']['rows'][0]['metrics']
                                   ['MBps']['median'])):
            st, msg = self.publish()
            self.assertEqual(st, 0, msg)
            self.assertEqual(republish.check(self.out, self.data,
                                             bench.EXPERIMENTS), [])
            with open(self.out) as fh:
                text = fh.read()
            ms = re.search(r', (\d+)ms', text).group(1)
            with open(self.out, 'w') as fh:
                fh.write(text.replace(', %sms' % ms,
                                      ', %dms' % (int(ms) + 1)))
            bad = republish.check(self.out, self.data, bench.EXPERIMENTS)
        self.assertTrue(any('%d is no number of the data (drawn from it: '
                            '%s)' % (int(ms) + 1, ms) in b for b in bad),
                        bad)

    def test_guest_roots_have_sources(self):
        # the roots' hashes, packages and versions come from the data: they
        # move with it; "sha256" and "9p" are names, declared structural
        cfq = os.path.join(self.tmp, 'results', CFQ_RUN)
        os.makedirs(cfq)
        shutil.copy(os.path.join(FIXTURES, 'run-6646cc3', 'cfq.json'), cfq)
        for i, (d, n) in enumerate(RUN):
            p = os.path.join(self.run, n + '.json')
            with open(p) as fh:
                doc = json.load(fh)
            for part in doc['lab']['parts']:
                part['guest_root'] = {
                    'root': 'tmpfs', 'sha256': '%d1c0ffee' % i * 8,
                    'packages': ['fio 3.3%d-3' % i, 'libc6 2.36-9+deb12u9'],
                    'unowned': ['<tree>/tests/']}
            with open(p, 'w') as fh:
                json.dump(doc, fh)
        p = os.path.join(cfq, 'cfq.json')
        with open(p) as fh:
            doc = json.load(fh)
        for part in doc['lab']['parts']:
            part['guest_root'] = {'root': '9p'}
        with open(p, 'w') as fh:
            json.dump(doc, fh)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            st = bench.main(['--publish', self.run, cfq, '--out', self.out,
                             '--draft'])
        self.assertEqual(st, 0, err.getvalue())
        with open(self.out) as fh:
            text = fh.read()
        line = re.search(r'\n(:Guest root: .*)\n', text).group(1)
        for x in ('sha256 01c0ffee01c0ffee: %s (simhba-calibration)'
                  % RUN_ID, 'the host\'s root over 9p, no hash: %s '
                  '(cfq:disk, cfq:overhead)' % CFQ_RUN,
                  'fio 3.30-3 (%s), 3.31-3 (%s), 3.32-3 (%s)'
                  % ((RUN_ID,) * 3)):
            self.assertIn(x, line.replace('\\', ''))
        self.assertEqual(republish.check(self.out, self.data,
                                         bench.EXPERIMENTS), [])
        # a digit of a hash changed on the page: no number of the data
        with open(self.out, 'w') as fh:
            fh.write(text.replace('sha256 21c0ffee', 'sha256 31c0ffee'))
        bad = republish.check(self.out, self.data, bench.EXPERIMENTS)
        self.assertTrue(any('31 is no number of the data (drawn from it: 21)'
                            in b for b in bad), bad)
        # the names' numbers need their declarations
        with open(self.out, 'w') as fh:
            fh.write(text)
        for name, t in (('sha(256)', '256'), ('over (9)p', '9')):
            with mock.patch.object(republish, 'STRUCTURAL', [
                    x for x in republish.STRUCTURAL
                    if name not in x[0]]):
                bad = republish.check(self.out, self.data,
                                      bench.EXPERIMENTS)
            self.assertTrue(bad and all('%s has no source' % t in b
                                        for b in bad), (name, bad))

    def test_a_constant_only_where_declared(self):
        # cfq declares its weights: in cfq's section, not in another's
        self.assertIn('800', republish.declared(bench.BY_NAME['cfq']))
        self.assertNotIn('800',
                         republish.declared(bench.BY_NAME['raid0-dd']))
        lines = ['Summary', '=======', 'a 800', 'raid0-dd (seed 004)',
                 '-------------------', 'b 800', 'cfq', '---', 'c 800']
        scope = republish.scopes(lines, bench.EXPERIMENTS)
        self.assertEqual(['800' in scope[n] for n in (2, 5, 8)],
                         [True, False, True])


if __name__ == '__main__':
    unittest.main()
