# SPDX-License-Identifier: GPL-2.0
"""fio in the soak: one fio per LUN and phase, with small crc32c-verified
jobs in regions of their own and an unverified reader of all of them;
starting them, waiting for them (killing one that hangs), and reading
what they did from fio's JSON report and log."""

import json
import os
import random
import re
import subprocess
import time

from .common import MiB, REGION, rd


def fio_jobfile(dev, runtime, seed, depth, full):
    """Small jobs in regions of their own, verified with crc32c, and one
    reader of all of them (not verified: it races the writers); FULL=False
    (the debug kernel) keeps the first two, psync and libaio."""
    jobs = [
        '[global]', 'filename=/dev/%s' % dev, 'direct=1', 'time_based',
        'runtime=%d' % runtime, 'continue_on_error=all', 'randseed=%d' % seed,
        'verify_state_save=0',
        '[sync-rand]', 'ioengine=psync', 'rw=randrw', 'bs=4k',
        'offset=0', 'size=8m', 'verify=crc32c', 'verify_backlog=32',
        '[aio-rand]', 'ioengine=libaio', 'iodepth=%d' % depth, 'rw=randrw',
        'bsrange=4k-64k', 'offset=8m', 'size=8m', 'verify=crc32c',
        'verify_backlog=32',
        '[uring-seq]', 'ioengine=io_uring', 'iodepth=%d' % max(1, depth // 2),
        'rw=rw', 'bs=16k', 'offset=16m', 'size=8m', 'verify=crc32c',
        'verify_backlog=32',
        '[aio-read]', 'ioengine=libaio', 'iodepth=%d' % max(1, depth // 2),
        'rw=randread', 'bs=8k', 'offset=0', 'size=%dm' % (REGION // MiB)]
    if not full:
        jobs = jobs[:jobs.index('[uring-seq]')]
    return '\n'.join(jobs + [''])


def start_fios(devs, tag, out, seed, sched, runtime, depth, full):
    """One fio per LUN: its job file OUT/TAG-LABEL.fio, its JSON report
    (.json) and its output (.log) beside it; the processes."""
    fios = []
    for i, d in enumerate(devs):
        job = os.path.join(out, '%s-%s.fio' % (tag, d['label']))
        with open(job, 'w') as f:
            f.write(fio_jobfile(d['disk'], runtime,
                                random.Random('%d/%s/%d' % (seed, sched, i))
                                .randrange(1 << 31), depth, full))
        log = open(os.path.join(out, '%s-%s.log' % (tag, d['label'])), 'w')
        fios.append(subprocess.Popen(
            ['fio', '--eta=never', '--output-format=json',
             '--output=' + job[:-4] + '.json', job],
            stdout=log, stderr=subprocess.STDOUT))
        log.close()
    return fios


def wait_fios(fios, t0, limit):
    """Wait for each fio until LIMIT seconds after T0 (time.monotonic());
    one still running then is killed, with its jobs.  The indexes of
    those, and the seconds after T0 at which each of the others ended."""
    hung = []
    fio_s = []
    for i, p in enumerate(fios):
        try:
            p.wait(timeout=max(1, t0 + limit - time.monotonic()))
            fio_s.append(round(time.monotonic() - t0, 1))
        except subprocess.TimeoutExpired:
            hung.append(i)
            for pid in fio_children(p.pid) + [p.pid]:
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
    return hung, fio_s


def fio_children(pid):
    """The job processes fio forked."""
    kids = []
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            stat = rd('/proc/%s/stat' % p)
        except OSError:
            continue
        if int(stat.rsplit(')', 1)[1].split()[1]) == pid:
            kids.append(int(p))
    return sorted(kids)


def fio_results(path, log):
    """I/Os, reads, writes, the longest latency (ms) and fio's error count
    from the JSON report; the I/O errors and verify failures fio logged, as
    (offset, length) in bytes."""
    res = dict(ios=0, reads=0, writes=0, max_lat_ms=0.0, fio_errors=0,
               fio_ok=False)
    try:
        text = open(path).read()
        doc = json.loads(text[text.index('{'):])
        for job in doc['jobs']:
            for dd in ('read', 'write'):
                n = job[dd]['total_ios']
                res['ios'] += n
                res[dd + 's'] += n
                lat = job[dd].get('lat_ns', {}).get('max', 0) / 1e6
                res['max_lat_ms'] = max(res['max_lat_ms'], lat)
            res['fio_errors'] += job.get('total_err', 0)
        res['fio_ok'] = True
    except (OSError, ValueError, KeyError):
        pass
    res['max_lat_ms'] = round(res['max_lat_ms'], 1)
    try:
        text = open(log, errors='replace').read()
    except OSError:
        text = ''
    res['io_errors'] = [(int(m.group(1)), int(m.group(2))) for m in re.finditer(
        r'io_u error on file \S+: [^:]*: \w+ offset=(\d+), buflen=(\d+)', text)]
    res['verify'] = []
    for line in text.splitlines():
        if not re.search(r'verif.*(bad|fail|mismatch)', line):
            continue
        m = re.search(r' at file \S+ offset (\d+), length (\d+)', line)
        # a failure without an offset cannot be placed: count it outside
        res['verify'].append((int(m.group(1)), int(m.group(2))) if m
                             else (-1 << 40, 0))
    return res
