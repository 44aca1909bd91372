#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run blk26 lab experiments and write their tables, JSON, CSV and plots.

  bench.py list                      the experiments, one line each
  bench.py NAME[,NAME...]            run them (BENCH_RUNS, BENCH_SCALE)

Each experiment boots the lab kernel once and runs
scripts/lab/experiments/NAME.sh in the guest, which reports rows of
(config, metrics).  Here each metric becomes the median of its runs, with
min and max kept, and is written to results/<run-id>/NAME.{json,csv,png};
results/latest points at the newest run.
"""

import csv
import json
import os
import re
import statistics
import subprocess
import sys
import time

LAB = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(LAB))


class Experiment:
    """What the host needs to know about one experiment."""

    def __init__(self, name, desc, columns, baseline=None, mem=2048,
                 minutes=10):
        self.name = name
        self.desc = desc
        self.columns = columns          # [(metric, heading)]
        self.baseline = baseline        # (config key, value) for ratios
        self.mem = mem
        self.minutes = minutes          # guest timeout at BENCH_SCALE=1


EXPERIMENTS = [
    Experiment('overview',
               'every elevator on a simhba sata-7200 disk: streaming reader '
               'vs buffered writer, and 2 sequential readers',
               [('reader_MBps', 'reader MB/s'),
                ('disk_write_MBps', 'writer MB/s'),
                ('two_readers_MBps', '2 readers MB/s')],
               baseline=('elevator', 'mq-deadline'), minutes=15),
]
BY_NAME = {e.name: e for e in EXPERIMENTS}


def list_experiments(out=sys.stdout):
    for e in EXPERIMENTS:
        out.write('%-20s %s\n' % (e.name, e.desc))


# --- turning rows into numbers --------------------------------------------

def config_key(config):
    return json.dumps(config, sort_keys=True)


def aggregate(rows):
    """Group rows by config; each metric -> median, min, max and runs.

    Returns (list of {"config", "metrics", "runs"}, notes) in the order the
    configs first appeared.
    """
    order, groups, notes = [], {}, []
    for row in rows:
        if 'note' in row:
            if row['note'] not in notes:
                notes.append(row['note'])
            continue
        k = config_key(row['config'])
        if k not in groups:
            order.append(k)
            groups[k] = {'config': row['config'], 'values': {}}
        for m, v in row['metrics'].items():
            groups[k]['values'].setdefault(m, []).append(float(v))
    out = []
    for k in order:
        g = groups[k]
        metrics = {m: {'median': statistics.median(v), 'min': min(v),
                       'max': max(v)} for m, v in g['values'].items()}
        out.append({'config': g['config'], 'metrics': metrics,
                    'runs': g['values']})
    return out, notes


def parse_rows(text):
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            rows.append(json.loads(line))
    return rows


def ratios(agg, baseline):
    """metric -> ratio of each row's median to the baseline row's median."""
    if not baseline:
        return {}
    key, value = baseline
    base = [r for r in agg if r['config'].get(key) == value]
    if not base:
        return {}
    out = {}
    for i, r in enumerate(agg):
        for m, s in r['metrics'].items():
            b = base[0]['metrics'].get(m, {}).get('median')
            if b:
                out[(i, m)] = s['median'] / b
    return out


def fmt(v):
    if v is None:
        return '-'
    return '%.1f' % v if abs(v) < 1000 else '%.0f' % v


def table(exp, agg, notes):
    """The experiment's table, as text, with ratios to the baseline."""
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
                cells.append('-')
            elif s['min'] != s['max']:
                cells.append('%s (%s-%s)' % (fmt(s['median']), fmt(s['min']),
                                             fmt(s['max'])))
            else:
                cells.append(fmt(s['median']))
        if rat:
            for m, _ in exp.columns:
                x = rat.get((i, m))
                cells.append('%.2f' % x if x is not None else '-')
        lines.append(cells)
    widths = [max(len(h), *(len(c[j]) for c in lines)) if lines else len(h)
              for j, h in enumerate(head)]
    rule = ' '.join('-' * w for w in widths)
    text = [rule, ' '.join(h.ljust(w) for h, w in zip(head, widths)), rule]
    for c in lines:
        text.append(' '.join(x.rjust(w) if j >= len(keys) else x.ljust(w)
                             for j, (x, w) in enumerate(zip(c, widths))))
    text.append(rule)
    if rat:
        text.append('x: ratio of the median to %s=%s, measured in this run'
                    % exp.baseline)
    for n in notes:
        text.append('note: ' + n)
    return '\n'.join(text)


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


def plot(exp, agg, png):
    """A clustered bar chart of the medians, one cluster per config."""
    if not agg:
        return False
    dat = png[:-4] + '.dat'
    with open(dat, 'w') as fh:
        for r in agg:
            label = '/'.join(str(v) for v in r['config'].values()
                             if v != r['config'].get('device'))
            fh.write('"%s"' % label)
            for m, _ in exp.columns:
                s = r['metrics'].get(m)
                fh.write(' %s' % (s['median'] if s else 0))
            fh.write('\n')
    cols = ', '.join("'%s' using %d:xtic(1) title '%s'" % (dat, i + 2, h)
                     for i, (_, h) in enumerate(exp.columns))
    script = ('set terminal png size 1000,500; set output "%s"; '
              'set style data histograms; set style fill solid 0.8; '
              'set style histogram clustered; set yrange [0:*]; '
              'set title "%s"; set key outside; plot %s'
              % (png, exp.name, cols))
    try:
        subprocess.run(['gnuplot', '-e', script], check=True,
                       stderr=subprocess.PIPE)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write('[bench] gnuplot failed (%s): apt-get install '
                         'gnuplot-nox\n' % e)
        return False
    os.unlink(dat)
    return True


# --- running ----------------------------------------------------------------

def git_describe():
    try:
        return subprocess.run(['git', '-C', TOP, 'describe', '--always',
                               '--dirty'], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


def run_one(exp, outdir, runs, scale):
    guest = os.path.join(outdir, 'guest-' + exp.name)
    env = dict(os.environ, BENCH_RUNS=str(runs), BENCH_SCALE=str(scale),
               LAB_QUIET='')
    tmo = int(exp.minutes * 60 * max(1.0, scale) * runs) + 120
    cmd = [os.path.join(LAB, 'boot.sh'), '-m', str(exp.mem), '-t', str(tmo),
           '-o', guest, '--', 'scripts/lab/experiments/run', exp.name]
    start = time.time()
    print('[bench] %s: booting (timeout %d s)' % (exp.name, tmo), flush=True)
    proc = subprocess.Popen(cmd, cwd=TOP, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            errors='replace')
    plan = 0
    kernel = 'unknown'
    for line in proc.stdout:
        m = re.search(r'bench: (.*)', line)
        if line.startswith('[lab]'):
            print(line.rstrip(), flush=True)
        if re.search(r'Linux version (\S+)', line):
            kernel = re.search(r'Linux version (\S+)', line).group(1)
        if not m:
            continue
        msg = m.group(1)
        pm = re.match(r'plan (\d+)', msg)
        sm = re.match(r'step (\d+)/(\d+) (.*)', msg)
        el = time.time() - start
        if pm:
            plan = int(pm.group(1))
        elif sm:
            done = int(sm.group(1)) - 1
            eta = ''
            if done > 0 and plan:
                eta = ', about %d s left' % (el / done * (plan - done))
            print('[bench] %s [%s/%s, %d s%s] %s'
                  % (exp.name, sm.group(1), sm.group(2), el, eta,
                     sm.group(3)), flush=True)
        else:
            print('[bench] %s: %s' % (exp.name, msg), flush=True)
    rc = proc.wait()
    rows_path = os.path.join(guest, exp.name + '.rows')
    rows = []
    if os.path.exists(rows_path):
        with open(rows_path) as fh:
            rows = parse_rows(fh.read())
    return rc, kernel, rows


def main(argv):
    names = argv[0] if argv else 'list'
    if names == 'list':
        list_experiments()
        return 0
    wanted = [n for n in names.split(',') if n]
    if wanted == ['all']:
        wanted = [e.name for e in EXPERIMENTS]
    unknown = [n for n in wanted if n not in BY_NAME]
    if unknown:
        sys.stderr.write('[bench] unknown experiment: %s; known:\n'
                         % ', '.join(unknown))
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

    run_id = time.strftime('%Y%m%d-%H%M%S')
    outdir = os.path.join(TOP, 'results', run_id)
    os.makedirs(outdir, exist_ok=True)
    latest = os.path.join(TOP, 'results', 'latest')
    if os.path.islink(latest):
        os.unlink(latest)
    os.symlink(run_id, latest)
    status = 0
    for name in wanted:
        exp = BY_NAME[name]
        rc, kernel, rows = run_one(exp, outdir, runs, scale)
        agg, notes = aggregate(rows)
        if rc != 0:
            notes.append('the guest run ended with status %d' % rc)
        doc = {'experiment': name, 'kernel': kernel,
               'series': git_describe(), 'runs': runs, 'scale': scale,
               'notes': notes, 'rows': agg}
        base = os.path.join(outdir, name)
        with open(base + '.json', 'w') as fh:
            json.dump(doc, fh, indent=1)
        write_csv(base + '.csv', agg)
        plotted = plot(exp, agg, base + '.png')
        print()
        print('%s  (kernel %s, series %s, %d run%s, scale %g)'
              % (name, kernel, doc['series'], runs, 's'[:runs > 1], scale))
        print(table(exp, agg, notes))
        print('files: %s.json %s.csv%s' % (base, base,
                                             ' %s.png' % base if plotted
                                             else ''))
        if not agg:
            status = 1
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
