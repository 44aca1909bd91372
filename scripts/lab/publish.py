# SPDX-License-Identifier: GPL-2.0
"""The published results page: one bench run (or several that together
hold each experiment once) turned into
Documentation/block/blk26-results.rst, its figures drawn beside it
(blk26-results/NAME.png) and the runs' data kept with it
(blk26-results/data/<run-id>/NAME.json.gz and NAME.csv.gz, with what
git told at publish time in data/context.json, pubdata.py).

  bench.py --publish RESULTS/RUN-ID [RESULTS/RUN-ID...] [--draft] [--out FILE]
  bench.py --republish OUTDIR [--data DIR]
  bench.py --republish --check [--page FILE] [--data DIR]
  bench.py --spread LABEL=RESULTS/RUN-ID [LABEL=RESULTS/RUN-ID...]

The second prints a table of the runs' spread: per experiment and
headline metric, for each run given (e.g. one per clock), the largest
max/min of a configuration's runs, where it is, and the median of the
configurations' max/min.

The page has a header (the run id, its date, the kernel, the series
commit, the clock, RUNS, SCALE, the machine and whether the guests ran
one root, all from the run's JSON),
one summary table (per seed effect and per issue goal: the seed's
figure, the measured one, reproduced or not, met or not, or missing, and
why), then per experiment RUNS, SCALE and the runs measured (counted in
its rows, per metric where they differ), its seed-format table, the
seed's own table, its figure, the runs' spread and its notes.  A count
of runs on the page is the count measured, never the RUNS asked for
alone.  Every figure on the page
comes from the run's JSON or from scripts/lab/seeds.py; a value the run
did not measure reads "missing".

Several runs are one page only when they name one series commit and,
each JSON, the kernel source it booted (kernel_tree: the git tree id
build.sh records), the same one per kernel configuration: experiments
run side by side on the counted clock (which the host's load does not
move) then publish as one run.

Only a full-size run of every experiment is published: with SCALE below
1, an experiment missing or the machine not recorded, the page is
written only with --draft, and then says DRAFT and why.  Otherwise the
exit status is 2 with the reason, and nothing is written.

Every figure is drawn at publish time from the JSON (figures.py, with
the page's runs as its peers), never copied from the run's bench-time
PNG; the same data draws the same bytes.  The data of the runs on the
page is written to blk26-results/data/ (pubdata.py): each run's JSON and
CSV, gzip-compressed, at most 4 MiB (pubdata.LIMIT) for the whole
directory; a page whose data would exceed it is refused (exit status 2,
nothing written), and the data of runs no longer on the page is removed
(only the run directories pubdata.py manages).
"bench.py --republish OUTDIR" writes the page, its figures and its data
again from the committed data alone (republish.py), and --check compares
that with the committed page and checks that every number on it has a
source.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import figures
import pubdata
from labpaths import TOP
from report import config_name, draw_figure, spread_text, table, \
    write_csv
from runner import clock_name, lab_line
from stats import fewest_runs, most_runs, per_run, run_counts, runs_text, \
    runs_words, spreads

OUT = os.path.join(TOP, 'Documentation', 'block', 'blk26-results.rst')


class PublishError(Exception):
    """A run that cannot be read: nothing is written."""


def load_run(rundir, experiments):
    """{name: JSON document} of the experiments a run holds; raises
    PublishError when rundir is no results directory or holds no
    experiment's JSON."""
    if not os.path.isdir(rundir):
        raise PublishError('%s: not a results directory' % rundir)
    docs = {}
    for e in experiments:
        p = os.path.join(rundir, e.name + '.json')
        if not os.path.exists(p):
            continue
        try:
            with open(p) as fh:
                doc = json.load(fh)
        except (OSError, ValueError) as ex:
            raise PublishError('%s: not a results JSON (%s)' % (p, ex))
        if not isinstance(doc, dict) or doc.get('experiment') != e.name or \
                not isinstance(doc.get('rows'), list):
            raise PublishError('%s: not the results JSON of %s' % (p, e.name))
        docs[e.name] = doc
    if not docs:
        raise PublishError('%s: no experiment\'s JSON in it (a bench run '
                           'writes results/<run-id>/NAME.json)' % rundir)
    return docs


def load_runs(rundirs, experiments):
    """({name: JSON document}, {name: its results directory}) over one or
    more runs; raises PublishError as load_run does, and when two of them
    hold the same experiment."""
    docs, where = {}, {}
    for rundir in rundirs:
        for name, doc in load_run(rundir, experiments).items():
            if name in docs:
                raise PublishError('%s is in both %s and %s: give one run of '
                                   'each experiment' % (name, where[name],
                                                        rundir))
            docs[name], where[name] = doc, rundir
    # the experiments' order, however the runs were given: the same data
    # writes the same page
    docs = {e.name: docs[e.name] for e in experiments if e.name in docs}
    # a JSON written before bench.py recorded it: the experiment's own
    for e in experiments:
        if e.name in docs and e.values_per_run != 1:
            docs[e.name].setdefault('values_per_run', e.values_per_run)
    return docs, where


def tree_reasons(docs):
    """Why the runs may not be one page: several run ids are one only when
    every JSON names the kernel source it booted (kernel_tree) and they
    name the same per kernel configuration."""
    ids = sorted({str(d['run']) for d in docs.values() if d.get('run')})
    if len(ids) < 2:
        return []
    bare = sorted(n for n, d in docs.items() if not d.get('kernel_tree') or
                  None in d['kernel_tree'].values())
    if bare:
        return ['%d run ids (%s), and the kernel source is not recorded '
                '(kernel_tree) in: %s' % (len(ids), ', '.join(ids),
                                          ', '.join(bare))]
    out = []
    trees = {}
    for d in docs.values():
        for k, t in d['kernel_tree'].items():
            trees.setdefault(k, set()).add(t)
    for k, ts in sorted(trees.items()):
        if len(ts) > 1:
            out.append('the runs booted %d kernel sources as %s: %s'
                       % (len(ts), k, ', '.join(sorted(ts))))
    return out


def draft_reasons(docs, experiments):
    """Why the run is no full-size run of every experiment: [] when it
    is one."""
    out = []
    small = {}
    for n, d in docs.items():
        if not d.get('scale', 0) >= 1:
            small.setdefault('%g' % d.get('scale', 0), []).append(n)
    for s, names in small.items():
        out.append('SCALE %s, below 1%s' % (s, '' if len(names) == len(docs)
                                            else ': ' + ', '.join(names)))
    # the runs asked for, and the runs that measured each figure: a
    # script may measure a part once whatever RUNS says
    few = []
    for n, d in sorted(docs.items()):
        k, ms = fewest_runs(d.get('rows') or [], per_run(d))
        if d.get('runs', 0) < 3:
            few.append('%s (RUNS=%s)' % (n, d.get('runs', 0)))
        elif k < 3:
            every = len(ms) == len(run_counts(d.get('rows') or []))
            few.append('%s (%s: %s measured)'
                       % (n, 'every figure' if every else ', '.join(ms),
                          runs_words(k)))
    if few:
        out.append('fewer than 3 runs: %s' % '; '.join(few))
    gone = [e.name for e in experiments if e.name not in docs]
    if gone:
        out.append('experiments missing: %s' % ', '.join(gone))
    if not any(d.get('machine') for d in docs.values()):
        out.append('the machine is not recorded in the JSON')
    seen = sorted({str(d['series']) for d in docs.values() if d.get('series')})
    if len(seen) > 1:
        out.append('the JSONs name %d series commits: %s'
                   % (len(seen), ', '.join(seen)))
    out += tree_reasons(docs)
    dirty = sorted({d['series'] for d in docs.values()
                    if str(d.get('series', '')).endswith('-dirty')})
    if dirty:
        out.append('series %s: the tree had uncommitted changes'
                   % ', '.join(dirty))
    return out


# --- reStructuredText ----------------------------------------------------

def esc(text):
    """Text as reStructuredText shows it: its markup characters escaped,
    and a leading character that would start a list escaped too."""
    text = re.sub(r'([\\*`|_])', r'\\\1', str(text))
    if re.match(r'[-+#]( |$)|\d+[.)]( |$)', text):
        text = '\\' + text
    return text


def literal(text):
    """A literal block (after a paragraph ending in '::')."""
    lines = str(text).expandtabs(8).splitlines() or ['(empty)']
    return [''] + [('    ' + line).rstrip() for line in lines] + ['']


def heading(text, ch):
    return [text, ch * len(text), '']


def list_table(head, rows, widths):
    out = ['.. list-table::', '   :header-rows: 1',
           '   :widths: %s' % ' '.join(str(w) for w in widths), '']
    for r in [head] + rows:
        for j, c in enumerate(r):
            out.append('   %s %s' % ('* -' if j == 0 else '  -',
                                     esc(c) if c != '' else '\\ '))
    return out + ['']


def values(docs, key):
    """The distinct values of key over the documents, in order."""
    out = []
    for d in docs.values():
        v = d.get(key, 'not recorded')
        if str(v) not in out:
            out.append(str(v))
    return ', '.join(out)


def run_date(run_id):
    m = re.match(r'^(\d{4})(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)$', run_id)
    if not m:
        return 'not recorded'
    return '%s-%s-%s %s:%s:%s (its start, the host\'s local time)' % \
        m.groups()


def machine_text(docs):
    m = next((d['machine'] for d in docs.values() if d.get('machine')),
             None)
    if not m:
        return 'not recorded'

    def v(k):
        return 'missing' if m.get(k) is None else m[k]
    mem = m.get('mem_bytes')
    return '%s, %s CPUs, %s memory; host kernel %s; %s' % (
        v('cpu'), v('cpus'),
        'missing' if mem is None else '%.1f GiB' % (mem / 2 ** 30),
        v('host_kernel'), v('qemu'))


def clock_text(docs):
    """Each clock the run's experiments ran on, with the experiments."""
    by = {}
    for n, d in docs.items():
        lab = d.get('lab') or {}
        for p in lab.get('parts') or []:
            c = clock_name(p.get('accel'), lab.get('icount_shift', 0))
            by.setdefault(c, [])
            name = n if p.get('part') is None else '%s:%s' % (n, p['part'])
            if name not in by[c]:   # a boot per kernel configuration
                by[c].append(name)
    if not by:
        return 'not recorded'
    seeds = values({n: d.get('lab') or {} for n, d in docs.items()}, 'seed')
    return '; '.join('%s: %s' % (c, ', '.join(ns)) for c, ns in by.items()) \
        + '; seed %s' % seeds


def root_key(rec):
    """What a part's guest_root (runner.root_doc) is compared by: the
    archive's sha256; '' for the host's root over 9p, which has none;
    None when it is not recorded (a JSON from before bench.py recorded
    it, or a boot that stopped before boot.sh packed the root)."""
    if not isinstance(rec, dict):
        return None
    if rec.get('sha256'):
        return str(rec['sha256'])
    # the root is tmpfs or 9p (runner.ROOTS): '9p' is not compared, as
    # --check turns its digit
    return None if rec.get('root') == 'tmpfs' else ''


def roots_text(runs, docs):
    """Whether the guests of the runs on the page ran one root: "every
    run's guest ran the same root (sha256 <its first 16 hex digits>)",
    else which runs (and their experiments) ran which root, and the
    packages whose versions differ between the roots (runner.root_doc's
    "packages"), or that none does.  Each boot packs its own root (its
    experiments' programs and its job), so the boots of one page differ
    unless one boot ran every experiment: the packages say whether the
    host's programs changed between them."""
    where, recs = {}, {}
    for rid, names in runs.items():
        for n in names:
            for p in (docs[n].get('lab') or {}).get('parts') or [None]:
                p = p if isinstance(p, dict) else {}
                key = root_key(p.get('guest_root'))
                name = n if p.get('part') is None else '%s:%s' % (n,
                                                                   p['part'])
                at = where.setdefault(key, {}).setdefault(rid, [])
                if name not in at:
                    at.append(name)
                if key:
                    recs.setdefault(key, p['guest_root'])
    known = [k for k in where if k is not None]
    if not known:
        return 'not recorded'
    if len(where) == 1:
        return 'every run\'s guest ran the same root (sha256 %s)' \
            % known[0][:16] if known[0] else \
            'every run\'s guest ran the host\'s root over 9p, no hash'

    def who(at):
        return ', '.join('%s (%s)' % (rid, ', '.join(ns))
                         for rid, ns in at.items())
    out = []
    for key, at in where.items():
        what = 'not recorded' if key is None else \
            'the host\'s root over 9p, no hash' if key == '' else \
            'sha256 %s' % key[:16]
        out.append('%s: %s' % (what, who(at)))
    text = '%s: %s' % ('the guests ran different roots' if len(known) > 1
                       else 'not every guest\'s root is recorded',
                       '; '.join(out))
    # the versions of each package over the packed roots that list them
    hashed = [k for k in known if k]
    listed = [k for k in hashed if recs[k].get('packages') is not None]
    if len(hashed) < 2:
        return text
    if len(listed) < 2:
        return text + '; the packages\' versions are not recorded'
    vers = {}
    for key in listed:
        for pv in recs[key]['packages']:
            pkg, _, ver = str(pv).partition(' ')
            at = vers.setdefault(pkg, {}).setdefault(ver, [])
            at += [rid for rid in where[key] if rid not in at]
    differ = ['%s %s' % (pkg, ', '.join('%s (%s)' % (v, ', '.join(rids))
                                        for v, rids in vs.items()))
              for pkg, vs in sorted(vers.items()) if len(vs) > 1]
    if differ:
        return text + '; the packages whose versions differ between them: ' \
            + '; '.join(differ)
    return text + '; no package\'s version differs between them'


def summary_rows(docs, experiments):
    """The summary table's rows: the seeds' effects (000 first), then the
    issues' goals (issue 4 first)."""
    rows = []
    for e in experiments:
        if not e.effects:
            continue
        doc = docs.get(e.name)
        for x in e.effects(e, (doc or {}).get('rows') or []):
            why = x.why if doc else '%s is not in this run' % e.name
            rows.append([x.source or 'seed ' + e.seed, x.what,
                         x.seed or 'none (an issue\'s goal)', x.measured,
                         x.result, why])
    # 'seed 000' .. 'seed 004', then 'issue 4', 'issue 13': stable
    return sorted(rows, key=lambda r: (r[0].split()[0] != 'seed',
                                       int(r[0].split()[1])))


def section(e, doc, run_id, peers, figdir, pngs):
    """One experiment's part of the page."""
    title = e.name + (' (seed %s)' % e.seed if e.seed else '')
    out = heading(title, '-') + [esc(e.desc), '']
    if doc is None:
        return out + ['**missing**: %s is not in this run.' % e.name, '']
    agg, notes = doc.get('rows') or [], doc.get('notes') or []
    lab = doc.get('lab') or {}
    kc = doc.get('kernel_config') or {}
    out += [':Kernel configuration: %s' % esc(
                '; '.join('%s (%s)' % (k, v) if v else k
                          for k, v in sorted(kc.items())) or
                'not recorded'),
            ':Clock: %s' % esc(lab_line(lab) if 'seed' in lab
                               else 'not recorded'),
            ':RUNS, SCALE: %s, %s' % (esc(doc.get('runs', 'not recorded')),
                                      esc(doc.get('scale', 'not recorded'))),
            ':Runs measured: %s' % esc(runs_text(agg, per_run(doc))),
            '']
    one = most_runs(agg, per_run(doc)) <= 1
    if e.formatter:
        out.append('Measured, in the seed\'s format (%s)::'
                   % ('1 run' if one else 'medians of the runs'))
        try:
            ctx = dict(doc.get('setup') or {},
                       kernel=doc.get('kernel', 'not recorded'))
            text = e.formatter(e, agg, notes, ctx) if agg else \
                'missing: nothing was measured'
        except Exception as ex:  # a table bug must not lose the page
            text = '(seed-format table failed: %r)' % ex
    else:
        out.append('Measured (%s)::' % ('1 run, no min-max' if one else
                                        'median, min-max of the runs'))
        text = table(e, agg, [], 'missing') if agg else \
            'missing: nothing was measured'
    out += literal(text)
    if e.seed_table:
        out.append('The seed\'s own table (scripts/lab/seeds.py)::')
        out += literal(e.seed_table())
    if e.name in pngs:
        out += ['.. figure:: %s/%s.png' % (figdir, e.name),
                '   :alt: %s figure' % e.name, '']
        fig = figures.build(e.name, doc, run_id, peers)
        cap = (fig.caption if fig else []) or ['the medians of the run']
        out += ['   ' + esc('; '.join(cap)), '']
    else:
        out += ['Figure: **missing** (the run measured nothing of %s to '
                'draw).' % e.name, '']
    out.append('Spread::')
    out += literal('\n'.join(spread_text(e, agg)) or
                   'no spread: fewer than 2 runs of any column')
    out.append('Notes:')
    out.append('')
    out += ['* ' + esc(n) for n in notes] or ['* none']
    return out + ['']


# where the device model lives (its KUnit tests left out): a change there
# after a run's series commit can move any figure of that run
MODEL_PATHS = ['drivers/scsi/simhba', ':(exclude)drivers/scsi/simhba/*kunit*']


def model_changes(series, top=TOP):
    """The commits ("<id> <subject>") that changed the simhba model after
    the series commit(s) the runs were measured at (a "-dirty" one counts
    from its commit); None when git cannot tell (no repository, a shallow
    clone without the commit, or a commit it does not know).  Asked at
    publish time only and kept in the data (context()): the page is drawn
    from the data alone, never from the history of the tree it is drawn
    in."""
    commits = [c.strip() for c in (series or '').split(',') if c.strip()]
    commits = [c[:-len('-dirty')] if c.endswith('-dirty') else c
               for c in commits]
    if not commits:
        return None
    out = []
    for c in commits:   # what any one of the runs lacks
        try:
            log = subprocess.run(['git', '-C', top, 'log', '--format=%h %s',
                                  '%s..HEAD' % c, '--'] + MODEL_PATHS,
                                 capture_output=True, text=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            return None
        out += [line for line in log.stdout.splitlines() if line not in out]
    return out


def context(docs):
    """What publish learnt from outside the runs' JSON, kept in the data
    (pubdata.CONTEXT) so that the page is drawn again from the data
    alone: the series commit and the simhba model's commits after it
    (None: git could not tell)."""
    series = values(docs, 'series')
    return {'series': series, 'simhba_changes': model_changes(series)}


def run_ids(docs, where):
    """{run id: [experiments]} in order of the runs: a JSON without one
    is known by its directory's name."""
    out = {}
    for n, d in docs.items():
        rid = str(d.get('run') or os.path.basename(os.path.abspath(where[n])))
        out.setdefault(rid, []).append(n)
    return dict(sorted(out.items()))


def page(runs, docs, experiments, reasons, figdir, pngs, ctx):
    """The page's text; runs is run_ids(), ctx context() as kept in the
    data."""
    ids = list(runs)
    title = 'blk26 results: bench run%s %s%s' % (
        's'[:len(ids) > 1], ids[0] if len(ids) == 1 else
        '%s to %s' % (ids[0], ids[-1]), ' (DRAFT)' if reasons else '')
    out = ['.. SPDX-License-Identifier: GPL-2.0', '',
           '.. Written by "make publish RUN=\'%s\'"; do not edit.'
           % ' '.join('results/' + r for r in runs), '',
           '=' * len(title), title, '=' * len(title), '']
    if reasons:
        out += ['**DRAFT**: not a full-size run of every experiment (%s).'
                % esc('; '.join(reasons)), '']
    series = values(docs, 'series')
    newer = (ctx or {}).get('simhba_changes')
    if newer:
        out += ['**Measured on an older model**: simhba changed after '
                'these runs\' series commit (%s), in %s.  A figure that '
                'depends on what changed may differ on the current model: '
                'run ``make bench`` again and publish its runs.'
                % (esc(series), esc('; '.join(newer))), '']
    kern = []
    for d in docs.values():
        for k in [d.get('kernel', 'not recorded')] + \
                list((d.get('kernels') or {}).values()):
            if str(k) not in kern:
                kern.append(str(k))
    if len(ids) == 1:
        out += [':Run: %s' % esc(ids[0]),
                ':Date: %s' % esc(run_date(ids[0]))]
    else:
        out += [':Runs: %s' % esc('; '.join('%s (%s)' % (r, ', '.join(ns))
                                            for r, ns in runs.items())),
                ':Dates: %s to %s (the runs\' starts, the host\'s local '
                'time)' % tuple(esc(run_date(r).split(' (')[0])
                                for r in (ids[0], ids[-1]))]
    trees = []
    for d in docs.values():
        for k, t in sorted((d.get('kernel_tree') or {}).items()):
            if '%s %s' % (k, t) not in trees:
                trees.append('%s %s' % (k, t))
    out += [':Kernel: %s' % esc(', '.join(kern)),
            ':Kernel source tree: %s' % esc(', '.join(trees) or
                                            'not recorded'),
            ':Series commit: %s' % esc(series),
            ':Clock: %s' % esc(clock_text(docs)),
            ':RUNS: %s' % esc(values(docs, 'runs')),
            ':SCALE: %s' % esc(values(docs, 'scale')),
            ':Machine: %s' % esc(machine_text(docs)),
            ':Guest root: %s' % esc(roots_text(runs, docs)), '',
            'Each experiment of ``make bench`` reproduces a measurement of a '
            'seed thread, or checks the goals of an issue.  A seed\'s effect '
            'is reproduced when the measured ratio lies on the same side of '
            '1 as the seed\'s, further from 1 than the runs\' spread (their '
            'largest max/min); a goal is met or not by the medians of this '
            'run%s, unless its why names another basis (the worst of the '
            'runs, for a bound on the longest wait).  "missing": not '
            'measured in this run.'
            % ('' if len(ids) == 1 else ' (of each experiment\'s own run)'),
            '']
    out += heading('Summary', '=')
    out += list_table(['seed / goal', 'effect', 'seed\'s figure',
                       'measured', 'result', 'why'],
                      summary_rows(docs, experiments), [8, 26, 14, 14, 10, 28])
    out += heading('The experiments', '=')
    for e in experiments:
        doc = docs.get(e.name)
        out += section(e, doc, (doc or {}).get('run') or '', docs, figdir,
                       pngs)
    while out and out[-1] == '':
        out.pop()
    return '\n'.join(out) + '\n'


def draw(docs, experiments, tmp):
    """Draw each experiment's figure from its JSON into tmp/NAME.png
    (report.draw_figure, the page's runs as its peers); the names drawn.
    An experiment that measured nothing has no figure; raises
    PublishError when one that did cannot be drawn."""
    drawn = []
    for e in experiments:
        doc = docs.get(e.name)
        if doc is None or not doc.get('rows'):
            continue
        png = os.path.join(tmp, e.name + '.png')
        if not draw_figure(e, doc, doc.get('run') or '', png, docs)[0]:
            raise PublishError('%s: the figure could not be drawn '
                               '(gnuplot, see above)' % e.name)
        with open(png, 'rb') as fh:
            data = pubdata.png_clean(fh.read())
        with open(png, 'wb') as fh:
            fh.write(data)
        drawn.append(e.name)
    return drawn


def publish(rundirs, out, draft, experiments, ctx=None):
    """Write the page for one or more runs to out, its figures drawn
    beside it and the runs' data under them; (exit status, message).
    ctx: context() as kept with the data (republish.py); None: asked of
    git now."""
    try:
        docs, where = load_runs(rundirs, experiments)
    except PublishError as ex:
        return 2, str(ex)
    reasons = draft_reasons(docs, experiments)
    if reasons and not draft:
        return 2, ('not a full-size run of every experiment (%s): nothing '
                   'written; --draft (make publish DRAFT=1) writes a page '
                   'marked DRAFT' % '; '.join(reasons))
    figdir = os.path.splitext(out)[0]
    runs = run_ids(docs, where)
    if ctx is None:
        ctx = context(docs)
    with tempfile.TemporaryDirectory(prefix='publish-') as tmp:
        def csv_of(name):
            p = os.path.join(tmp, name + '.csv')
            write_csv(p, docs[name].get('rows') or [])
            with open(p) as fh:
                return fh.read()
        try:
            data = pubdata.pack(runs, where, csv_of, ctx)
            pngs = draw(docs, experiments, tmp)
        except (PublishError, pubdata.DataError) as ex:
            return 2, '%s: nothing written' % ex
        text = page(runs, docs, experiments, reasons,
                    os.path.basename(figdir), pngs, ctx)
        os.makedirs(figdir, exist_ok=True)
        for e in experiments:
            dst = os.path.join(figdir, e.name + '.png')
            if e.name in pngs:
                os.replace(os.path.join(tmp, e.name + '.png'), dst)
            elif os.path.exists(dst):
                os.unlink(dst)
    pubdata.write(os.path.join(figdir, pubdata.DATA), data)
    with open(out, 'w') as fh:
        fh.write(text)
    return 0, '%s written%s' % (out, ' (DRAFT: %s)' % '; '.join(reasons)
                                if reasons else '')


def main(argv, experiments):
    ap = argparse.ArgumentParser(
        prog='bench.py --publish',
        description='write the results page of a bench run')
    ap.add_argument('run', nargs='+',
                    help='results/<run-id>: one, or several that together '
                    'hold each experiment once, of one series commit and '
                    'one kernel source')
    ap.add_argument('--draft', action='store_true',
                    help='write the page of a smaller or partial run, '
                    'marked DRAFT')
    ap.add_argument('--out', default=OUT,
                    help='the page (default Documentation/block/'
                    'blk26-results.rst); its figures go to the directory '
                    'of its name without .rst')
    a = ap.parse_args(argv)
    st, msg = publish(a.run, a.out, a.draft, experiments)
    (sys.stderr if st else sys.stdout).write('[publish] %s\n' % msg)
    return st


# --- the runs' spread, run beside run ---------------------------------------

def spread_cell(doc, metric):
    """'largest (config) / median' of a metric's max/min over a run's
    configurations, '' when no configuration has two runs of it."""
    rows = doc.get('rows') or []
    s = spreads(rows, metric)
    if not s:
        return ''
    where = config_name(s[0][1], rows)
    med = statistics.median(x for x, _ in s)
    return '%.3f%s / %.3f' % (s[0][0], ' (%s)' % where if where else '',
                              med)


def spread_table(runs, experiments):
    """The list-table of spread_cell() for every experiment and headline
    metric in any of runs ([(label, {name: doc})]), a column per run."""
    rows = []
    for e in experiments:
        for m, h in e.columns:
            cells = [spread_cell(d[e.name], m) if e.name in d else ''
                     for _, d in runs]
            if any(cells):
                rows.append([e.name, h] + [c or 'missing' for c in cells])
    head = ['experiment', 'metric'] + [
        '%s: largest max/min (where) / median' % label for label, _ in runs]
    return list_table(head, rows, [14, 14] + [36] * len(runs))


def spread_main(argv, experiments):
    """bench.py --spread LABEL=RUNDIR...: print spread_table(); the runs
    of a label given more than once make one column."""
    runs = []
    parts = [a.partition('=') for a in argv]
    if not parts or any(not (label and sep and d)
                        for label, sep, d in parts):
        sys.stderr.write('usage: bench.py --spread LABEL=RESULTS/RUN-ID '
                         '[LABEL=RESULTS/RUN-ID...]\n')
        return 2
    dirs = {}
    for label, _, d in parts:
        dirs.setdefault(label, []).append(d)
    # a label given twice is one column of several runs (each experiment
    # in one of them, as make publish takes them)
    for label, ds in dirs.items():
        try:
            runs.append((label, load_runs(ds, experiments)[0]))
        except PublishError as ex:
            sys.stderr.write('[spread] %s\n' % ex)
            return 2
    sys.stdout.write('\n'.join(spread_table(runs, experiments)))
    return 0
