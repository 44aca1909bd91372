# SPDX-License-Identifier: GPL-2.0
"""The lab's statistics: rows -> medians, min and max per metric, ratios
to a baseline, the runs' spread, and the verdicts of the goals (a ratio
printed with the decimals that show which side of the goal it is on).
"""

import json
import statistics


def spread(agg, columns):
    """metric -> (max/min of the runs, config) for the config where the
    runs of that metric differ most; only metrics with 2 runs or more,
    and only where the smallest run is above 0."""
    out = {}
    for m, _ in columns:
        s = spreads(agg, m)
        if s:
            out[m] = s[0]
    return out


def spreads(agg, m):
    """Every config's max/min of a metric's runs (2 runs or more, the
    smallest above 0), largest first: [(max/min, config)]."""
    out = [(max(r['runs'][m]) / min(r['runs'][m]), r['config'])
           for r in agg if len(r['runs'].get(m, [])) >= 2 and
           min(r['runs'][m]) > 0]
    return sorted(out, key=lambda x: -x[0])


def good_bad(base_runs, runs, factor=0.8):
    """The lab's reading of seed 004: bad when any run is below factor x
    the base median (the seed labels its kernels without a rule)."""
    if not base_runs or not runs:
        return None
    limit = factor * statistics.median(base_runs)
    return 'bad' if any(r < limit for r in runs) else 'good'


def config_key(config):
    return json.dumps(config, sort_keys=True)


def aggregate(rows):
    """Group rows by config; each metric -> median, min, max and runs.

    Returns (list of {"config", "metrics", "runs"[, "details"]}, notes) in
    the order the configs first appeared.  A metric that is null in a row
    (could not be measured) is left out of that row.
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
            groups[k] = {'config': row['config'], 'values': {},
                         'details': []}
        for m, v in row.get('metrics', {}).items():
            if v is None:
                continue
            groups[k]['values'].setdefault(m, []).append(float(v))
        if 'detail' in row:
            groups[k]['details'].append(row['detail'])
    out = []
    for k in order:
        g = groups[k]
        metrics = {m: {'median': statistics.median(v), 'min': min(v),
                       'max': max(v)} for m, v in g['values'].items()}
        r = {'config': g['config'], 'metrics': metrics, 'runs': g['values']}
        if g['details']:
            r['details'] = g['details']
        out.append(r)
    return out, notes


def ratios(agg, baseline):
    """metric -> ratio of each row's median to the baseline row's median.

    The baseline row of a row is the one with config key = value that
    shares the most other config values with it (ioc-random: the same N;
    dbt2: the same table and dma_bits), the first such on a tie.
    """
    if not baseline:
        return {}
    key, value = baseline
    base = [r for r in agg if r['config'].get(key) == value]
    if not base:
        return {}
    out = {}
    for i, r in enumerate(agg):
        def shared(b):
            return sum(1 for k, v in r['config'].items()
                       if k != key and b['config'].get(k) == v)
        best = max(shared(b) for b in base)
        b0 = [b for b in base if shared(b) == best][0]
        for m, s in r['metrics'].items():
            b = b0['metrics'].get(m, {}).get('median')
            if b:
                out[(i, m)] = s['median'] / b
    return out


def median_of(r, m):
    s = r['metrics'].get(m)
    return s['median'] if s else None


def run_counts(agg, per_run=1):
    """metric -> {the numbers of runs that measured it in a row of agg}:
    the counts a page prints, from the data, never from the RUNS asked
    for (a run may measure a part once, or not at all); per_run: the
    values one run gives each figure (raid0-dd: five dd runs)."""
    out = {}
    for r in agg:
        for m, v in (r.get('runs') or {}).items():
            out.setdefault(m, set()).add(-(-len(v) // per_run))
    return out


def per_run(doc):
    """The values one run gives each figure of a results JSON."""
    return doc.get('values_per_run') or 1


def runs_words(lo, hi=None):
    """'1 run', '3 runs', '1-3 runs' (hi: when rows differ)."""
    hi = lo if hi is None else hi
    return '%s run%s' % (lo if lo == hi else '%d-%d' % (lo, hi),
                         's'[:hi > 1])


def runs_text(agg, per_run=1):
    """How many runs agg's figures come from, as measured: '3 runs', and
    the metrics measured in other numbers of runs after it, '3 runs
    (us_per_io, kiops: 1 run)'; 'no run' when nothing was measured."""
    by = {}
    for m, ns in run_counts(agg, per_run).items():
        by.setdefault((min(ns), max(ns)), []).append(m)
    if not by:
        return 'no run'
    most = max(by, key=lambda k: (len(by[k]), k))
    rest = ['%s: %s' % (', '.join(by[k]), runs_words(*k))
            for k in sorted(by) if k != most]
    return runs_words(*most) + (' (%s)' % '; '.join(rest) if rest else '')


def most_runs(agg, per_run=1):
    """The most runs that measured any figure of agg (0 without one)."""
    return max([max(ns) for ns in run_counts(agg, per_run).values()] + [0])


def fewest_runs(agg, per_run=1):
    """(n, [metric]): the figures whose best-measured row has the fewest
    runs, n of them (0, [] without a figure): a page is no better than
    them."""
    best = {m: max(ns) for m, ns in run_counts(agg, per_run).items()}
    if not best:
        return 0, []
    n = min(best.values())
    return n, sorted(m for m, v in best.items() if v == n)


def ratio_verdict(a, b, want):
    """verdict(a / b, want), or 'no data' without either."""
    if a is None or not b:
        return 'no data'
    return verdict(a / b, want)


def within(x, tol):
    """'1.034x met' when 1 - tol <= x <= 1 + tol, else 'NOT met', with
    the decimals (at least 3) that show the verdict."""
    lo, hi = 1 - tol, 1 + tol
    d = max(decimals_for(x, lo, 3), decimals_for(hi, x, 3))
    return '%.*fx %s' % (d, x, 'met' if lo <= x <= hi else 'NOT met')


def decimals_for(a, b, least):
    """The decimals (at least `least`) it takes for a and b, printed, to
    compare as the measured figures do: a >= b, or not."""
    d = least
    while d < 12 and (round(a, d) >= round(b, d)) != (a >= b):
        d += 1
    return d


def verdict(x, want):
    """'1.23x met' / '0.998x NOT met': the ratio printed with as many
    decimals (at least 2) as it takes for the printed figure to sit on the
    same side of the goal as the measured one."""
    return '%.*fx %s' % (decimals_for(x, want, 2), x,
                         'met' if x >= want else 'NOT met')


def at_least(a, b):
    """'52.4 vs 36.7 met' / 'NOT met': a >= b, the two printed with the
    decimals (at least 1) that show the verdict; 'no data' without
    either."""
    if a is None or b is None:
        return 'no data'
    d = decimals_for(a, b, 1)
    return '%.*f vs %.*f %s' % (d, a, d, b, 'met' if a >= b else 'NOT met')


def workload_rows(agg, workload):
    return [r for r in agg if r['config'].get('workload') == workload]


def config_median(rows, key, value, metric):
    """The median of metric in the first row whose config has key =
    value, or None."""
    v = [median_of(r, metric) for r in rows
         if r['config'].get(key) == value]
    return v[0] if v else None


def elevator_median(rows, elevator, metric):
    return config_median(rows, 'elevator', elevator, metric)


def noise(agg, metric):
    """The runs' largest max/min of a metric over the rows (spread()),
    1.0 with one run: a ratio closer to 1 than this is noise."""
    sp = spread(agg, [(metric, '')])
    return sp[metric][0] if metric in sp else 1.0


def direction(seed_x, x, noise_x=1.0):
    """Is the seed's effect, a ratio seed_x of two of its figures,
    reproduced by the measured ratio x?  'reproduced' when x lies on the
    same side of 1 as seed_x and further from 1 than the runs' spread
    noise_x (max/min), 'not reproduced' when not, 'missing' without x."""
    if x is None:
        return 'missing'
    if seed_x > 1:
        return 'reproduced' if x > noise_x else 'not reproduced'
    return 'reproduced' if x < 1 / noise_x else 'not reproduced'


def direction_why(result, noise_x, why_not='', missing='not measured'):
    """The summary's line on why, for a result of direction()."""
    if result == 'missing':
        return missing + ' in this run (see its notes)'
    side = ('on the seed\'s side of 1 beyond the runs\' spread (max/min '
            '%.3f)' % noise_x if noise_x > 1 else
            'on the seed\'s side of 1 (no spread: one run)')
    if result == 'reproduced':
        return 'the measured ratio is ' + side
    return 'the measured ratio is not ' + side + \
        ('; ' + why_not if why_not else '')


def goal_result(v):
    """(figure, result) of a goal's verdict ('1.23x met', '0.998x NOT
    met', 'no data', 'missing (...)'): result 'met', 'not met' or
    'missing'."""
    if v.startswith('no data') or v.startswith('missing'):
        return 'missing', 'missing'
    if v.endswith(' NOT met'):
        return v[:-len(' NOT met')], 'not met'
    if v.endswith(' met'):
        return v[:-len(' met')], 'met'
    return v, 'missing'
