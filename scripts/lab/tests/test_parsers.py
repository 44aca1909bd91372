# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the shared fio and pgbench parsers of scripts/lab/parsers.py
as the guest's scripts call them (bench_parse KIND [ARG...] FILE...)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import parsers  # noqa: E402


def job(name, read_iops=0.0, write_iops=0.0, read_bw=0, write_bw=0):
    return {'jobname': name,
            'read': {'iops': read_iops, 'bw_bytes': read_bw},
            'write': {'iops': write_iops, 'bw_bytes': write_bw}}


def report(*jobs):
    return json.dumps({'fio version': 'fio-3.33', 'jobs': list(jobs)})


class FioTest(unittest.TestCase):
    def test_jobs_of_every_report(self):
        text = ('fio: a message before the report\n' +
                report(job('a'), job('b')) + report(job('a')))
        self.assertEqual([j['jobname'] for j in parsers.fio_jobs(text)],
                         ['a', 'b', 'a'])
        self.assertEqual(parsers.fio_jobs('not a report'), [])

    def test_iops_reads_and_writes_of_every_job(self):
        text = report(job('r', read_iops=100.04), job('w', write_iops=50.0),
                      job('rw', read_iops=0.5, write_iops=0.5))
        self.assertEqual(parsers.fio_iops(text), 151.0)
        self.assertEqual(parsers.fio_iops(report(job('r', 1234.56))), 1234.6)
        # no job: an error, never 0
        self.assertRaises(ValueError, parsers.fio_iops, 'fio: no report')

    def test_mbps_of_the_named_jobs(self):
        text = report(job('reader', read_bw=30000000),
                      job('reader', read_bw=12345678),
                      job('writer', read_bw=1, write_bw=70000000))
        self.assertEqual(parsers.fio_mbps(text, 'reader', 'read'), 42.35)
        self.assertEqual(parsers.fio_mbps(text, 'writer', 'write'), 70.0)
        self.assertRaises(ValueError, parsers.fio_mbps, text, 'nosuch',
                          'read')

    def test_job_p99_in_the_unit_asked(self):
        text = json.dumps({'jobs': [
            {'jobname': 'rd', 'read': {'clat_ns': {'bins': {
                '1000': 98, '2500000': 1, '9000000': 1}}}},
            {'jobname': 'wr', 'read': {'clat_ns': {}}}]})
        self.assertEqual(parsers.fio_job_p99(text, 'rd', 'ms'), 2.5)
        self.assertEqual(parsers.fio_job_p99(text, 'rd', 'us'), 2500.0)
        # read nothing, or no such job: not measured, not 0
        self.assertIsNone(parsers.fio_job_p99(text, 'wr', 'ms'))
        self.assertIsNone(parsers.fio_job_p99(text, 'nosuch', 'ms'))

    def test_pgbench_script_tps(self):
        text = ('SQL script 1: /x/new_order.sql\n'
                ' - weight: 45 (targets 45.0% of total)\n'
                ' - 90 transactions (45.0% of total, tps = 1.503)\n')
        self.assertEqual(parsers.pgbench_script_tps(text, 'new_order.sql'),
                         1.503)
        self.assertIsNone(parsers.pgbench_script_tps(text, 'payment.sql'))


class StartupTest(unittest.TestCase):
    """The startup experiment's starts, and a start over the cap, which
    is never a number it did not reach."""

    def test_starts_within_the_cap(self):
        text = ''.join('ok %d.0 %d\n' % (t, 200000) for t in range(1, 11))
        m = parsers.startup_stats(text, '120', '51200000')
        self.assertEqual((m['starts'], m['over_cap']), (10, 0))
        self.assertEqual((m['start_mean_s'], m['start_p90_s'],
                          m['start_max_s']), (5.5, 9.0, 10.0))
        # 200000 sectors of 512 B, less the application's 51.2 MB: 51.2
        # MB a start, over the 55 s of the ten starts
        self.assertEqual(m['bg_MBps'], round(512 / 55, 3))
        self.assertNotIn('app_MB', m)

    def test_over_the_cap(self):
        text = ''.join('ok %d.0 %d\n' % (t, 200000) for t in range(1, 10))
        text += 'over 120.01 2400000\n'
        m = parsers.startup_stats(text, '120', '0')
        self.assertEqual((m['starts'], m['over_cap'], m['cap_s']),
                         (10, 1, 120.0))
        # one start of ten over the cap: the mean and the max are not
        # known, the 90th percentile (the 9th of 10) is
        self.assertIsNone(m['start_mean_s'])
        self.assertIsNone(m['start_max_s'])
        self.assertEqual(m['start_p90_s'], 9.0)
        # two of ten: the 9th is over the cap too
        text += 'over 120.02 2400000\n'
        m = parsers.startup_stats(text, '120', '0')
        self.assertIsNone(m['start_p90_s'])
        self.assertEqual(m['over_cap'], 2)

    def test_idle_disk_measures_the_application(self):
        m = parsers.startup_stats('ok 2.5 100000\nok 3.5 120000\n', '120',
                                  '-')
        self.assertEqual(m['app_MB'], round(110000 * 512 / 1e6, 3))
        self.assertNotIn('bg_MBps', m)

    def test_load_never_below_zero(self):
        # a start over the cap read less than the idle disk's figure
        m = parsers.startup_stats('over 3.0 1000\n', '3', '51200000')
        self.assertEqual(m['bg_MBps'], 0.0)

    def test_malformed(self):
        for text in ('', 'ok 1.0\n', 'done 1.0 5\n'):
            with self.assertRaises(ValueError):
                parsers.startup_stats(text, '120', '-')

    def test_deadline_misses(self):
        # one read due every 40 ms for 0.4 s: 10 deadlines
        log = ''.join('%d, %d, 0, 1048576, 0\n' % (t, lat) for t, lat in (
            (11, 11000000), (40, 90000), (80, 90000),
            # a stall: the 4th read (due at 160) completes at 300, and
            # the reader catches up, late for the 5th to 7th as well
            (300, 180000000), (301, 900000), (302, 900000), (303, 900000),
            (320, 90000), (360, 90000), (400, 90000),
            # after the run's end: not counted against a deadline
            (440, 90000)))
        log += '45, 90000, 1, 1048576, 0\n'    # a write: not a read
        m = parsers.fio_deadlines(log, '40', '0.4')
        self.assertEqual((m['rt_deadlines'], m['rt_reads']), (10, 11))
        # the 4th to 7th (due at 160, 200, 240, 280) late; the 8th, at
        # 320, just in time
        self.assertEqual(m['rt_misses'], 4)
        self.assertEqual(m['rt_p99_ms'], 180.0)
        # a reader that stops: every deadline after its last read missed
        m = parsers.fio_deadlines('10, 1000, 0, 4096, 0\n', '40', '0.4')
        self.assertEqual((m['rt_deadlines'], m['rt_misses']), (10, 9))
        with self.assertRaises(ValueError):
            parsers.fio_deadlines('45, 90000, 1, 4096, 0\n', '40', '1')


class GuestCallTest(unittest.TestCase):
    """parsers.py KIND [ARG...] FILE..., as bench_parse runs it."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        for f in os.listdir(self.dir):
            os.unlink(os.path.join(self.dir, f))
        os.rmdir(self.dir)

    def file(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as fh:
            fh.write(text)
        return path

    def run_parsers(self, *argv):
        return subprocess.run([sys.executable, parsers.__file__] +
                              list(argv), capture_output=True, text=True)

    def test_arguments_before_the_files(self):
        a = self.file('r1.json', report(job('r', read_bw=1000000)))
        b = self.file('r2.json', report(job('r', read_bw=2500000)))
        p = self.run_parsers('fio-mbps', 'r', 'read', a, b)
        self.assertEqual((p.returncode, p.stdout), (0, '3.5\n'))
        p = self.run_parsers('fio-iops', self.file('i.json', report(
            job('r', read_iops=10.25))))
        self.assertEqual((p.returncode, p.stdout), (0, '10.2\n'))

    def test_nothing_found_is_a_failure(self):
        a = self.file('r1.json', report(job('r', read_bw=1000000)))
        p = self.run_parsers('fio-mbps', 'w', 'read', a)
        self.assertEqual((p.returncode, p.stdout), (1, ''))
        self.assertEqual(p.stderr,
                         'parsers.py fio-mbps: no fio job w in the report\n')
        p = self.run_parsers('fio-iops', self.file('e.json', ''))
        self.assertEqual((p.returncode, p.stdout), (1, ''))

    def test_unreadable_file_is_a_failure(self):
        missing = os.path.join(self.dir, 'none.out')
        p = self.run_parsers('pgbench-script-tps', 'new_order.sql', missing)
        self.assertEqual((p.returncode, p.stdout), (1, ''))
        self.assertEqual(p.stderr.count('\n'), 1)
        self.assertIn('parsers.py pgbench-script-tps: ', p.stderr)
        self.assertIn('none.out', p.stderr)

    def test_usage(self):
        a = self.file('r1.json', report(job('r')))
        for argv in ((), ('nosuch', a), ('fio-mbps', 'r', 'read'),
                     ('fio-iops',)):
            p = self.run_parsers(*argv)
            self.assertEqual(p.returncode, 2, argv)
            self.assertIn('usage: parsers.py KIND [ARG...] FILE...',
                          p.stderr)
            self.assertIn('  fio-mbps JOB read|write\n', p.stderr)


if __name__ == '__main__':
    unittest.main()
