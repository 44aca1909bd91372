# SPDX-License-Identifier: GPL-2.0
"""The data behind the published results page, kept beside it.

make publish (publish.py) writes, with the page, each run's JSON and CSV
of every experiment on the page:

  Documentation/block/blk26-results/data/<run-id>/NAME.json.gz
  Documentation/block/blk26-results/data/<run-id>/NAME.csv.gz

the raw files an experiment keeps gzipped beside its results (bench_keep,
NAME-*.txt.gz: the traces experiment's blktrace windows), byte for byte:

  Documentation/block/blk26-results/data/<run-id>/NAME-*.txt.gz

and what publish learnt from outside the JSON (publish.context(): the
simhba model's commits after the series commit, as git told them at
publish time, null when it could not tell), so that the page is drawn
again from the data alone:

  Documentation/block/blk26-results/data/context.json

The JSON is the run's file byte for byte (what publish.py reads and the
figures are drawn from), the CSV the run's too (written from the JSON's
rows when the run has none).  Both are compressed with gzip at level 9
and no name or time in the header, so the same data gives the same
bytes (with the same zlib); a file of the same bytes is not written
again.  Run ids name directories: letters, digits, "_", "." and "-"
only.  Of what else is under data/, publish removes only the files of
a run's directory that it manages (managed()): a README or another
directory is left alone.  The
whole data directory must stay within LIMIT bytes (4 MiB): publish
refuses a page whose data would exceed it.

The figures are drawn at publish time from the JSON (figures.py,
gnuplot's pngcairo terminal); png_clean() drops the chunks of a PNG that
could hold a time or a program's name, so the same data draws the same
bytes.
"""

import gzip
import json
import os
import re
import struct
import zlib

LIMIT = 4 * 2 ** 20
DATA = 'data'
KINDS = ('.json', '.csv', '.txt')
CONTEXT = 'context.json'


class DataError(Exception):
    """Data that cannot be kept or read: nothing is written."""


RUN_ID = re.compile(r'^[A-Za-z0-9_.-]+$')


def run_id_error(rid):
    """Why rid cannot name a run's directory under data/ (None when it
    can): letters, digits, "_", "." and "-" only, and not "." or
    ".."."""
    if not RUN_ID.match(rid) or rid in ('.', '..'):
        return ('run id %r cannot name a directory of the data: letters, '
                'digits, "_", "." and "-" only, not "." or ".."' % rid)
    return None


def gz(data):
    """data compressed, the same bytes every time."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def context_bytes(ctx):
    """publish.context() as kept in the data: the same bytes every
    time."""
    return (json.dumps(ctx, indent=1, sort_keys=True) + '\n').encode()


def read_context(datadir):
    """The context kept in datadir (publish.context()); raises DataError
    when there is none or it is no JSON object."""
    p = os.path.join(datadir, CONTEXT)
    try:
        with open(p) as fh:
            ctx = json.load(fh)
    except (OSError, ValueError) as ex:
        raise DataError('%s: no context of the page (make publish writes '
                        'it): %s' % (p, ex))
    if not isinstance(ctx, dict):
        raise DataError('%s: not a JSON object' % p)
    return ctx


def pack(runs, where, csv_of, ctx):
    """{'<run-id>/NAME.json.gz': bytes, ..., CONTEXT: bytes} of the runs
    on the page and its context (publish.context()).
    runs: {run id: [experiments]} (publish.run_ids()); where: {experiment:
    its results directory}; csv_of(name): the CSV's text written from the
    JSON, for a run that has no NAME.csv.  Raises DataError when the data
    would exceed LIMIT, or a run id cannot name a directory."""
    out = {}
    for rid, names in runs.items():
        if run_id_error(rid):
            raise DataError(run_id_error(rid))
        for n in names:
            base = os.path.join(where[n], n)
            with open(base + '.json', 'rb') as fh:
                out['%s/%s.json.gz' % (rid, n)] = gz(fh.read())
            if os.path.isfile(base + '.csv'):
                with open(base + '.csv', 'rb') as fh:
                    csv = fh.read()
            else:
                csv = csv_of(n).encode()
            out['%s/%s.csv.gz' % (rid, n)] = gz(csv)
            for f in kept(where[n], n):
                out['%s/%s' % (rid, os.path.basename(f))] = read(f)
    out[CONTEXT] = context_bytes(ctx)
    total = sum(len(b) for b in out.values())
    if total > LIMIT:
        big = sorted(out, key=lambda k: -len(out[k]))[:3]
        raise DataError('the page\'s data would take %d bytes compressed, '
                        'more than the bound of %d (%d MiB); the largest: %s'
                        % (total, LIMIT, LIMIT >> 20, ', '.join(
                            '%s %d' % (k, len(out[k])) for k in big)))
    return out


def kept(rundir, name):
    """The raw files experiment name kept gzipped in its results
    directory rundir (bench_keep: NAME-*.txt.gz, in the guest's directory
    where the run keeps them), in order."""
    out = []
    for d in sorted([rundir] + [os.path.join(rundir, g) for g in
                                os.listdir(rundir) if g.startswith('guest-')]):
        if os.path.isdir(d):
            out += sorted(os.path.join(d, f) for f in os.listdir(d)
                          if f.startswith(name + '-') and
                          f.endswith('.txt.gz'))
    return out


def read(path):
    with open(path, 'rb') as fh:
        return fh.read()


def managed(d):
    """Whether d is a run's directory that write() may prune: its name a
    run id and nothing in it but files of KINDS, compressed."""
    return not run_id_error(os.path.basename(d)) and all(
        f.endswith(tuple(k + '.gz' for k in KINDS)) and
        os.path.isfile(os.path.join(d, f)) and
        not os.path.islink(os.path.join(d, f)) for f in os.listdir(d))


def write(datadir, files):
    """Make datadir hold files ({relative path: bytes}, pack()): a file
    of the same bytes is left as it is.  Of what else is there, only
    what publish writes is removed: a managed() run directory's files
    (a run, or an experiment, no longer on the page).  Anything else (a
    README, a directory of another name or holding other files) is left
    alone."""
    for rel, data in files.items():
        p = os.path.join(datadir, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        try:
            same = read(p) == data
        except OSError:
            same = False
        if not same:
            with open(p, 'wb') as fh:
                fh.write(data)
    if not os.path.isdir(datadir):
        return
    for rid in sorted(os.listdir(datadir)):
        d = os.path.join(datadir, rid)
        if os.path.islink(d) or not os.path.isdir(d) or not managed(d):
            continue
        for f in os.listdir(d):
            if '%s/%s' % (rid, f) not in files:
                os.unlink(os.path.join(d, f))
        if not os.listdir(d):
            os.rmdir(d)


def differences(datadir, files):
    """How datadir differs from files (pack()), as write() would make it:
    [problem]; [] when it holds the same bytes."""
    out = []
    for rel, data in sorted(files.items()):
        p = os.path.join(datadir, rel)
        if not os.path.isfile(p):
            out.append('%s: not committed' % rel)
        elif read(p) != data:
            out.append('%s: not the bytes publish writes' % rel)
    if os.path.isdir(datadir):
        for rid in sorted(os.listdir(datadir)):
            d = os.path.join(datadir, rid)
            if os.path.isdir(d) and not os.path.islink(d) and managed(d):
                out += ['%s/%s: no run or experiment of the page' % (rid, f)
                        for f in sorted(os.listdir(d))
                        if '%s/%s' % (rid, f) not in files]
    return out


def unpack(datadir, dest):
    """Write the data of datadir as results directories under dest
    (dest/<run-id>/NAME.json and NAME.csv); returns their paths, in
    order.  Raises DataError when datadir holds no run."""
    dirs = []
    if os.path.isdir(datadir):
        for rid in sorted(os.listdir(datadir)):
            src = os.path.join(datadir, rid)
            names = sorted(f for f in os.listdir(src)
                           if f.endswith('.gz')) if os.path.isdir(src) else []
            if not names:
                continue
            if run_id_error(rid):
                raise DataError(run_id_error(rid))
            os.makedirs(os.path.join(dest, rid))
            for f in names:
                try:
                    with gzip.open(os.path.join(src, f), 'rb') as fh:
                        data = fh.read()
                except (OSError, EOFError, zlib.error) as ex:
                    raise DataError('%s/%s: not gzip data (%s)' % (rid, f,
                                                                    ex))
                with open(os.path.join(dest, rid, f[:-3]), 'wb') as fh:
                    fh.write(data)
            dirs.append(os.path.join(dest, rid))
    if not dirs:
        raise DataError('%s: no run\'s data in it (make publish writes '
                        'data/<run-id>/NAME.json.gz)' % datadir)
    return dirs


# ancillary chunks that may hold a time, a program or a comment
VOLATILE = (b'tIME', b'tEXt', b'zTXt', b'iTXt')


def png_clean(data):
    """The PNG without its VOLATILE chunks; data as it is when it is no
    PNG."""
    if not data.startswith(b'\x89PNG\r\n\x1a\n'):
        return data
    out, pos = [data[:8]], 8
    while pos + 12 <= len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        if kind not in VOLATILE:
            out.append(data[pos:pos + 12 + n])
        pos += 12 + n
    return b''.join(out)
