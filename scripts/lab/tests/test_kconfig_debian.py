# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/lab/kconfig_debian.py: which options count as the
block layer's, how a built configuration is compared with Debian's, and
the exceptions file's format."""

import io
import lzma
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
import kconfig_debian as kd  # noqa: E402

DEBIAN = """\
CONFIG_BLK_WBT=y
CONFIG_BLK_WBT_MQ=y
CONFIG_IOSCHED_BFQ=m
CONFIG_MQ_IOSCHED_KYBER=m
CONFIG_BFQ_GROUP_IOSCHED=y
# CONFIG_BLK_CGROUP_IOLATENCY is not set
CONFIG_BLK_DEV_FD=m
CONFIG_EXT4_FS=m
"""


class KconfigDebianTest(unittest.TestCase):
    def test_full_prints_the_whole_configuration(self):
        with tempfile.TemporaryDirectory() as d:
            for name, opener in (('config', open),
                                 ('config.xz', lzma.open)):
                path = os.path.join(d, name)
                with opener(path, 'wt') as f:
                    f.write(DEBIAN)
                os.environ['DEBIAN_KCONFIG'] = path
                try:
                    out = io.StringIO()
                    with redirect_stdout(out):
                        self.assertEqual(kd.main(['kd', 'full']), 0)
                finally:
                    del os.environ['DEBIAN_KCONFIG']
                self.assertEqual(out.getvalue(), DEBIAN)

    def test_selects_block_layer_options_only(self):
        sel = kd.select(kd.parse_config(DEBIAN))
        self.assertIn('CONFIG_BLK_WBT', sel)
        self.assertIn('CONFIG_MQ_IOSCHED_KYBER', sel)
        self.assertIn('CONFIG_BFQ_GROUP_IOSCHED', sel)
        self.assertEqual(sel['CONFIG_BLK_CGROUP_IOLATENCY'], 'n')
        self.assertNotIn('CONFIG_EXT4_FS', sel)

    def test_same_configuration_has_no_difference(self):
        d = kd.parse_config(DEBIAN)
        self.assertEqual(kd.differences(d, dict(d), {}), ([], []))

    def test_a_changed_or_missing_option_differs(self):
        d = kd.parse_config(DEBIAN)
        built = dict(d)
        built['CONFIG_IOSCHED_BFQ'] = 'y'
        del built['CONFIG_BLK_WBT_MQ']
        built['CONFIG_MQ_IOSCHED_CFQ'] = 'm'
        differs, stale = kd.differences(d, built, {})
        self.assertEqual(differs, [('CONFIG_BLK_WBT_MQ', 'y', 'n'),
                                   ('CONFIG_IOSCHED_BFQ', 'm', 'y'),
                                   ('CONFIG_MQ_IOSCHED_CFQ', 'n', 'm')])
        self.assertEqual(stale, [])

    def test_unset_equals_absent(self):
        d = kd.parse_config(DEBIAN)
        built = dict(d)
        del built['CONFIG_BLK_CGROUP_IOLATENCY']
        self.assertEqual(kd.differences(d, built, {}), ([], []))

    def test_exceptions_excuse_and_go_stale(self):
        d = kd.parse_config(DEBIAN)
        built = dict(d)
        del built['CONFIG_BLK_DEV_FD']
        exc = {'CONFIG_BLK_DEV_FD': 'no floppy',
               'CONFIG_BLK_WBT': 'was different once'}
        differs, stale = kd.differences(d, built, exc)
        self.assertEqual(differs, [])
        self.assertEqual(stale, ['CONFIG_BLK_WBT'])

    def test_fragment_leaves_exceptions_out(self):
        frag = kd.fragment(kd.parse_config(DEBIAN),
                           {'CONFIG_BLK_DEV_FD': 'no floppy'})
        self.assertIn('CONFIG_IOSCHED_BFQ=m\n', frag)
        self.assertIn('# CONFIG_BLK_CGROUP_IOLATENCY is not set\n', frag)
        self.assertNotIn('CONFIG_BLK_DEV_FD', frag)
        self.assertNotIn('CONFIG_EXT4_FS', frag)

    def test_exceptions_file_format(self):
        self.assertEqual(kd.parse_exceptions(
            '# comment\n\nCONFIG_BLK_DEV_FD no floppy here\n'),
            {'CONFIG_BLK_DEV_FD': 'no floppy here'})
        for bad in ('CONFIG_BLK_DEV_FD\n', 'CONFIG_EXT4_FS not block\n',
                    'CONFIG_BLK_DEV_FD a\nCONFIG_BLK_DEV_FD b\n'):
            with self.assertRaises(ValueError):
                kd.parse_exceptions(bad)

    def test_the_tracked_exceptions_parse(self):
        with open(kd.EXCEPTIONS) as f:
            self.assertTrue(kd.parse_exceptions(f.read()))


if __name__ == '__main__':
    unittest.main()
