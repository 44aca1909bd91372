# SPDX-License-Identifier: GPL-2.0
"""What bench.py prints and writes for an experiment: the plain text
tables (render(), the generic table()), the CSV, the bar chart of an
experiment without a figure of its own, and the report page."""

import csv
import os
import subprocess
import sys

import figures
import parsers
from runner import lab_line
from stats import per_run, ratios, runs_text, spread


def config_name(cfg, agg):
    """A row's config named by the keys that tell agg's rows apart
    ('k=v, ...'; every key when there is one row)."""
    same = {k for k in agg[0]['config']
            if all(r['config'].get(k) == agg[0]['config'][k] for r in agg)
            } if len(agg) > 1 else set()
    return ', '.join('%s=%s' % (k, v) for k, v in cfg.items()
                     if k not in same)


def spread_text(exp, agg):
    """One line per headline metric: the largest max/min of the runs."""
    sp = spread(agg, exp.columns)
    if not sp:
        return []
    text = ['spread: max/min of the runs, the config where it is largest '
            '(a ratio closer to 1 than this is noise):']
    for m, h in exp.columns:
        if m in sp:
            x, cfg = sp[m]
            text.append('  %-20s %.3f  (%s)' % (h, x, config_name(cfg, agg)))
    return text


def fmt(v):
    if v is None:
        return '-'
    if abs(v) < 10:
        return '%.2f' % v
    return '%.1f' % v if abs(v) < 1000 else '%.0f' % v


def fmt_sig(v):
    """fmt() for values from 10 up; below, 3 significant digits (a latency
    of 0.0097 ms is not 0.01)."""
    if v is None or abs(v) >= 10:
        return fmt(v)
    return '%.3g' % v


def render(head, lines, left=1):
    """A plain text table; the first `left` columns are left-aligned.

    Columns are two spaces apart, so that two neighbouring cells never
    read as one phrase ("missing missing", "bfq bfq groups").
    """
    widths = [max([len(h)] + [len(c[j]) for c in lines])
              for j, h in enumerate(head)]
    sep = '  '
    rule = sep.join('-' * w for w in widths)
    text = [rule, sep.join(h.ljust(w) if j < left else h.rjust(w)
                           for j, (h, w) in enumerate(zip(head, widths))),
            rule]
    for c in lines:
        text.append(sep.join(x.ljust(w) if j < left else x.rjust(w)
                             for j, (x, w) in enumerate(zip(c, widths))))
    text.append(rule)
    return text


def table(exp, agg, notes, missing='-'):
    """The experiment's generic table, as text, with ratios; a value not
    measured reads `missing`."""
    keys = []
    for r in agg:
        for k in r['config']:
            if k not in keys:
                keys.append(k)
    rat = ratios(agg, exp.baseline)
    head = keys + [h for _, h in exp.columns]
    if rat:
        head += ['x ' + h.replace(' MB/s', '') for _, h in exp.columns]
    lines = []
    for i, r in enumerate(agg):
        cells = [str(r['config'].get(k, '')) for k in keys]
        for m, _ in exp.columns:
            s = r['metrics'].get(m)
            if s is None:
                cells.append(missing)
            elif s['min'] != s['max']:
                cells.append('%s (%s-%s)' % (fmt(s['median']), fmt(s['min']),
                                             fmt(s['max'])))
            else:
                cells.append(fmt(s['median']))
        if rat:
            for m, _ in exp.columns:
                x = rat.get((i, m))
                cells.append('%.2f' % x if x is not None else missing)
        lines.append(cells)
    text = render(head, lines, len(keys))
    if rat:
        text.append('x: ratio of the median to %s=%s, measured in this run'
                    % exp.baseline)
    for n in notes:
        text.append('note: ' + n)
    return '\n'.join(text)


# The points of a latency distribution a table shows (parsers.LAT_PCTS
# has them all; 100 is the longest).
LAT_SHOWN = (50, 90, 99, 99.9, 100)


def lat_table(agg, key, dists, unit='ms', pcts=LAT_SHOWN):
    """Latency distributions as a text table: a line per row of agg (named
    by its config key) and per (prefix, tag, what) of dists, with the
    medians of the runs' percentiles pcts (default p50, p90, p99, p99.9
    and max: parsers.lat_key(prefix, pct, unit, tag)); a value not
    measured reads '-'."""
    head = [key, 'latency'] + ['%s %s' % ('max' if p == 100 else
                                          'p%g' % p, unit)
                               for p in pcts]
    lines = []
    for prefix, tag, what in dists:
        for r in agg:
            cells = [str(r['config'].get(key, '')), what]
            for p in pcts:
                s = r['metrics'].get(parsers.lat_key(prefix, p, unit, tag))
                cells.append(fmt_sig(s['median'] if s else None))
            lines.append(cells)
    return render(head, lines, 2)


def cell(v, f='%.2f'):
    """A measured value printed with f, or 'missing'."""
    return 'missing' if v is None else f % v


def goal_lines(title, goals):
    """A goal block: the title, then one line per (what, verdict)."""
    return [title] + ['  %-60s %s' % (w, v) for w, v in goals]


def write_csv(path, agg):
    metrics = []
    keys = []
    for r in agg:
        keys += [k for k in r['config'] if k not in keys]
        metrics += [m for m in r['metrics'] if m not in metrics]
    with open(path, 'w', newline='') as fh:
        w = csv.writer(fh)
        w.writerow(keys + ['%s_%s' % (m, s) for m in metrics
                           for s in ('median', 'min', 'max')])
        for r in agg:
            row = [r['config'].get(k, '') for k in keys]
            for m in metrics:
                s = r['metrics'].get(m)
                row += [s[x] if s else '' for x in ('median', 'min', 'max')]
            w.writerow(row)


def plotted_columns(exp, rows):
    """The columns measured in at least one row: a column no row has would
    be all NaN, which gnuplot refuses to plot (and has nothing to show)."""
    return [(m, h) for m, h in exp.columns
            if any(m in r['metrics'] for r in rows)]


def plot_data(exp, rows):
    """gnuplot's data file: a label and the medians of each row, one column
    per plotted_columns().  A metric the row lacks is NaN, which gnuplot
    leaves out: no bar, not a 0 bar."""
    out = []
    for r in rows:
        label = '/'.join(str(v) for k, v in r['config'].items()
                         if k not in ('device', 'table'))
        vals = []
        for m, _ in plotted_columns(exp, rows):
            s = r['metrics'].get(m)
            vals.append('%s' % s['median'] if s else 'NaN')
        out.append('"%s" %s\n' % (label.replace('"', "'"), ' '.join(vals)))
    return ''.join(out)


def plot(exp, agg, png):
    """A clustered bar chart of the medians, one cluster per config."""
    rows = [r for r in agg if any(m in r['metrics'] for m, _ in exp.columns)]
    if not rows:
        return False
    dat = png[:-4] + '.dat'
    with open(dat, 'w') as fh:
        fh.write(plot_data(exp, rows))
    cols = ', '.join("'%s' using %d:xtic(1) title '%s'" % (dat, i + 2, h)
                     for i, (_, h) in enumerate(plotted_columns(exp, rows)))
    script = ('set terminal png size 1000,500; set output "%s"; '
              'set style data histograms; set style fill solid 0.8; '
              'set style histogram clustered; set yrange [0:*]; '
              'set xtics rotate by -30; '
              'set title "%s"; set key outside; plot %s'
              % (png, exp.name, cols))
    try:
        subprocess.run(['gnuplot', '-e', script], check=True,
                       stderr=subprocess.PIPE)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write('[bench] gnuplot failed (%s): apt-get install '
                         'gnuplot-nox\n' % e)
        return False
    finally:
        if os.path.exists(dat):
            os.unlink(dat)
    return True


def draw_figure(e, doc, run_id, png, peers=None):
    """The experiment's own figure (scripts/lab/figures.py), or the
    generic bar chart when it has none.  (drawn, caption lines)."""
    fig = figures.build(e.name, doc, run_id, peers)
    if fig is None:
        return plot(e, doc['rows'], png), []
    if not doc['rows']:
        return False, fig.caption
    return figures.render(fig, png), fig.caption


def experiment_text(e, doc, base, plotted):
    """What is printed for one experiment: its context, the seed-format
    table, the generic summary, the spread and the files."""
    agg, notes = doc['rows'], doc.get('notes', [])
    kern = sorted(set((doc.get('kernels') or {}).values()) or
                  [doc.get('kernel', 'unknown')])
    text = ['%s  (kernel %s, series %s, %s, scale %g)'
            % (e.name, ', '.join(kern) or 'unknown', doc.get('series'),
               runs_text(agg, per_run(doc)), doc.get('scale', 1))]
    for name, desc in sorted((doc.get('kernel_config') or {}).items()):
        text.append('kernel configuration %s: %s' % (name, desc))
    lab = doc.get('lab') or {}
    text.append('clock: %s' % (lab_line(lab) if 'seed' in lab else
                               'not recorded'))
    if lab.get('not_icount') and any(b['accel'] == 'tcg' and
                                     b['part'] is None
                                     for b in lab.get('parts', [])):
        text.append('kept on TCG, not on the instruction-counted clock: %s'
                    % lab['not_icount'])
    if e.formatter and agg:
        try:
            ctx = dict(doc.get('setup') or {}, kernel=doc['kernel'])
            text.append(e.formatter(e, agg, notes, ctx))
        except Exception as ex:  # a table bug must not lose the data
            text.append('(seed-format table failed: %r)' % ex)
        text.append('')
        text.append('summary: median (min-max) over the runs')
    text.append(table(e, agg, notes))
    text += spread_text(e, agg)
    text.append('files: %s.json %s.csv%s' % (base, base,
                                             ' %s.png' % base if plotted
                                             else ''))
    return '\n'.join(text)


def goal_verdicts(e, doc):
    """The experiment's pass/fail lines for the report page (its goals
    function, experiments/NAME.py); [] for an experiment without a
    goal."""
    return e.goals(e, doc.get('rows') or []) if e.goals else []


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
