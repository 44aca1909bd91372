# SPDX-License-Identifier: GPL-2.0
"""The results page again, from the data committed beside it.

  bench.py --republish OUTDIR [--data DIR]
  bench.py --republish --check [--page FILE] [--data DIR]

The first writes OUTDIR/blk26-results.rst, its figures and its data
(as make publish does) from the data directory alone (default
Documentation/block/blk26-results/data, pubdata.py): no results/ is
needed.  OUTDIR may be Documentation/block itself, to draw the page
again after a change of the lab's code.

The second does that in a temporary directory and checks the committed
page (default Documentation/block/blk26-results.rst):
  * the page and every figure are byte-identical to the ones drawn
    again, and no figure is there that the page does not have;
  * the data is byte-identical to what publish writes from it again
    (each file compressed again, context.json), and no run's file is
    there that the page does not have;
  * every number on the page has a source (numbers()).
It prints one line per problem, exit status 1 if there is any.

A number's source.  A numeric token is every number on the page, one
glued to a unit or a name too ("141.4", "0.87x", "20ms", "0m0.323s",
"sata-7200", "6.12.117-blk26"), each part of a date or version.  A
token has a source when it is the number of the page drawn again from
the data at its place, and
  * it moves with the data: the page is drawn again from the data
    perturbed, each way on its own (perturbed()): every measured value
    (the rows' medians, min, max and runs, the spread) moved by a
    factor of its own, and every number of scripts/lab/seeds.py, twice;
    every value that describes the runs (the run ids, RUNS, SCALE, the
    kernel, the machine, the clock, the setup, the notes, the rows'
    details, the context) with its numbers moved and the digits of its
    strings turned; the rows' configurations so turned; each run
    counted twice.  A token that changes at its place in one of these
    pages comes from the data there; or
  * it is structural: a pattern of STRUCTURAL, each with its reason (a
    seed's or issue's number, a goal's bound, a count of runs the page
    derives, the project's and the experiments' names, the names sha256
    and 9p), or
  * it stands in an experiment's section (or in the summary table,
    whose rows are the experiments') and that experiment declares it: a
    number of its description, or of its constants (Experiment.
    constants, next to its code in experiments/NAME.py, each with its
    reason).
A value of the data is so accepted only where the page puts it: a
number the code writes in the header, or in a section whose experiment
does not declare it, has no source, however often the data holds it.
A token of the committed page that differs from the page drawn again is
no number of the data.
"""

import argparse
import copy
import difflib
import os
import random
import re
import sys
import tempfile

import publish
import pubdata
from pubdata import read
import seeds

DOC = os.path.dirname(publish.OUT)
PAGE = os.path.basename(publish.OUT)
DATADIR = os.path.join(os.path.splitext(publish.OUT)[0], pubdata.DATA)


def unpacked(datadir, tmp):
    """(results directories under tmp, the context) of datadir; raises
    pubdata.DataError."""
    return (pubdata.unpack(datadir, os.path.join(tmp, 'results')),
            pubdata.read_context(datadir))


def republish(datadir, outdir, experiments, name=PAGE):
    """Write the page (outdir/name), its figures and its data into outdir
    from datadir; (exit status, message)."""
    with tempfile.TemporaryDirectory(prefix='republish-') as tmp:
        try:
            dirs, ctx = unpacked(datadir, tmp)
        except pubdata.DataError as ex:
            return 2, str(ex)
        # a page that was published as a draft says so again; what git
        # told at publish time is the data's, not asked again
        return publish.publish(dirs, os.path.join(outdir, name), True,
                               experiments, ctx)


# --- the numbers on the page ------------------------------------------------

NUM = re.compile(r'\d+(?:\.\d+)?')

# Numbers the page's own text and layout hold, no measurement: (pattern
# of the words around it, reason).  A token is structural when its line
# matches a pattern whose group 1 (2, ...) spans it.  An experiment
# declares the constants its own code writes (Experiment.constants, in
# experiments/NAME.py), in the same form; the names of the experiments
# are structural too (names()).
STRUCTURAL = [
    (r'^=+$|^-+$', 'a heading\'s rule'),
    (r'SPDX-License-Identifier: GPL-(\d\.\d)', 'the page\'s licence'),
    (r':header-rows: (1)', 'the summary table\'s header row'),
    (r'\((1) run(?:, no min-max)?\)|(1) run \(no spread\)', 'one run: '
     'the page says so instead of a median (publish.section)'),
    (r'(\d+) series commits|(\d+) run ids', 'a count the page derives '
     '(publish.draft_reasons)'),
    (r'(?<![\d.])(0)m\d', 'the minutes of time(1)\'s format, 0 below a '
     'minute; the seconds after it are checked'),
    (r':widths: ([\d ]+)', 'the summary table\'s column widths'),
    (r'\bblk(26)\b', 'the project\'s name (blk26, blk26-results)'),
    (r'seed (\d+)', 'a seed thread\'s number (scripts/lab/seeds.py)'),
    (r'issues? (\d+)', 'an issue\'s number'),
    (r'same side of (1)\b|further from (1)\b|seed\'s side of (1)\b|'
     r'closer to (1) than', 'the rule a seed\'s effect '
     'is judged by: a ratio against 1'),
    (r'fewer than (\d+) runs', 'the least RUNS a full-size page takes '
     '(publish.draft_reasons)'),
    (r'\((\d+) ns per instruction\)', 'the instruction-counted clock\'s '
     'unit (runner.lab_line)'),
    (r'(\d+) runs? measured', 'a count of runs the page derives from the '
     'rows (stats.runs_text)'),
    (r'[Mm]edian of (\d+) runs|in (\d+) runs|of (\d+) runs', 'a count of '
     'runs the page derives from the rows (stats.runs_text)'),
    (r'(?:>=|<=|at most|at least|within|above|below) (\d+(?:\.\d+)?)',
     'a goal\'s bound, declared by its experiment (experiments/NAME.py)'),
    (r'weight share \((\d\.\d+)\)|^\s*\d+ +\S+ +(\d\.\d+) ',
     'the share a weight is due: its part of the weights of the '
     'configuration, no measurement'),
    (r'equal slices, (\d+(?:\.\d+)?)% each', 'an equal share: 100% '
     'over the processes of the configuration'),
    (r'x (1\.024)\b', 'the unit factor of KiB to MB'),
    (r'\b(10)\^(\d+)', 'a power of ten: a unit (10^6 B/s)'),
    (r'(?<![A-Za-z\d])p(\d{1,2}(?:\.\d)?)(?![\d.])|(\d\d)th percentile',
     'a percentile\'s name (p1, p99, p99.9)'),
    (r'\((\d{4})\)', 'the year of a seed thread'),
    (r'\bsha(256)\b', 'the name of the hash a guest\'s root is known by '
     '(SHA-256; the hash itself comes from the data, publish.roots_text)'),
    (r'\bover (9)p\b', 'the name of the protocol of the host\'s root '
     '(9p: runner.lab_line, publish.roots_text)'),
]


def names(experiments):
    """STRUCTURAL's form of the experiments' names that hold a number
    (raid0-dd)."""
    return [(r'(?<![\w-])%s(?![\w-])' % re.sub(
        r'\d+', lambda m: '(%s)' % m.group(0), re.escape(e.name)),
        'the name of an experiment') for e in experiments
        if NUM.search(e.name)]


def declared(e):
    """The numbers experiment e's code writes on the page, no value of a
    run: its description's and its declared constants (Experiment.
    constants: ((numbers, reason), ...), in experiments/NAME.py)."""
    out = set(NUM.findall(publish.esc(e.desc)))
    for nums, _ in e.constants:
        out |= set(nums.split())
    return out


def scopes(lines, experiments):
    """{line number: the numbers declared where it stands}: an
    experiment's section has its own (declared()), the summary table
    those of every experiment (its rows are the experiments' effects and
    goals), the header none."""
    every = set().union(*[declared(e) for e in experiments])
    titles = {e.name + (' (seed %s)' % e.seed if e.seed else ''): e
              for e in experiments}
    out, cur = {}, set()
    for n, line in enumerate(lines):
        nxt = lines[n + 1] if n + 1 < len(lines) else ''
        if line == 'Summary' and nxt.startswith('='):
            cur = every
        elif line in titles and nxt and set(nxt) == {'-'}:
            cur = declared(titles[line])
        out[n] = cur
    return out


def tokens(line):
    """The numeric tokens of a line: [(start, text)]: every number in it,
    also one glued to a unit ("20ms", "0m0.323s", "1K") or to a name
    ("sata-7200", "blk26", "6.12.117-blk26")."""
    return [(m.start(), m.group(0)) for m in NUM.finditer(line)]


def skeleton(line):
    """The line with its numeric tokens replaced by '#' and its runs of
    spaces by one (a table's columns are as wide as their numbers)."""
    return re.sub(r' +', ' ', NUM.sub('#', line))


def factor(i, k):
    """The i-th factor of the k-th set: from 1.13 to 1.87, drawn at
    random (the same every time), so that a sum, mean or ratio of moved
    values moves too."""
    return 1.13 + random.Random(i * 7919 + k).random() * 0.74


class MovedSeeds:
    """Within it, every number of scripts/lab/seeds.py's tables is moved
    by a factor of its own (the k-th set), and the digits of its strings
    turned (a kernel version, a revision): a seed's figure, and what the
    page derives from it, moves."""

    def __init__(self, k):
        self.k, self.saved = k, {}

    def move(self, obj):
        if isinstance(obj, bool):
            return obj
        if isinstance(obj, (int, float)):
            self.i += 1
            return move(obj, factor(self.i, self.k))
        if isinstance(obj, str):
            return turned(obj, self.k + 1)
        if isinstance(obj, dict):
            return {k: self.move(v) for k, v in obj.items()}
        if isinstance(obj, (list, tuple)):
            return type(obj)(self.move(v) for v in obj)
        return obj

    def __enter__(self):
        self.i = 0
        tables = {k: v for k, v in sorted(vars(seeds).items())
                  if k.isupper() and isinstance(v, (dict, list, tuple,
                                                    float))}
        new = {k: self.move(v) for k, v in tables.items()}
        # the modules that imported a table by its name, seeds.py too
        for m in list(sys.modules.values()):
            for k, v in tables.items():
                if getattr(m, k, None) is v:
                    self.saved[(m, k)] = v
                    setattr(m, k, new[k])
        return self

    def __exit__(self, *a):
        for (m, k), v in self.saved.items():
            setattr(m, k, v)


def move(v, f, size=1):
    """v moved by the factor f; 0, which no factor moves, to f times
    size (the largest of its metric's values)."""
    return v * f if v else f * size


def moved(docs, k):
    """docs with every measured value moved by a factor of its own (the
    k-th set of factors): a metric's median, min, max and runs by one
    factor, so their order holds; a 0 to the size of the metric's other
    values."""
    docs = copy.deepcopy(docs)
    i = 0
    for d in docs.values():
        size = {}
        for r in d.get('rows') or []:
            for m, s in (r.get('metrics') or {}).items():
                if isinstance(s.get('max'), (int, float)):
                    size[m] = max(size.get(m, 0), abs(s['max']))
        for r in d.get('rows') or []:
            for m, s in sorted((r.get('metrics') or {}).items()):
                i += 1
                f, z = factor(i, k), size.get(m) or 1
                for x in ('median', 'min', 'max'):
                    if isinstance(s.get(x), (int, float)):
                        s[x] = move(s[x], f, z)
                runs = (r.get('runs') or {}).get(m)
                if runs:
                    r['runs'][m] = [move(v, f, z) if isinstance(
                        v, (int, float)) else v for v in runs]
        for s in (d.get('spread') or {}).values():
            if isinstance(s.get('max_over_min'), (int, float)):
                s['max_over_min'] *= 1.31
    return docs


def turned(obj, k=1):
    """obj with every number moved and every digit of its strings turned
    (k added, modulo 10); its keys and booleans kept.  The same string
    turns the same way wherever it is, so equal values stay equal."""
    if isinstance(obj, bool) or obj is None:
        return obj
    if isinstance(obj, int):
        return int(obj * 1.37) + k
    if isinstance(obj, float):
        return obj * 1.37
    if isinstance(obj, str):
        return re.sub(r'\d', lambda m: str((int(m.group(0)) + k) % 10), obj)
    if isinstance(obj, dict):
        return {key: turned(v, k) for key, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(turned(v, k) for v in obj)
    return obj


# what of a run's JSON is no value the page prints: the experiment's
# name keys it, values_per_run counts, the rows and spread are moved()
NOT_TURNED = ('experiment', 'values_per_run', 'rows', 'spread')


def described(docs, runs, ctx):
    """(runs, docs, ctx) with every value that describes the runs turned:
    the run ids, the JSON's values but its rows (RUNS, SCALE, the
    machine, the kernel, the clock, the setup, the notes...), the rows'
    details (what a script reported beside its metrics) and the
    context."""
    docs = {n: {k: v if k in NOT_TURNED else turned(v)
                for k, v in d.items()} for n, d in docs.items()}
    for d in docs.values():
        d['rows'] = [dict(r, details=turned(r['details']))
                     if 'details' in r else r for r in d.get('rows') or []]
    return ({turned(r): ns for r, ns in runs.items()}, docs, turned(ctx))


def configured(docs):
    """docs with the rows' configurations turned (a configuration's
    numbers and the digits of its names)."""
    docs = copy.deepcopy(docs)
    for d in docs.values():
        for r in d.get('rows') or []:
            if isinstance(r.get('config'), dict):
                r['config'] = turned(r['config'])
    return docs


def counted(docs):
    """docs with every run measured twice: each figure's runs, twice as
    many and each a little larger than the one before (its median, min
    and max the same): the counts of runs the page derives, and the
    spread of the runs, move."""
    docs = copy.deepcopy(docs)
    for d in docs.values():
        for r in d.get('rows') or []:
            for m, v in (r.get('runs') or {}).items():
                if isinstance(v, list):
                    r['runs'][m] = [x * (1 + 0.05 * j) if isinstance(
                        x, (int, float)) else x for j, x in enumerate(v + v)]
    return docs


def aligned(lines, other):
    """{line number: the line of other it stands for}: where the two have
    the same skeleton, or, in a run of changed lines as long on both
    sides, as many numeric tokens (a verdict may turn with the numbers:
    "met", "NOT met")."""
    a = [skeleton(x) for x in lines]
    b = [skeleton(x) for x in other]
    out = {}
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == 'equal' or (op == 'replace' and i2 - i1 == j2 - j1):
            for k in range(i2 - i1):
                if op == 'equal' or len(tokens(lines[i1 + k])) == \
                        len(tokens(other[j1 + k])):
                    out[i1 + k] = other[j1 + k]
    return out


def structural(line, start, patterns):
    for pat, _ in patterns:
        for m in re.finditer(pat, line):
            for g in range(1, (m.lastindex or 0) + 1):
                if m.start(g) <= start < m.end(g):
                    return True
    return False


def perturbed(docs, runs, ctx, redraw):
    """The page drawn again from the data perturbed, each way a page of
    its own: the measured values and the seeds' figures moved (two sets
    of factors), the values that describe the runs turned, the rows'
    configurations turned, the runs counted twice.  A page that cannot
    be drawn so is left out (its numbers then move nowhere)."""
    out = []
    for k in (0, 1):
        with MovedSeeds(k):
            out.append(redraw(runs, moved(docs, k), ctx))
    for r, d, c in (described(docs, runs, ctx),
                    (runs, configured(docs), ctx),
                    (runs, counted(docs), ctx)):
        try:
            out.append(redraw(r, d, c))
        except Exception:   # e.g. a configuration a formatter looks up
            pass
    return out


def numbers(text, fresh, pages, patterns, experiments):
    """Problems of the numbers of a page's text: fresh is the page drawn
    again from its data, pages the ones drawn from the data perturbed
    (perturbed()), patterns STRUCTURAL and names().  A number has a
    source when it is the number of the page drawn again at its place and
    it changes, at its place, in a page drawn from the data perturbed, or
    when it is structural, or a number the experiment whose section it is
    in declares (scopes()).  [] when every number has a source."""
    lines = text.splitlines()
    scope = scopes(lines, experiments)
    same = aligned(lines, fresh.splitlines())
    movers = [aligned(lines, p.splitlines()) for p in pages]
    bad = []
    for n, line in enumerate(lines):
        here = tokens(same.get(n, ''))
        for i, (start, t) in enumerate(tokens(line)):
            if here and len(here) > i and here[i][1] != t:
                bad.append('line %d: %s is no number of the data (drawn '
                           'from it: %s): %s' % (n + 1, t, here[i][1],
                                                 line.strip()))
                continue
            if any(len(o) > i and o[i][1] != t
                   for o in (tokens(m.get(n, '')) for m in movers)):
                continue
            if structural(line, start, patterns) or t in scope[n]:
                continue
            bad.append('line %d: %s has no source in the data, the seeds or '
                       'the page\'s structure: %s' % (n + 1, t,
                                                      line.strip()))
    return bad


# --- the check ---------------------------------------------------------------

def check(page, datadir, experiments):
    """Problems of the committed page against its data (a list)."""
    figdir = os.path.splitext(page)[0]
    with tempfile.TemporaryDirectory(prefix='republish-') as tmp:
        try:
            dirs, ctx = unpacked(datadir, tmp)
        except pubdata.DataError as ex:
            return ['the page cannot be drawn again from %s: %s'
                    % (datadir, ex)]
        # drawn under the committed page's own name: it names its
        # figures' directory
        newpage = os.path.join(tmp, 'out', os.path.basename(page))
        st, msg = publish.publish(dirs, newpage, True, experiments, ctx)
        if st:
            return ['the page cannot be drawn again from %s: %s'
                    % (datadir, msg)]
        bad = []
        newfigs = os.path.splitext(newpage)[0]
        text, fresh = read(page).decode(), read(newpage).decode()
        if text != fresh:
            diff = list(difflib.unified_diff(
                fresh.splitlines(), text.splitlines(), 'drawn again',
                'committed', n=0, lineterm=''))
            bad.append('the page differs from the one drawn again from '
                       'its data:\n  ' + '\n  '.join(diff[:40]))
        pngs = sorted(f for f in os.listdir(newfigs) if f.endswith('.png'))
        have = sorted(f for f in os.listdir(figdir) if f.endswith('.png')) \
            if os.path.isdir(figdir) else []
        for f in sorted(set(pngs) | set(have)):
            if f not in have:
                bad.append('%s: the figure is not committed' % f)
            elif f not in pngs:
                bad.append('%s: the page has no such figure' % f)
            elif read(os.path.join(figdir, f)) != \
                    read(os.path.join(newfigs, f)):
                bad.append('%s: not the figure drawn again from the data '
                           '(gnuplot: the same data draws the same bytes '
                           'with the same gnuplot, cairo and fonts)' % f)
        # the data as publish writes it (pubdata.pack): the same bytes
        newdata = os.path.join(newfigs, pubdata.DATA)
        files = {}
        for root, _, fs in os.walk(newdata):
            for f in fs:
                p = os.path.join(root, f)
                files[os.path.relpath(p, newdata)] = read(p)
        bad += ['data %s (make republish OUT=%s writes it again)'
                % (x, os.path.dirname(page) or '.')
                for x in pubdata.differences(datadir, files)]
        docs, where = publish.load_runs(dirs, experiments)
        drawn = [f[:-4] for f in pngs]

        def redraw(runs, d, c):
            return publish.page(runs, d, experiments,
                                publish.draft_reasons(d, experiments),
                                os.path.basename(figdir), drawn, c)
        pages = perturbed(docs, publish.run_ids(docs, where), ctx, redraw)
        bad += numbers(text, fresh, pages,
                       STRUCTURAL + names(experiments), experiments)
    return bad


def model_note(datadir):
    """A line when the simhba model changed since the page was published
    (git asked now, against what the data kept): no fault of the page,
    which is drawn from the data alone, but its runs may be stale; None
    otherwise, or when git cannot tell."""
    try:
        ctx = pubdata.read_context(datadir)
    except pubdata.DataError:
        return None
    told = ctx.get('simhba_changes') or []
    new = [x for x in publish.model_changes(ctx.get('series')) or []
           if x not in told]
    if not new:
        return None
    return ('note: simhba changed after the page was published (%s); a '
            'figure that depends on it may differ on the current model: '
            'run make bench again and publish its runs' % '; '.join(new))


def main(argv, experiments):
    ap = argparse.ArgumentParser(
        prog='bench.py --republish',
        description='write the results page again from its committed data, '
        'or check the committed page against it')
    ap.add_argument('outdir', nargs='?',
                    help='where the page, its figures and data go')
    ap.add_argument('--data', default=DATADIR,
                    help='the data directory (default Documentation/block/'
                    'blk26-results/data)')
    ap.add_argument('--check', action='store_true',
                    help='draw the page again in a temporary directory and '
                    'compare it with the committed one')
    ap.add_argument('--page', default=publish.OUT,
                    help='with --check: the committed page')
    a = ap.parse_args(argv)
    if a.check == bool(a.outdir):
        ap.error('give OUTDIR or --check')
    if a.check:
        bad = check(a.page, a.data, experiments)
        for b in bad:
            print(b)
        note = model_note(a.data)
        if note:
            sys.stderr.write('[republish] %s\n' % note)
        if not bad:
            print('[republish] %s: drawn again from %s, the same bytes; '
                  'every number has a source' % (a.page, a.data))
        return 1 if bad else 0
    st, msg = republish(a.data, a.outdir, experiments)
    (sys.stderr if st else sys.stdout).write('[republish] %s\n' % msg)
    return st
