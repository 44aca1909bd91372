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
  * every number on the page has a source (numbers()).
It prints one line per problem, exit status 1 if there is any.

A number's source.  A numeric token is a number in a word of the page
that holds no letter (a trailing "x" of a ratio and "%" aside):
"141.4", "0.87x", "2026-12-02", "3/5"; a number glued to a name or unit
("sata-7200", "64KiB", "6.12.117-blk26") is part of a name, not checked.
A token has a source when
  * it is measured: the page is drawn again from the data with every
    measured value (the rows' medians, min, max and runs, the spread)
    moved by a factor of its own, and the token moves with it (a
    median, a ratio, a sum, a spread, formatted as the page formats
    them), or
  * it is a value of the run's JSON (a configuration, RUNS, SCALE, a
    count, a number in a note) or of scripts/lab/seeds.py, written as
    the page writes numbers (as is, %g, %.0f to %.3f, with "x"), or
  * it is structural (STRUCTURAL, each with the reason), or part of a
    run id or of its date.
A token of the committed page that differs from the page drawn again is
no number of the data.
"""

import argparse
import copy
import difflib
import os
import re
import sys
import tempfile

import publish
import pubdata
import seeds

DOC = os.path.dirname(publish.OUT)
PAGE = os.path.basename(publish.OUT)
DATADIR = os.path.join(os.path.splitext(publish.OUT)[0], pubdata.DATA)


def republish(datadir, outdir, experiments):
    """Write the page, its figures and its data into outdir from datadir;
    (exit status, message)."""
    with tempfile.TemporaryDirectory(prefix='republish-') as tmp:
        try:
            dirs = pubdata.unpack(datadir, os.path.join(tmp, 'results'))
            ctx = pubdata.read_context(datadir)
        except pubdata.DataError as ex:
            return 2, str(ex)
        # a page that was published as a draft says so again; what git
        # told at publish time is the data's, not asked again
        return publish.publish(dirs, os.path.join(outdir, PAGE), True,
                               experiments, ctx)


# --- the numbers on the page ------------------------------------------------

WORD = re.compile(r'[^\s,;()\[\]{}`*\'"|=<>]+')
NUM = re.compile(r'\d+(?:\.\d+)?')
LETTER = re.compile(r'[A-Za-z]')

# Numbers the page's own text and layout hold, no measurement: (pattern
# of the words around it, reason).  A token is structural when its line
# matches a pattern whose group 1 spans it.
STRUCTURAL = [
    (r'^=+$|^-+$', 'a heading\'s rule'),
    (r':widths: ([\d ]+)', 'the summary table\'s column widths'),
    (r'seed (\d+)', 'a seed thread\'s number (scripts/lab/seeds.py)'),
    (r'issues? (\d+)', 'an issue\'s number'),
    (r'same side of (1)\b|further from (1)\b', 'the rule a seed\'s effect '
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
    (r'\((\d{4})\)', 'the year of a seed thread'),
]


def tokens(line):
    """The numeric tokens of a line: [(start, text)]."""
    out = []
    for w in WORD.finditer(line):
        word = w.group(0).rstrip('.:')
        if LETTER.search(re.sub(r'(?<=\d)x$', '', word)):
            continue
        for m in NUM.finditer(word):
            out.append((w.start() + m.start(), m.group(0)))
    return out


def skeleton(line):
    """The line with its numeric tokens replaced by '#' and its runs of
    spaces by one (a table's columns are as wide as their numbers)."""
    out, pos = [], 0
    for start, t in tokens(line):
        out += [line[pos:start], '#']
        pos = start + len(t)
    return re.sub(r' +', ' ', ''.join(out + [line[pos:]]))


def written(v):
    """The ways the page writes a number v."""
    out = {str(v), '%g' % v}
    out |= {'%.*f' % (n, v) for n in range(4)}
    if float(v).is_integer():
        out.add(str(int(v)))
    return out


def values(obj, out):
    """Every number of a JSON document or a seed table, and every number
    in its strings, into the set out."""
    if isinstance(obj, bool):
        return
    if isinstance(obj, (int, float)):
        out |= written(obj)
    elif isinstance(obj, str):
        out |= {m for m in NUM.findall(obj)}
    elif isinstance(obj, dict):
        for k, v in obj.items():
            values(k, out)
            values(v, out)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for v in obj:
            values(v, out)


def seed_values():
    out = set()
    for k, v in vars(seeds).items():
        if k.isupper():
            values(v, out)
    return out


class moved_seeds:
    """Within it, every number of scripts/lab/seeds.py's tables is moved
    by a factor of its own (the k-th set): a seed's figure, and what the
    page derives from it, moves."""

    def __init__(self, k):
        self.k, self.saved = k, {}

    def move(self, obj):
        if isinstance(obj, bool):
            return obj
        if isinstance(obj, (int, float)):
            self.i += 1
            return obj * (1.13 + ((self.i * 0.6180339887 + self.k * 0.37)
                                  % 1.0) * 0.74)
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


def moved(docs, k):
    """docs with every measured value moved by a factor of its own (the
    k-th set of factors): a metric's median, min, max and runs by one
    factor, so their order holds."""
    docs = copy.deepcopy(docs)
    i = 0
    for d in docs.values():
        for r in d.get('rows') or []:
            for m, s in sorted((r.get('metrics') or {}).items()):
                i += 1
                f = 1.13 + ((i * 0.6180339887 + k * 0.37) % 1.0) * 0.74
                for x in ('median', 'min', 'max'):
                    if isinstance(s.get(x), (int, float)):
                        s[x] = s[x] * f
                runs = (r.get('runs') or {}).get(m)
                if runs:
                    r['runs'][m] = [v * f if isinstance(v, (int, float))
                                    else v for v in runs]
        for s in (d.get('spread') or {}).values():
            if isinstance(s.get('max_over_min'), (int, float)):
                s['max_over_min'] *= 1.31
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


def structural(line, start):
    for pat, _ in STRUCTURAL:
        for m in re.finditer(pat, line):
            for g in range(1, (m.lastindex or 0) + 1):
                if m.start(g) <= start < m.end(g):
                    return True
    return False


def numbers(text, fresh, docs, runs, redraw, ctx):
    """Problems of the numbers of a page's text: fresh is the page drawn
    again from docs and ctx (the context kept with them), redraw(docs)
    draws it from other docs; runs its run ids.  [] when every number has
    a source."""
    lines, new = text.splitlines(), fresh.splitlines()
    same = aligned(lines, new)
    movers = []
    for k in (0, 1):
        with moved_seeds(k):
            movers.append(aligned(lines,
                                  redraw(moved(docs, k)).splitlines()))
    known = seed_values()
    values(ctx, known)
    for d in docs.values():
        values(d, known)
        # the machine's memory, in GiB (publish.machine_text)
        mem = (d.get('machine') or {}).get('mem_bytes')
        if isinstance(mem, (int, float)):
            known.add('%.1f' % (mem / 2 ** 30))
    ids = set()
    for r in runs:
        ids |= set(NUM.findall(r)) | set(NUM.findall(publish.run_date(r)))
    bad = []
    for n, line in enumerate(lines):
        here = tokens(same.get(n, ''))
        for i, (start, t) in enumerate(tokens(line)):
            t0 = re.sub(r'x$', '', t)
            if here and len(here) > i and here[i][1] != t:
                bad.append('line %d: %s is no number of the data (drawn '
                           'from it: %s): %s' % (n + 1, t, here[i][1],
                                                 line.strip()))
                continue
            mv = False
            for m in movers:
                other = tokens(m.get(n, ''))
                if len(other) > i and other[i][1] != t:
                    mv = True
            if mv or t0 in known or t0 in ids or structural(line, start):
                continue
            bad.append('line %d: %s has no source in the data, the seeds or '
                       'the page\'s structure: %s' % (n + 1, t,
                                                      line.strip()))
    return bad


# --- the check ---------------------------------------------------------------

def read(path):
    with open(path, 'rb') as fh:
        return fh.read()


def check(page, datadir, experiments):
    """Problems of the committed page against its data (a list)."""
    figdir = os.path.splitext(page)[0]
    with tempfile.TemporaryDirectory(prefix='pagecheck-') as tmp:
        st, msg = republish(datadir, tmp, experiments)
        if st:
            return ['the page cannot be drawn again from %s: %s'
                    % (datadir, msg)]
        bad = []
        newpage = os.path.join(tmp, PAGE)
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
        docs, where = publish.load_runs(
            pubdata.unpack(datadir, os.path.join(tmp, 'again')), experiments)
        runs = publish.run_ids(docs, where)
        reasons = publish.draft_reasons(docs, experiments)
        names = [f[:-4] for f in pngs]

        ctx = pubdata.read_context(datadir)

        def redraw(d):
            return publish.page(runs, d, experiments, reasons,
                                os.path.basename(figdir), names, ctx)
        bad += numbers(text, fresh, docs, runs, redraw, ctx)
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
