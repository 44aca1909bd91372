#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A mutation probe of the lab's unit tests: do they fail when the code is
wrong?  Run it by hand after changing bench.py, results.py or their tests
(make test does not run it; each mutant runs the whole unit suite,
about a minute on 2 cores, so give it the numbers to run):

  python3 scripts/lab/tests/mutate.py [-v] [-k] [NUMBER...]

Each mutant is one small change to bench.py or results.py of the kind a
slip of the keyboard or a hasty fix makes: a statistic, a comparison, a
fallback value, a divisor, an exit status.  For each, scripts/lab is
copied to a temporary directory, the change is made there (the working
tree is never touched) and the unit tests run against the copy.  A mutant
that the tests still pass survives: some behaviour has no test.  The
report lists the survivors; -v also prints the killers' first failure, -k
keeps the copies.

A mutant that no longer applies (its text is not in the file exactly once)
is an error, exit status 2: update it with the code.  The exit status is 1
when a mutant survives and is not listed in EQUIVALENT with the reason it
cannot be told apart from the original.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

LAB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = os.path.dirname(os.path.dirname(LAB))
# what the unit tests read outside scripts/lab (test_simhba_profiles.py):
# linked into each copy's top, never mutated
OUTSIDE = ('drivers', 'Documentation', 'tests')

# (file, text, replacement, what the mutant does)
MUTANTS = [
    # statistics
    ('stats.py', "'median': statistics.median(v)",
     "'median': statistics.mean(v)", 'aggregate: median -> mean'),
    ('stats.py', "'min': min(v)", "'min': max(v)", 'aggregate: min is max'),
    ('parsers.py', "statistics.mean(s[k] for s in samples)",
     "statistics.median(s[k] for s in samples)",
     'vmstat_means: mean -> median'),
    ('stats.py', "limit = factor * statistics.median(base_runs)",
     "limit = factor * statistics.mean(base_runs)",
     'good_bad: median -> mean'),
    ('experiments/raid0_dd.py', "avgs = [statistics.mean(runs)",
     "avgs = [statistics.median(runs)",
     'raid0 table: average -> median'),
    ('experiments/raid0_dd.py', "if r < 0.8 * statistics.median(base))",
     "if r < 0.8 * statistics.mean(base))", 'raid0 noise: median -> mean'),
    # comparisons and goals
    ('stats.py', "'bad' if any(r < limit for r in runs)",
     "'bad' if any(r <= limit for r in runs)", 'good_bad: < -> <='),
    ('stats.py', "'met' if x >= want", "'met' if x > want",
     'verdict: >= -> >'),
    ('stats.py', "'met' if a >= b", "'met' if a > b",
     'anticipatory >= bfq: >= -> >'),
    ('stats.py', "'met' if a >= b", "'met' if a <= b",
     'anticipatory >= bfq: inverted'),
    ('stats.py', "out[(i, m)] = s['median'] / b",
     "out[(i, m)] = b / s['median']", 'ratios: inverted'),
    ('stats.py', "           min(r['runs'][m]) > 0]",
     "           min(r['runs'][m]) >= 0]", 'spread: a 0 run divides'),
    ('stats.py', "    return sorted(out, key=lambda x: -x[0])",
     "    return sorted(out, key=lambda x: x[0])",
     'spread: smallest, not largest'),
    # missing values
    ('stats.py', "            if v is None:\n                continue\n",
     "            if v is None:\n                v = 0\n",
     'aggregate: a null metric counts as 0'),
    ('report.py', "row += [s[x] if s else ''", "row += [s[x] if s else 0",
     'write_csv: missing as 0'),
    ('report.py', "vals.append('%s' % s['median'] if s else 'NaN')",
     "vals.append('%s' % s['median'] if s else '0')",
     'plot_data: missing as 0'),
    ('report.py', "                cells.append(missing)\n",
     "                cells.append('0')\n", 'table: missing as 0'),
    # dropped or swapped columns
    ('report.py', "for x in ('median', 'min', 'max')]",
     "for x in ('median', 'max', 'min')]", 'write_csv: min and max swapped'),
    ('report.py', "metrics += [m for m in r['metrics'] if m not in metrics]",
     "metrics = [m for m in r['metrics']]",
     'write_csv: only the last row\'s metrics'),
    ('report.py', "if any(m in r['metrics'] for r in rows)]",
     "if all(m in r['metrics'] for r in rows)]",
     'plotted_columns: a column some row lacks is dropped'),
    ('report.py', "for i, (_, h) in enumerate(plotted_columns(exp, rows)))",
     "for i, (_, h) in enumerate(exp.columns))",
     'plot: titles of columns that are not in the data'),
    ('report.py', "using %d:xtic(1) title '%s'\" % (dat, i + 2, h)",
     "using %d:xtic(1) title '%s'\" % (dat, i + 1, h)",
     'plot: each title on the column before its own'),
    ('report.py', "rows = [r for r in agg if any(m in r['metrics'] "
     "for m, _ in exp.columns)]",
     "rows = [r for r in agg if all(m in r['metrics'] "
     "for m, _ in exp.columns)]", 'plot: a row missing a column is dropped'),
    ('report.py', "                         'gnuplot-nox\\n' % e)\n"
     "        return False\n",
     "                         'gnuplot-nox\\n' % e)\n"
     "        return True\n", 'plot: a failed gnuplot counts as a plot'),
    # divisors: measured, not requested
    ('parsers.py', "    t = b['t'] - a['t']\n",
     "    t = round(b['t'] - a['t'])\n",
     'sg_window: whole seconds, as a requested duration'),
    # the runner
    ('runner.py', "max(1.0, scale) * runs) +", "max(1.0, scale)) +",
     'run_boot: timeout ignores RUNS'),
    ('runner.py', "env['LAB_ICOUNT_SHIFT'] = str(shift)",
     "env['LAB_ICOUNT_SHIFT'] = '0'", 'run_boot: the shift is not passed'),
    ('runner.py',
     "stem = os.path.join(guest, part_id(e, part).replace(':', '.'))",
     "stem = os.path.join(guest, part_id(e, part))",
     'watch_boot: a part\'s files are not found'),
    ('runner.py', "                prog['done_min'] += m\n",
     "                prog['done_min'] += 0\n",
     'watch_boot: finished minutes not counted'),
    ('runner.py', "        if kname:\n            for r in rows:",
     "        if not kname:\n            for r in rows:",
     'watch_boot: kernel configuration not in the config'),
    ('runner.py', "        km = re.search(r'Linux version (\\S+)', line)",
     "        km = None", 'watch_boot: kernel version not read'),
    # exit status and notes
    ('bench.py', "        if not agg:\n            status = 1",
     "        if not agg:\n            status = 0",
     'main: success with nothing measured'),
    ('bench.py', "        if runs < 1 or scale <= 0:",
     "        if runs < 0 or scale <= 0:", 'main: RUNS=0 accepted'),
    ('bench.py', "            elif st != '0':", "            elif st == '':",
     'main: a failed experiment script is not noted'),
    ('bench.py',
     "            if st is None:\n                c['rows'].append(",
     "            if st == 'none':\n                c['rows'].append(",
     'main: an unfinished guest is not noted'),
    ('bench.py', "                collected[e.name]['rows'].append("
     "{'note': knotes[kname]})",
     "                pass", 'main: an unbuilt kernel is not noted'),
    # results.py
    ('results.py', "    return 1 if c['fail'] else 0",
     "    return 0", 'results main: success with failures'),
    ('results.py', "        if suite is not None and seen < plan:",
     "        if suite is not None and seen < plan - 1:",
     'parse_ktap: one missing case goes unnoticed'),
    ('results.py', "not any(n.startswith(name + '/') for n in names)",
     "not any(n.startswith(name) for n in names)",
     'summarize: a prefix of a name meets it'),
    ('results.py',
     "                r.name.split(':', 1)[-1] in allowed:",
     "                False:",
     'police_skips: the set label is compared'),
    ('results.py', "            if len(parts) < 2:",
     "            if len(parts) < 1:", 'allowed skips: no reason needed'),
    ('results.py', "        elif line.startswith('#') and results and \\\n"
     "                results[-1].status == 'fail':",
     "        elif line.startswith('#') and results:",
     'parse_tap: diagnostics after a pass kept as detail'),
    # a second batch, written after the tests of the first
    ('runner.py', "int(shift) <= MAX_ICOUNT_SHIFT:",
     "int(shift) < MAX_ICOUNT_SHIFT:",
     'lab_clock: the largest shift refused'),
    ('parsers.py', "    if len(ok) < 2 or set(ok[0]['proc'])",
     "    if len(ok) < 1 or set(ok[0]['proc'])",
     'sg_window: a window of one snapshot'),
    ('stats.py', "            if b:\n                out[(i, m)]",
     "            if b is not None:\n                out[(i, m)]",
     'ratios: a baseline of 0 divides'),
    ('stats.py', "best = max(shared(b) for b in base)",
     "best = min(shared(b) for b in base)",
     'ratios: the least matching baseline row'),
    ('experiments/ioc_random.py',
     "cells.append('%.1f' % v[0] if v and v[0] is not None\n"
     "                         else 'missing')",
     "cells.append('%.1f' % v[0] if v and v[0] is not None\n"
     "                         else '0.0')", 'ioc-random table: missing as 0'),
    ('experiments/dbt2.py', "if median_of(r, 'notpm') is not None else '-',",
     "if median_of(r, 'notpm') is not None else '0',",
     'dbt2 table: NOTPM missing as 0'),
    ('experiments/raid0_dd.py', "'%d%%' % round(100 * (a / avgs[0] - 1))",
     "'%d%%' % round(100 * (avgs[0] / a - 1))",
     'raid0 table: % change inverted'),
    ('runner.py', "(el / done * (plan - done))", "(el / done * plan)",
     'watch_boot: time left counts the steps done'),
    ('experiments/sg_segments.py',
     "cell(b / a if a and b is not None else None)",
     "cell(b / a if a and b is not None else 0)",
     'sg-segments table: a missing ratio as 0'),
    ('bench.py', "if len(c['kernels']) > 1 or (kernels and e.kernels):",
     "if len(c['kernels']) > 1:",
     'main: one kernel configuration asked for, not named'),
    ('parsers.py', "out.sort(key=lambda x: (-x[1], x[0]))",
     "out.sort(key=lambda x: (x[1], x[0]))",
     'parse_readprofile: the least loaded first'),
    ('report.py', "                     if k not in same)",
     "                     if k in same)",
     'spread_text: names the config by the keys all rows share'),
    # issue 13 (cfq): goals, tables, the blktrace shares
    ('experiments/ioc_random.py', "out.append((what, verdict(a / b, want)))",
     "out.append((what, verdict(b / a, want)))",
     'ioc goal: base over ioc idle'),
    ('experiments/ioc_random.py', "IOC_GOAL = ('ioc idle', 0.9)",
     "IOC_GOAL = ('ioc no idle', 0.9)", 'ioc goal: the wrong column'),
    ('experiments/ioc_random.py',
     "                       'N measured in this run:', "
     "ioc_goals(agg))",
     "                       'N measured in this run:', [])",
     'ioc-random table: no goal lines'),
    ('stats.py', "'met' if lo <= x <= hi", "'met' if lo < x <= hi",
     'within: the lower bound excluded'),
    ('stats.py', "'met' if lo <= x <= hi", "'met' if lo <= x < hi",
     'within: the upper bound excluded'),
    ('stats.py', "d = max(decimals_for(x, lo, 3), decimals_for(hi, x, 3))",
     "d = 3", 'within: fixed decimals hide the verdict'),
    ('experiments/cfq.py', "                   r['config']['weight'] / tot)",
     "                   1.0 / len(rows))", 'weights: equal shares wanted'),
    ('experiments/cfq.py',
     "            elevator_median(mixed, 'mq-deadline', m), "
     "want)))",
     "            elevator_median(mixed, 'bfq', m), want)))",
     'cfq goals: readers against bfq, not mq-deadline'),
    ('experiments/cfq.py', "CFQ_NULLBLK_GOAL = 0.9", "CFQ_NULLBLK_GOAL = 0.8",
     'cfq goals: a looser overhead goal'),
    ('experiments/dbt2.py', "            r['config'].get('dma_bits') == 32]",
     "            True]", 'dbt2 goal: any DMA mask'),
    ('parsers.py', "            used[p] = used.get(p, 0.0) + dt\n"
     "            free_since = t\n",
     "            used[p] = used.get(p, 0.0) + dt\n",
     'blk-time: each completion charged from the first dispatch'),
    ('parsers.py', "at_disk[sector] = queued.get(sector, pid)",
     "at_disk[sector] = pid", 'blk-time: the issuer, not the queuer'),
    ('parsers.py', "    events.sort()\n    return events", "    return events",
     'blk-time, blk-wait: events in file order'),
    ('experiments/cfq.py', "                    % (100.0 / len(fair)))",
     "                    % (100.0 / 4))", 'cfq table: equal share of 4'),
    ('experiments/ioc_random.py', "            setups.append(s)\n    ns = []",
     "            pass\n    ns = []", 'seed 002 table: no extra columns'),
    ('experiments/ioc_random.py',
     "    return ['%s: %s' % g for g in ioc_goals(agg)]",
     "    return []", 'report: no ioc-random verdicts'),
    ('experiments/cfq.py',
     "    return ['%s: %s' % g for g in cfq_goals(agg)]",
     "    return []", 'report: no cfq verdicts'),
    ('figures.py', "            put(fig, meas, x[i], stat(r, 'MBps'), "
     "'%s N=%d' % (su, n))",
     "            put(fig, meas, x[i], None if sv else stat(r, 'MBps'), "
     "'%s N=%d' % (su, n))", 'seed 002 figure: the seed\'s columns not '
     'drawn'),
    ('figures.py', "stacked_panel(fig, md, elev, peers)",
     "stacked_panel(fig, doc, elev, peers)",
     'cfq figure: readers and writer from every workload\'s rows'),
    ('figures.py', "want.add(i, w / float(sum(ws)))",
     "want.add(i, 1.0 / len(ws))", 'cfq figure: equal shares wanted'),
    ('figures.py', "p.hlines.append((100.0 / len(procs), 'equal slices'))",
     "p.hlines.append((25.0, 'equal slices'))",
     'cfq figure: equal slices of 4'),
    # issue 13's goal 7 (cfq scale)
    ('experiments/cfq.py', "    ok = served == n and wait <= bound",
     "    ok = wait <= bound", 'scale goal: a process never served passes'),
    ('experiments/cfq.py', "    ok = served == n and wait <= bound",
     "    ok = served == n and wait < bound",
     'scale goal: the bound itself fails'),
    ('experiments/cfq.py', "                 'max_sched_ms', 'in cfq'),",
     "                 'max_lat_ms', 'in cfq'),",
     "scale goal: the read's whole latency, not cfq's wait"),
    ('parsers.py', "                    (inserted[sector].pop(0), t))",
     "                    (inserted[sector].pop(), t))",
     'blk-wait: reads at one sector matched last in, first out'),
    ('parsers.py', "    odd += sum(len(v) for v in inserted.values())",
     "    odd += 0", 'blk-wait: a read never dispatched is not counted'),
    ('experiments/cfq.py', "    served = worst_runs(r, 'served', min)",
     "    served = worst_runs(r, 'served', max)",
     'scale goal: the best run decides who was served'),
    ('experiments/cfq.py',
     "    return pick(v) if v and len(v) == most_runs([r]) else None",
     "    return pick(v) if v else None",
     'scale goal: a run without its trace is ignored'),
    ('experiments/cfq.py', "    for n in sorted(set(sc) | set(CFQ_SCALE_N)):",
     "    for n in sorted(sc):", "scale goal: the issue's N not said missing"),
    ('experiments/cfq.py',
     "        x = (median_of(cost[ns[-1]], 'us_per_io') /\n"
     "             median_of(cost[ns[0]], 'us_per_io'))",
     "        x = (median_of(cost[ns[-1]], 'us_per_io') /\n"
     "             median_of(cost[ns[-1]], 'us_per_io'))",
     'scale cost goal: the largest N against itself'),
    ('experiments/cfq.py',
     "    cost = n_rows(workload_rows(agg, 'scale cost'))",
     "    cost = n_rows(workload_rows(agg, 'scale cost'), 'mq-deadline')",
     "scale cost goal: mq-deadline's cost judged"),
    ('experiments/cfq.py',
     "                         [cell(a / b if a and b else None, "
     "'%.3fx')])",
     "                         [cell(b / a if a and b else None, "
     "'%.3fx')])", 'scale cost table: the ratio upside down'),
    ('figures.py', "            want.add(i, b[0])",
     "            want.add(i, 300.0)", 'cfq figure: one round for every N'),
    # a count of runs printed is the count measured; goal 7 says its basis
    ('stats.py', "out.setdefault(m, set()).add(-(-len(v) // per_run))",
     "out.setdefault(m, set()).add(1)", 'runs measured: always 1'),
    ('figures.py',
     "    return most_runs(doc.get('rows') or [], per_run(doc)) > 1",
     "    return doc.get('runs', 1) > 1",
     'figures: bars and caption by the RUNS asked for'),
    ('publish.py',
     "':Runs measured: %s' % esc(runs_text(agg, per_run(doc)))",
     "':Runs measured: %s' % esc(doc.get('runs'))",
     'page: the runs measured are the RUNS asked for'),
    ('experiment.py', "issue, getattr(g, 'basis',",
     "issue, getattr(None, 'basis',",
     "summary: every goal's why says medians"),
    ('experiments/cfq.py', "runs_basis([r], metric, 'worst')[0]",
     "runs_basis([r], metric, 'medians')[0]",
     'scale goal: the worst run called the medians'),
    ('experiments/cfq/scale-cost.sh',
     'for run in $(seq 1 "$BENCH_RUNS"); do\n\t\tfor n in $scale_n; do',
     'for run in 1; do\n\t\tfor n in $scale_n; do',
     'cfq scale cost: measured in the first run only'),
    ('parsers.py',
     "    if not sum((served.get('workloads') or {}).values()) or",
     "    if False or", 'cfq slice note: for a process without slices'),
    # issue 12: the read latency p99 beside each throughput
    ('parsers.py', "        if seen >= pct / 100.0 * total:",
     "        if seen > pct / 100.0 * total:",
     'percentile: the bucket that reaches 99 % exactly is passed over'),
    ('parsers.py', "    for v in sorted(bins):\n        seen += bins[v]",
     "    for v in bins:\n        seen += bins[v]",
     'percentile: buckets in report order'),
    ('parsers.py', "            b = bins.setdefault(job.get('jobname'), {})",
     "            b = bins[job.get('jobname')] = {}",
     'fio_read_p99: only the last job of a name'),
    ('parsers.py', "        i = text.find('{', end)",
     "        break", 'fio_read_p99: only the first report'),
    ('parsers.py',
     "            i = text.find('{', i + 1)\n            continue",
     "            break\n            continue",
     'fio_read_p99: a message before the report hides it'),
    ('parsers.py', "    for f in argv[1 + len(args):]:",
     "    for f in argv[1 + len(args):2 + len(args)]:",
     'run_parse: only the first file'),
    ('experiments/anticipatory.py',
     "        return 'missing' if v is None else fmt(v) + unit",
     "        return '-' if v is None else fmt(v) + unit",
     'anticipatory latency table: missing as -'),
    ('experiments/anticipatory.py',
     "        if not any(m in r['metrics'] or p in r['metrics'] "
     "for r in agg):",
     "        if not any(m in r['metrics'] for r in agg):",
     'anticipatory latency table: p99 alone is not a line'),
    ('experiments/anticipatory.py',
     "            one(median_of(r, m)), one(median_of(r, p), "
     "' ' + unit))",
     "            one(median_of(r, m)), one(median_of(r, m), ' ' + unit))",
     'anticipatory latency table: throughput as p99'),
    ('figures.py', "                      [('nullblk_p99_us', 'p99, "
     "instruction-counted clock'),",
     "                      [('nullblk_kiops', 'p99, "
     "instruction-counted clock'),",
     'anticipatory figure: kIOPS drawn as p99'),
    ('figures.py', "        if p.logy and p.drawn():",
     "        if p.logy:", 'figures: a log axis on an empty panel'),
    ('figures.py', "            out.append('unset logscale y')",
     "            pass", 'figures: the log axis leaks into later panels'),
    ('runner.py',
     "               120 + 60 * len(items)) * timeout_scale(env))",
     "               120 + 60 * len(items)) * 1)",
     'run_boot: BENCH_TIMEOUT_SCALE ignored'),
    ('runner.py', "    if not 1 <= f <= 100:", "    if not 0 <= f <= 100:",
     'timeout_scale: a shorter timeout accepted'),
    # the shared fio and pgbench parsers the guest calls (bench_parse)
    ('parsers.py', "for job in doc.get('jobs', [])]",
     "for job in doc.get('jobs', [])[:1]]", 'fio_jobs: one job per report'),
    ('parsers.py', "j['read']['iops'] + j['write']['iops'] for j in jobs",
     "j['read']['iops'] for j in jobs", 'fio_iops: the writes left out'),
    ('parsers.py', "        raise ValueError('no fio job in the report')",
     "        return 0.0", 'fio_iops: no report reads as 0 IOPS'),
    ('parsers.py', "          if j.get('jobname') == job]", "          ]",
     'fio_mbps: every job, whatever its name'),
    ('parsers.py', "{'ms': 1e6, 'us': 1e3}[unit]",
     "{'ms': 1e3, 'us': 1e6}[unit]",
     'fio_job_lat (and fio_job_p99): the units swapped'),
    ('parsers.py', "    except (KeyError, ValueError) as ex:",
     "    except KeyError as ex:", 'run_parse: nothing found is a traceback'),
    # the registry and each experiment's own goals
    ('bench.py',
     "                                        ioc_random, cfq, dbt2)]",
     "                                        ioc_random, cfq)]",
     'registry: an experiment module left out'),
    ('report.py',
     "    return e.goals(e, doc.get('rows') or []) if e.goals else []",
     "    return e.goals(e, doc.get('rows')) if e.goals else []",
     'goal_verdicts: rows of None handed to the goals'),
    ('experiments/cfq.py', "    goals=goals, effects=effects)",
     "    effects=effects)", 'cfq: its goals not declared'),
    # the machine and the published results page (publish.py)
    ('runner.py', "mem = int(f[1]) * 1024", "mem = int(f[1])",
     'machine_doc: MemTotal taken for bytes'),
    ('bench.py', "        doc['machine'] = machine\n", "",
     'main: the machine not recorded'),
    ('stats.py', "return 'reproduced' if x > noise_x else",
     "return 'reproduced' if x >= noise_x else",
     'direction: a ratio at the spread reproduces'),
    ('stats.py', "return 'reproduced' if x < 1 / noise_x else",
     "return 'reproduced' if x < noise_x else",
     'direction: the spread on the wrong side of 1'),
    ('stats.py', "return sp[metric][0] if metric in sp else 1.0",
     "return 1.0", 'noise: the runs\' spread ignored'),
    ('stats.py', "    if v.endswith(' NOT met'):",
     "    if v.endswith(' NOT'):",
     'goal_result: a goal not met reads met'),
    ('experiment.py', "x = a / b if a is not None and b else None",
     "x = b / a if a and b else None", 'ratio_effect: the ratio inverted'),
    ('experiment.py', "        d = decimals_for(nx, x, 2)", "        d = 2",
     'ratio_effect: fixed decimals hide the side of the spread'),
    ('experiments/raid0_dd.py',
     "runs = [v for _, rs in (cols[1:] or cols) for v in rs]",
     "runs = [v for _, rs in cols for v in rs]",
     'raid0 effect: the base runs counted as later ones'),
    ('experiments/bs_sweep.py',
     "t[small][2], big, t[big][2]",
     "t[small][0], big, t[big][0]",
     'bs-sweep effect: real time, not system time'),
    ('experiments/sg_segments.py', "seed_001(64)[m] / seed_001(32)[m]",
     "seed_001(32)[m] / seed_001(64)[m]", 'sg-segments effect: seed inverted'),
    ('experiments/dbt2.py',
     "SEED_000_STP['as'][0][0] / SEED_000_STP['deadline'][0][0]",
     "SEED_000_STP['as'][1][0] / SEED_000_STP['deadline'][0][0]",
     "dbt2 effect: anticipatory's patched run"),
    ('publish.py', "        if not d.get('scale', 0) >= 1:",
     "        if not d.get('scale', 0) > 1:", 'publish: SCALE=1 refused'),
    ('publish.py', "    if gone:\n", "    if False:\n",
     'publish: a missing experiment published'),
    ('publish.py', "    if dirty:\n", "    if False:\n",
     'publish: a dirty tree published'),
    ('publish.py', "    if reasons and not draft:",
     "    if reasons and not draft and len(reasons) > 1:",
     'publish: one reason alone does not refuse'),
    ('publish.py', "' (DRAFT)' if reasons else ''", "''",
     'publish: a draft\'s title not marked'),
    ('publish.py', "            why = x.why if doc else",
     "            why = x.why or",
     'publish: a missing experiment\'s lines not said missing'),
    ('publish.py',
     "        elif os.path.exists(dst):\n            os.unlink(dst)",
     "        elif os.path.exists(dst):\n            pass",
     'publish: an older run\'s figure kept'),
    ('publish.py', "if not isinstance(doc, dict) or doc.get('experiment') != "
     "e.name or",
     "if not isinstance(doc, dict) or", 'publish: another experiment\'s '
     'JSON read'),
    ('publish.py', "'%.1f GiB' % (mem / 2 ** 30)", "'%.1f GiB' % (mem / 1e9)",
     'publish: GB printed as GiB'),
    ('publish.py', "        if len(ts) > 1:", "        if len(ts) > 2:",
     'publish: runs of two kernel sources published as one'),
    ('publish.py', "    if len(ids) < 2:\n        return []",
     "    if len(ids) < 3:\n        return []",
     'publish: two runs without their kernel source published as one'),
    ('publish.py', "            if name in docs:", "            if False:",
     'publish: an experiment in two runs'),
    ('kernels.py', "    build = envx.get('BUILD') or env.get('BUILD') or",
     "    build = env.get('BUILD') or envx.get('BUILD') or",
     'built_tree: the environment\'s build before the boot\'s'),
    ('kernels.py', "            return fh.read().strip() or None",
     "            return 'unknown'", 'built_tree: a tree not read'),
    ('bench.py', "            c['trees'][kname or 'default'] = tree\n", "",
     'bench: the kernel source not recorded'),
    ('publish.py', "            shutil.copyfile(os.path.join(where[e.name], "
     "e.name + '.png'), dst)",
     "            open(dst, 'w').close()", 'publish: empty figures'),
    ('publish.py', "    return sorted(rows, key=lambda r: (r[0].split()[0] != "
     "'seed',", "    return sorted(rows, key=lambda r: (r[0].split()[0] == "
     "'seed',", 'publish: goals before the seeds'),
    ('publish.py',
     "    text = re.sub(r'([\\\\*`|_])', r'\\\\\\1', str(text))\n",
     "    text = str(text)\n",
     'publish: markup characters not escaped'),
    ('publish.py',
     "        out.append('The seed\\'s own table (scripts/lab/seeds.py)::')"
     "\n        out += literal(e.seed_table())\n", "        pass\n",
     'publish: no seed table'),
    ('publish.py', "    out += ['* ' + esc(n) for n in notes] or ['* none']",
     "    out += ['* none']", 'publish: notes left out'),
    # blk-time's lost events and cfq's messages, goal 6
    ('parsers.py', "        else:\n            unmatched += 1\n",
     "\n", 'blk-time: a completion without dispatch not counted'),
    ('parsers.py', "    unmatched += len(at_disk)\n", "",
     'blk-time: a dispatch without completion not counted'),
    ('parsers.py', "    if unmatched or dropped:", "    if unmatched:",
     "blk-time: blktrace's dropped events ignored"),
    ('parsers.py', "r'(?:\\S+\\s+)?m\\s+N", "r'(?:\\S+\\s+)?n\\s+N",
     "blk-time: cfq's messages not read"),
    ('parsers.py', "            s['workloads'][w] = s['workloads'].get(w, 0) + n",
     "            s['workloads'][w] = n",
     'blk-time: the slices of one kind not added up'),
    ('parsers.py', "                pdu = pdu[8:]", "                pass",
     "blktrace messages: the cgroup id left in the text"),
    ('parsers.py', "            if not act & BLK_TN_NOTIFY:",
     "            if True:",
     "blktrace messages: timed from a notification"),
    ('experiments/cfq.py', "        want = len(procs) / len(rows)",
     "        want = 1 / len(rows)", 'cfq goal 6: an equal share per type'),
    ('experiments/cfq.py', "'met' if all(sh > 0 for sh in shares)",
     "'met' if all(sh >= 0 for sh in shares)",
     'cfq goal 6: a process without disk time served'),
    ('experiments/cfq.py', "                    if None in groups else",
     "                    if False else",
     'cfq goal 6: judged with a process of unknown type'),
    ('experiments/cfq.py', "    return max(sorted(ins), key=ins.get) if ins",
     "    return min(sorted(ins), key=ins.get) if ins",
     'cfq goal 6: the type of the fewest slices'),
    # the summary's seed effects and the draft rule
    ('experiments/bs_sweep.py',
     "                config_median(rows, 'size_kb', big, m), rows, m,",
     "                config_median(rows, 'size_kb', big, m), rows, 'sys_s',",
     "seed 003: every ratio judged on the system time's spread"),
    ('experiments/dbt2.py', "        rows[32] + rows[64], 'bounce_bytes',",
     "        rows[32], 'bounce_bytes',",
     "seed 000's bouncing: the 64-bit runs' spread left out"),
    ('experiments/ioc_random.py', "(BFQ_GROUPS, BFQ_WHY_NOT)",
     "(setup, BFQ_WHY_NOT)",
     "seed 002: the collapse looked for in cfq twice, not in bfq groups"),
    ('experiment.py', "    if a is not None and b == 0:",
     "    if a is None and b == 0:",
     'a ratio over a measured 0 called missing'),
    ('stats.py', "            out.setdefault(m, set()).add(-(-len(v) // per_run))",
     "            out.setdefault(m, set()).add(len(v))",
     "runs measured: raid0-dd's dd runs counted as runs"),
    ('stats.py', "    n = min(best.values())", "    n = max(best.values())",
     'draft rule: the best-measured figure stands for all'),
    ('publish.py', "        elif k < 3:", "        elif k < 2:",
     'draft rule: 2 runs measured published'),
    ('bench.py', "            os.mkdir(os.path.join(results, run_id))",
     "            os.makedirs(os.path.join(results, run_id), exist_ok=True)",
     'two runs started in one second share a directory'),
    # each experiment's own icount shift (dbt2's 3)
    ('runner.py', "n = exp_shift(e, shift) if a == 'icount' else 0",
     "n = exp_shift(e, shift)",
     'plan_boots: a boot under TCG keeps a shift'),
    ('runner.py', "                key = (k, e.mem, e.append, a, c, n)",
     "                key = (k, e.mem, e.append, a, c)",
     'plan_boots: boots of two shifts merged'),
    ('runner.py', "    return e.icount_shift if shift is None else shift",
     "    return e.icount_shift",
     'exp_shift: LAB_ICOUNT_SHIFT does not override'),
    ('runner.py', "    return e.icount_shift if shift is None else shift",
     "    return shift or 0", "exp_shift: the experiment's own ignored"),
    ('bench.py', "lab_doc(c['lab'], exp_shift(e, shift), seed, root)",
     "lab_doc(c['lab'], shift or 0, seed, root)",
     "main: the JSON's shift is not the boot's"),
    ('runner.py', "2 ** max(0, e.icount_shift - shift)", "1",
     "run_boot: a shift below the experiment's own keeps its timeout"),
    ('results.py',
     "        if r.status != 'skip' or r.name in allowed or \\\n",
     "        if r.status != 'skip' or \\\n",
     'police_skips: an entry for one set is not honoured'),
]

# survivors that behave exactly as the original: {number: why}
EQUIVALENT = {
    44: 'with one snapshot in which every reader runs, the window is that '
        'snapshot to itself: 0 s, which sg_window() refuses next',
}


def run_tests(top):
    """Run the unit tests of the copy: (passed, the first lines of the
    first failure)."""
    try:
        p = subprocess.run([sys.executable, '-m', 'unittest', 'discover',
                            '-s', os.path.join(top, 'tests'), '-q'],
                           capture_output=True, text=True, timeout=120,
                           cwd=top, env=dict(os.environ, LAB_MUTANT='1'))
    except subprocess.TimeoutExpired:
        return False, 'timed out'
    out = p.stderr.splitlines()
    first = [line for line in out if line.startswith(('FAIL:', 'ERROR:'))]
    return p.returncode == 0, (first[0] if first else
                               '\n'.join(out[-3:]))


def copy_lab(src, dst, ignore):
    """Copy scripts/lab src to dst (.../scripts/lab), and link the files
    the tests read outside it into the copy's top."""
    shutil.copytree(src, dst, ignore=ignore)
    root = os.path.dirname(os.path.dirname(dst))
    for name in OUTSIDE:
        os.symlink(os.path.join(TOP, name), os.path.join(root, name))


def apply(top, n):
    """Make mutant n in the copy; raise ValueError if it does not apply."""
    name, old, new, _ = MUTANTS[n - 1]
    path = os.path.join(top, name)
    with open(path) as fh:
        text = fh.read()
    if text.count(old) != 1:
        raise ValueError('mutant %d (%s) does not apply: its text is in %s '
                         '%d times' % (n, MUTANTS[n - 1][3], name,
                                       text.count(old)))
    with open(path, 'w') as fh:
        fh.write(text.replace(old, new))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('-v', action='store_true', help='how each was killed')
    ap.add_argument('-k', action='store_true', help='keep the copies')
    ap.add_argument('numbers', nargs='*', type=int,
                    help='only these mutants (1-%d)' % len(MUTANTS))
    args = ap.parse_args(argv)
    which = args.numbers or range(1, len(MUTANTS) + 1)
    bad = [n for n in which if not 1 <= n <= len(MUTANTS)]
    if bad:
        ap.error('no mutant %s' % bad[0])
    tmp = tempfile.mkdtemp(prefix='lab-mutants-')
    ignore = shutil.ignore_patterns('__pycache__', '*.pyc')
    # scripts/lab inside a copy of the layout: bench.py finds TOP from it
    base = os.path.join(tmp, 'orig', 'scripts', 'lab')
    copy_lab(LAB, base, ignore)
    ok, why = run_tests(base)
    if not ok:
        print('the unit tests fail without a mutant: %s' % why)
        return 2
    survived, killed = [], 0
    try:
        for n in which:
            top = os.path.join(tmp, str(n), 'scripts', 'lab')
            copy_lab(base, top, ignore)
            try:
                apply(top, n)
            except ValueError as ex:
                print(ex)
                return 2
            ok, why = run_tests(top)
            what = '%2d %-10s %s' % (n, MUTANTS[n - 1][0], MUTANTS[n - 1][3])
            if ok:
                survived.append(n)
                print('survived  %s%s' % (what, '  (equivalent: %s)'
                                          % EQUIVALENT[n]
                                          if n in EQUIVALENT else ''))
            else:
                killed += 1
                if args.v:
                    print('killed    %s\n          %s' % (what, why))
            if not args.k:
                shutil.rmtree(os.path.join(tmp, str(n)))
    finally:
        if not args.k:
            shutil.rmtree(tmp)
        else:
            print('copies kept in %s' % tmp)
    print('%d of %d mutants killed; %d survived (%d of them equivalent)'
          % (killed, len(which), len(survived),
             len([n for n in survived if n in EQUIVALENT])))
    return 1 if [n for n in survived if n not in EQUIVALENT] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
