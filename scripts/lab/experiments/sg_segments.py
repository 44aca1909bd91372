# SPDX-License-Identifier: GPL-2.0
"""Seed 001: 20 O_DIRECT dd readers on 2 HBAs with sg_segments 32 and 64:
the vmstat samples and the measured window, beside the seed's figures.

The guest side is sg-segments.sh, next to this file."""

from experiment import Experiment, ratio_effect
from report import cell, render
from seeds import SEED_001, SEED_001_INTERVAL_S, seed_001
from stats import median_of


# the comparison with the seed: (metric, what it is)
SG_COMPARE = [
    ('MBps', 'MB/s (10^6 B/s; disks\' sectors read)'),
    ('link_busy_pct', 'link busy % (simhba, to host)'),
    ('cs_per_s', 'context switches/s (whole guest)'),
    ('in_per_s', 'interrupts/s (whole guest)'),
    ('sys_cs_per_call', 'context switches per call (whole guest)'),
    ('in_per_call', 'interrupts per call (whole guest)'),
    ('dd_cs_per_call', 'dd context switches per call'),
    ('dd_vcs_per_call', '  of which voluntary'),
    ('cmds_per_call', 'SCSI commands per call (disks)'),
    ('cmds_per_call_min', '  the reader with the fewest'),
    ('cmds_per_call_max', '  the reader with the most'),
    ('simhba_cmds_per_call', 'SCSI commands per call (simhba)'),
    ('kib_per_cmd', 'KiB per command'),
]


# the vmstat columns printed per sample: the seed's, then wa (iowait),
# which 2.5's vmstat did not have and counted as idle
VMSTAT_COLUMNS = ('bi', 'in', 'cs', 'us', 'sy', 'id', 'wa')


def fmt_sg_segments(exp, agg, notes, ctx):
    """Seed 001: per SG_SEGMENTS value, the vmstat samples (bi in cs us sy
    id, and wa, which the seed's vmstat counted in id) and the measured
    window; then the measured figures beside the seed's, and the ratios
    64/32 of both."""
    text = []
    for r in agg:
        c = r['config']
        text.append('max_sectors = %s' % c.get('max_sectors', 'missing'))
        text.append('SG_SEGMENTS = %s' % c.get('sg_segments', 'missing'))
        text.append('%10s %6s %7s %3s %3s %3s %3s' % VMSTAT_COLUMNS)
        for d in r.get('details', []):
            for s in d.get('vmstat', []):
                text.append('%10s %6s %7s %3s %3s %3s %3s' % tuple(
                    s.get(k, 'missing') for k in VMSTAT_COLUMNS))
        text.append('window %s s while all readers ran: %s MB/s, %s dd '
                    'read() calls/s, %s context switches/s, %s per dd '
                    'call (dd\'s own), most segments in one command %s'
                    % (cell(median_of(r, 'window_s'), '%.1f'),
                       cell(median_of(r, 'MBps'), '%.1f'),
                       cell(median_of(r, 'calls_per_s'), '%.0f'),
                       cell(median_of(r, 'cs_per_s'), '%.0f'),
                       cell(median_of(r, 'dd_cs_per_call')),
                       cell(median_of(r, 'max_segs_seen'), '%d')))
        text.append('')

    def row_of(seg):
        rows = [r for r in agg if r['config'].get('sg_segments') == seg]
        return rows[0] if rows else None

    r32, r64 = row_of(32), row_of(64)
    s32, s64 = seed_001(32), seed_001(64)
    lines = []
    for m, what in SG_COMPARE:
        a = median_of(r32, m) if r32 else None
        b = median_of(r64, m) if r64 else None
        sa, sb = s32.get(m), s64.get(m)
        f = '%.1f' if m in ('MBps', 'cs_per_s', 'in_per_s',
                            'link_busy_pct', 'kib_per_cmd') else '%.2f'
        lines.append([what, cell(a, f), cell(sa, f) if sa else '-',
                      cell(b, f), cell(sb, f) if sb else '-',
                      cell(b / a if a and b is not None else None),
                      cell(sb / sa) if sa and sb else '-'])
    text += render(['', '32 measured', '32 seed', '64 measured', '64 seed',
                    '64/32 measured', '64/32 seed'], lines)
    text.append('measured: medians over the runs, in a window while all '
                'the readers ran; seed: the means of its vmstat samples '
                '(bi KiB/s x 1.024 = MB/s; one call = one 256 KiB read(), '
                'bi/256 a second); "-": the seed did not measure it; '
                '"missing": not measured in this run')
    text.append('vmstat samples: every sample of every run, as vmstat '
                'printed it; wa (iowait) is counted in id by the seed\'s '
                '2.5 vmstat')
    cap = [median_of(r, 'link_cap_MBps') for r in (r32, r64) if r]
    if cap and cap[0]:
        text.append('links: %.0f MB/s towards the host in all'
                    % cap[0])
    return '\n'.join(text)


def seed_table():
    """Seed 001's own vmstat samples per SG_SEGMENTS value."""
    text = []
    for seg in sorted(SEED_001):
        text += ['max_sectors = 512', 'SG_SEGMENTS = %d' % seg,
                 '%10s %6s %7s' % ('bi', 'in', 'cs')]
        text += ['%10d %6d %7d' % s for s in SEED_001[seg]]
        text.append('')
    text.append('vmstat every %d s, 20 dd readers on 2.5.47-mm3; bi KiB/s'
                % SEED_001_INTERVAL_S)
    return '\n'.join(text)


# why the seed's effects are not expected here
SG_WHY_NOT = {
    'MBps': 'the seed\'s host ran at 81-100 % system time (mostly 98-100), '
            'so fewer commands per read could raise its rate; where the '
            'links or disks set the rate, fewer commands cannot',
    'sys_cs_per_call': '6.12\'s direct read of a block device sleeps '
                       'once per read() and is woken by its last bio (the '
                       'fix from the seed\'s own thread), so its switches '
                       'no longer follow the commands',
}


def effects(e, agg):
    """Seed 001's effects: MB/s and context switches per call, 64
    segments against 32."""
    r32 = [r for r in agg if r['config'].get('sg_segments') == 32]
    r64 = [r for r in agg if r['config'].get('sg_segments') == 64]
    out = []
    for m, what in (('MBps', 'MB/s'),
                    ('sys_cs_per_call', 'context switches per call')):
        out.append(ratio_effect(
            '20 direct-I/O readers: %s, 64 segments against 32' % what,
            seed_001(64)[m] / seed_001(32)[m],
            median_of(r64[0], m) if r64 else None,
            median_of(r32[0], m) if r32 else None, r32 + r64, m,
            sg_why_not(m, r32, r64)))
    return out


def sg_why_not(m, r32, r64):
    """SG_WHY_NOT[m], and for MB/s how busy this run's links were."""
    busy = [median_of(r[0], 'link_busy_pct') if r else None
            for r in (r32, r64)]
    if m != 'MBps' or None in busy:
        return SG_WHY_NOT[m]
    return SG_WHY_NOT[m] + ('; here the links to the host were %.1f %% '
                            '(32) and %.1f %% (64) busy' % tuple(busy))


EXPERIMENT = Experiment(
    'sg-segments',
    'seed 001: 20 O_DIRECT dd bs=256k readers on 2 qla2xxx-like '
    'HBAs x 10 LUNs, sg_segments 32 vs 64, vmstat samples',
    [('MBps', 'MB/s'), ('cs_per_s', 'cs/s'),
     ('dd_cs_per_call', 'dd cs/call'),
     ('cmds_per_call', 'cmds/call'),
     ('in_per_call', 'in/call'), ('sy_pct', 'sy %')],
    baseline=('sg_segments', 32), minutes=20, cpus=2,
    formatter=fmt_sg_segments, seed='001', seed_table=seed_table,
    effects=effects,
    # the numbers fmt_sg_segments and seed_table write, no value of a
    # run (republish.py: every number on the results page has a source)
    constants=(('32 64', 'the SG_SEGMENTS values compared, the seed\'s '
                '(sg-segments.sh)'),
               ('512', 'max_sectors, the seed\'s and sg-segments.sh\'s'),
               ('256', 'one dd read() call, 256 KiB (seeds.py)'),
               ('5', 'the seed\'s vmstat interval, 5 s (seeds.py)'),
               ('2.5 47 3', 'the seed\'s kernel, 2.5.47-mm3, and its '
                '2.5 vmstat')))
