#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run blk26 lab experiments and write their tables, JSON, CSV and plots.

  bench.py list                      the experiments, one line each
  bench.py NAME[,NAME...]|all        run them (BENCH_RUNS, BENCH_SCALE,
                                     KERNELS=a,b for raid0-dd: names of
                                     experiments/kernels, or series-N;
                                     BENCH_ROOT=tmpfs|9p, runner.py)
  bench.py --parse KIND [ARG...] FILE...
                                     the parsers of parsers.py (which the
                                     guest runs itself, bench_parse): JSON
                                     of the files' text
  bench.py --report RESULTS/RUN-ID   draw the figures and write the report
                                     page again from a run's JSON
  bench.py --publish RESULTS/RUN-ID [--draft] [--out FILE]
                                     write the results page,
                                     Documentation/block/blk26-results.rst,
                                     draw its figures beside it and keep
                                     the run's data there (publish.py,
                                     pubdata.py)
  bench.py --republish OUTDIR [--data DIR]
  bench.py --republish --check [--page FILE] [--data DIR]
                                     the results page again from its
                                     committed data, or checked against
                                     it (republish.py)
  bench.py --spread LABEL=RESULTS/RUN-ID...
                                     the runs' spread per experiment and
                                     headline metric, a column per run
                                     (publish.py)

The experiments that share a guest (same kernel, memory, command line,
clock and vCPUs) run in one boot of the lab kernel:
scripts/lab/experiments/run NAME,... runs scripts/lab/experiments/NAME.sh
for each, which reports rows of (config, metrics[, detail]).  Here each
metric becomes the median of its runs, with min and max kept, and is
written to
results/<run-id>/NAME.{json,csv,png}; results/latest points at the newest
run (BENCH_RESULTS=dir writes elsewhere).  Each experiment's table is
printed in its seed's format, followed by the generic summary (median,
min-max, ratio to the baseline).  NAME.png is the experiment's own figure
(scripts/lab/figures.py), and results/<run-id>/index.html the run's report
page: every experiment's context, figure, goals, notes and tables in one
file.

This file holds main() and the registry (EXPERIMENTS); the rest is in
  experiments/NAME.py  an experiment's columns, seed-format table, goals
  experiment.py        what an experiment declares (Experiment, Part)
  parsers.py           the text parsers, also run by the guest
  stats.py             medians, ratios, spread, the goals' verdicts
  report.py            the text tables, CSV, bar chart and report page
  runner.py            the guest's clock, the boots, watching a boot
  kernels.py           the kernel configurations of KERNELS=a,b
  publish.py           the published results page of a run
  labpaths.py          where scripts/lab and the tree's top are
"""

import json
import os
import sys
import time

import publish
import republish
from experiments import (anticipatory, bs_sweep, cfq, dbt2, ioc_random,
                         mq_scaling, overview, raid0_dd, sg_segments,
                         simhba_calibration, startup, traces)
from kernels import (built_tree, kernel_entry, kernel_env, read_kernels,
                     wanted_kernels)
from labpaths import TOP
from parsers import run_parse
from report import print_report, write_csv
from runner import (bench_root, exp_shift, git_describe, icount_sleep,
                    lab_clock, lab_doc, machine_doc, not_icount_why,
                    part_id, plan_boots, root_doc, run_boot,
                    timeout_scale)
from stats import aggregate, spread


# --- the registry ---------------------------------------------------------

EXPERIMENTS = [m.EXPERIMENT for m in (overview, simhba_calibration, raid0_dd,
                                        sg_segments, bs_sweep, anticipatory,
                                        ioc_random, cfq, mq_scaling, startup,
                                        traces, dbt2)]
BY_NAME = {e.name: e for e in EXPERIMENTS}


def list_experiments(out=sys.stdout):
    for e in EXPERIMENTS:
        out.write('%-20s %s\n' % (e.name, e.desc))


# --- main -------------------------------------------------------------------


def new_run_dir(results):
    """Make a run's own results directory and return its id, the second
    it started: a run started in a second another run of the same results
    took waits for the next free one (two runs in one directory overwrote
    each other's guest directories)."""
    os.makedirs(results, exist_ok=True)
    while True:
        run_id = time.strftime('%Y%m%d-%H%M%S')
        try:
            os.mkdir(os.path.join(results, run_id))
            return run_id
        except FileExistsError:
            time.sleep(0.2)


def main(argv):
    if argv and argv[0] == '--parse':
        return run_parse(argv[1:])
    if argv and argv[0] == '--report':
        if len(argv) != 2:
            sys.stderr.write('usage: bench.py --report RESULTS/RUN-ID\n')
            return 2
        return report_dir(argv[1])
    if argv and argv[0] == '--publish':
        return publish.main(argv[1:], EXPERIMENTS)
    if argv and argv[0] == '--republish':
        return republish.main(argv[1:], EXPERIMENTS)
    if argv and argv[0] == '--spread':
        return publish.spread_main(argv[1:], EXPERIMENTS)
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
        root = bench_root(os.environ)
        timeout_scale(os.environ)
        cfq.only_workloads(os.environ)
        startup.only_variants(os.environ)
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
                             'configurations (raid0-dd and overview do)\n'
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

    results = os.environ.get('BENCH_RESULTS') or os.path.join(TOP, 'results')
    run_id = new_run_dir(results)
    outdir = os.path.join(results, run_id)
    latest = os.path.join(results, 'latest')
    if os.path.islink(latest):
        os.unlink(latest)
    os.symlink(run_id, latest)

    boots = plan_boots(exps, kernels, accel, root, shift)
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
                          'kernels': {}, 'trees': {}, 'lab': [],
                          'configs': []}
                 for e in exps}
    for i, boot in enumerate(boots):
        kname = boot[0]
        if kname and kenv.get(kname) is None:
            for e, _ in boot[4]:
                collected[e.name]['rows'].append({'note': knotes[kname]})
            continue
        guest = os.path.join(outdir, 'guest-%d%s' % (
            i, '-' + kname if kname else ''))
        tree = built_tree(kenv.get(kname) or {}, os.environ)
        rc, kernel, res = run_boot(boot, guest, runs, scale,
                                   kenv.get(kname) or {}, t0, prog,
                                   seed, root)
        # what the guest ran: its root's hash and packages, once a boot
        groot = root_doc(guest, root, dict(os.environ,
                                           **(kenv.get(kname) or {})))
        for e, part, rows, st, ctx in res:
            c = collected[e.name]
            c['lab'].append({'part': part.name, 'accel': boot[3],
                             'cpus': boot[5], 'recorded': os.path.exists(
                                 os.path.join(guest, 'recorded')),
                             'guest_root': groot})
            c['rows'] += rows
            c['ctx'].update(ctx)
            c['kernels'][kname or 'default'] = kernel
            c['configs'].append(kname or os.environ.get('KERNEL') or
                                'default')
            c['trees'][kname or 'default'] = tree
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
    machine = machine_doc()
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
        if e.values_per_run != 1:
            doc['values_per_run'] = e.values_per_run
        if len(c['kernels']) > 1 or (kernels and e.kernels):
            doc['kernels'] = c['kernels']
        # the source the kernels were built from: which runs may be
        # published together
        doc['kernel_tree'] = c['trees']
        # the kernel configuration (experiments/kernels) each row ran on,
        # named in every table: the block layer differs between them
        doc['kernel_config'] = kernel_configs(c['configs'])
        if c['ctx']:
            doc['setup'] = c['ctx']
        doc['machine'] = machine
        # how the guest ran: what a repetition must repeat
        doc['lab'] = lab_doc(c['lab'], exp_shift(e, shift), seed, root)
        if 'icount_shift' in doc['lab']:
            doc['lab']['icount_sleep'] = sleep
        why = not_icount_why(e, root)
        if why and accel == 'icount':
            doc['lab']['not_icount'] = why
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


def kernel_configs(names):
    """{configuration name: its description (experiments/kernels)} of the
    boots that ran: a name of KERNELS=, or make bench's own KERNEL."""
    try:
        table = read_kernels()
    except (OSError, ValueError):
        table = {}
    out = {}
    for name in names:
        e = kernel_entry(name, table)
        out[name] = e['desc'] if e else ''
    return out


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
