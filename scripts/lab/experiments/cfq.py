# SPDX-License-Identifier: GPL-2.0
"""Issue 13: cfq's tables (seed 002 on a striped LUN, weights, readers with
a writer, fair time, null_blk, 16-256 processes) and its goals.

The guest side is cfq.sh, next to this file: a driver that sources one
file a workload from cfq/."""

from experiment import Experiment, Goal, Part, goal_effects
from experiments.ioc_random import IOC_GOAL, ioc_goals, ioc_table
from parsers import cfq_workload_key, cfq_workload_names
from report import cell, goal_lines, render
from stats import (at_least, decimals_for, elevator_median, median_of,
                   most_runs, ratio_verdict, runs_text, runs_words,
                   within, workload_rows)


# The workloads BENCH_ONLY may name (experiments/cfq.sh, its only user).
ONLY_WORKLOADS = ('striped', 'weights', 'fair', 'readers', 'null_blk',
                  'scale', 'scale-cost', 'cooperators')


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


# issue 13's goals 2-4 (goal 1 is IOC_GOAL, goal 5 DBT2_CFQ_GOAL, goal 6
# fair_goals(), goal 7 scale_goals())
CFQ_WEIGHT_TOLERANCE = 0.10


CFQ_MIXED_GOALS = [
    ('reader_MBps', 3.0, "2 readers' MB/s with a buffered writer >= 3x "
     'mq-deadline'),
    ('total_MBps', 0.95, 'the same: total MB/s at the disk >= 0.95x '
     'mq-deadline'),
]


CFQ_NULLBLK_GOAL = 0.9


# goal 6: a workload type's share of the disk's time against its share of
# the processes, within the weights' tolerance
CFQ_FAIR_TOLERANCE = CFQ_WEIGHT_TOLERANCE


# goal 7: the numbers of processes the issue names, and how much cfq's
# cost per request may grow from the fewest processes measured to the most
CFQ_SCALE_N = (64, 256)


CFQ_SCALE_COST_GROWTH = 1.10


# cooperators: cfq with its queues merged against cfq without (it must
# gain), and against bfq, which merges queues too
CFQ_COOP_GAIN = 2.0
CFQ_COOP_BFQ = 0.95


def coop_row(agg, setup):
    """The cooperators row of a setup (mq-deadline, bfq, cfq,
    cfq-unmerged), or None."""
    for r in workload_rows(agg, 'cooperators'):
        if r['config'].get('setup') == setup:
            return r
    return None


def coop_goals(agg):
    """[(what, verdict)]: cfq's merged queues against cfq unmerged and
    against bfq, on the threads' MB/s."""
    rows = {s: coop_row(agg, s) for s in ('cfq', 'cfq-unmerged', 'bfq')}
    mb = {s: median_of(r, 'threads_MBps') if r else None
          for s, r in rows.items()}
    return [
        ('cooperators: 4 threads reading one stream, cfq MB/s >= %gx cfq '
         'with cooperators 0' % CFQ_COOP_GAIN,
         ratio_verdict(mb['cfq'], mb['cfq-unmerged'], CFQ_COOP_GAIN)),
        ('the same: cfq MB/s >= %gx bfq' % CFQ_COOP_BFQ,
         ratio_verdict(mb['cfq'], mb['bfq'], CFQ_COOP_BFQ)),
    ]


def weight_shares(agg):
    """The weights workload: [(weight, share measured or None, the
    weight's share of the weights)], by weight."""
    rows = [r for r in workload_rows(agg, 'weights')
            if r['config'].get('weight') is not None]
    tot = sum(r['config']['weight'] for r in rows)
    return sorted((r['config']['weight'], median_of(r, 'share'),
                   r['config']['weight'] / tot) for r in rows)


def served_in(r):
    """The workload type cfq served a fair-time row's process in: the one
    that holds most of its slices (medians of the in_TYPE fractions), as
    cfq names it ('sync', 'sync-noidle', ...); None without cfq's
    messages."""
    names = {cfq_workload_key(n): n for n in cfq_workload_names()}
    ins = {names.get(m, m[3:].replace('_', '-')): median_of(r, m)
           for m in r['metrics'] if m.startswith('in_')}
    ins = {k: v for k, v in ins.items() if v is not None}
    return max(sorted(ins), key=ins.get) if ins else None


def fair_goals(agg):
    """Issue 13's goal 6 from the fair-time rows: [(what, verdict)]: for
    each workload type cfq served them in, its processes' shares of the
    time cfq gave the disk (held_share: their slices as used, from
    set_active to expiry, idling included) summed against its share of
    the processes (cfq shares the time between the types of a group in
    proportion to their busy queues), and every process given some disk
    time.  The shares of the disk's busy time (time_share) are reported,
    not judged: a queue that idles between its reads holds the disk for
    its slice but keeps it busy for less."""
    rows = workload_rows(agg, 'fair time')
    if not rows:
        return [('fair time: each workload type\'s cfq time share / its '
                 'share of the processes within %d%%, every process served'
                 % round(100 * CFQ_FAIR_TOLERANCE), 'missing (not measured)')]
    groups = {}
    for r in rows:
        # no disk time share: the trace lost events (or the process): its
        # messages may be lost too
        held = (median_of(r, 'held_share')
                if median_of(r, 'time_share') is not None else None)
        groups.setdefault(served_in(r), []).append(
            (str(r['config'].get('process')), held))
    out = []
    for wl in sorted(groups, key=lambda w: (w is None, w or '')):
        procs = groups[wl]
        names = ', '.join(p for p, _ in procs)
        if wl is None:
            out.append(('fair time, workload type unknown (%s)' % names,
                        'missing (no cfq messages)'))
            continue
        want = len(procs) / len(rows)
        shares = [sh for _, sh in procs]
        # a process of unknown type may belong to this one
        out.append(('fair time, %s (%s): cfq time share / process share '
                    '(%.4f) within %d%%' % (
                        wl, names, want, round(100 * CFQ_FAIR_TOLERANCE)),
                    'missing (a process\'s workload type unknown)'
                    if None in groups else 'missing' if None in shares else
                    within(sum(shares) / want, CFQ_FAIR_TOLERANCE)))
    shares = [median_of(r, 'time_share') for r in rows]
    out.append(('fair time: every process served (disk time share > 0)',
                'missing' if None in shares else '%d/%d served %s' % (
                    sum(1 for sh in shares if sh > 0), len(shares),
                    'met' if all(sh > 0 for sh in shares) else 'NOT met')))
    return out


def cfq_goals(agg):
    """Issue 13's goals 1-4, 6 and 7 from this run's medians (goal 7: a
    Goal that says what it is judged on): [(what, verdict)]; a goal
    whose rows did not run reads 'no data' or 'missing'."""
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
    return out + fair_goals(agg) + scale_goals(agg)


def n_rows(rows, elevator='cfq'):
    """{N: row} of one elevator's rows."""
    return {r['config']['N']: r for r in rows
            if r['config'].get('elevator') == elevator and
            r['config'].get('N') is not None}


def worst_runs(r, metric, pick):
    """The worst of a metric over a row's runs (pick: min or max), None
    when a run has no value for it: a goal about the worst case is not
    judged on a median, nor on the runs that happened to measure."""
    v = (r.get('runs') or {}).get(metric) or []
    return pick(v) if v and len(v) == most_runs([r]) else None


def runs_basis(rows, metric, of):
    """What a goal on metric in rows stands on, as measured: (its
    verdict's words, the summary's basis), of ('worst', 'medians') of
    the runs, or '1 run'."""
    ns = [len((r.get('runs') or {}).get(metric) or []) for r in rows]
    if max(ns) <= 1:
        return '1 run', '1 run'
    w = runs_words(min(ns), max(ns))
    return '%s of %s' % (of, w), "the %s of this run's %s" % (of, w)


def served_verdict(r, n, metric, where):
    """Goal 7 for one N: every process served in every run, and no read
    waited longer than low_latency's round (bound_ms) in any run: in cfq
    (insert to dispatch, max_sched_ms, the goal) or as fio saw it
    (max_lat_ms: the disk's own queue included, which cfq does not
    order)."""
    served = worst_runs(r, 'served', min)
    wait = worst_runs(r, metric, max)
    bound = median_of(r, 'bound_ms')
    if served is None or wait is None or bound is None:
        return 'missing'
    ok = served == n and wait <= bound
    return '%d/%d served, longest %s %.0f ms vs %.0f ms (%s) %s' % (
        served, n, where, wait, bound, runs_basis([r], metric, 'worst')[0],
        'met' if ok else 'NOT met')


def scale_goals(agg):
    """Issue 13's goal 7: [Goal] for each N measured (and the issue's N,
    said missing when not), judged on the worst run: a bound on the
    longest wait holds only if it holds in every run, which the median
    of the runs' longest waits does not say; then cfq's cost per request
    from the fewest processes to the most, on the medians."""
    out = []
    sc = n_rows(workload_rows(agg, 'scale'))
    for n in sorted(set(sc) | set(CFQ_SCALE_N)):
        if n not in sc:
            out.append(Goal('scale, N=%d random readers: all served, '
                            'longest wait in cfq <= round, in every run' % n,
                            'missing (not measured)', ''))
            continue
        for what, metric, where in (
                ('N=%d random readers: all served, longest wait in cfq',
                 'max_sched_ms', 'in cfq'),
                ('N=%d: longest read, the disk\'s queue included,',
                 'max_lat_ms', 'read')):
            out.append(Goal('scale, %s <= round, in every run' % (what % n),
                            served_verdict(sc[n], n, metric, where),
                            runs_basis([sc[n]], metric, 'worst')[1]))
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
        words, basis = runs_basis([cost[ns[0]], cost[ns[-1]]], 'us_per_io',
                                  'medians')
        out.append(Goal(what, 'N=%d/N=%d %.*fx (%s) %s' % (
            ns[-1], ns[0], d, x, words,
            'met' if x <= CFQ_SCALE_COST_GROWTH else 'NOT met'), basis))
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
        text += render(['process', 'cfq time %', 'disk time %',
                        'read p99 ms', 'MB/s', 'served in', 'slices',
                        'slice ms'],
                       [[str(r['config'].get('process'))] +
                        [cell(median_of(r, m) * 100
                              if median_of(r, m) is not None else None,
                              '%.1f') for m in ('held_share', 'time_share')] +
                        [
                         cell(median_of(r, 'p99_ms'), '%.1f'),
                         cell(median_of(r, 'read_MBps')),
                         served_in(r) or 'missing',
                         cell(median_of(r, 'slices'), '%d'),
                         cell(median_of(r, 'slice_ms'), '%.1f')]
                        for r in fair])
        text.append('cfq time: from each of its set_active messages to its '
                    'expiry (its slices as used, idling included), judged '
                    'per workload type (goal 6 below); '
                    'disk time: blktrace, the time to each completion '
                    'from the one before is the completed request\'s; '
                    'served in: the workload type of most of its slices, '
                    'slice ms their mean length (cfq\'s messages)')
        text.append('')
    text += scale_tables(agg)
    coop = workload_rows(agg, 'cooperators')
    if coop:
        base = median_of(coop_row(agg, 'mq-deadline'), 'threads_MBps') \
            if coop_row(agg, 'mq-deadline') else None
        text.append('8. cooperators: 4 threads reading one stream in turn, '
                    '64 KiB chunks, sata-7200:')
        text += render(['setup', 'MB/s', 'x', 'seeks/1000 reads'],
                       [[str(r['config'].get('setup')),
                         cell(median_of(r, 'threads_MBps'), '%.1f'),
                         cell(median_of(r, 'threads_MBps') / base
                              if median_of(r, 'threads_MBps') is not None and base
                              else None, '%.2fx'),
                         cell(median_of(r, 'seeks_per_kread'), '%d')]
                        for r in coop])
        text.append('x: ratio to mq-deadline; cfq: cooperators 1 (the '
                    'default), cfq-unmerged: 0; seeks: simhba\'s counters; '
                    '%s' % of_runs(coop))
        text.append('')
    text += goal_lines('goals of issue 13 (ratios measured in this run):',
                       cfq_goals(agg))
    text += goal_lines('goals of issue 34 (ratios measured in this run):',
                       coop_goals(agg))
    return '\n'.join(text)


def of_runs(rows):
    """What a table's cells are, as measured: 'the median of 3 runs', '1
    run'."""
    return ('the median of ' if most_runs(rows) > 1 else '') + \
        runs_text(rows)


def scale_tables(agg):
    """Goal 7's tables: the readers at each N, and the cost per request
    at each N per elevator, cfq's ratio to mq-deadline's beside it."""
    text = []
    sc = n_rows(workload_rows(agg, 'scale'))
    if sc:
        text.append('7. scale: N random 4 KiB O_DIRECT readers under cfq, '
                    'sata-7200:')
        text += render(['N', 'served', 'in cfq ms', 'round ms', 'at disk ms',
                        'max lat ms', 'min ios', 'mean ios', 'IOPS'],
                       [[str(n)] + [cell(median_of(sc[n], m), f) for m, f in
                                    (('served', '%d'), ('max_sched_ms', '%.0f'),
                                     ('bound_ms', '%.0f'),
                                     ('max_disk_ms', '%.0f'),
                                     ('max_lat_ms', '%.0f'), ('min_ios', '%d'),
                                     ('mean_ios', '%.1f'), ('iops', '%.1f'))]
                        for n in sorted(sc)])
        text.append("in cfq: the longest a read waited in cfq (blktrace, "
                    'insert to dispatch); round: low_latency\'s target for N '
                    'busy queues, max(target_latency, N x 2 x slice_idle); '
                    'at disk: the longest from dispatch to completion (the '
                    "disk's own queue, aged at most ncq_age_ms); max lat: "
                    'the longest read as fio saw it; each column: %s; goal '
                    '7 below judges the worst run'
                    % of_runs(list(sc.values())))
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
        text.append('cfq x: ratio to mq-deadline at the same N; us per '
                    'read: %s' % of_runs(rows))
        text.append('')
    return text


def goals(e, agg):
    """Issue 13's goals 1-4, 6 and 7, then issue 34's (cooperators)."""
    return ['%s: %s' % g for g in cfq_goals(agg) + coop_goals(agg)]


def effects(e, agg):
    """Issue 13's goals 1-4, 6 and 7 and issue 34's for the summary, one
    line each."""
    return (goal_effects(cfq_goals(agg), '13') +
            goal_effects(coop_goals(agg), '34'))


EXPERIMENT = Experiment(
    'cfq',
    'issue 13: cfq: seed 002 on a striped LUN, weights, 2 readers '
    '+ writer, fair time and 16-256 readers on sata-7200, '
    'null_blk overhead and its cost at 16-256 processes '
    '(icount clock)',
    [('MBps', 'striped MB/s'), ('share', 'weight share'),
     ('reader_MBps', 'readers MB/s'), ('total_MBps', 'total MB/s'),
     ('held_share', 'cfq time share'),
     ('time_share', 'disk time share'), ('p99_ms', 'p99 ms'),
     ('nullblk_kiops', 'null kIOPS'), ('served', 'served'),
     ('max_sched_ms', 'in cfq ms'), ('bound_ms', 'round ms'),
     ('max_disk_ms', 'at disk ms'), ('max_lat_ms', 'max lat ms'),
     ('us_per_io', 'us per read'), ('threads_MBps', 'threads MB/s'),
     ('seeks_per_kread', 'seeks/kread')],
    # the overhead first: a disk stall must not lose it
    parts=[Part('overhead', 2, accel='icount'), Part('disk', 7, cpus=1)],
    cpus=2, formatter=fmt_cfq,
    goals=goals, effects=effects,
    # the numbers fmt_cfq and cfq_goals write, no value of a run
    # (republish.py: every number on the results page has a source)
    constants=(('1 2 3 4 5 6 7', 'the numbers of fmt_cfq\'s parts and of '
                'issue 13\'s goals'),
               ('2 4 8 16 64 256', 'the processes of cfq.sh\'s workloads '
                '(N readers, 4 at once, 2 readers and a writer)'),
               ('100 200 400 800', 'the weights of the four groups, '
                'cfq.sh\'s'),
               ('0', 'a process served has a share above 0; cooperators 0 '
                'is cfq\'s tunable off'),
               ('1000 2.6 32', 'seed 002\'s array and kernel, MSA1000 and '
                '2.6.32-rc, whose figures the cfq figure draws'),
               ('1.00 1.000', 'the baseline\'s ratio to itself')))
