#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run blk26 lab experiments and write their tables, JSON, CSV and plots.

  bench.py list                      the experiments, one line each
  bench.py NAME[,NAME...]|all        run them (BENCH_RUNS, BENCH_SCALE,
                                     KERNELS=a,b for raid0-dd: names of
                                     experiments/kernels, or series-N)
  bench.py --parse KIND FILE...      the parsers, for the guest side: JSON
                                     of the files' text (KIND: vmstat,
                                     readprofile, time, pgbench, sg-window,
                                     blk-time, fio-read-p99)
  bench.py --report RESULTS/RUN-ID   draw the figures and write the report
                                     page again from a run's JSON

The experiments that share a guest (same kernel, memory and command line)
run in one boot of the lab kernel: scripts/lab/experiments/run NAME,...
runs scripts/lab/experiments/NAME.sh for each, which reports rows of
(config, metrics[, detail]).  Here each metric becomes the median of its
runs, with min and max kept, and is written to
results/<run-id>/NAME.{json,csv,png}; results/latest points at the newest
run (BENCH_RESULTS=dir writes elsewhere).  Each experiment's table is printed in its seed's format, followed by
the generic summary (median, min-max, ratio to the baseline).  NAME.png is
the experiment's own figure (scripts/lab/figures.py), and
results/<run-id>/index.html the run's report page: every experiment's
context, figure, goals, notes and tables in one file.
"""

import json
import os
import statistics
import sys
import time

import figures
from kernels import kernel_entry, kernel_env, read_kernels, wanted_kernels
from labpaths import TOP
from parsers import fmt_time, run_parse
from report import (cell, draw_figure, experiment_text, fmt, goal_lines,
                    render, write_csv)
from runner import (git_describe, icount_sleep, lab_clock, lab_doc, part_id,
                    plan_boots, run_boot, timeout_scale)
from seeds import SEED_001, SEED_002_SETUPS, seed_001, seed_002  # noqa: F401
from stats import (aggregate, at_least, decimals_for, good_bad, median_of,
                   ratio_verdict, ratios, spread, verdict, within)


class Part:
    """A part of an experiment that needs its own kind of boot.

    The guest runs the experiment's script with BENCH_PART=name.  accel
    'icount' boots QEMU with an instruction counter for a clock
    (scripts/lab/boot.sh, LAB_ACCEL): a guest second is 10^9 instructions,
    so a CPU-bound rate measures path length and does not depend on how
    busy the host is.
    """

    def __init__(self, name, minutes, accel=None, cpus=None):
        self.name = name
        self.minutes = minutes          # guest time at BENCH_SCALE=1, 1 run
        self.accel = accel              # None: the experiment's
        self.cpus = cpus                # None: the experiment's


class Experiment:
    """What the host needs to know about one experiment."""

    def __init__(self, name, desc, columns, baseline=None, mem=2048,
                 minutes=10, append='', kernels=False, formatter=None,
                 parts=None, no_icount=None, cpus=1):
        self.name = name
        self.desc = desc
        self.columns = columns          # [(metric, heading)]
        self.baseline = baseline        # (config key, value) for ratios
        self.mem = mem
        self.minutes = minutes          # guest time at BENCH_SCALE=1, 1 run
        self.append = append            # kernel command line additions
        self.kernels = kernels          # compares kernel configurations
        self.formatter = formatter      # seed-format table, or None
        # one boot per part; the rows of all parts make one table
        self.parts = parts or [Part(None, minutes)]
        # why the experiment cannot run on the instruction-counted clock:
        # it then runs under TCG when the lab's clock would be icount
        self.no_icount = no_icount
        self.cpus = cpus                # vCPUs of its guest


# --- cfq's workloads -------------------------------------------------------

# The workloads BENCH_ONLY may name (experiments/cfq.sh, its only user).
ONLY_WORKLOADS = ('striped', 'weights', 'fair', 'readers', 'null_blk',
                  'scale', 'scale-cost')


def only_workloads(env):
    """BENCH_ONLY: the comma-separated workloads of the cfq experiment to
    run (all when unset); a name it does not know is refused."""
    v = env.get('BENCH_ONLY') or ''
    names = v.split(',') if v else []
    bad = [n for n in names if n not in ONLY_WORKLOADS]
    if bad:
        raise ValueError('BENCH_ONLY=%s: %s is not a workload; name some of '
                         '%s, separated by commas'
                         % (v, ', '.join(repr(n) for n in bad),
                            ', '.join(ONLY_WORKLOADS)))
    return names


# --- seed-format tables ---------------------------------------------------

def fmt_raid0(exp, agg, notes, ctx):
    """Seed 004: one column per kernel configuration, the runs, the
    average, the % change against the first column, good or bad."""
    cols = [r for r in agg if 'MBps' in r['runs']]
    if not cols:
        return 'no kernel configuration could run'
    names = [str(r['config'].get('kernel', '?')) for r in cols]
    nrun = max(len(r['runs']['MBps']) for r in cols)
    lines = [['revision'] + names]
    for i in range(nrun):
        lines.append([''] + ['%.1f' % r['runs']['MBps'][i]
                             if i < len(r['runs']['MBps']) else '-'
                             for r in cols])
    avgs = [statistics.mean(r['runs']['MBps']) for r in cols]
    lines.append(['MB/s (avg)'] + ['%.1f' % a for a in avgs])
    lines.append(['% change'] + ['%.0f%%' % (100 * (a / avgs[0] - 1))
                                 for a in avgs])
    res = ['base'] + [good_bad(cols[0]['runs']['MBps'], r['runs']['MBps'])
                      for r in cols[1:]]
    lines.append(['result'] + res)
    widths = [max(len(line[j]) for line in lines) for j in range(len(lines[0]))]
    text = ['  '.join(c.ljust(w) for c, w in zip(line, widths)).rstrip()
            for line in lines]
    base = cols[0]['runs']['MBps']
    low = sum(1 for r in base if r < 0.8 * statistics.median(base))
    if low:
        text.append('noise: %d of the %d base runs are themselves below 0.8x '
                    'the base median' % (low, len(base)))
    text.append('')
    text.append('dd if=/dev/zero of=/dev/md0 bs=1024k count=%s, md raid0 '
                'over 4 simhba u320-10k LUNs; bad: a run below 0.8x the '
                'base median' % ctx.get('count', '?'))
    return '\n'.join(text)


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


def fmt_sg_segments(exp, agg, notes, ctx):
    """Seed 001: per SG_SEGMENTS value, the vmstat samples (bi in cs us sy
    id) and the measured window; then the measured figures beside the
    seed's, and the ratios 64/32 of both."""
    text = []
    for r in agg:
        c = r['config']
        text.append('max_sectors = %s' % c.get('max_sectors', 'missing'))
        text.append('SG_SEGMENTS = %s' % c.get('sg_segments', 'missing'))
        text.append('%10s %6s %7s %3s %3s %3s' % ('bi', 'in', 'cs', 'us',
                                                   'sy', 'id'))
        for d in r.get('details', []):
            for s in d.get('vmstat', []):
                text.append('%10s %6s %7s %3s %3s %3s' % tuple(
                    s.get(k, 'missing') for k in ('bi', 'in', 'cs', 'us',
                                                  'sy', 'id')))
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
    cap = [median_of(r, 'link_cap_MBps') for r in (r32, r64) if r]
    if cap and cap[0]:
        text.append('links: %.0f MB/s towards the host in all'
                    % cap[0])
    return '\n'.join(text)


IOC_SETUPS = SEED_002_SETUPS


# issue 13's goal 1: the "ioc idle" column >= 0.9x base with the same N
IOC_GOAL = ('ioc idle', 0.9)


def ioc_goals(agg):
    """Issue 13's goal 1 per N that ran: [(what, verdict)], the verdict
    from the ratio of this run's medians (verdict()), with seed 002's
    ratio beside it; 'missing' when either column was not measured."""
    setup, want = IOC_GOAL
    ns = []
    for r in agg:
        n = r['config'].get('N')
        if n is not None and n not in ns:
            ns.append(n)
    out = []
    for n in ns:
        def med(su):
            v = [median_of(r, 'MBps') for r in agg
                 if r['config'].get('N') == n and
                 r['config'].get('setup') == su]
            return v[0] if v else None
        a, b = med(setup), med('base')
        what = 'N=%s: %s >= %gx base' % (n, setup, want)
        sb, si = seed_002(n, 'base'), seed_002(n, setup)
        if sb and si is not None:
            what += ' (seed 002: %.2fx)' % (si / sb)
        if a is None or not b:
            out.append((what, 'missing (%s not measured)' %
                        (setup if a is None else 'base')))
        else:
            out.append((what, verdict(a / b, want)))
    return out


def ioc_table(agg):
    """Seed 002's table: Mode RdWr N, then one column per setup (the
    seed's, then any other the rows have), the median sum of MB/s."""
    setups = list(IOC_SETUPS)
    for r in agg:
        s = r['config'].get('setup')
        if s not in setups:
            setups.append(s)
    ns = []
    for r in agg:
        if r['config'].get('N') not in ns:
            ns.append(r['config'].get('N'))
    lines = []
    for n in ns:
        cells = ['rnd', 'rd', str(n)]
        for s in setups:
            v = [median_of(r, 'MBps') for r in agg
                 if r['config'].get('N') == n and r['config'].get('setup') == s]
            cells.append('%.1f' % v[0] if v and v[0] is not None
                         else 'missing')
        lines.append(cells)
    text = render(['Mode', 'RdWr', 'N'] + setups, lines, 2)
    text.append('MB/s, sum over the N readers; "missing": not measured in '
                'this run (see the notes; never estimated)')
    return text


def fmt_ioc_random(exp, agg, notes, ctx):
    """Seed 002's table, then issue 13's goal, met or not, per N."""
    text = ioc_table(agg)
    text.append('')
    text += goal_lines('goal of issue 13 (cfq), ratio to base with the same '
                       'N measured in this run:', ioc_goals(agg))
    return '\n'.join(text)


# issue 13's goals 2-4 (goal 1 is IOC_GOAL, goal 5 DBT2_CFQ_GOAL, goal 7
# scale_goals())
CFQ_WEIGHT_TOLERANCE = 0.10
CFQ_MIXED_GOALS = [
    ('reader_MBps', 3.0, "2 readers' MB/s with a buffered writer >= 3x "
     'mq-deadline'),
    ('total_MBps', 0.95, 'the same: total MB/s at the disk >= 0.95x '
     'mq-deadline'),
]
CFQ_NULLBLK_GOAL = 0.9
# goal 7: the numbers of processes the issue names, and how much cfq's
# cost per request may grow from the fewest processes measured to the most
CFQ_SCALE_N = (64, 256)
CFQ_SCALE_COST_GROWTH = 1.10


def workload_rows(agg, workload):
    return [r for r in agg if r['config'].get('workload') == workload]


def elevator_median(rows, elevator, metric):
    v = [median_of(r, metric) for r in rows
         if r['config'].get('elevator') == elevator]
    return v[0] if v else None


def weight_shares(agg):
    """The weights workload: [(weight, share measured or None, the
    weight's share of the weights)], by weight."""
    rows = [r for r in workload_rows(agg, 'weights')
            if r['config'].get('weight') is not None]
    tot = sum(r['config']['weight'] for r in rows)
    return sorted((r['config']['weight'], median_of(r, 'share'),
                   r['config']['weight'] / tot) for r in rows)


def cfq_goals(agg):
    """Issue 13's goals 1-4 and 7 from this run's medians: [(what, verdict)];
    a goal whose rows did not run reads 'no data' or 'missing'."""
    out = [('striped LUN, ' + w, v)
           for w, v in ioc_goals(workload_rows(agg, 'striped'))]
    if not out:
        out.append(('striped LUN, %s >= %gx base' % IOC_GOAL,
                    'missing (not measured)'))
    shares = weight_shares(agg)
    for w, share, want in shares:
        out.append(('weight %d: share / weight share (%.4f) within %d%%'
                    % (w, want, round(100 * CFQ_WEIGHT_TOLERANCE)),
                    'missing' if share is None else
                    within(share / want, CFQ_WEIGHT_TOLERANCE)))
    if not shares:
        out.append(('weights 100/200/400/800: shares within 10%',
                    'missing (not measured)'))
    mixed = workload_rows(agg, 'readers+writer')
    for m, want, what in CFQ_MIXED_GOALS:
        out.append((what, ratio_verdict(
            elevator_median(mixed, 'cfq', m),
            elevator_median(mixed, 'mq-deadline', m), want)))
    out.append(("the same: 2 readers' MB/s >= bfq", at_least(
        elevator_median(mixed, 'cfq', 'reader_MBps'),
        elevator_median(mixed, 'bfq', 'reader_MBps'))))
    nb = workload_rows(agg, 'null_blk')
    out.append(('null_blk 4 KiB random-read IOPS >= %gx mq-deadline (icount)'
                % CFQ_NULLBLK_GOAL, ratio_verdict(
                    elevator_median(nb, 'cfq', 'nullblk_kiops'),
                    elevator_median(nb, 'mq-deadline', 'nullblk_kiops'),
                    CFQ_NULLBLK_GOAL)))
    return out + scale_goals(agg)


def n_rows(rows, elevator='cfq'):
    """{N: row} of one elevator's rows."""
    return {r['config']['N']: r for r in rows
            if r['config'].get('elevator') == elevator and
            r['config'].get('N') is not None}


def served_verdict(r, n):
    """Goal 7 for one N: every process served and no read longer than
    low_latency's round (bound_ms)."""
    served, lat, bound = [median_of(r, m) for m in ('served', 'max_lat_ms',
                                                     'bound_ms')]
    if served is None or lat is None or bound is None:
        return 'missing'
    ok = served == n and lat <= bound
    return '%d/%d served, max %.0f ms vs %.0f ms %s' % (
        served, n, lat, bound, 'met' if ok else 'NOT met')


def scale_goals(agg):
    """Issue 13's goal 7: [(what, verdict)] for each N measured (and the
    issue's N, said missing when not), then cfq's cost per request from
    the fewest processes to the most."""
    out = []
    sc = n_rows(workload_rows(agg, 'scale'))
    for n in sorted(set(sc) | set(CFQ_SCALE_N)):
        out.append(('scale, N=%d random readers: all served, max latency '
                    '<= round' % n,
                    served_verdict(sc[n], n) if n in sc
                    else 'missing (not measured)'))
    cost = n_rows(workload_rows(agg, 'scale cost'))
    ns = sorted(n for n in cost if median_of(cost[n], 'us_per_io'))
    what = ('scale cost: cfq us per request, most / fewest processes <= '
            '%gx' % CFQ_SCALE_COST_GROWTH)
    if len(ns) < 2:
        out.append((what, 'missing (not measured at 2 N)'))
    else:
        x = (median_of(cost[ns[-1]], 'us_per_io') /
             median_of(cost[ns[0]], 'us_per_io'))
        d = decimals_for(CFQ_SCALE_COST_GROWTH, x, 2)
        out.append((what, 'N=%d/N=%d %.*fx %s' % (
            ns[-1], ns[0], d, x,
            'met' if x <= CFQ_SCALE_COST_GROWTH else 'NOT met')))
    return out


def fmt_cfq(exp, agg, notes, ctx):
    """Issue 13: seed 002's table on the striped LUN, the weights' shares,
    2 readers with a writer, the fair-time shares and latencies, null_blk;
    then every goal, met or not."""
    text = []
    striped = workload_rows(agg, 'striped')
    if striped:
        text.append('1. seed 002 on the 4-member striped LUN:')
        text += ioc_table(striped)
        text.append('')
    shares = weight_shares(agg)
    if shares:
        text.append('2. weights, one sequential reader per group (%s s):'
                    % ctx.get('seconds_weights', '?'))
        text += render(['weight', 'share', 'weight share', 'ratio'],
                       [[str(w), cell(sh, '%.4f'), '%.4f' % want,
                         cell(sh / want if sh is not None else None,
                              '%.3f')] for w, sh, want in shares])
        text.append('')
    mixed = workload_rows(agg, 'readers+writer')
    if mixed:
        text.append('3. 2 sequential readers and a buffered writer, '
                    'sata-7200 (MB/s):')
        base = {m: elevator_median(mixed, 'mq-deadline', m)
                for m in ('reader_MBps', 'total_MBps')}
        lines = []
        for r in mixed:
            x = [median_of(r, m) for m in ('reader_MBps', 'disk_read_MBps',
                                          'disk_write_MBps', 'total_MBps')]
            rat = [cell(median_of(r, m) / base[m]
                        if median_of(r, m) is not None and base[m] else None,
                        '%.2fx') for m in ('reader_MBps', 'total_MBps')]
            lines.append([str(r['config'].get('elevator'))] +
                         [cell(v, '%.1f') for v in x] + rat)
        text += render(['elevator', 'readers', 'disk reads', 'disk writes',
                        'total', 'readers x', 'total x'], lines)
        text.append('x: ratio to mq-deadline, measured in this run')
        text.append('')
    nb = workload_rows(agg, 'null_blk')
    if nb:
        base = elevator_median(nb, 'mq-deadline', 'nullblk_kiops')
        text.append('4. null_blk 4 KiB random reads (kIOPS, instruction-'
                    'counted clock):')
        text += render(['elevator', 'kIOPS', 'x'], [
            [str(r['config'].get('elevator')),
             cell(median_of(r, 'nullblk_kiops'), '%.1f'),
             cell(median_of(r, 'nullblk_kiops') / base
                  if median_of(r, 'nullblk_kiops') is not None and base
                  else None, '%.3fx')] for r in nb])
        text.append('')
    fair = workload_rows(agg, 'fair time')
    if fair:
        text.append('6. fair time under cfq, 4 processes at once (all BE '
                    'level 4: equal slices, %.1f%% each):'
                    % (100.0 / len(fair)))
        text += render(['process', 'disk time %', 'read p99 ms', 'MB/s'],
                       [[str(r['config'].get('process')),
                         cell(median_of(r, 'time_share') * 100
                              if median_of(r, 'time_share') is not None
                              else None, '%.1f'),
                         cell(median_of(r, 'p99_ms'), '%.1f'),
                         cell(median_of(r, 'read_MBps'))] for r in fair])
        text.append('disk time: blktrace, each busy moment shared by the '
                    'requests at the disk; the issue sets no bound: '
                    'reported, not judged')
        text.append('')
    text += scale_tables(agg)
    text += goal_lines('goals of issue 13 (ratios measured in this run):',
                       cfq_goals(agg))
    return '\n'.join(text)


def scale_tables(agg):
    """Goal 7's tables: the readers at each N, and the cost per request
    at each N per elevator, cfq's ratio to mq-deadline's beside it."""
    text = []
    sc = n_rows(workload_rows(agg, 'scale'))
    if sc:
        text.append('7. scale: N random 4 KiB O_DIRECT readers under cfq, '
                    'sata-7200:')
        text += render(['N', 'served', 'max lat ms', 'round ms', 'min ios',
                        'mean ios', 'IOPS'],
                       [[str(n)] + [cell(median_of(sc[n], m), f) for m, f in
                                    (('served', '%d'), ('max_lat_ms', '%.0f'),
                                     ('bound_ms', '%.0f'), ('min_ios', '%d'),
                                     ('mean_ios', '%.1f'), ('iops', '%.1f'))]
                        for n in sorted(sc)])
        text.append("round: low_latency's target for N busy queues, "
                    'max(target_latency, N x 2 x slice_idle)')
        text.append('')
    rows = workload_rows(agg, 'scale cost')
    elev = []
    for r in rows:
        if r['config'].get('elevator') not in elev:
            elev.append(r['config'].get('elevator'))
    if rows:
        per = {e: n_rows(rows, e) for e in elev}
        ns = sorted(set(n for e in elev for n in per[e]))

        def us(e, n):
            return median_of(per[e][n], 'us_per_io') if n in per[e] else None
        text.append('7. scale cost: N processes of null_blk 4 KiB random '
                    'reads, guest us per read (instruction-counted clock):')
        lines = []
        for n in ns:
            a, b = us('cfq', n), us('mq-deadline', n)
            lines.append([str(n)] + [cell(us(e, n), '%.3f') for e in elev] +
                         [cell(a / b if a and b else None, '%.3fx')])
        text += render(['N'] + elev + ['cfq x'], lines)
        text.append('cfq x: ratio to mq-deadline at the same N')
        text.append('')
    return text


def fmt_bs_sweep(exp, agg, notes, ctx):
    """Seed 003: per device and path, real/user/sys and cs/s per size."""
    text = []
    seen = []
    for r in agg:
        k = (r['config'].get('device'), r['config'].get('path'))
        if k not in seen:
            seen.append(k)
    for dev, path in seen:
        rows = [r for r in agg if r['config'].get('device') == dev and
                r['config'].get('path') == path]
        text.append('%s, %s (%s MB per size):' % (dev, path,
                                                  ctx.get('mb', '?')))
        text.append('\t%-11s %-10s %-10s %8s %8s' % ('real', 'user', 'sys',
                                                     'cs/s', 'MB/s'))
        for r in rows:
            def t(m):
                v = median_of(r, m)
                return fmt_time(v) if v is not None else '-'
            text.append('%sK\t%-11s %-10s %-10s %8s %8s' % (
                r['config'].get('size_kb'), t('real_s'), t('user_s'),
                t('sys_s'), fmt(median_of(r, 'cs_per_s')),
                fmt(median_of(r, 'MBps'))))
        text.append('')
    return '\n'.join(text)


ANTIC_GOALS = [
    ('reader_MBps', 5.0, 'reader MB/s with a streaming writer >= 5x mq-deadline'),
    ('total_MBps', 1.0, 'total MB/s with a streaming writer >= mq-deadline'),
    ('seq2_MBps', 3.0, '2 sequential readers >= 3x mq-deadline'),
    ('seq4_MBps', 3.0, '4 sequential readers >= 3x mq-deadline'),
    ('oltp_iops', 0.97, 'seeky OLTP-like mix >= 0.97x mq-deadline'),
    ('nullblk_kiops', 0.9, 'null_blk 4 KiB random-read IOPS >= 0.9x mq-deadline'
     ' (icount)'),
]


ANTIC_WALL = ('  (null_blk by the wall clock, noisy under TCG: not the '
              'goal)')


def antic_goals(exp, agg):
    """Issue 4's goals: [(goal, verdict)] from this run's medians, or
    None when anticipatory did not run.  The wall-clock null_blk line
    (ANTIC_WALL) is information, not a goal."""
    rat = ratios(agg, exp.baseline)
    idx = [i for i, r in enumerate(agg)
           if r['config'].get('elevator') == 'anticipatory']
    if not idx:
        return None
    i = idx[0]
    out = []
    for m, want, what in ANTIC_GOALS:
        x = rat.get((i, m))
        out.append((what, 'no data' if x is None else verdict(x, want)))
    wall = rat.get((i, 'nullblk_wall_kiops'))
    out.append((ANTIC_WALL, 'no data' if wall is None else '%.2fx' % wall))
    bfq = [j for j, r in enumerate(agg) if r['config'].get('elevator') == 'bfq']
    for m in ('seq2_MBps', 'seq4_MBps'):
        a, b = median_of(agg[i], m), (median_of(agg[bfq[0]], m)
                                      if bfq else None)
        out.append(('%s >= bfq' % m.replace('_MBps', ' readers'),
                    at_least(a, b)))
    return out


# each workload's throughput and the read latency p99 beside it: (label,
# throughput metric, p99 metric, p99 unit)
ANTIC_WORKLOADS = [
    ('reader with a writer, MB/s', 'reader_MBps', 'reader_p99_ms', 'ms'),
    ('2 sequential readers, MB/s', 'seq2_MBps', 'seq2_p99_ms', 'ms'),
    ('4 sequential readers, MB/s', 'seq4_MBps', 'seq4_p99_ms', 'ms'),
    ('OLTP-like mix, IOPS', 'oltp_iops', 'oltp_p99_ms', 'ms'),
    ('null_blk, kIOPS (icount)', 'nullblk_kiops', 'nullblk_p99_us', 'us'),
    ('null_blk, kIOPS (wall clock)', 'nullblk_wall_kiops',
     'nullblk_wall_p99_us', 'us'),
]


def antic_latency(agg):
    """Each workload's median throughput with the median of its read
    latency p99 beside it, one column per elevator; 'missing' for a value
    not measured.  A workload no elevator measured has no line."""
    def one(v, unit=''):
        return 'missing' if v is None else fmt(v) + unit
    lines = []
    for what, m, p, unit in ANTIC_WORKLOADS:
        if not any(m in r['metrics'] or p in r['metrics'] for r in agg):
            continue
        lines.append([what] + ['%s, p99 %s' % (
            one(median_of(r, m)), one(median_of(r, p), ' ' + unit))
            for r in agg])
    if not lines:
        return []
    return (['each workload: median throughput, and p99: the median over '
             'the runs of the 99th percentile of the read latency (fio):'] +
            render(['workload'] + [str(r['config'].get('elevator'))
                                   for r in agg], lines))


def fmt_anticipatory(exp, agg, notes, ctx):
    """Issue 4's goals, met or not, from this run's medians, and each
    workload's throughput with its read latency p99."""
    goals = antic_goals(exp, agg)
    text = ['goals of the anticipatory scheduler (ratios to mq-deadline '
            'measured in this run):']
    if goals is None:
        text.append('  anticipatory did not run: no goal can be checked')
    else:
        for what, v in goals:
            text.append('  %-60s %s' % (what, v))
    lat = antic_latency(agg)
    if lat:
        text += [''] + lat
    return '\n'.join(text)


# the simhba model's figures are good within this fraction
CAL_TOLERANCE = 0.10


def goal_verdicts(e, doc):
    """The experiment's pass/fail lines for the report page: issue 4's
    goals (anticipatory), issue 13's (ioc-random, cfq, dbt2), seed 004's
    good/bad (raid0-dd), the model within 10% (simhba-calibration); []
    for an experiment without a goal."""
    agg = doc.get('rows') or []
    if e.name == 'anticipatory':
        goals = antic_goals(e, agg)
        if goals is None:
            return ['anticipatory did not run: no goal can be checked']
        return ['%s: %s' % (w.strip(), v) for w, v in goals
                if w != ANTIC_WALL]
    if e.name == 'ioc-random':
        return ['%s: %s' % g for g in ioc_goals(agg)]
    if e.name == 'cfq':
        return ['%s: %s' % g for g in cfq_goals(agg)]
    if e.name == 'dbt2':
        return ['%s: %s' % dbt2_goal(agg)]
    if e.name == 'raid0-dd':
        cols = [r for r in agg if r.get('runs', {}).get('MBps')]
        if not cols:
            return ['no kernel configuration could run']
        base = cols[0]['runs']['MBps']
        name = cols[0]['config'].get('kernel', '?')
        if len(cols) == 1:
            return ['only %s ran: no kernel configuration to compare with '
                    'it (KERNELS=a,b)' % name]
        return ['%s: %s (bad: a run below 0.8x the %s median)'
                % (r['config'].get('kernel', '?'),
                   good_bad(base, r['runs']['MBps']), name)
                for r in cols[1:]]
    if e.name == 'simhba-calibration':
        out = []
        for r in agg:
            for k, what in (('seq_outer', 'sequential, outer zone'),
                            ('seq_inner', 'sequential, inner zone'),
                            ('rand_qd1', 'random QD1'),
                            ('rand_qd32', 'random QD32')):
                x = median_of(r, k + '_ratio')
                if x is None:
                    continue
                out.append('%s %s: %.3f of expected, %s' % (
                    r['config'].get('profile'), what, x,
                    'within 10%' if abs(x - 1) <= CAL_TOLERANCE else
                    'outside 10%'))
        return out
    return []


DBT2_ELEVATORS = figures.DBT2_ELEVATORS
# issue 13's goal 5: cfq's NOTPM against mq-deadline's, dma_bits=32
DBT2_CFQ_GOAL = 0.97


def dbt2_goal(agg):
    """(what, verdict) of issue 13's goal 5 from the STP rows with
    dma_bits=32 of this run."""
    stp = [r for r in agg if r['config'].get('table') == 'stp' and
           r['config'].get('dma_bits') == 32]
    a = elevator_median(stp, 'cfq', 'notpm')
    b = elevator_median(stp, 'mq-deadline', 'notpm')
    what = 'cfq NOTPM >= %gx mq-deadline (dma_bits=32)' % DBT2_CFQ_GOAL
    if a is None or not b:
        return what, 'missing (%s not measured)' % (
            'cfq' if a is None else 'mq-deadline')
    return what, verdict(a / b, DBT2_CFQ_GOAL)


def fmt_dbt2(exp, agg, notes, ctx):
    """Seed 000: the STP table, then readprofile side by side."""
    text = ['METRICS OVER LAST %s:' % ctx.get('duration', '? SECONDS')]
    lines = []
    stp = [r for r in agg if r['config'].get('table') == 'stp']
    missing = [k[len('missing_'):] for k in ctx if k.startswith('missing_')]
    order = []
    for e in DBT2_ELEVATORS + [r['config'].get('elevator') for r in stp]:
        if e not in order:
            order.append(e)
    for e in order:
        rows = [r for r in stp if r['config'].get('elevator') == e]
        if not rows and e in missing:
            lines.append([str(ctx.get('kernel', '?')), e, 'missing', '-',
                          '-', 'does not exist in this kernel'])
        for r in rows:
            c = r['config']
            lines.append([str(ctx.get('kernel', '?')), e,
                          '%.0f' % median_of(r, 'notpm')
                          if median_of(r, 'notpm') is not None else '-',
                          '%.1f' % median_of(r, 'cpu_pct')
                          if median_of(r, 'cpu_pct') is not None else '-',
                          '%.1f' % median_of(r, 'blocks_per_s')
                          if median_of(r, 'blocks_per_s') is not None
                          else '-',
                          'dma_bits=%s' % c.get('dma_bits', '?')])
    text += render(['Kernel', 'Elevator', 'NOTPM', 'CPU%', 'Blocks/s',
                    'Setup'], lines, 2)
    text += goal_lines('goal of issue 13 (cfq), measured in this run:',
                       [dbt2_goal(agg)])
    prof = [r for r in agg if r['config'].get('table') == 'profile']
    if prof:
        text.append('')
        text.append('FUNCTIONS SORTED BY LOAD:')
        cols = []
        for r in prof:
            d = (r.get('details') or [{}])[0]
            cols.append(('%s dma_bits=%s' % (r['config'].get('elevator'),
                                             r['config'].get('dma_bits')),
                         d.get('profile', []), r))
        n = max([len(c[1]) for c in cols] + [0])
        head = ['#']
        for name, _, _ in cols:
            head += [name, 'ticks']
        lines = []
        for i in range(n):
            cells = [str(i + 1)]
            for _, p, _ in cols:
                cells += [p[i][0], str(p[i][1])] if i < len(p) else ['', '']
            lines.append(cells)
        w = [max([len(head[j])] + [len(c[j]) for c in lines])
             for j in range(len(head))]
        rule = ' '.join('-' * x for x in w)
        text += [rule, ' '.join(h.ljust(x) if j % 2 else h.rjust(x)
                                for j, (h, x) in enumerate(zip(head, w))),
                 rule]
        for c in lines:
            text.append(' '.join(v.ljust(x) if j % 2 else v.rjust(x)
                                 for j, (v, x) in enumerate(zip(c, w))))
        bl = []
        for name, _, r in cols:
            bl.append('%s: %s bounced segments, %s bounced MB'
                      % (name, fmt(median_of(r, 'bounce_segs')),
                         fmt((median_of(r, 'bounce_bytes') or 0) / 1e6)
                         if median_of(r, 'bounce_bytes') is not None else '-'))
        text.append('bounce counters (simhba host): ' + '; '.join(bl))
    return '\n'.join(text)


# --- the registry ---------------------------------------------------------

NO_9P = ('its measured time includes programs and files read over the 9p root after the caches are dropped; on the instruction-counted clock an idle guest waiting for the host jumps to its next timer, which turns each such wait into up to seconds of guest time')

EXPERIMENTS = [
    Experiment('overview',
               'every elevator on a simhba sata-7200 disk: streaming reader '
               'vs buffered writer, and 2 sequential readers',
               [('reader_MBps', 'reader MB/s'),
                ('disk_write_MBps', 'writer MB/s'),
                ('two_readers_MBps', '2 readers MB/s')],
               baseline=('elevator', 'mq-deadline'), minutes=15),
    Experiment('simhba-calibration',
               'simhba profiles: sequential MB/s (outer, inner zone) and '
               '4 KiB random IOPS (QD1, QD32) against the model',
               [('seq_outer_MBps', 'outer MB/s'),
                ('seq_outer_expected', 'expected'),
                ('seq_outer_ratio', 'ratio'),
                ('seq_inner_MBps', 'inner MB/s'),
                ('seq_inner_expected', 'expected'),
                ('seq_inner_ratio', 'ratio'),
                ('rand_qd1_iops', 'QD1 IOPS'),
                ('rand_qd1_expected', 'expected'),
                ('rand_qd1_ratio', 'ratio'),
                ('rand_qd32_iops', 'QD32 IOPS'),
                ('rand_qd32_expected', 'expected'),
                ('rand_qd32_ratio', 'ratio')],
               minutes=5),
    Experiment('raid0-dd',
               'seed 004: dd bs=1024k to md raid0 over 4 simhba LUNs, five '
               'runs per kernel configuration (KERNELS=a,b)',
               [('MBps', 'MB/s')], minutes=6, kernels=True,
               formatter=fmt_raid0),
    Experiment('sg-segments',
               'seed 001: 20 O_DIRECT dd bs=256k readers on 2 qla2xxx-like '
               'HBAs x 10 LUNs, sg_segments 32 vs 64, vmstat samples',
               [('MBps', 'MB/s'), ('cs_per_s', 'cs/s'),
                ('dd_cs_per_call', 'dd cs/call'),
                ('cmds_per_call', 'cmds/call'),
                ('in_per_call', 'in/call'), ('sy_pct', 'sy %')],
               baseline=('sg_segments', 32), minutes=20, cpus=2,
               formatter=fmt_sg_segments),
    Experiment('bs-sweep',
               'seed 003: sequential reads through sg_dd and O_DIRECT dd, '
               '1K..64K transfers, u320-10k disk and an array LUN',
               [('real_s', 'real s'), ('user_s', 'user s'),
                ('sys_s', 'sys s'), ('cs_per_s', 'cs/s'), ('MBps', 'MB/s')],
               minutes=8, formatter=fmt_bs_sweep, no_icount=NO_9P),
    Experiment('anticipatory',
               'issue 4: anticipatory vs mq-deadline, bfq, kyber, none on '
               'sata-7200, and null_blk overhead (icount clock)',
               [('reader_MBps', 'reader MB/s'),
                ('reader_p99_ms', 'reader p99 ms'),
                ('total_MBps', 'total MB/s'),
                ('seq2_MBps', '2 seq MB/s'), ('seq2_p99_ms', '2 seq p99 ms'),
                ('seq4_MBps', '4 seq MB/s'), ('seq4_p99_ms', '4 seq p99 ms'),
                ('oltp_iops', 'OLTP IOPS'), ('oltp_p99_ms', 'OLTP p99 ms'),
                ('nullblk_kiops', 'null kIOPS'),
                ('nullblk_p99_us', 'null p99 us'),
                ('nullblk_wall_kiops', 'null wall kIOPS'),
                ('nullblk_wall_p99_us', 'null wall p99 us')],
               baseline=('elevator', 'mq-deadline'),
               parts=[Part('disk', 6), Part('overhead', 4, accel='icount')],
               cpus=2,
               formatter=fmt_anticipatory),
    Experiment('ioc-random',
               'seed 002: N=2,4,8 random readers on a 4-member striped '
               'simhba LUN; base / ioc off / ioc no idle / ioc idle (cfq), '
               'and bfq with and without groups',
               [('MBps', 'MB/s')], baseline=('setup', 'base'), minutes=4,
               formatter=fmt_ioc_random),
    Experiment('cfq',
               'issue 13: cfq: seed 002 on a striped LUN, weights, 2 readers '
               '+ writer, fair time and 16-256 readers on sata-7200, '
               'null_blk overhead and its cost at 16-256 processes '
               '(icount clock)',
               [('MBps', 'striped MB/s'), ('share', 'weight share'),
                ('reader_MBps', 'readers MB/s'), ('total_MBps', 'total MB/s'),
                ('time_share', 'disk time share'), ('p99_ms', 'p99 ms'),
                ('nullblk_kiops', 'null kIOPS'), ('served', 'served'),
                ('max_lat_ms', 'max lat ms'), ('bound_ms', 'round ms'),
                ('us_per_io', 'us per read')],
               # the overhead first: a disk stall must not lose it
               parts=[Part('overhead', 2, accel='icount'), Part('disk', 7)],
               cpus=2, formatter=fmt_cfq),
    Experiment('dbt2',
               'seed 000: DBT-2-like OLTP on PostgreSQL, ext4 on a simhba '
               'aacraid LUN; STP table and readprofile, dma_bits 32 vs 64',
               [('notpm', 'NOTPM'), ('cpu_pct', 'CPU%'),
                ('blocks_per_s', 'Blocks/s'), ('bounce_segs', 'bounced segs')],
               baseline=('elevator', 'mq-deadline'), mem=6144, minutes=14,
               cpus=2, no_icount=NO_9P + ' (PostgreSQL pages its code and '
               'libraries in while the transactions run)',
               append='profile=2', formatter=fmt_dbt2),
]
BY_NAME = {e.name: e for e in EXPERIMENTS}


def list_experiments(out=sys.stdout):
    for e in EXPERIMENTS:
        out.write('%-20s %s\n' % (e.name, e.desc))


# --- main -------------------------------------------------------------------

def main(argv):
    if argv and argv[0] == '--parse':
        return run_parse(argv[1:])
    if argv and argv[0] == '--report':
        if len(argv) != 2:
            sys.stderr.write('usage: bench.py --report RESULTS/RUN-ID\n')
            return 2
        return report_dir(argv[1])
    check_only = bool(argv) and argv[0] == '--check'
    if check_only:
        # make bench checks its arguments before it builds anything
        argv = argv[1:]
    names = argv[0] if argv else 'list'
    if names == 'list' and not check_only:
        list_experiments()
        return 0
    wanted = [n for n in names.split(',') if n]
    if wanted == ['all']:
        wanted = [e.name for e in EXPERIMENTS]
    unknown = [n for n in wanted if n not in BY_NAME]
    if names == 'list':
        wanted = []
    elif unknown or not wanted:
        sys.stderr.write('[bench] unknown experiment: %s; known:\n'
                         % ', '.join(unknown or ['(none given)']))
        list_experiments(sys.stderr)
        return 2
    try:
        runs = int(os.environ.get('BENCH_RUNS') or os.environ.get('RUNS') or 1)
        scale = float(os.environ.get('BENCH_SCALE') or
                      os.environ.get('SCALE') or 1)
        if runs < 1 or scale <= 0:
            raise ValueError
    except ValueError:
        sys.stderr.write('[bench] RUNS must be a positive integer and SCALE '
                         'a positive number\n')
        return 2
    try:
        accel, shift, seed = lab_clock(os.environ)
        sleep = icount_sleep(os.environ)
        timeout_scale(os.environ)
        only_workloads(os.environ)
    except ValueError as ex:
        sys.stderr.write('[bench] %s\n' % ex)
        return 2
    if check_only:
        return 0

    exps = [BY_NAME[n] for n in wanted]
    kernels = wanted_kernels(os.environ)
    kenv, knotes = {None: {}}, {}
    if kernels:
        if not any(e.kernels for e in exps):
            sys.stderr.write('[bench] KERNELS=%s: none of %s compares kernel '
                             'configurations (raid0-dd does)\n'
                             % (','.join(kernels), ', '.join(wanted)))
        try:
            table_k = read_kernels()
        except (OSError, ValueError) as e:
            sys.stderr.write('[bench] %s\n' % e)
            return 2
        bad = [k for k in kernels if kernel_entry(k, table_k) is None]
        if bad:
            sys.stderr.write('[bench] unknown kernel configuration: %s; known:'
                             '\n' % ', '.join(bad))
            for k, v in table_k.items():
                sys.stderr.write('%-12s %s\n' % (k, v['desc']))
            return 2
        for k in kernels:
            kenv[k], problem = kernel_env(
                k, table_k, os.environ,
                build_missing=os.environ.get('BENCH_BUILD', '1') != '0',
                log=lambda m: print(m, flush=True))
            if problem:
                knotes[k] = problem
                sys.stderr.write('[bench] %s\n' % problem)

    run_id = time.strftime('%Y%m%d-%H%M%S')
    results = os.environ.get('BENCH_RESULTS') or os.path.join(TOP, 'results')
    outdir = os.path.join(results, run_id)
    os.makedirs(outdir, exist_ok=True)
    latest = os.path.join(results, 'latest')
    if os.path.islink(latest):
        os.unlink(latest)
    os.symlink(run_id, latest)

    boots = plan_boots(exps, kernels, accel)
    total_min = sum(p.minutes * max(1.0, scale) * runs for e in exps
                    for p in e.parts)
    prog = {'started': 0, 'total': sum(len(b[4]) for b in boots),
            'done_min': 0.0,
            'left_min': sum(p.minutes for b in boots for _, p in b[4])}
    print('[bench] run %s: %s in %d boot%s, roughly %d min at most'
          % (run_id, ', '.join(wanted), len(boots), 's'[:len(boots) > 1],
             total_min), flush=True)
    t0 = time.time()
    collected = {e.name: {'rows': [], 'status': [], 'ctx': {},
                          'kernels': {}, 'lab': []} for e in exps}
    for i, boot in enumerate(boots):
        kname = boot[0]
        if kname and kenv.get(kname) is None:
            for e, _ in boot[4]:
                collected[e.name]['rows'].append({'note': knotes[kname]})
            continue
        guest = os.path.join(outdir, 'guest-%d%s' % (
            i, '-' + kname if kname else ''))
        rc, kernel, res = run_boot(boot, guest, runs, scale,
                                   kenv.get(kname) or {}, t0, prog,
                                   shift, seed)
        for e, part, rows, st, ctx in res:
            c = collected[e.name]
            c['lab'].append({'part': part.name, 'accel': boot[3],
                             'cpus': boot[5]})
            c['rows'] += rows
            c['ctx'].update(ctx)
            c['kernels'][kname or 'default'] = kernel
            if st is None:
                c['rows'].append({'note': 'the guest did not finish %s '
                                  '(boot status %d%s)' % (
                                      part_id(e, part), rc,
                                      ', kernel configuration ' + kname
                                      if kname else '')})
            elif st != '0':
                c['status'].append(st)

    status = 0
    series = git_describe()
    done = []
    for e in exps:
        c = collected[e.name]
        agg, notes = aggregate(c['rows'])
        for st in c['status']:
            notes.append('the experiment script ended with status %s' % st)
        kern = list(c['kernels'].values())
        doc = {'experiment': e.name, 'run': run_id,
               'kernel': kern[0] if len(kern) == 1 else
               (kern[0] if kern else 'unknown'),
               'series': series, 'runs': runs, 'scale': scale,
               'notes': notes, 'rows': agg}
        if len(c['kernels']) > 1 or (kernels and e.kernels):
            doc['kernels'] = c['kernels']
        if c['ctx']:
            doc['setup'] = c['ctx']
        # how the guest ran: what a repetition must repeat
        doc['lab'] = lab_doc(c['lab'], shift, seed)
        if 'icount_shift' in doc['lab']:
            doc['lab']['icount_sleep'] = sleep
        if e.no_icount and accel == 'icount':
            doc['lab']['not_icount'] = e.no_icount
        sp = spread(agg, e.columns)
        if sp:
            doc['spread'] = {m: {'max_over_min': x, 'config': cfg}
                             for m, (x, cfg) in sp.items()}
        base = os.path.join(outdir, e.name)
        with open(base + '.json', 'w') as fh:
            json.dump(doc, fh, indent=1)
        write_csv(base + '.csv', agg)
        done.append((e, doc))
        if not agg:
            status = 1
    print_report(outdir, run_id, done)
    return status


def print_report(outdir, run_id, done):
    """Draw each experiment's figure, print its tables, and write the
    run's report page.  done: [(experiment, its JSON document)]."""
    peers = {e.name: doc for e, doc in done}
    sections = []
    for e, doc in done:
        base = os.path.join(outdir, e.name)
        plotted, caption = draw_figure(e, doc, run_id, base + '.png', peers)
        text = experiment_text(e, doc, base, plotted)
        print()
        print(text)
        sections.append({'name': e.name, 'doc': dict(doc,
                                                     description=e.desc),
                         'text': text, 'verdicts': goal_verdicts(e, doc),
                         'png': base + '.png' if plotted else None,
                         'caption': caption,
                         'files': [e.name + '.json', e.name + '.csv'] +
                         ([e.name + '.png'] if plotted else [])})
    page = figures.write_report(outdir, run_id, sections)
    print()
    print('[bench] report: %s' % page)
    return page


def report_dir(outdir):
    """bench.py --report DIR: draw the figures and write the report page
    again from the JSON documents of an earlier run."""
    done = []
    for e in EXPERIMENTS:
        p = os.path.join(outdir, e.name + '.json')
        if os.path.exists(p):
            with open(p) as fh:
                done.append((e, json.load(fh)))
            if not os.path.exists(p[:-5] + '.csv'):
                write_csv(p[:-5] + '.csv', done[-1][1].get('rows', []))
    if not done:
        sys.stderr.write('[bench] %s: no experiment\'s JSON in it\n'
                         % outdir)
        return 2
    print_report(outdir, os.path.basename(os.path.abspath(outdir)), done)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
