# SPDX-License-Identifier: GPL-2.0
"""One figure per experiment of scripts/lab/bench.py, and the run's report.

Each experiment asks one question; its figure is drawn for that question
from the experiment's JSON document (results/<run-id>/NAME.json):

  build(name, doc, run_id, peers) -> Figure     what is drawn: panels,
                                                series, points, caption
  script(fig, png) -> str                       the gnuplot script
  render(fig, png) -> bool                      runs gnuplot

The rules every figure keeps:
  * one unit per y axis (a panel per unit);
  * the point is the median of the runs; where a figure of the document
    was measured in 2 runs or more (the rows' runs, not the RUNS asked
    for) a min-max error bar is drawn on every measured point, with one
    run none is;
  * a value that was not measured is not drawn (never as 0) and the
    caption names it as missing;
  * the seed's own numbers (scripts/lab/seeds.py) are drawn beside the
    measured ones, as hollow marks or dashed lines, where the seed has
    them;
  * the caption says the kernel, the series commit, the run id, the
    clock (TCG or the instruction counter), the runs measured (per
    metric where they differ) and the scale.

write_report(outdir, run_id, sections) writes index.html: per
experiment its context, figure, goal verdicts, notes and printed table,
in one file with no network access (the figures are embedded).
"""

import base64
import html
import os
import subprocess
import sys

import parsers
import seeds
from stats import most_runs, per_run, runs_text

# --- what a figure is ------------------------------------------------------


class Series:
    """One line, set of bars or set of marks in a panel.

    style: 'bars' (boxes), 'points', 'lines' (with points), 'hbars'
    (horizontal bars: x is the bar's value, y its position), 'median'
    (a short horizontal stroke per point) or 'dots' (small marks, many of
    them: a scatter).  points: [(x, y, lo, hi)],
    lo/hi None when the point has no spread.  seed: the seed's numbers
    (hollow marks or dashed lines, never error bars).
    """

    def __init__(self, title, style='bars', seed=False, color=None):
        self.title = title
        self.style = style
        self.seed = seed
        self.color = color
        self.points = []

    def add(self, x, y, lo=None, hi=None):
        self.points.append((x, y, lo, hi))


class Panel:
    """One plot with one unit on its y axis (x axis for hbars)."""

    def __init__(self, title, ylabel, xlabel='', xtics=None, ytics=None,
                 logx2=False, width=0.8, logy=False, logx=False):
        self.title = title
        self.ylabel = ylabel
        self.xlabel = xlabel
        self.xtics = xtics          # [(position, label)] or None
        self.ytics = ytics          # idem, for hbars
        self.logx2 = logx2
        self.logx = logx            # a log10 x axis (latencies of a CDF)
        self.logy = logy            # a log10 value axis (latencies)
        self.width = width          # a bar's width
        self.series = []
        self.hlines = []            # [(y, title)]
        self.empty = ''             # said in the panel when nothing drawn
        self.wide = False           # a row of its own
        self.vmax = None            # the value axis' end, when fixed
        self.yrange = None          # (bottom, top) of the y axis, fixed

    def new(self, *a, **kw):
        s = Series(*a, **kw)
        self.series.append(s)
        return s

    def drawn(self):
        return any(s.points for s in self.series)


class Figure:
    def __init__(self, name, title, errors):
        self.name = name
        self.title = title
        self.errors = errors        # min-max bars on measured points
        self.panels = []
        self.caption = []
        self.missing = []           # what was not measured, by name

    def panel(self, *a, **kw):
        p = Panel(*a, **kw)
        self.panels.append(p)
        return p


# --- reading the document ----------------------------------------------------

def stat(row, metric, scale=1.0):
    """(median, min, max) of a row's metric times scale, or None."""
    if row is None:
        return None
    s = row.get('metrics', {}).get(metric)
    if not s or s.get('median') is None:
        return None
    return (s['median'] * scale, s.get('min', s['median']) * scale,
            s.get('max', s['median']) * scale)


def rows_with(doc, **cfg):
    return [r for r in doc.get('rows', [])
            if all(r['config'].get(k) == v for k, v in cfg.items())]


def first(rows):
    return rows[0] if rows else None


def values_of(doc, key, rows=None):
    """The values of config key, in the order the rows have them."""
    out = []
    for r in doc.get('rows', []) if rows is None else rows:
        v = r['config'].get(key)
        if v is not None and v not in out:
            out.append(v)
    return out


def clock_text(doc):
    """'icount (shift 0)', 'TCG', ... from doc['lab']['parts']; per part
    when the parts differ."""
    lab = doc.get('lab') or {}
    parts = lab.get('parts') or []

    def one(accel):
        if accel == 'icount':
            return 'icount (shift %s)' % lab.get('icount_shift', '?')
        return {'tcg': 'TCG', 'kvm': 'KVM', 'auto': 'KVM or TCG (auto)'}.get(
            accel, str(accel))
    kinds = []
    for p in parts:
        if p.get('accel') not in kinds:
            kinds.append(p.get('accel'))
    if not kinds:
        return 'not recorded'
    if len(kinds) == 1:
        return one(kinds[0])
    return ', '.join('%s: %s' % (p.get('part'), one(p.get('accel')))
                     for p in parts)


def several_runs(doc):
    """Some figure of doc was measured in 2 runs or more: its points get
    min-max bars."""
    return most_runs(doc.get('rows') or [], per_run(doc)) > 1


def caption_head(doc, run_id):
    """The caption's first line: what ran, where and by which clock, and
    the runs its figures come from, as measured."""
    runs = runs_text(doc.get('rows') or [], per_run(doc))
    return ('kernel %s, series %s, run %s, clock %s, %s, scale %s'
            % (doc.get('kernel', 'unknown'), doc.get('series', 'unknown'),
               doc.get('run') or run_id, clock_text(doc),
               'median of %s, bars min-max' % runs if several_runs(doc)
               else '%s (no spread)' % runs, doc.get('scale', '?')))


def slot_x(i, j, nslots, width=0.8):
    """The x of slot j of category i in a group of nslots bars."""
    w = width / nslots
    return i - width / 2 + w * (j + 0.5)


def put(fig, series, x, s, what):
    """Add a measured (median, min, max) to series, or name it missing."""
    if s is None:
        fig.missing.append(what)
        return
    if fig.errors:
        series.add(x, s[0], s[1], s[2])
    else:
        series.add(x, s[0])


def cats(labels):
    return [(i, str(v)) for i, v in enumerate(labels)]


# --- the figures ---------------------------------------------------------

def ceiling(peers, profile='sata-7200'):
    """The disk's outer-zone media rate the model expects, from this run's
    simhba-calibration, or None."""
    cal = (peers or {}).get('simhba-calibration')
    s = stat(first(rows_with(cal, profile=profile)) if cal else None,
             'seq_outer_expected')
    return s[0] if s else None


def stacked_panel(fig, doc, elevators, peers):
    """Reader vs buffered writer: the disk's read and write MB/s stacked
    per elevator, the reader's own MB/s as a mark, the media ceiling."""
    p = fig.panel('a streaming reader against a buffered writer',
                  'MB/s (10^6 B/s)', 'elevator', cats(elevators), width=0.6)
    wr = p.new('disk writes (stacked on reads)', color='#e08a3c')
    rd = p.new('disk reads', color='#3c78d8')
    rdr = p.new("the reader's own MB/s", 'points', color='black')
    for i, e in enumerate(elevators):
        r = first(rows_with(doc, elevator=e))
        a, b = stat(r, 'disk_read_MBps'), stat(r, 'disk_write_MBps')
        put(fig, rd, i, a, 'disk reads, %s' % e)
        if b is None:
            fig.missing.append('disk writes, %s' % e)
        else:
            base = a[0] if a else 0.0
            put(fig, wr, i, (base + b[0], base + b[1], base + b[2]), '')
        put(fig, rdr, i, stat(r, 'reader_MBps'), "reader's MB/s, %s" % e)
    top = ceiling(peers)
    if top:
        p.hlines.append((top, 'media ceiling, outer zone (%.1f)' % top))
    else:
        fig.caption.append('media ceiling not drawn: this run has no '
                           'simhba-calibration')
    return p


def bars_per_category(fig, p, doc, key, labels, metrics, scale=1.0):
    """Grouped bars: a category per config value, a bar per metric."""
    for j, (m, title) in enumerate(metrics):
        s = p.new(title)
        for i, v in enumerate(labels):
            put(fig, s, slot_x(i, j, len(metrics), p.width),
                stat(first(rows_with(doc, **{key: v})), m, scale),
                '%s, %s' % (title, v))


def bars_by(fig, p, doc, xkey, xs, skey, ss, metric, what, scale=1.0):
    """Grouped bars: a category per value of config xkey (xs), in it a
    bar per value of config skey (ss), each the metric of the row with
    both; what names a missing one ('us per read': "us per read, N=16,
    cfq")."""
    for j, v in enumerate(ss):
        s = p.new(str(v))
        for i, x in enumerate(xs):
            put(fig, s, slot_x(i, j, len(ss), p.width),
                stat(first(rows_with(doc, **{xkey: x, skey: v})), metric,
                     scale),
                '%s, %s=%s, %s' % (what, xkey, x, v))


def cdf_panel(fig, doc, key, values, prefix, tag, title, unit='ms'):
    """The distribution of a latency, its tail first: a line per config
    value (key) through the medians of the runs' percentiles
    (parsers.LAT_PCTS, the longest left out), the share of the I/Os
    slower than each on a log axis (99.9 % at 0.1 %), latency on a log
    axis too."""
    p = fig.panel(title, '% of the I/Os slower (log scale)', 'latency (%s, '
                  'log scale)' % unit, logx=True, logy=True)
    for v in values:
        r = first(rows_with(doc, **{key: v}))
        s = p.new(str(v), 'lines')
        pts = [(stat(r, parsers.lat_key(prefix, pct, unit, tag)), pct)
               for pct in parsers.LAT_PCTS if pct < 100]
        if any(x is None for x, _ in pts):
            fig.missing.append('%s, %s' % (title, v))
            continue
        for x, pct in pts:
            s.add(x[0], round(100 - pct, 6))
    p.empty = 'no latency measured'
    p.yrange = (0.05, 100)
    return p


def fig_overview(doc, run_id, peers=None):
    fig = Figure('overview', 'overview: every elevator on a sata-7200 disk',
                 several_runs(doc))
    elev = values_of(doc, 'elevator')
    stacked_panel(fig, doc, elev, peers)
    p = fig.panel('2 sequential readers', 'MB/s (10^6 B/s)', 'elevator',
                  cats(elev), width=0.5)
    bars_per_category(fig, p, doc, 'elevator', elev,
                      [('two_readers_MBps', 'sum of the 2 readers')])
    latency_tails(fig, doc, elev, 'beside a buffered writer')
    return fig


def fig_anticipatory(doc, run_id, peers=None):
    fig = Figure('anticipatory',
                 'anticipatory against the other elevators (issue 4)',
                 several_runs(doc))
    elev = values_of(doc, 'elevator')
    stacked_panel(fig, doc, elev, peers)
    p = fig.panel('sequential readers', 'MB/s (10^6 B/s)', 'elevator',
                  cats(elev))
    bars_per_category(fig, p, doc, 'elevator', elev,
                      [('seq2_MBps', '2 readers'), ('seq4_MBps', '4 readers')])
    p = fig.panel('seeky OLTP-like mix', 'IOPS', 'elevator', cats(elev),
                  width=0.5)
    bars_per_category(fig, p, doc, 'elevator', elev,
                      [('oltp_iops', 'OLTP IOPS')])
    p = fig.panel('null_blk 4 KiB random reads (CPU cost)', 'kIOPS',
                  'elevator', cats(elev))
    bars_per_category(fig, p, doc, 'elevator', elev,
                      [('nullblk_kiops', 'instruction-counted clock'),
                       ('nullblk_wall_kiops', 'wall clock')])
    p = fig.panel('read latency p99, disk workloads', 'ms (log scale)',
                  'elevator', cats(elev), logy=True)
    bars_per_category(fig, p, doc, 'elevator', elev,
                      [('reader_p99_ms', 'p99, reader with a writer'),
                       ('seq2_p99_ms', 'p99, 2 readers'),
                       ('seq4_p99_ms', 'p99, 4 readers'),
                       ('oltp_p99_ms', 'p99, OLTP readers')])
    p = fig.panel('read latency p99, null_blk', 'us', 'elevator',
                  cats(elev))
    bars_per_category(fig, p, doc, 'elevator', elev,
                      [('nullblk_p99_us', 'p99, instruction-counted clock'),
                       ('nullblk_wall_p99_us', 'p99, wall clock')])
    fig.caption.append('read latency p99: the 99th percentile of the '
                       'latency of the workload\'s reads, all its readers '
                       'together (fio\'s completion latency: a read call, '
                       'or a request on null_blk), median of the runs')
    latency_tails(fig, doc, elev, 'beside a buffered writer')
    return fig


def latency_tails(fig, doc, elev, beside):
    """The reader's and the writer's latency tails of a reader-and-writer
    workload (cdf_panel()), a line per elevator."""
    cdf_panel(fig, doc, 'elevator', elev, 'reader', '',
              "the readers' reads, %s: latency tail" % beside)
    cdf_panel(fig, doc, 'elevator', elev, 'writer', '',
              "the writer's buffered writes: latency tail")
    fig.caption.append('latency tails: the medians of the runs\' '
                       'percentiles (p1 to p99.9) of fio\'s completion '
                       'latency, at the share of the I/Os slower than '
                       'each; a buffered write waits when writeback '
                       'throttles it')


def ioc_panels(fig, doc):
    """Seed 002's question: MB/s per setup grouped by N, and each setup's
    ratio to base with the same N; the seed's as hollow marks."""
    ns = sorted(set(values_of(doc, 'N')) | set(seeds.SEED_002))
    setups = list(seeds.SEED_002_SETUPS)
    setups += [s for s in values_of(doc, 'setup') if s not in setups]
    p = fig.panel('throughput, sum over the N readers', 'MB/s (10^6 B/s)',
                  'N random readers', cats(['N=%d' % n for n in ns]))
    q = fig.panel('each setup against base with the same N',
                  'ratio to base (base = 1)', 'N random readers',
                  cats(['N=%d' % n for n in ns]))
    q.hlines.append((1.0, 'base'))
    rest = setups[1:]
    for j, su in enumerate(setups):
        x = [slot_x(i, j, len(setups)) for i in range(len(ns))]
        col = COLORS[j % len(COLORS)]
        meas = p.new(su, color=col)
        seed = p.new('seed 002: %s' % su, 'points', seed=True, color=col) \
            if su in seeds.SEED_002_SETUPS else None
        if su in rest:
            k = rest.index(su)
            xr = [slot_x(i, k, len(rest)) for i in range(len(ns))]
            rat = q.new(su, color=col)
            sr = q.new('seed 002: %s' % su, 'points', seed=True, color=col) \
                if su in seeds.SEED_002_SETUPS else None
        for i, n in enumerate(ns):
            r = first(rows_with(doc, N=n, setup=su))
            b = stat(first(rows_with(doc, N=n, setup='base')), 'MBps')
            sv = seeds.seed_002(n, su)
            if seed and sv is not None:
                seed.add(x[i], sv)
            if n not in values_of(doc, 'N'):
                continue            # this N did not run at all: said below
            put(fig, meas, x[i], stat(r, 'MBps'), '%s N=%d' % (su, n))
            if su not in rest:
                continue
            s = stat(r, 'MBps', 1.0 / b[0]) if b and b[0] else None
            if s is not None:
                put(fig, rat, xr[i], s, '')
            elif stat(r, 'MBps') is not None:
                fig.missing.append('ratio of %s N=%d: no base' % (su, n))
            if sr and sv is not None:
                sr.add(xr[i], sv / seeds.seed_002(n, 'base'))
    skipped = [n for n in ns if n not in values_of(doc, 'N')]
    if skipped:
        fig.missing.append('N=%s (not run)' % ','.join(map(str, skipped)))
    fig.caption.append('seed 002: MSA1000 striped LUN, 2.6.32-rc with '
                       'CFQ groups (hollow marks)')


def fig_ioc_random(doc, run_id, peers=None):
    fig = Figure('ioc-random', 'random readers on a striped LUN (seed 002)',
                 several_runs(doc))
    ioc_panels(fig, doc)
    return fig


def workload_doc(doc, workload):
    """The document with only the rows of one workload (cfq)."""
    return dict(doc, rows=rows_with(doc, workload=workload))


def fig_cfq(doc, run_id, peers=None):
    fig = Figure('cfq', 'cfq against its goals (issue 13)',
                 several_runs(doc))
    ioc_panels(fig, workload_doc(doc, 'striped'))
    wd = workload_doc(doc, 'weights')
    ws = sorted(values_of(wd, 'weight'))
    p = fig.panel('weights: each group\'s share of the bytes read',
                  'share (0-1)', 'io.cfq.weight', cats(ws), width=0.5)
    got = p.new('measured share')
    # the goal, not a measurement: drawn as the seeds are, no error bars
    want = p.new('weight / sum of weights', 'median', seed=True,
                 color='black')
    for i, w in enumerate(ws):
        put(fig, got, i, stat(first(rows_with(wd, weight=w)), 'share'),
            'share of weight %s' % w)
        want.add(i, w / float(sum(ws)))
    if not ws:
        fig.missing.append('weights (not run)')
    md = workload_doc(doc, 'readers+writer')
    elev = values_of(md, 'elevator')
    stacked_panel(fig, md, elev, peers).title = \
        '2 streaming readers against a buffered writer'
    fd = workload_doc(doc, 'fair time')
    procs = values_of(fd, 'process')
    p = fig.panel('fair time: share of the disk\'s busy time', '%',
                  'process (cfq)', cats(procs), width=0.5)
    bars_per_category(fig, p, fd, 'process', procs,
                      [('time_share', 'disk time')], 100.0)
    if procs:
        p.hlines.append((100.0 / len(procs), 'equal slices'))
    p = fig.panel('fair time: read latency', 'p99 ms', 'process (cfq)',
                  cats(procs), width=0.5)
    bars_per_category(fig, p, fd, 'process', procs, [('p99_ms', 'p99')])
    nd = workload_doc(doc, 'null_blk')
    ne = values_of(nd, 'elevator')
    p = fig.panel('null_blk 4 KiB random reads (CPU cost)', 'kIOPS',
                  'elevator', cats(ne), width=0.5)
    bars_per_category(fig, p, nd, 'elevator', ne,
                      [('nullblk_kiops', 'instruction-counted clock')])
    scale_panels(fig, doc)
    latency_tails(fig, md, elev, '2 beside a buffered writer')
    return fig


def scale_panels(fig, doc):
    """cfq's goal 7: the longest read of N random readers against the
    round low_latency aims at, and the guest time per null_blk read per
    elevator, against N."""
    sd = workload_doc(doc, 'scale')
    ns = sorted(values_of(sd, 'N'))
    p = fig.panel('scale: N random readers under cfq, the longest read',
                  'ms', 'N (processes)', cats(ns), width=0.5)
    got = p.new('max latency of any reader')
    # the bound, not a measurement: drawn as the seeds are
    want = p.new('round: max(target_latency, N x 2 x slice_idle)', 'median',
                 seed=True, color='black')
    for i, n in enumerate(ns):
        r = first(rows_with(sd, N=n))
        put(fig, got, i, stat(r, 'max_lat_ms'), 'max latency, N=%d' % n)
        b = stat(r, 'bound_ms')
        if b:
            want.add(i, b[0])
    if not ns:
        fig.missing.append('scale (not run)')
    cd = workload_doc(doc, 'scale cost')
    ns = sorted(values_of(cd, 'N'))
    elev = values_of(cd, 'elevator')
    p = fig.panel('scale cost: null_blk 4 KiB reads, N processes',
                  'us per read (icount)', 'N (processes)', cats(ns),
                  width=0.5)
    bars_by(fig, p, cd, 'N', ns, 'elevator', elev, 'us_per_io',
            'us per read')
    if not ns:
        fig.missing.append('scale cost (not run)')


def fig_bs_sweep(doc, run_id, peers=None):
    fig = Figure('bs-sweep', 'CPU cost against transfer size (seed 003)',
                 several_runs(doc))
    try:
        mb = float((doc.get('setup') or {}).get('mb'))
    except (TypeError, ValueError):
        mb = None
    sizes = sorted(set(values_of(doc, 'size_kb')) |
                   set(seeds.SEED_003['u320 disk']))
    tics = [(s, '%dK' % s) for s in sizes]
    pa = fig.panel('system time per MB read', 'ms of sys time per MB',
                   'transfer size (KiB, log2)', tics, logx2=True)
    pb = fig.panel('context switches per MB read', 'context switches per MB',
                   'transfer size (KiB, log2)', tics, logx2=True)
    pc = fig.panel('system time against the 64K transfer, with seed 003',
                   'sys time / sys time at 64K', 'transfer size (KiB, log2)',
                   tics, logx2=True)
    combos = []
    for r in doc.get('rows', []):
        k = (r['config'].get('device'), r['config'].get('path'))
        if k not in combos:
            combos.append(k)
    for dev, path in combos:
        name = '%s, %s' % (dev, path)
        rows = rows_with(doc, device=dev, path=path)
        a = pa.new(name, 'lines')
        b = pb.new(name, 'lines')
        c = pc.new(name, 'lines')
        ref = stat(first(rows_with(doc, device=dev, path=path, size_kb=64)),
                   'sys_s')
        for r in sorted(rows, key=lambda r: r['config'].get('size_kb', 0)):
            kb = r['config'].get('size_kb')
            what = '%s %sK' % (name, kb)
            if mb:
                put(fig, a, kb, stat(r, 'sys_s', 1000.0 / mb),
                    'sys time, ' + what)
                put(fig, b, kb, stat(r, 'cs', 1.0 / mb),
                    'context switches, ' + what)
            if ref and ref[0] > 0:
                put(fig, c, kb, stat(r, 'sys_s', 1.0 / ref[0]),
                    'sys time, ' + what)
        if not (ref and ref[0] > 0):
            fig.missing.append('sys time at 64K, %s (no ratio)' % name)
    if not mb:
        fig.missing.append('MB per size (setup "mb"): no per-MB panel')
    for k, (dev, t) in enumerate(seeds.SEED_003.items()):
        s = pc.new('seed 003: %s' % dev, 'lines', seed=True,
                   color=['black', '#777777'][k % 2])
        for kb in sorted(t):
            s.add(kb, t[kb][2] / t[64][2])
    cs = seeds.SEED_003_CS_PER_S
    fig.caption.append(
        'seed 003: sgp_dd on a u320 disk and a hardware mirror (2003); its '
        'amount of data is not given, so only its ratios are drawn; its '
        'context switches/s: %s' % '; '.join(
            '%s %s' % (d, ', '.join('%dK %d/s' % (k, v)
                                    for k, v in sorted(x.items())))
            for d, x in cs.items()))
    return fig


def seg_color(seg):
    """sg_segments 32 and 64 keep their colors in every panel."""
    return {32: COLORS[0], 64: COLORS[1]}.get(seg, COLORS[2])


def vmstat_lines(fig, p, doc, key, scale, interval):
    """vmstat samples over time: a line per sg_segments value and run."""
    for r in doc.get('rows', []):
        seg = r['config'].get('sg_segments')
        runs = [d.get('vmstat') or [] for d in r.get('details', [])]
        if not any(runs):
            fig.missing.append('vmstat samples, %s segments' % seg)
        for k, samples in enumerate(runs):
            if not samples:
                continue
            s = p.new('%s segments%s' % (seg, ', run %d' % (k + 1)
                                         if len(runs) > 1 else ''), 'lines',
                      color=seg_color(seg))
            for i, v in enumerate(samples):
                if key in v:
                    s.add(i * interval, v[key] * scale)


def fig_sg_segments(doc, run_id, peers=None):
    fig = Figure('sg-segments', '20 O_DIRECT readers, 32 against 64 '
                 'segments per command (seed 001)', several_runs(doc))
    segs = sorted(set(values_of(doc, 'sg_segments')) | set(seeds.SEED_001))
    tics = cats(['%s segments' % s for s in segs])
    for title, unit, m in [('throughput', 'MB/s (10^6 B/s)', 'MBps'),
                           ('context switches, whole guest',
                            'context switches/s', 'cs_per_s'),
                           ('context switches per dd read() call',
                            'context switches per call',
                            'sys_cs_per_call')]:
        p = fig.panel(title, unit, '', tics)
        meas = p.new('measured')
        seed = p.new('seed 001 (2.5.47-mm3)', 'bars', seed=True)
        for i, g in enumerate(segs):
            r = first(rows_with(doc, sg_segments=g))
            if r is None:
                fig.missing.append('%s segments (not run)' % g)
            else:
                put(fig, meas, slot_x(i, 0, 2), stat(r, m),
                    '%s, %s segments' % (unit, g))
            sv = seeds.seed_001(g).get(m)
            if sv is not None:
                seed.add(slot_x(i, 1, 2), sv)
    try:
        iv = float((doc.get('setup') or {}).get('vmstat_interval'))
    except (TypeError, ValueError):
        iv = 1.0
    p = fig.panel('vmstat bi over time', 'MB/s (10^6 B/s)',
                  'time (s, from the first sample)')
    vmstat_lines(fig, p, doc, 'bi', 1.024e-3, iv)
    q = fig.panel('vmstat cs over time', 'context switches/s',
                  'time (s, from the first sample)')
    vmstat_lines(fig, q, doc, 'cs', 1.0, iv)
    fig.missing = list(dict.fromkeys(fig.missing))
    for g, samples in sorted(seeds.SEED_001.items()):
        a = p.new('seed 001: %d segments' % g, 'lines', seed=True,
                  color=seg_color(g))
        b = q.new('seed 001: %d segments' % g, 'lines', seed=True,
                  color=seg_color(g))
        for i, (bi, _, cs) in enumerate(samples):
            a.add(i * seeds.SEED_001_INTERVAL_S, bi * 1.024e-3)
            b.add(i * seeds.SEED_001_INTERVAL_S, cs)
    fig.caption.append('measured: medians in a window while all 20 readers '
                       'ran; seed 001: the means of its vmstat samples '
                       '(bi KiB/s x 1.024 = MB/s, one call = 256 KiB)')
    return fig


def runs_panel(fig, p, columns, factor, seed=False):
    """Every run as a mark, the median as a stroke, and the bad threshold
    (factor x the first column's median).  columns: [(label, runs)]."""
    med = p.new('median', 'median', seed=seed, color='black')
    pts = p.new('one dd run', 'points', seed=seed)
    for i, (label, runs) in enumerate(columns):
        if not runs:
            fig.missing.append('%s (no run)' % label)
            continue
        n = len(runs)
        for k, v in enumerate(runs):
            pts.add(i - 0.15 + 0.3 * k / max(1, n - 1), v)
        srt = sorted(runs)
        m = (srt[(n - 1) // 2] + srt[n // 2]) / 2
        if fig.errors and not seed:
            med.add(i, m, min(runs), max(runs))
        else:
            med.add(i, m)
    if columns and columns[0][1]:
        base = sorted(columns[0][1])
        n = len(base)
        m = (base[(n - 1) // 2] + base[n // 2]) / 2
        p.hlines.append((factor * m, 'bad below %.1fx the %s median'
                         % (factor, columns[0][0])))


def fig_raid0_dd(doc, run_id, peers=None):
    fig = Figure('raid0-dd', 'dd to md raid0, runs per kernel '
                 'configuration (seed 004)', several_runs(doc))
    cols = [(str(r['config'].get('kernel', '?')),
             (r.get('runs') or {}).get('MBps') or [])
            for r in doc.get('rows', [])]
    p = fig.panel('measured, this run', 'MB/s (10^6 B/s)',
                  'kernel configuration', cats([c[0] for c in cols]))
    runs_panel(fig, p, cols, seeds.SEED_004_BAD_FACTOR)
    q = fig.panel('seed 004 (2.6.25/26, 4 SCSI disks)', 'MB/s (as printed)',
                  'kernel', cats([k for k, _ in seeds.SEED_004]))
    runs_panel(fig, q, seeds.SEED_004, seeds.SEED_004_BAD_FACTOR, seed=True)
    fig.caption.append('marks: each dd run; stroke: their median; bad: a run '
                       'below 0.8x the base median (the lab\'s rule; the '
                       'seed labels its kernels without stating one)')
    return fig


DBT2_ELEVATORS = ['mq-deadline', 'anticipatory', 'cfq', 'bfq', 'none']


def fig_dbt2(doc, run_id, peers=None):
    fig = Figure('dbt2', 'DBT-2-like OLTP: NOTPM and where the CPU goes '
                 '(seed 000)', several_runs(doc))
    stp = rows_with(doc, table='stp')
    elev = [e for e in DBT2_ELEVATORS
            if e in values_of(doc, 'elevator', stp) or
            e in seeds.SEED_000_ELEVATOR.values()]
    elev += [e for e in values_of(doc, 'elevator', stp) if e not in elev]
    dmas = sorted(values_of(doc, 'dma_bits', stp)) or [32, 64]
    p = fig.panel('new-order transactions per minute', 'NOTPM', 'elevator',
                  cats(elev))
    p.wide = True
    nslot = len(dmas)
    for j, d in enumerate(dmas):
        s = p.new('dma_bits=%s' % d)
        for i, e in enumerate(elev):
            r = first(rows_with(doc, table='stp', elevator=e, dma_bits=d))
            if r is None:
                fig.missing.append('%s dma_bits=%s (not run)' % (e, d))
                continue
            put(fig, s, slot_x(i, j, nslot), stat(r, 'notpm'),
                'NOTPM %s dma_bits=%s' % (e, d))
    sd = p.new('seed 000 (2.6.0-test3): bouncing, patched', 'points',
               seed=True)
    for se, e in seeds.SEED_000_ELEVATOR.items():
        for j, row in enumerate(seeds.SEED_000_STP[se][:nslot]):
            sd.add(slot_x(elev.index(e), j, nslot), row[0])
    profs = rows_with(doc, table='profile')
    # one scale for the profiles side by side
    top = max([t for r in profs for _, t in
               ((r.get('details') or [{}])[0]).get('profile') or []] + [0])
    for r in profs:
        prof = ((r.get('details') or [{}])[0]).get('profile') or []
        name = '%s dma_bits=%s' % (r['config'].get('elevator'),
                                   r['config'].get('dma_bits'))
        n = len(prof)
        q = fig.panel('readprofile top %d, %s' % (n, name), 'ticks',
                      ytics=[(n - 1 - i, f) for i, (f, _) in
                             enumerate(prof)])
        q.vmax = top * 1.05 if top else None
        s = q.new(name, 'hbars')
        for i, (_, t) in enumerate(prof):
            s.add(t, n - 1 - i)
        if not prof:
            fig.missing.append('readprofile, ' + name)
            q.empty = 'no profile'
    if several_runs(doc):
        fig.caption.append('readprofile: the first run\'s')
    fig.caption.append('seed 000: two STP runs per elevator, taken here as '
                       '32-bit (bouncing) then patched; another machine, '
                       'so compare shapes')
    return fig


CAL_FIGURES = [('seq_outer', 'MBps', 'sequential, outer zone'),
               ('seq_inner', 'MBps', 'sequential, inner zone'),
               ('rand_qd1', 'iops', '4 KiB random, QD1'),
               ('rand_qd32', 'iops', '4 KiB random, QD32')]


def fig_simhba_calibration(doc, run_id, peers=None):
    fig = Figure('simhba-calibration', 'simhba profiles against their '
                 'datasheet and analytic figures', several_runs(doc))
    prof = values_of(doc, 'profile')
    p = fig.panel('measured / expected, per profile',
                  'measured / expected (1 = as modelled)', 'profile',
                  cats(prof))
    p.hlines += [(1.1, '+10%'), (1.0, 'expected'), (0.9, '-10%')]
    for j, (k, unit, title) in enumerate(CAL_FIGURES):
        s = p.new(title)
        for i, pr in enumerate(prof):
            r = first(rows_with(doc, profile=pr))
            e = stat(r, '%s_expected' % k)
            v = stat(r, '%s_%s' % (k, unit), 1.0 / e[0]) \
                if e and e[0] else None
            if v is None and e is None and stat(r, '%s_%s' % (k, unit)):
                fig.missing.append('%s, %s: no expected value' % (title, pr))
                continue
            put(fig, s, slot_x(i, j, len(CAL_FIGURES)), v,
                '%s, %s' % (title, pr))
    return fig


def fig_mq_scaling(doc, run_id, peers=None):
    fig = Figure('mq-scaling', 'mq-scaling: every elevator on a 4-queue '
                 'null_blk disk, from 1, 2 and 4 CPUs', several_runs(doc))
    elev = values_of(doc, 'elevator')
    cpus = values_of(doc, 'cpus')
    p = fig.panel('4 KiB random reads, QD 8 per CPU, instruction-counted '
                  'clock', 'kIOPS', 'elevator', cats(elev), width=0.6)
    for j, n in enumerate(cpus):
        s = p.new('%d CPU%s' % (n, 's'[:n > 1]))
        for i, e in enumerate(elev):
            put(fig, s, slot_x(i, j, len(cpus), p.width),
                stat(first(rows_with(doc, elevator=e, cpus=n)), 'kiops'),
                'kIOPS, %s from %d CPU%s' % (e, n, 's'[:n > 1]))
    return fig


def fig_startup(doc, run_id, peers=None):
    fig = Figure('startup', 'startup: an application\'s cold start on a '
                 'busy disk, per elevator and background load',
                 several_runs(doc))
    elev = values_of(doc, 'elevator')
    loads = values_of(doc, 'load')
    busy = [x for x in loads if x != 'idle']
    p = fig.panel('cold start-up time (mean of the starts)', 'seconds',
                  'elevator', cats(elev), width=0.8, logy=True)
    over, cap = [], None
    for j, ld in enumerate(loads):
        s = p.new(ld)
        for i, e in enumerate(elev):
            r = first(rows_with(doc, elevator=e, load=ld))
            st = stat(r, 'over_cap')
            if st and st[2] > 0:
                # never drawn as a number it did not reach
                over.append('%s with %s' % (e, ld))
                cap = stat(r, 'cap_s')[0] if stat(r, 'cap_s') else cap
                continue
            put(fig, s, slot_x(i, j, len(loads), p.width),
                stat(r, 'start_mean_s'), 'start-up, %s with %s' % (e, ld))
    if cap:
        p.hlines.append((cap, 'the cap (%g s)' % cap))
    if over:
        fig.caption.append('over the cap (%g s), not drawn: %s'
                           % (cap or 0, '; '.join(over)))
    p = fig.panel('the load during the starts', 'MB/s (10^6 B/s)',
                  'elevator', cats(elev), width=0.8)
    bars_by(fig, p, doc, 'elevator', elev, 'load', busy, 'bg_MBps',
            'load MB/s')
    p = fig.panel('a reader of 1 MiB every 40 ms: reads later than 40 ms',
                  'reads', 'elevator', cats(elev), width=0.8)
    bars_by(fig, p, doc, 'elevator', elev, 'load', loads, 'rt_misses',
            '40 ms misses')
    return fig


# the elevators whose dispatch order the traces figure draws, in order:
# deceptive idleness (mq-deadline) and the idling schedulers
TRACE_ELEVATORS = ('mq-deadline', 'anticipatory', 'cfq', 'bfq')


def proc_style(name, procs):
    """(title, 'dots', colour) of a traced process ("COMMAND PID", or '?':
    a request queued before the window): writeback orange, the others
    (the readers, by PID) blue and green, as in every panel."""
    if name == '?':
        return 'queued before the window', 'dots', '#999999'
    if name.startswith(('kworker', 'flush')):
        return 'writeback (%s)' % name, 'dots', '#e08a3c'
    own = sorted((p for p in procs if p != '?' and
                  not p.startswith(('kworker', 'flush'))),
                 key=lambda p: int(p.split()[-1]) if
                 p.split()[-1].isdigit() else 0)
    return name, 'dots', ('#3c78d8', '#2a9d4b', '#8e44ad',
                          '#c0392b')[own.index(name) % 4]


def fig_traces(doc, run_id, peers=None):
    """Dispatch order over time in each traced window: a panel per
    workload and elevator, a mark per dispatch at its time and sector,
    one colour per process that queued the request (the first run's
    trace)."""
    fig = Figure('traces', 'dispatch order in a traced window (sector '
                 'against time)', False)
    elev = [e for e in TRACE_ELEVATORS
            if e in values_of(doc, 'elevator')]
    others = [e for e in values_of(doc, 'elevator') if e not in elev]
    for w in values_of(doc, 'workload'):
        for e in elev:
            r = first(rows_with(doc, workload=w, elevator=e))
            d = ((r or {}).get('details') or [{}])[0]
            p = fig.panel('%s, %s' % (w, e), 'sector (GiB)',
                          'time in the window (s)')
            p.empty = 'no dispatch traced'
            procs = d.get('procs') or []
            series_of = []
            for n in procs:
                t, st, c = proc_style(n, procs)
                series_of.append(p.new(t, st, color=c))
            for t, gib, i in d.get('dispatch') or []:
                if 0 <= i < len(series_of):
                    series_of[i].add(t / 1e3, gib)
            if not d.get('dispatch'):
                fig.missing.append('dispatches, %s, %s' % (w, e))
    fig.caption.append('a mark per request dispatched, at its time and '
                       'first sector, coloured by the process that queued '
                       'it (the flusher for buffered writes); the first '
                       'run\'s trace')
    if others:
        fig.caption.append('not drawn (their traces are in the data): %s'
                           % ', '.join(map(str, others)))
    return fig


FIGURES = {
    'overview': fig_overview,
    'traces': fig_traces,
    'anticipatory': fig_anticipatory,
    'ioc-random': fig_ioc_random,
    'cfq': fig_cfq,
    'mq-scaling': fig_mq_scaling,
    'startup': fig_startup,
    'bs-sweep': fig_bs_sweep,
    'sg-segments': fig_sg_segments,
    'raid0-dd': fig_raid0_dd,
    'dbt2': fig_dbt2,
    'simhba-calibration': fig_simhba_calibration,
}


def build(name, doc, run_id, peers=None):
    """The experiment's Figure, its caption complete, or None when the
    experiment has no figure of its own."""
    f = FIGURES.get(name)
    if f is None:
        return None
    fig = f(doc, run_id, peers)
    fig.missing = [m for m in dict.fromkeys(fig.missing) if m]
    fig.caption.insert(0, caption_head(doc, run_id))
    if fig.missing:
        fig.caption.append('missing, not drawn: ' + '; '.join(fig.missing))
    return fig


# --- gnuplot -------------------------------------------------------------

def quote(s):
    return '"%s"' % str(s).replace('\\', '\\\\').replace('"', '\\"')


def wrap(text, width):
    """Split a caption line at spaces into lines of at most width."""
    out, cur = [], ''
    for w in text.split(' '):
        if cur and len(cur) + 1 + len(w) > width:
            out.append(cur)
            cur = w
        else:
            cur = '%s %s' % (cur, w) if cur else w
    return out + [cur] if cur else out


def num(v):
    return repr(float(v))


COLORS = ['#3c78d8', '#e08a3c', '#6aa84f', '#a64d79', '#cc0000', '#45818e',
          '#7f6000', '#999999']


def series_plots(fig, p, k, s, color, block):
    """The plot clauses of one series (data block `block`)."""
    lc = 'lc rgb %s' % quote(color)
    title = 'title %s' % quote(s.title)
    err = fig.errors and not s.seed and any(pt[2] is not None
                                            for pt in s.points)
    if s.style == 'bars':
        fill = ('fs pattern 4 border fc rgb %s' % quote(color) if s.seed
                else 'fs solid 0.75')
        w = p.width / max(1, sum(1 for x in p.series if x.style == 'bars'))
        out = ['%s using 1:2:(%s) with boxes %s %s %s'
               % (block, num(w), fill, lc, title)]
    elif s.style == 'hbars':
        out = ['%s using (0):2:(0):1:($2-0.4):($2+0.4) with boxxyerror '
               'fs solid 0.75 %s %s' % (block, lc, title)]
        err = False
    elif s.style == 'lines':
        out = ['%s using 1:2 with linespoints %s %s %s %s'
               % (block, 'dt 2 pt 6' if s.seed else 'dt 1 pt 7', lc,
                  'lw 1.5', title)]
    elif s.style == 'dots':
        out = ['%s using 1:2 with points pt 7 ps 0.35 %s %s'
               % (block, lc, title)]
        err = False
    elif s.style == 'median':
        out = ['%s using 1:2:($1-0.2):($1+0.2) with xerrorbars pt 0 '
               'lw 3 %s %s' % (block, lc, title)]
    else:
        out = ['%s using 1:2 with points pt %d ps 1.6 %s %s'
               % (block, 6 if s.seed else 7, lc, title)]
    if err:
        # under a mark or a line's point, over a bar
        bar = ('%s using 1:2:3:4 with yerrorbars pt 0 lc rgb "black" '
               'notitle' % block)
        out = out + [bar] if s.style == 'bars' else [bar] + out
    return out


def grid(panels, cols):
    """(row, column, columns spanned) of each panel: left to right, top
    to bottom; a wide panel has a row of its own."""
    out, r, c = [], 0, 0
    for p in panels:
        if p.wide and c:
            r, c = r + 1, 0
        span = cols if p.wide else 1
        out.append((r, c, span))
        c += span
        if c >= cols:
            r, c = r + 1, 0
    return out


def script(fig, png):
    """The gnuplot script that draws fig into png (pngcairo): the panels
    in a grid of 1 or 2 columns, the title above, the caption below."""
    n = len(fig.panels)
    cols = 1 if n == 1 else 2
    place = grid(fig.panels, cols)
    rows = max(r for r, _, _ in place) + 1
    cap = []
    for c in fig.caption:
        cap += wrap(c, 165)
    w, ph, lh, th = 1400, 430, 16, 34
    caph = lh * (len(cap) + 1)
    h = rows * ph + th + caph
    out = ['set terminal pngcairo size %d,%d font "DejaVu Sans,10" '
           'noenhanced' % (w, h),
           'set output %s' % quote(png),
           # no gap around the median in an error bar
           'set pointintervalbox 0.001']
    for i, p in enumerate(fig.panels):
        for k, s in enumerate(p.series):
            out.append('$d%d_%d << EOD' % (i, k))
            for x, y, lo, hi in s.points:
                out.append('%s %s %s %s' % (num(x), num(y),
                                            num(lo if lo is not None else y),
                                            num(hi if hi is not None else y)))
            out.append('EOD')
    out += ['set multiplot',
            'set label 1 %s at screen 0.5,%.4f center font ",13"'
            % (quote(fig.title), 1 - 20.0 / h)]
    for j, line in enumerate(cap):
        out.append('set label %d %s at screen 0.01,%.4f left font ",9"'
                   % (j + 2, quote(line), (lh * (len(cap) - j)) / h))
    for i, p in enumerate(fig.panels):
        r, c, span = place[i]
        out += ['set origin %.4f,%.4f' % (c / cols,
                                          (caph + (rows - 1 - r) * ph) / h),
                'set size %.4f,%.4f' % (span / cols, ph / h),
                'set title %s' % quote(p.title),
                'set key below horizontal font ",9" maxrows 4',
                'set grid ytics', 'set yrange [0:*]', 'set autoscale x',
                # room above the highest point
                'set offsets 0, 0, graph 0.06, 0']
        hb = any(s.style == 'hbars' for s in p.series)
        out.append('set xlabel %s' % quote(p.ylabel if hb else p.xlabel))
        out.append('set ylabel %s' % quote('' if hb else p.ylabel))
        out.append('set logscale x 2' if p.logx2 else
                   'set logscale x 10' if p.logx else 'unset logscale x')
        if p.logy and p.drawn():
            # a bar starts at the axis' bottom, not at 0
            out += ['set logscale y 10', 'set yrange [*:*]',
                    'set offsets 0, 0, graph 0.06, graph 0.06']
        else:
            out.append('unset logscale y')
        if p.yrange is not None and p.drawn():
            out += ['set yrange [%s:%s]' % tuple(num(v) for v in p.yrange),
                    'set offsets 0, 0, 0, 0']
        if hb:
            out += ['set xrange [0:%s]' % (num(p.vmax) if p.vmax else '*'),
                    'set yrange [-0.6:%s]'
                    % num(len(p.ytics or []) - 0.4), 'unset key',
                    'set grid noytics xtics']
        if p.xtics:
            out.append('set xtics (%s)%s' % (', '.join(
                '%s %s' % (quote(lab), num(x)) for x, lab in p.xtics),
                ' rotate by -25' if len(p.xtics) > 8 else ' norotate'))
            if p.logx2:
                out.append('set xrange [%s:%s]' % (
                    num(min(x for x, _ in p.xtics) / 1.3),
                    num(max(x for x, _ in p.xtics) * 1.3)))
            elif not hb:
                out.append('set xrange [%s:%s]' % (
                    num(min(x for x, _ in p.xtics) - 0.6),
                    num(max(x for x, _ in p.xtics) + 0.6)))
        else:
            out.append('set xtics autofreq norotate')
        if p.ytics:
            out.append('set ytics (%s)' % ', '.join(
                '%s %s' % (quote(lab), num(y)) for y, lab in p.ytics))
        else:
            out.append('set ytics autofreq')
        clauses, ci = [], 0
        for k, s in enumerate(p.series):
            color = s.color
            if color is None and not s.seed:
                color = COLORS[ci % len(COLORS)]
                ci += 1
            if s.points:
                clauses += series_plots(fig, p, k, s, color or 'black',
                                        '$d%d_%d' % (i, k))
        for y, t in p.hlines:
            clauses.append('%s with lines dt 3 lw 1.5 lc rgb "#555555" '
                           'title %s' % (num(y), quote(t)))
        if not clauses:
            out += ['set label 99 %s at graph 0.5,0.5 center'
                    % quote(p.empty or 'nothing measured'),
                    'unset logscale x', 'unset logscale y',
                    'set xrange [0:1]', 'set yrange [0:1]',
                    'plot NaN notitle', 'unset label 99']
        else:
            out.append('plot ' + ', \\\n     '.join(clauses))
        if i == 0:
            out += ['unset label %d' % (j + 1) for j in range(len(cap) + 1)]
    out.append('unset multiplot')
    return '\n'.join(out) + '\n'


def render(fig, png):
    """Draw fig into png with gnuplot; False (and a message) on failure."""
    try:
        subprocess.run(['gnuplot'], input=script(fig, png), text=True,
                       check=True, stderr=subprocess.PIPE)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write('[bench] gnuplot failed for %s (%s): %s\n'
                         % (fig.name, e, getattr(e, 'stderr', '') or
                            'apt-get install gnuplot-nox'))
        return False
    return True


# --- the report page -------------------------------------------------------

CSS = '''body{font-family:sans-serif;max-width:1450px;margin:1em auto;
padding:0 1em;color:#222}h1{font-size:1.5em}h2{border-top:2px solid #ccc;
padding-top:.6em}table.ctx td{padding:.1em .8em .1em 0;vertical-align:top}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:12px}
img{max-width:100%;border:1px solid #ddd}.met{color:#2a7a2a}
.not{color:#b00020;font-weight:bold}.cap{font-size:.9em;color:#444}'''


def verdict_class(v):
    low = v.lower()
    if 'not met' in low or low.endswith(' bad') or ': bad' in low or \
            'outside' in low:
        return 'not'
    if 'met' in low or low.endswith('good') or 'within' in low:
        return 'met'
    return ''


def section_html(s):
    """One experiment: s = {'name', 'doc', 'text', 'verdicts', 'png',
    'caption', 'files'}."""
    e = html.escape
    doc = s.get('doc') or {}
    name = s['name']
    out = ['<h2 id="%s">%s</h2>' % (e(name), e(name))]
    if doc.get('description'):
        out.append('<p>%s</p>' % e(doc['description']))
    out.append('<table class="ctx">')
    for k, v in [('kernel', doc.get('kernel', 'unknown')),
                 ('series commit', doc.get('series', 'unknown')),
                 ('clock', clock_text(doc)),
                 ('RUNS', doc.get('runs', '?')),
                 ('runs measured', runs_text(doc.get('rows') or [],
                                             per_run(doc))),
                 ('scale', doc.get('scale', '?'))]:
        out.append('<tr><td>%s</td><td>%s</td></tr>' % (e(k), e(str(v))))
    out.append('</table>')
    png = s.get('png')
    if png and os.path.exists(png):
        with open(png, 'rb') as fh:
            data = base64.b64encode(fh.read()).decode('ascii')
        out.append('<p><img alt="%s figure" src="data:image/png;base64,%s">'
                   '</p>' % (e(name), data))
    else:
        out.append('<p><em>no figure: nothing could be drawn</em></p>')
    if s.get('caption'):
        out.append('<p class="cap">%s</p>' % '<br>'.join(
            e(c) for c in s['caption']))
    out.append('<h3>goals</h3>')
    if s.get('verdicts'):
        out.append('<ul>%s</ul>' % ''.join(
            '<li class="%s">%s</li>' % (verdict_class(v), e(v))
            for v in s['verdicts']))
    else:
        out.append('<p>this experiment has no pass/fail goal</p>')
    out.append('<h3>notes</h3>')
    notes = doc.get('notes') or []
    out.append('<ul>%s</ul>' % ''.join('<li>%s</li>' % e(n) for n in notes)
               if notes else '<p>none</p>')
    out.append('<h3>table</h3><pre>%s</pre>' % e(s.get('text') or ''))
    files = [f for f in s.get('files', []) if f]
    if files:
        out.append('<p>files: %s</p>' % ' '.join(
            '<a href="%s">%s</a>' % (e(f), e(f)) for f in files))
    return '\n'.join(out)


def report_html(run_id, sections):
    """The run's page: a contents list, then one section per experiment."""
    e = html.escape
    docs = [s.get('doc') or {} for s in sections]
    kern = sorted({str(d.get('kernel')) for d in docs if d.get('kernel')})
    ser = sorted({str(d.get('series')) for d in docs if d.get('series')})
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
           '<title>blk26 bench run %s</title>' % e(run_id),
           '<style>%s</style></head><body>' % CSS,
           '<h1>blk26 bench run %s</h1>' % e(run_id),
           '<p>kernel %s, series %s; experiments:</p><ul>'
           % (e(', '.join(kern) or 'unknown'), e(', '.join(ser) or
                                                 'unknown'))]
    for s in sections:
        out.append('<li><a href="#%s">%s</a></li>' % (e(s['name']),
                                                      e(s['name'])))
    out.append('</ul>')
    for s in sections:
        out.append(section_html(s))
    out.append('</body></html>')
    return '\n'.join(out) + '\n'


def write_report(outdir, run_id, sections):
    """Write outdir/index.html; returns its path."""
    path = os.path.join(outdir, 'index.html')
    with open(path, 'w') as fh:
        fh.write(report_html(run_id, sections))
    return path
