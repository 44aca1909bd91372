# SPDX-License-Identifier: GPL-2.0
"""The profile table of Documentation/scsi/simhba.rst against the code's.

simhba's disk profiles are the C table simhba_profiles[] in
drivers/scsi/simhba/simhba_model.c; the rst shows them in the "Profiles"
table.  Every cell of that table is derived here from the C initialisers
and compared as the rst writes it, and every row and column of the table
must be one this test knows and every profile of the code must have a
column, so that the two cannot drift apart again.
"""

import os
import re
import unittest

TOP = os.path.join(os.path.dirname(__file__), '..', '..', '..')
MODEL_C = os.path.join(TOP, 'drivers', 'scsi', 'simhba', 'simhba_model.c')
RST = os.path.join(TOP, 'Documentation', 'scsi', 'simhba.rst')


def c_profiles(text):
    """{name: {field: int or str, 'zones': [(permille, spt), ...]}}"""
    m = re.search(r'simhba_profiles\[\]\s*=\s*\{(.*?)\n\};', text, re.S)
    if not m:
        raise ValueError('no simhba_profiles[] table in the C source')
    body = re.sub(r'/\*.*?\*/', '', m.group(1), flags=re.S)
    profiles = {}
    for entry in re.split(r'\n\t\},?', body):
        fields = {}
        zones = re.search(r'\.zones\s*=\s*\{((?:\s*\{[^{}]*\},?)*)\s*\},',
                          entry)
        if zones:
            fields['zones'] = [(int(a), int(b)) for a, b in
                               re.findall(r'\{\s*(\d+)\s*,\s*(\d+)\s*\}',
                                          zones.group(1))]
            entry = entry[:zones.start()] + entry[zones.end():]
        for key, val in re.findall(r'\.(\w+)\s*=\s*([^,\n]+),', entry):
            val = val.strip()
            if val.startswith('"'):
                fields[key] = val.strip('"')
            elif val in ('true', 'false'):
                fields[key] = val == 'true'
            elif re.fullmatch(r'\d+', val):
                fields[key] = int(val)
            else:
                fields[key] = val
        if 'name' in fields:
            profiles[fields['name']] = fields
    return profiles


def rst_table(text, title='Profiles'):
    """The simple table under the section @title: (columns, {row: cells})."""
    m = re.search(r'\n%s\n-+\n\n(=[= ]+)\n(.*?)\n\1\n(.*?)\n\1\n' %
                  re.escape(title), text, re.S)
    if not m:
        raise ValueError('no table under "%s" in the rst' % title)
    border = m.group(1)
    spans = [(g.start(), g.end()) for g in re.finditer('=+', border)]

    def cells(line):
        out = []
        for i, (a, _) in enumerate(spans):
            b = spans[i + 1][0] if i + 1 < len(spans) else len(line)
            out.append(line[a:b].strip())
        return out

    columns = cells(m.group(2))[1:]
    rows = {}
    for line in m.group(3).split('\n'):
        c = cells(line)
        if c[0] in rows:
            raise ValueError('row "%s" twice in the rst table' % c[0])
        rows[c[0]] = c[1:]
    return columns, rows


def num(x, digits):
    """x with @digits decimals, as the rst writes it."""
    return '%.*f' % (digits, x)


def size_kib(kib):
    if kib % 1024 == 0:
        return '%d MiB' % (kib // 1024)
    return '%d KiB' % kib


def ms(ns):
    """ns as milliseconds, at least one decimal: 300000 -> 0.3, 1e7 -> 10.0"""
    x = ('%.3f' % (ns / 1e6)).rstrip('0')
    return x + '0' if x.endswith('.') else x


def expected(f):
    """Each row of the rst table for the profile of C fields @f, as the rst
    writes it ('-' where the row does not apply to the kind of profile)."""
    hdd = f.get('kind') == 'SIMHBA_HDD'
    row = dict.fromkeys(ROWS, '-')
    row['capacity'] = '%.1f GB' % (f['capacity'] * 512 / 1e9)
    row['bus rate'] = '%d MB/s' % f['iface_mbps']
    row['overhead'] = '%d us' % (f['overhead_ns'] // 1000)
    row['queue depth'] = str(f['qdepth'])
    if f.get('ra_kib'):
        row['read-ahead'] = '%dx%s' % (f.get('ra_segs') or 1,
                                       size_kib(f['ra_kib']))
    if f.get('wc_kib'):
        row['write cache'] = '%s, %s' % (size_kib(f['wc_kib']),
                                         'on' if f.get('wce') else 'off')
    if 'spec_outer_kbps' in f:
        row['sustained'] = '%s-%s MB/s' % (num(f['spec_outer_kbps'] / 1e3, 1),
                                           num(f['spec_inner_kbps'] / 1e3, 1))
    if not hdd:
        row['media rate'] = '%d x %d MB/s' % (f['channels'], f['chan_mbps'])
        row['flash'] = '%d us read, %d us program' % (f['read_ns'] // 1000,
                                                      f['write_ns'] // 1000)
        return row
    outer, inner = f['zones'][0][1], f['zones'][f['nzones'] - 1][1]
    row['RPM'] = str(f['rpm'])
    row['heads'] = str(f['heads'])
    row['zones'] = str(f['nzones'])
    row['spt (zones)'] = '%d .. %d' % (outer, inner)
    row['media rate'] = '%s-%s MB/s' % (
        num(outer * 512 * f['rpm'] / 60 / 1e6, 1),
        num(inner * 512 * f['rpm'] / 60 / 1e6, 1))
    row['t2t seek'] = ms(f['t2t_ns']) + ' ms'
    row['average seek'] = ms(f['avg_ns']) + ' ms'
    row['full seek'] = ms(f['full_ns']) + ' ms'
    row['head switch'] = ms(f['head_switch_ns']) + ' ms'
    return row


# The rows of the rst table, in its order.
ROWS = ('capacity', 'RPM', 'heads', 'zones', 'spt (zones)', 'media rate',
        'sustained', 't2t seek', 'average seek', 'full seek', 'head switch',
        'bus rate', 'overhead', 'queue depth', 'read-ahead', 'write cache',
        'flash')


def mismatches(c_text, rst_text):
    """Every disagreement between the two tables, one line each."""
    profiles = c_profiles(c_text)
    columns, rows = rst_table(rst_text)
    out = []
    for name in sorted(set(profiles) - set(columns)):
        out.append('profile %s of the code has no column in the rst' % name)
    for name in columns:
        if name not in profiles:
            out.append('rst column %s is no profile of the code' % name)
    for row in sorted(set(ROWS) - set(rows)):
        out.append('row "%s" missing from the rst table' % row)
    for row, cells in rows.items():
        if row not in ROWS:
            out.append('rst row "%s": not checked against the code' % row)
            continue
        for name, cell in zip(columns, cells):
            if name not in profiles:
                continue
            want = expected(profiles[name])[row]
            if cell != want:
                out.append('%s, %s: rst says "%s", the code "%s"' %
                           (name, row, cell, want))
    return out


class ProfileTable(unittest.TestCase):
    def test_rst_matches_code(self):
        with open(MODEL_C) as fh:
            c_text = fh.read()
        with open(RST) as fh:
            rst_text = fh.read()
        bad = mismatches(c_text, rst_text)
        self.assertEqual(bad, [], '\n' + '\n'.join(bad))

    def test_parsers(self):
        """A changed parameter on either side is caught."""
        with open(MODEL_C) as fh:
            c_text = fh.read()
        with open(RST) as fh:
            rst_text = fh.read()
        profiles = c_profiles(c_text)
        self.assertIn('u320-10k', profiles)
        self.assertEqual(len(profiles['u320-10k']['zones']),
                         profiles['u320-10k']['nzones'])
        c2 = c_text.replace('.t2t_ns = 300000,', '.t2t_ns = 350000,', 1)
        self.assertNotEqual(c2, c_text)
        self.assertTrue(any('t2t seek' in x for x in
                            mismatches(c2, rst_text)))
        cols, rows = rst_table(rst_text)
        self.assertEqual(len(rows['RPM']), len(cols))


if __name__ == '__main__':
    unittest.main()
