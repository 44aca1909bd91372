# SPDX-License-Identifier: GPL-2.0
"""Responsiveness: an application's cold start-up time on a busy disk, per
elevator and background load, as a ratio to its start on the idle disk;
the load's throughput during the starts; a 40 ms periodic reader's missed
deadlines.  Issue 32's goals compare cfq and anticipatory with bfq.

A start over the cap is never a number it did not reach: where any start
of any run of a configuration was over the cap, its mean and max print as
"> CAP", and a goal that needs them is not met (unless bfq's start was
over the cap too, which says nothing: then "no ratio").

The guest side is startup.sh, next to this file."""

import re

from experiment import Experiment, goal_effects
from report import fmt, render
from stats import median_of

IDLE = 'idle'
# (elevator, at most this times bfq's mean start-up time)
START_GOALS = (('cfq', 1.25), ('anticipatory', 2.0))
BG_SHARE = 0.8          # the load's MB/s during the starts >= 0.8x bfq's


VARIANT = re.compile(r'[a-z][a-z0-9-]*( [a-z][a-z0-9_]*=[0-9]+)*$')


def only_variants(env):
    """BENCH_VARIANTS: the comma-separated configurations the startup
    and overview experiments run (lib.sh's bench_configs; all elevators
    when unset), each an elevator and its tunables as NAME=VALUE ("cfq
    slice_sync=400 low_latency=0"); anything else is refused."""
    v = env.get('BENCH_VARIANTS') or ''
    names = v.split(',') if v else []
    bad = [n for n in names if not VARIANT.match(n)]
    if bad:
        raise ValueError('BENCH_VARIANTS=%s: %s is not an elevator followed '
                         'by NAME=VALUE tunables (whole numbers), one space '
                         'apart; configurations are separated by commas'
                         % (v, ', '.join(repr(n) for n in bad)))
    return names


def rows_of(agg):
    """{(elevator, load): aggregated row}, and the elevators and loads in
    the order they ran."""
    by, elev, loads = {}, [], []
    for r in agg:
        e, ld = r['config'].get('elevator'), r['config'].get('load')
        if e is None or ld is None:
            continue
        by[(e, ld)] = r
        if e not in elev:
            elev.append(e)
        if ld not in loads:
            loads.append(ld)
    return by, elev, loads


def over_cap(r):
    """The cap in seconds when any start of any run of row r was over it,
    else None."""
    s = (r or {}).get('metrics', {}).get('over_cap')
    if s and s['max'] > 0:
        return median_of(r, 'cap_s') or 0
    return None


def start_time(r, m='start_mean_s'):
    """(seconds, None); (None, '> CAP') when a run of row r had none
    because of a start over the cap; (None, None) when not measured."""
    if not r:
        return None, None
    runs = r.get('runs') or {}
    n = len(runs.get('starts', []))
    cap = over_cap(r)
    if n and len(runs.get(m, [])) < n and cap is not None:
        return None, '> %g' % cap
    return median_of(r, m), None


def time_cell(r, m='start_mean_s'):
    v, why = start_time(r, m)
    return why or fmt(v)


def startup_table(agg):
    by, elev, loads = rows_of(agg)
    lines = []
    for e in elev:
        idle, _ = start_time(by.get((e, IDLE)))
        for ld in loads:
            r = by.get((e, ld))
            if r is None:
                continue
            mean, _ = start_time(r)
            lines.append([
                e, ld, time_cell(r), time_cell(r, 'start_p90_s'),
                time_cell(r, 'start_max_s'),
                '%.2f' % (mean / idle) if mean is not None and idle else
                ('over the cap' if over_cap(r) is not None else '-'),
                fmt(median_of(r, 'bg_MBps')),
                misses_cell(r)])
    text = render(['elevator', 'load', 'mean s', 'p90 s', 'max s',
                   'x idle', 'load MB/s', '40 ms misses'], lines, 2)
    text.append('mean, p90, max: cold start-up times (median of the runs); '
                'x idle: the mean over the same elevator\'s mean on the '
                'idle disk; load MB/s: what the disk moved for the load '
                'during the starts; 40 ms misses: the periodic reader\'s '
                'deadlines (a read due every 40 ms) missed, of those due '
                '(runs before the deadlines were counted: its reads that '
                'took longer than 40 ms, of all its reads)')
    return text


def misses_cell(r):
    """"missed/due" of the periodic reader's deadlines; "late/reads" of a
    run that counted only its reads that took longer than the period."""
    due = median_of(r, 'rt_deadlines')
    if due is None:
        due = median_of(r, 'rt_reads')
    if due is None:
        return '-'
    return '%s/%s' % (fmt(median_of(r, 'rt_misses')), fmt(due))


def variant_bounds(elev):
    """[(configuration, bound)]: the run's configurations of cfq and
    anticipatory other than their defaults ("cfq low_latency=0"), each
    with its elevator's bound."""
    return [(c, want) for e, want in START_GOALS for c in elev
            if c.split()[0] == e and c != e]


def startup_goals(agg, variants=False):
    """Issue 32's goals: [(what, verdict)] per background load; with
    variants, the same bounds for variant_bounds() instead."""
    by, elev, loads = rows_of(agg)
    judged = variant_bounds(elev) if variants else START_GOALS
    out = []
    for ld in [x for x in loads if x != IDLE]:
        b = by.get(('bfq', ld))
        bmean, bwhy = start_time(b)
        for e, want in judged:
            r = by.get((e, ld))
            what = '%s start-up with %s <= %gx bfq' % (e, ld, want)
            mean, why = start_time(r)
            if r is None or b is None:
                v = 'no data (%s not measured)' % (e if r is None else 'bfq')
            elif why:
                v = 'over the cap (%s s) NOT met' % why[2:]
            elif bwhy:
                v = 'no ratio: bfq over the cap (%s s)' % bwhy[2:]
            else:
                x = mean / bmean
                v = '%.2fx %s' % (x, 'met' if x <= want else 'NOT met')
            out.append((what, v))
        bbg = median_of(b, 'bg_MBps') if b else None
        for e, _ in judged:
            r = by.get((e, ld))
            a = median_of(r, 'bg_MBps') if r else None
            what = '%s load MB/s during the starts, %s >= %gx bfq' % (
                e, ld, BG_SHARE)
            if a is None or not bbg:
                v = 'no data'
            else:
                v = '%.2fx %s' % (a / bbg, 'met' if a / bbg >= BG_SHARE
                                  else 'NOT met')
            out.append((what, v))
    for e in [e for e, _ in judged if e.split()[0] == 'cfq']:
        for ld in loads:
            c, b = by.get((e, ld)), by.get(('bfq', ld))
            a = median_of(c, 'rt_misses') if c else None
            z = median_of(b, 'rt_misses') if b else None
            what = '%s 40 ms reader misses with %s <= bfq' % (e, ld)
            out.append((what, 'no data' if a is None or z is None else
                        '%s vs %s %s' % (fmt(a), fmt(z),
                                         'met' if a <= z else 'NOT met')))
    return out


def fmt_startup(exp, agg, notes, ctx):
    goals = startup_goals(agg)
    more = startup_goals(agg, variants=True)
    width = max([len(w) for w, _ in goals + more] + [40])
    return '\n'.join(
        startup_table(agg) + [''] +
        ['goals (medians of the runs; cfq and anticipatory against bfq in '
         'this run):'] +
        ['  %-*s %s' % (width, w, v) for w, v in goals] +
        (['', 'the same bounds for the other configurations of cfq and '
          'anticipatory (no goals):'] +
         ['  %-*s %s' % (width, w, v) for w, v in more] if more else []) +
        ['note: ' + n for n in notes])


def goals(e, agg):
    return ['%s: %s' % g for g in startup_goals(agg)]


def effects(e, agg):
    return goal_effects(startup_goals(agg), '32')


EXPERIMENT = Experiment(
    'startup',
    'responsiveness: an application\'s cold start on a busy sata-7200 disk '
    '(ext4), per elevator and background load; a 40 ms periodic reader',
    [('start_mean_s', 'start s'), ('start_p90_s', 'p90 s'),
     ('over_cap', 'over cap'), ('bg_MBps', 'load MB/s'),
     ('rt_misses', '40 ms misses')],
    minutes=180, formatter=fmt_startup, goals=goals, effects=effects,
    # the numbers fmt_startup and goals write, no value of a run
    # (republish.py: every number on the results page has a source)
    constants=(('40', 'the periodic reader\'s period, 40 ms (startup.sh)'),
               ('5 2', 'the background loads: 5 readers or writers, 2 '
                'readers and 2 writers (startup.sh)'),
               ('3', 'the cap of a start-up the figure draws, 3 s'),
               ('1.00', 'the idle disk\'s ratio to itself')))
