# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/lab/results.py."""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import results  # noqa: E402

KUNIT_LOG = """\
[    3.100000] blk26: loading KUnit module simhba_kunit
[    3.200000] KTAP version 1
[    3.200001] 1..2
[    3.200002]     KTAP version 1
[    3.200003]     # Subtest: simhba_seek
[    3.200004]     # module: simhba_kunit
[    3.200005]     1..3
[    3.200006]     ok 1 seek_monotone
[    3.200007]         KTAP version 1
[    3.200008]         # Subtest: seek_profiles
[    3.200009]         ok 1 u320-10k
[    3.200010]         not ok 2 sata-7200
[    3.200011]     # seek_profiles: pass:1 fail:1 skip:0 total:2
[    3.200012]     not ok 2 seek_profiles
[    3.200013]     ok 3 needs_ssd # SKIP no ssd profile
[    3.200014] # simhba_seek: pass:1 fail:1 skip:1 total:3
[    3.200015] not ok 1 simhba_seek
[    3.200016]     KTAP version 1
[    3.200017]     # Subtest: simhba_rotation
[    3.200018]     1..2
[    3.200019]     ok 1 one_rotation
"""


class TapTest(unittest.TestCase):
    def test_flat(self):
        r = results.parse_tap(
            "TAP version 13\n"
            "ok 1 block/001 - elevator switching (3.1 s)\n"
            "not ok 2 block/002 - null_blk: exit status 1\n"
            "# FAIL: nullb0 has 2 hardware queues\n"
            "ok 3 block/003 # SKIP program fio is not installed\n"
            "1..3\n")
        self.assertEqual([(x.name, x.status) for x in r],
                         [('block/001', 'pass'), ('block/002', 'fail'),
                          ('block/003', 'skip')])
        self.assertIn('hardware queues', r[1].detail)
        self.assertEqual(r[2].detail, 'program fio is not installed')

    def test_diagnostics_belong_to_a_failure_only(self):
        r = results.parse_tap("ok 1 a/001 - fine\n# chatter\n"
                              "not ok 2 a/002\n# why\n")
        # and a failure without a description has no empty first line
        self.assertEqual([x.detail for x in r], ['fine', '# why'])

    def test_missing_is_failed(self):
        r = results.summarize(results.parse_tap("ok 1 a/001\n"),
                              ['a/001', 'a/002'])
        self.assertEqual([(x.name, x.status) for x in r],
                         [('a/001', 'pass'), ('a/002', 'fail')])
        self.assertEqual(r[1].detail, 'did not run')


class ExpectAndSkipTest(unittest.TestCase):
    def test_suite_expected_by_name(self):
        r = results.summarize(results.parse_ktap(KUNIT_LOG),
                              ['kunit/simhba_rotation', 'kunit/simhba_gone',
                               'kunit/simhba'])
        missing = [x.name for x in r if x.detail == 'did not run']
        # a prefix of a suite's name is not that suite
        self.assertEqual(missing, ['kunit/simhba_gone', 'kunit/simhba'])

    def test_unlisted_skip_fails(self):
        r = results.parse_tap("ok 1 a/001 # SKIP no fio\n"
                              "ok 2 a/002 # SKIP no ssd\n"
                              "ok 3 a/003\n", prefix='default:')
        results.police_skips(r, {'a/002': 'no ssd profile in CI'})
        self.assertEqual([(x.name, x.status) for x in r],
                         [('default:a/001', 'fail'),
                          ('default:a/002', 'skip'),
                          ('default:a/003', 'pass')])
        self.assertIn('does not allow it: no fio', r[0].detail)

    def test_labelled_skip_allowed_in_its_set_only(self):
        r = results.parse_tap("ok 1 a/002 # SKIP lockdep is on\n",
                              prefix='debug:')
        r += results.parse_tap("ok 1 a/002 # SKIP no python3\n",
                               prefix='default:')
        results.police_skips(r, {'debug:a/002': 'lockdep reports upstream'})
        self.assertEqual([(x.name, x.status) for x in r],
                         [('debug:a/002', 'skip'),
                          ('default:a/002', 'fail')])

    def test_allowed_skips_need_a_reason(self):
        path = os.path.join(os.environ.get('TMPDIR', '/tmp'),
                            'allowed-skips-%d' % os.getpid())
        try:
            with open(path, 'w') as fh:
                fh.write('# comment\n\nblock/003  needs two disks\n')
            self.assertEqual(results.read_allowed_skips(path),
                             {'block/003': 'needs two disks'})
            with open(path, 'a') as fh:
                fh.write('block/004\n')
            with self.assertRaises(ValueError):
                results.read_allowed_skips(path)
        finally:
            os.unlink(path)


class MainTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_main(self, tap, expect, *extra):
        path = os.path.join(self.dir, 'tap')
        with open(path, 'w') as fh:
            fh.write(tap)
        names = os.path.join(self.dir, 'expect')
        with open(names, 'w') as fh:
            fh.write(expect)
        out = io.StringIO()
        with redirect_stdout(out):
            st = results.main(['--set', 'd:,%s,,%s' % (path, names),
                               '--json', os.path.join(self.dir, 'json')] +
                              list(extra))
        with open(os.path.join(self.dir, 'json')) as fh:
            return st, out.getvalue(), json.load(fh)

    def test_status_and_summary(self):
        st, out, doc = self.run_main("ok 1 a/001\nok 2 a/002 # SKIP x\n",
                                     "a/001\n")
        self.assertEqual(st, 0)
        self.assertIn('ok d:a/002 # SKIP x', out)
        self.assertTrue(out.endswith('1 passed, 0 failed, 1 skipped\n'))
        self.assertEqual(doc['counts'], {'pass': 1, 'fail': 0, 'skip': 1})
        # a failure, or an expected test without a result, fails the run
        st, out, _ = self.run_main("not ok 1 a/001\n# FAIL: boom\n", "")
        self.assertEqual(st, 1)
        self.assertIn('not ok d:a/001\n#   FAIL: boom\n', out)
        st, out, _ = self.run_main("ok 1 a/001\n", "a/001\na/002\n")
        self.assertEqual(st, 1)
        self.assertIn('not ok d:a/002\n#   did not run', out)
        # a skip the file does not allow fails the run
        allowed = os.path.join(self.dir, 'allowed')
        with open(allowed, 'w') as fh:
            fh.write('a/003 needs a disk\n')
        st, _, doc = self.run_main("ok 1 a/002 # SKIP x\n", "",
                                   '--allowed-skips', allowed)
        self.assertEqual(st, 1)
        self.assertEqual(doc['counts'], {'pass': 0, 'fail': 1, 'skip': 0})


class ConsoleTapTest(unittest.TestCase):
    def test_tap_from_the_console_when_its_file_is_missing(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        console = os.path.join(d, 'console.log')
        with open(console, 'w') as fh:
            fh.write('TAP version 13\n' + KUNIT_LOG +
                     'ok 1 a/001 - one (1.0 s)\n'
                     'not ok 2 a/002 - two: boom\n# FAIL: x\n'
                     '[    9.0] ok 7 not/tap - a kernel line\n')
        expect = os.path.join(d, 'expect')
        with open(expect, 'w') as fh:
            fh.write('a/001\na/002\na/003\n')
        got = {r.name: r.status for r in results.collect(
            'k:', os.path.join(d, 'tests.tap'), console, expect)}
        self.assertEqual(got['k:a/001'], 'pass')
        self.assertEqual(got['k:a/002'], 'fail')
        self.assertEqual(got['k:a/003'], 'fail')    # did not run
        self.assertEqual(got['k:kunit/simhba_seek/seek_monotone'], 'pass')
        self.assertNotIn('k:not/tap', got)
        # with the file there, the console's TAP is not read twice
        with open(os.path.join(d, 'tests.tap'), 'w') as fh:
            fh.write('ok 1 a/001\n')
        got = {r.name: r.detail for r in results.collect(
            'k:', os.path.join(d, 'tests.tap'), console, expect)}
        self.assertEqual(got['k:a/002'], 'did not run')


class KtapTest(unittest.TestCase):
    def test_cases_params_and_skips(self):
        r = results.parse_ktap(KUNIT_LOG)
        got = [(x.name, x.status) for x in r]
        self.assertEqual(got[:3], [
            ('kunit/simhba_seek/seek_monotone', 'pass'),
            ('kunit/simhba_seek/seek_profiles', 'fail'),
            ('kunit/simhba_seek/needs_ssd', 'skip')])
        # Parameters fold into their case: no kunit/seek_profiles/... rows.
        self.assertFalse(any('u320' in n for n, _ in got))

    def test_truncated_suite_fails(self):
        r = results.parse_ktap(KUNIT_LOG)
        self.assertEqual([(x.name, x.status) for x in r][3:], [
            ('kunit/simhba_rotation/one_rotation', 'pass'),
            ('kunit/simhba_rotation/(missing)', 'fail')])

    def test_counts(self):
        c = results.counts(results.parse_ktap(KUNIT_LOG))
        self.assertEqual(c, {'pass': 2, 'fail': 2, 'skip': 1})

    def test_no_kunit(self):
        self.assertEqual(results.parse_ktap("[ 1.0] hello\nok 1 x\n"), [])


if __name__ == '__main__':
    unittest.main()
