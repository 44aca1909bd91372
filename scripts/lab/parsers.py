#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The lab's text parsers: what the guest's tools print -> numbers.

  parsers.py KIND [ARG...] FILE...   JSON of the files' text, one after
                                     another (KIND and its ARGs: see
                                     PARSERS); bench.py --parse is the same

The guest's scripts call them through bench_parse (experiments/lib.sh);
the host uses parse_rows() on the rows the guest wrote.
"""

import json
import os
import re
import statistics
import struct
import sys


VMSTAT_KEYS = ('r', 'b', 'swpd', 'free', 'buff', 'cache', 'si', 'so', 'bi',
               'bo', 'in', 'cs', 'us', 'sy', 'id', 'wa', 'st', 'gu')


def parse_vmstat(text, skip_first=True):
    """vmstat N output -> list of samples {column: int}.

    The header line names the columns (procps prints 'r b swpd ...'); the
    first sample is the average since boot and is dropped unless
    skip_first is False.  Repeated headers are skipped.
    """
    cols, samples = None, []
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == 'r' and 'cs' in f:
            cols = f
            continue
        if cols is None or not all(re.match(r'^-?\d+$', x) for x in f):
            continue
        if len(f) != len(cols):
            continue
        samples.append({c: int(v) for c, v in zip(cols, f)})
    return samples[1:] if skip_first else samples


def vmstat_means(samples, keys=('bi', 'in', 'cs', 'us', 'sy', 'id')):
    if not samples:
        return {}
    return {k: statistics.mean(s[k] for s in samples)
            for k in keys if all(k in s for s in samples)}


def parse_readprofile(text, top=10):
    """readprofile output ('ticks function load') -> the top functions.

    Returns [(function, ticks)] sorted by ticks, without the 'total' line
    and without the idle loop's own line kept out (the seed keeps
    default_idle: so do we).
    """
    out = []
    for line in text.splitlines():
        f = line.split()
        if len(f) < 2 or not re.match(r'^\d+$', f[0]):
            continue
        if f[1] == 'total':
            continue
        out.append((f[1], int(f[0])))
    out.sort(key=lambda x: (-x[1], x[0]))
    return out[:top]


def parse_time(text):
    """'1m45.300s', '0m0.830s', '12.5' (seconds) -> seconds (float)."""
    text = text.strip()
    m = re.match(r'^(?:(\d+)h)?(?:(\d+)m)?([\d.]+)s?$', text)
    if not m:
        raise ValueError('not a time: %r' % text)
    h, mi, s = m.groups()
    return int(h or 0) * 3600 + int(mi or 0) * 60 + float(s)


def fmt_time(sec):
    """seconds -> '1m45.300s', as bash's time prints it."""
    m = int(sec // 60)
    return '%dm%.3fs' % (m, sec - 60 * m)


def parse_pgbench(text):
    """pgbench's report -> {'tps': x, 'scripts': {name: transactions},
    'script_tps': {name: transactions per second}}.

    A script's tps is pgbench's own: its transactions divided by the
    duration pgbench measured, not the duration it was asked for."""
    out = {'scripts': {}, 'script_tps': {}}
    m = re.search(r'^tps = ([\d.]+)', text, re.M)
    if m:
        out['tps'] = float(m.group(1))
    for m in re.finditer(r'^SQL script \d+: (\S+)\n(?:.*\n)*?'
                         r' - (\d+) transactions \(.*tps = ([\d.]+)\)',
                         text, re.M):
        name = os.path.basename(m.group(1))
        out['scripts'][name] = int(m.group(2))
        out['script_tps'][name] = float(m.group(3))
    return out


# The sg-segments sampler (experiments/sg-segments.sh sg_snap): blocks of
#   snap UPTIME
#   disk NAME <the 11+ fields of /sys/block/NAME/stat>
#   lun NAME READS READ_BYTES              (simhba_stats; "-": unreadable)
#   link HOST DIRECTION mbps N busy_ns N bytes N
#   proc PID STATE POS VOLUNTARY NONVOLUNTARY DISK ("-": unreadable)
#   cpu <the jiffies of /proc/stat's cpu line>
#   ctxt N / intr N
#   end UPTIME
# POS is the reader's offset in its input (bytes); before the first block
# "bs N" (the bytes of one read() call), after the last "max_segs HOST N".

def _int_or_none(x):
    return int(x) if re.match(r'^\d+$', x) else None


def parse_sg_snaps(text):
    """The sampler's output -> (snapshots, {'bs': bytes per call,
    'max_segs': {host: most segments in one command}}).

    A snapshot is {'t': mid-point of its two uptime readings, 'disk':
    {name: [stat fields]}, 'lun': {name: (reads, bytes)}, 'link':
    {(host, direction): {key: value}}, 'proc': {pid: {'state', 'pos',
    'vcs', 'nvcs', 'disk'}}, 'cpu': [jiffies], 'ctxt', 'intr'}; a block without
    its end line is dropped.  Unreadable values are None.
    """
    snaps, cur, extra = [], None, {'bs': None, 'max_segs': {}}
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        k = f[0]
        if k == 'snap' and len(f) > 1:
            cur = {'t0': float(f[1]), 'disk': {}, 'lun': {}, 'link': {},
                   'proc': {}, 'cpu': None, 'ctxt': None, 'intr': None}
        elif k == 'max_segs' and len(f) == 3:
            extra['max_segs'][f[1]] = _int_or_none(f[2])
        elif k == 'bs' and len(f) == 2:
            extra['bs'] = _int_or_none(f[1])
        elif cur is None:
            continue
        elif k == 'end' and len(f) > 1:
            cur['t'] = (cur.pop('t0') + float(f[1])) / 2
            snaps.append(cur)
            cur = None
        elif k == 'disk' and len(f) >= 13:
            cur['disk'][f[1]] = [int(x) for x in f[2:]]
        elif k == 'lun' and len(f) == 4:
            cur['lun'][f[1]] = (_int_or_none(f[2]), _int_or_none(f[3]))
        elif k == 'link' and len(f) >= 4:
            cur['link'][(f[1], f[2])] = {a: int(b) for a, b in
                                         zip(f[3::2], f[4::2])
                                         if re.match(r'^\d+$', b)}
        elif k == 'proc' and len(f) == 7:
            cur['proc'][f[1]] = {'state': f[2], 'pos': _int_or_none(f[3]),
                                 'vcs': _int_or_none(f[4]),
                                 'nvcs': _int_or_none(f[5]), 'disk': f[6]}
        elif k == 'cpu':
            cur['cpu'] = [int(x) for x in f[1:]]
        elif k in ('ctxt', 'intr') and len(f) == 2:
            cur[k] = _int_or_none(f[1])
    return snaps, extra


SG_RUNNING = ('R', 'S', 'D')


SG_METRICS = ('window_s', 'MBps', 'calls_per_s', 'cmds_per_call',
              'cmds_per_call_min', 'cmds_per_call_max',
              'simhba_cmds_per_call', 'kib_per_cmd', 'dd_cs_per_call',
              'dd_vcs_per_call', 'dd_nvcs_per_call', 'cs_per_s',
              'sys_cs_per_call', 'in_per_s', 'in_per_call', 'us_pct',
              'sy_pct', 'id_pct', 'link_MBps', 'link_busy_pct',
              'link_cap_MBps', 'max_segs_seen')


def sg_running(snap):
    """Every reader of the snapshot still runs (none ended or a zombie)."""
    return bool(snap['proc']) and all(p['state'] in SG_RUNNING
                                      for p in snap['proc'].values())


def _delta(a, b, get):
    """Sum over the keys of a of get(b[k]) - get(a[k]); None when a value
    is missing in either, or a key of a is not in b."""
    tot = 0
    if not a:
        return None
    for k, va in a.items():
        if k not in b:
            return None
        x, y = get(va), get(b[k])
        if x is None or y is None:
            return None
        tot += y - x
    return tot


def _div(a, b):
    return a / b if a is not None and b else None


def sg_window(snaps, extra=None):
    """The sg-segments metrics over the window from the first snapshot to
    the last one at which every reader still runs: {metric: value or None}.
    A reader's calls are the bytes it read over the bytes of one call
    (extra['bs']).
    """
    out = {m: None for m in SG_METRICS}
    extra = extra or {}
    v = list((extra.get('max_segs') or {}).values())
    if v:
        out['max_segs_seen'] = None if None in v else max(v)
    ok = [s for s in snaps if sg_running(s)]
    if len(ok) < 2 or set(ok[0]['proc']) != set(ok[-1]['proc']):
        return out
    a, b = ok[0], ok[-1]
    t = b['t'] - a['t']
    if t <= 0:
        return out
    out['window_s'] = round(t, 3)
    sectors = _delta(a['disk'], b['disk'], lambda f: f[2])
    cmds = _delta(a['disk'], b['disk'], lambda f: f[0])
    lun = _delta(a['lun'], b['lun'], lambda x: x[0])
    nbytes = _delta(a['proc'], b['proc'], lambda p: p['pos'])
    calls = _div(nbytes, extra.get('bs'))
    vcs = _delta(a['proc'], b['proc'], lambda p: p['vcs'])
    nvcs = _delta(a['proc'], b['proc'], lambda p: p['nvcs'])
    ctxt = (b['ctxt'] - a['ctxt'] if None not in (a['ctxt'], b['ctxt'])
            else None)
    intr = (b['intr'] - a['intr'] if None not in (a['intr'], b['intr'])
            else None)
    out['MBps'] = _div(sectors * 512 / 1e6 if sectors is not None else None,
                       t)
    out['calls_per_s'] = _div(calls, t)
    out['cmds_per_call'] = _div(cmds, calls)
    # each reader's own: its disk's commands over its calls
    own = []
    for pid, p in a['proc'].items():
        d = p['disk']
        n = _delta({pid: p}, b['proc'], lambda x: x['pos'])
        c = _delta({d: a['disk'].get(d)}, b['disk'],
                   lambda x: x[0] if x else None)
        own.append(_div(c, _div(n, extra.get('bs'))))
    if own and None not in own:
        out['cmds_per_call_min'] = min(own)
        out['cmds_per_call_max'] = max(own)
    out['simhba_cmds_per_call'] = _div(lun, calls)
    out['kib_per_cmd'] = _div(sectors / 2 if sectors is not None else None,
                              cmds)
    out['dd_vcs_per_call'] = _div(vcs, calls)
    out['dd_nvcs_per_call'] = _div(nvcs, calls)
    out['dd_cs_per_call'] = _div(vcs + nvcs if None not in (vcs, nvcs)
                                 else None, calls)
    out['cs_per_s'] = _div(ctxt, t)
    out['sys_cs_per_call'] = _div(ctxt, calls)
    out['in_per_s'] = _div(intr, t)
    out['in_per_call'] = _div(intr, calls)
    if a['cpu'] and b['cpu'] and len(a['cpu']) >= 8 and \
            len(a['cpu']) == len(b['cpu']):
        d = [y - x for x, y in zip(a['cpu'], b['cpu'])]
        # user nice system idle iowait irq softirq steal [guest...]
        tot = sum(d[:8])
        if tot > 0:
            out['us_pct'] = 100 * (d[0] + d[1]) / tot
            out['sy_pct'] = 100 * (d[2] + d[5] + d[6]) / tot
            out['id_pct'] = 100 * (d[3] + d[4]) / tot
    up = {k: v for k, v in a['link'].items() if k[1] in ('to_host', 'both')}
    if up:
        out['link_cap_MBps'] = sum(v.get('mbps', 0) for v in up.values())
        by = _delta(up, b['link'], lambda v: v.get('bytes'))
        busy = _delta(up, b['link'], lambda v: v.get('busy_ns'))
        out['link_MBps'] = _div(by / 1e6 if by is not None else None, t)
        out['link_busy_pct'] = _div(100 * busy / 1e9 if busy is not None
                                    else None, t * len(up))
    for k, v in out.items():
        if isinstance(v, float):
            out[k] = round(v, 4)
    return out


def blk_events(text, actions):
    """blkparse's lines "SECONDS ACTION PID SECTOR" of the given actions ->
    [(seconds, line order, action, pid, sector)] in time order (events of
    one moment in the order of the file); any other line is skipped."""
    events = []
    for line in text.splitlines():
        f = line.split()
        if len(f) < 4 or f[1] not in actions:
            continue
        try:
            t = float(f[0])
        except ValueError:
            continue
        events.append((t, len(events), f[1], f[2], f[3]))
    events.sort()
    return events


# cfq's blktrace messages (block/cfq-iosched.c): the workload a queue is
# served in, its slice, and blkparse's line for a message, whatever -f says:
# "MAJ,MIN CPU 0 SECONDS.NANOS PID [CGROUP] m N TEXT"
CFQ_WL_CLASSES = ('rt', 'be', 'idle')
CFQ_WL_TYPES = ('async', 'sync-noidle', 'sync')
BLK_MESSAGE = re.compile(r'^\s*\d+,\d+\s+\d+\s+\d+\s+(\d+\.\d+)\s+\d+\s+'
                         r'(?:\S+\s+)?m\s+N\s+(.*)$')
CFQ_SET_ACTIVE = re.compile(r'^cfq(\d+)\S*\s+set_active\s+wl_class:(\d+)\s+'
                            r'wl_type:(\d+)')
CFQ_SET_SLICE = re.compile(r'^cfq(\d+)\S*\s+set_slice=(\d+) us')
CFQ_EXPIRED = re.compile(r'^cfq(\d+)\S*\s+expired\b')


# struct blk_io_trace (include/uapi/linux/blktrace_api.h), host order
BLK_IO_TRACE = struct.Struct('=IIQQIIIIIHH')
BLK_IO_TRACE_MAGIC = 0x65617400
BLK_TN_NOTIFY = 0x4000000      # BLK_TC_ACT(BLK_TC_NOTIFY)
BLK_TN_MESSAGE = 0x4000002     # __BLK_TN_MESSAGE | BLK_TC_ACT(BLK_TC_NOTIFY)
BLK_TN_CGROUP = 0x100          # __BLK_TN_CGROUP: a cgroup id leads the text


def blktrace_messages(files):
    """The messages (blk_add_trace_msg()) in blktrace's binary per-CPU
    files, [bytes], as blkparse prints them: "MAJ,MIN CPU 0 SECONDS.NANOS
    PID m N TEXT", in time order, the time counted from the files' first
    event that is not a notification, as blkparse's -f lines are.  blkparse 1.2 prints no message that carries a
    cgroup id, which the kernel adds to each message of a queue in a
    cgroup (the root's too)."""
    events, first = [], None
    for data in files:
        i = 0
        while i + BLK_IO_TRACE.size <= len(data):
            (magic, _, t, _, _, act, pid, dev, cpu, _,
             pdu_len) = BLK_IO_TRACE.unpack_from(data, i)
            if magic & 0xffffff00 != BLK_IO_TRACE_MAGIC:
                break
            pdu = data[i + BLK_IO_TRACE.size:
                       i + BLK_IO_TRACE.size + pdu_len]
            if len(pdu) < pdu_len:
                break       # a record cut short: the file ends there
            i += BLK_IO_TRACE.size + pdu_len
            if not act & BLK_TN_NOTIFY:
                first = t if first is None else min(first, t)
            if act & ~BLK_TN_CGROUP != BLK_TN_MESSAGE:
                continue
            if act & BLK_TN_CGROUP:
                pdu = pdu[8:]
            text = pdu.split(b'\0')[0].decode('utf-8', 'replace')
            events.append((t, len(events), dev, cpu, pid, text))
    out = []
    for t, _, dev, cpu, pid, text in sorted(events):
        t = max(t - (first or 0), 0)
        out.append('%3d,%-3d %2d %8s %5d.%09d %5u %2s %3s %s' % (
            dev >> 20, dev & 0xfffff, cpu, '0', t // 10**9, t % 10**9, pid,
            'm', 'N', text))
    return out


def cfq_workload_key(name):
    """The metric name of the fraction of a process's slices served in
    workload NAME: 'in_sync_noidle', 'in_rt_sync', ..."""
    return 'in_' + name.replace('-', '_').replace(' ', '_')


def cfq_workload_names():
    """Every workload name cfq_workload_name() gives, in its order."""
    out = []
    for c in range(len(CFQ_WL_CLASSES)):
        for t in range(len(CFQ_WL_TYPES)):
            n = cfq_workload_name(c, t)
            if n not in out:
                out.append(n)
    return out


def cfq_workload_name(wl_class, wl_type):
    """cfq's (class, workload type) numbers -> a name: 'sync',
    'sync-noidle' or 'async' for the best-effort class, 'rt ' before them
    for the realtime one, 'idle' for the idle class (one tree)."""
    c = (CFQ_WL_CLASSES[wl_class] if wl_class < len(CFQ_WL_CLASSES)
         else str(wl_class))
    t = (CFQ_WL_TYPES[wl_type] if wl_type < len(CFQ_WL_TYPES)
         else str(wl_type))
    if c == 'idle':
        return c
    return t if c == 'be' else '%s %s' % (c, t)


def cfq_served(text):
    """cfq's messages in a blkparse output -> {PID: {'workloads':
    {workload name: the slices it was given in that workload (set_active
    messages)}, 'slices_us': [the slice lengths it was given (set_slice
    messages)], 'held_s': the time it held the disk: from each set_active
    to its expiry (or to the next set_active; a turn the trace ends in is
    not counted)}}."""
    out = {}
    turn = None

    def entry(pid):
        return out.setdefault(pid, {'workloads': {}, 'slices_us': [],
                                    'held_s': 0.0})

    def end(t):
        if turn:
            entry(turn[0])['held_s'] += max(t - turn[1], 0.0)
        return None

    for line in text.splitlines():
        m = BLK_MESSAGE.match(line)
        if not m:
            continue
        t, msg = float(m.group(1)), m.group(2)
        a = CFQ_SET_ACTIVE.match(msg)
        if a:
            turn = end(t)
            wl = entry(a.group(1))['workloads']
            name = cfq_workload_name(int(a.group(2)), int(a.group(3)))
            wl[name] = wl.get(name, 0) + 1
            turn = (a.group(1), t)
            continue
        a = CFQ_SET_SLICE.match(msg)
        if a:
            entry(a.group(1))['slices_us'].append(int(a.group(2)))
            continue
        a = CFQ_EXPIRED.match(msg)
        if a and turn and turn[0] == a.group(1):
            turn = end(t)
    for v in out.values():
        v['held_s'] = round(v['held_s'], 9)
    return out


def cfq_slice_note(name, served):
    """The fair-time note on a process (served: its entry of cfq_served())
    that cfq gave slices (set_active, the table's slices) but set the
    length of none (set_slice), or None.  cfq sets a slice's length at its
    first completion, unless the queue is then empty and does not idle
    (block/cfq-iosched.c): a process whose every slice ended so has
    slices but no slice length."""
    if not sum((served.get('workloads') or {}).values()) or \
            served.get('slices_us'):
        return None
    return ('fair time: cfq set the length of none of the slices of %s (no '
            'set_slice message: cfq sets it at a slice\'s first completion, '
            'unless the queue is then empty and does not idle): its slice '
            'length is missing' % name)


def parse_blk_time(text):
    """Who used the disk's time: blkparse's lines "SECONDS ACTION PID
    SECTOR" (its -f '%T.%9t %a %p %S\\n', actions Q, D and C), its lines of
    cfq's messages, lines "map PID NAME" naming the processes and lines
    "dropped N" (the events blktrace reported it dropped; "dropped ?" when
    it did not say) -> {'busy_s': the time at least one request was at the
    device, 'kinds': {NAME: seconds}, 'pids': {PID: seconds} for the
    processes no map line names, 'unmatched': the completions with no
    dispatch before them and the dispatches with no completion after them,
    'dropped': the events blktrace dropped (None when it did not say),
    'served': {NAME or PID: cfq_served()'s entry}}.  A disk serves one
    request at a time, in the order it chooses (NCQ), so the time from the
    moment it was last free (its previous completion, or the start of a
    busy period) to a completion was spent on the request that completed:
    a request that waits in the disk's own queue while others are served
    is not charged for their time.  The request's time goes to the process
    that queued it (the Q of its sector), else to the one that issued
    it.  A trace that lost events (dropped, or unmatched) has no shares:
    busy_s is None, kinds and pids are empty, and 'note' says why."""
    names = {f[1]: ' '.join(f[2:]) for f in map(str.split, text.splitlines())
             if len(f) >= 3 and f[0] == 'map'}
    dropped = 0
    for f in map(str.split, text.splitlines()):
        if len(f) == 2 and f[0] == 'dropped':
            dropped = (dropped + int(f[1])
                       if f[1].isdigit() and dropped is not None else None)
    events = blk_events(text, ('Q', 'D', 'C'))
    queued, at_disk, used = {}, {}, {}
    busy, free_since, unmatched = 0.0, None, 0
    for t, _, act, pid, sector in events:
        if act == 'Q':
            queued[sector] = pid
        elif act == 'D':
            if not at_disk:
                free_since = t
            at_disk[sector] = queued.get(sector, pid)
        elif sector in at_disk:
            p = at_disk.pop(sector)
            dt = max(t - free_since, 0.0)
            busy += dt
            used[p] = used.get(p, 0.0) + dt
            free_since = t
        else:
            unmatched += 1
    unmatched += len(at_disk)
    served = {}
    for p, v in cfq_served(text).items():
        s = served.setdefault(names.get(p, p), {'workloads': {},
                                                'slices_us': [],
                                                'held_s': 0.0})
        for w, n in v['workloads'].items():
            s['workloads'][w] = s['workloads'].get(w, 0) + n
        s['slices_us'] += v['slices_us']
        s['held_s'] = round(s['held_s'] + v['held_s'], 9)
    out = {'busy_s': round(busy, 9), 'kinds': {}, 'pids': {},
           'unmatched': unmatched, 'dropped': dropped, 'served': served}
    if unmatched or dropped:
        out['busy_s'] = None
        out['note'] = ('the trace lost events (%d unmatched, %s dropped by '
                       'blktrace): no time shares'
                       % (unmatched, 'an unknown number' if dropped is None
                          else dropped or 'none'))
        return out
    for p, v in used.items():
        if p in names:
            k = names[p]
            out['kinds'][k] = round(out['kinds'].get(k, 0.0) + v, 9)
        else:
            out['pids'][p] = round(v, 9)
    return out


def fio_reports(text):
    """The JSON documents of fio reports, one after another in text; what
    is not JSON (fio's own messages, which it can write into its output
    file before the report) is skipped."""
    dec, docs, i = json.JSONDecoder(), [], text.find('{')
    while i >= 0:
        try:
            doc, end = dec.raw_decode(text, i)
        except ValueError:
            i = text.find('{', i + 1)
            continue
        if isinstance(doc, dict):
            docs.append(doc)
        i = text.find('{', end)
    return docs


def percentile(bins, pct):
    """fio's percentile of a latency histogram {value: count}: the first
    value (in order) at which pct % of the count is reached; None when
    the histogram is empty."""
    total = sum(bins.values())
    if not total:
        return None
    seen = 0
    for v in sorted(bins):
        seen += bins[v]
        if seen >= pct / 100.0 * total:
            return v
    return None


def fio_clat_bins(text, ddir='read'):
    """fio reports (--output-format=json+, as many as there are, one after
    another) -> {job name: {clat ns: I/Os}}, the completion latency
    buckets of direction ddir (read or write) of every job of that name in
    every report added up."""
    bins = {}
    for doc in fio_reports(text):
        for job in doc.get('jobs', []):
            b = bins.setdefault(job.get('jobname'), {})
            clat = job.get(ddir, {}).get('clat_ns', {})
            for v, n in (clat.get('bins') or {}).items():
                b[int(v)] = b.get(int(v), 0) + n
    return bins


def fio_read_p99(text):
    """fio reports -> {job name: {'reads': N, 'p99_ns': the 99th
    percentile of the read completion latency}} (fio_clat_bins()).  A job
    name none of whose jobs read has p99_ns None."""
    return {name: {'reads': sum(b.values()), 'p99_ns': percentile(b, 99)}
            for name, b in fio_clat_bins(text).items()}


def fio_jobs(text):
    """Every job of the fio reports (--output-format=json or json+) in
    text, report after report."""
    return [job for doc in fio_reports(text) for job in doc.get('jobs', [])]


def fio_iops(text):
    """The read and write IOPS of every job of the reports, summed, to
    0.1; ValueError when there is no job."""
    jobs = fio_jobs(text)
    if not jobs:
        raise ValueError('no fio job in the report')
    return round(sum(j['read']['iops'] + j['write']['iops'] for j in jobs), 1)


def fio_mbps(text, job, ddir):
    """The bandwidth of the jobs named job in direction ddir (read or
    write), summed over every report, in MB/s to 0.01; ValueError when
    there is no such job."""
    bw = [j[ddir]['bw_bytes'] for j in fio_jobs(text)
          if j.get('jobname') == job]
    if not bw:
        raise ValueError('no fio job %s in the report' % job)
    return round(sum(bw) / 1e6, 2)


def fio_job_p99(text, job, unit):
    """fio_read_p99()'s percentile of the jobs named job in ms or us, to
    6 significant digits (fio_job_lat()); None when they read nothing."""
    return fio_job_lat(text, job, 'read', unit, 'r')[lat_key('r', 99, unit)]


# The points of a latency distribution the experiments record, as
# percentiles (100: the longest): p50, p90, p99, p99.9 and the maximum a
# reader asks for first, and enough points between them to draw its CDF.
LAT_PCTS = (1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100)


def lat_key(prefix, pct, unit, tag=''):
    """The metric name of a latency percentile: reader_p99_ms,
    reader_p999_ms (99.9), reader_max_ms (100); with a tag, which names a
    variant of a workload, before the unit (reader_p99_4w_ms)."""
    p = 'max' if pct == 100 else 'p' + ('%g' % pct).replace('.', '')
    return '_'.join([prefix, p] + ([tag] if tag else []) + [unit])


def fio_job_lat(text, job, ddir, unit, prefix):
    """The completion latency distribution of the jobs named job in
    direction ddir (fio_clat_bins()): {lat_key(prefix, p, unit): value}
    for each p of LAT_PCTS, in ms or us to 6 significant digits, by fio's
    rule (percentile()), the maximum (100) fio's own longest; every value
    None when they did no such I/O."""
    bins = fio_clat_bins(text, ddir).get(job, {})
    div = {'ms': 1e6, 'us': 1e3}[unit]
    # the longest is fio's own, exact; a bucket's value is approximate
    top = [j[ddir]['clat_ns']['max'] for j in fio_jobs(text)
           if j.get('jobname') == job and
           j.get(ddir, {}).get('clat_ns', {}).get('max')]
    out = {}
    for p in LAT_PCTS:
        v = max(top) if p == 100 and top and bins else percentile(bins, p)
        out[lat_key(prefix, p, unit)] = (None if v is None else
                                         float('%.6g' % (v / div)))
    return out


# A trace's summary draws at most this many dispatches: a bounded figure
# and a bounded JSON (a longer trace is thinned evenly).
TRACE_MAX_POINTS = 4000
# The latency points a trace's summary gives per direction and stage.
TRACE_PCTS = (50, 90, 99, 100)
TRACE_LINE = re.compile(r'^(\d+\.\d+)\s+([A-Z])\s+(\d+)\s+(\S+)\s+(\d+)\s+'
                        r'(\d+)\s+(\S+)\s*$')
# the schedulers' messages (block/anticipatory-iosched.c,
# block/cfq-iosched.c) -> the decision they record
MESSAGE_KINDS = [
    (re.compile(r'^as antic start\b'), 'anticipation started'),
    (re.compile(r'^as antic stop (\w+)'), 'anticipation ended: %s'),
    (re.compile(r'^as antic declined (\w+)'), 'anticipation declined: %s'),
    (re.compile(r'^as antic wait_next\b'), 'anticipation waits for the '
     'next request'),
    (re.compile(r'^as batch (\w+)'), 'batch switched to %s'),
    (re.compile(r'^as write_batch\b'), 'write batch size retuned'),
    (re.compile(r'^as deep_queue\b'), 'deep queue seen'),
    (re.compile(r'^cfq\d+\S*\s+expired (\w+)'), 'slice expired: %s'),
    (re.compile(r'^cfq\d+\S*\s+idle (\w+)'), 'idle started: %s'),
    (re.compile(r'^cfq\d+\S*\s+set_slice='), 'slice started'),
    (re.compile(r'^cfq\d+\S*\s+set_active\b'), 'queue made active'),
    (re.compile(r'^cfq\d+\S*\s+wait_busy\b'), 'group kept busy '
     '(wait_busy)'),
    (re.compile(r'^cfq\d+\S*\s+cooperator\b'), 'cooperator served'),
    (re.compile(r'^cfq\d+\S*\s+merged into\b'), 'queues merged'),
    (re.compile(r'^cfq\d+\S*\s+split\b'), 'queue split'),
    (re.compile(r'^cfq\d+\S*\s+window=0\b'), 'idle window dropped '
     '(not deep)'),
    (re.compile(r'^cfq\d+\S*\s+(idle|group_window)=(\d)'), '%s=%s'),
]


def message_kind(text):
    """The decision an anticipatory or cfq blktrace message records ('slice
    expired: idle_timeout', 'anticipation ended: hit'); 'other messages'
    for any other (bfq's, mq-deadline's)."""
    for rx, kind in MESSAGE_KINDS:
        m = rx.match(text)
        if m:
            return kind % m.groups() if '%' in kind else kind
    return 'other messages'


def trace_summary(text):
    """A blktrace window (bench_trace_stop with the format "%a %p %C %S %n
    %d": "SECONDS ACTION PID COMMAND SECTOR SECTORS RWBS" lines, the
    schedulers' messages as blkparse prints them, "dropped N") -> {
    'metrics': the window's read and write MB/s (completions), its
    dispatches, seeks (dispatches that do not start where the previous one
    ended) and their distances in GiB (p50, p90, max), bio merges into
    queued requests (M and F) and per direction the queue-to-dispatch,
    dispatch-to-completion and queue-to-completion times in ms (p50, p90,
    p99, max; a request is known by its direction and first sector, and
    by the bio queued last there, or first for a front merge), the
    dispatches of requests queued before the window (early_read,
    early_write: their waits are not in Q2D or Q2C, which the window
    therefore cuts short where an elevator holds requests longest), and
    the events blktrace dropped;
    'detail': the dispatches (ms from the window's start, GiB, the index of
    the process that queued the request in 'procs', "COMMAND PID"; at most
    TRACE_MAX_POINTS, thinned evenly) and the messages counted by kind
    (message_kind())}.  ValueError when the window has no event."""
    ev, msgs, dropped = [], {}, None
    for line in text.splitlines():
        m = TRACE_LINE.match(line)
        if m:
            t, a, pid, comm, sec, n, rwbs = m.groups()
            d = 'W' if 'W' in rwbs else 'R' if 'R' in rwbs else None
            ev.append((float(t), len(ev), a, '%s %s' % (comm, pid),
                       int(sec), int(n), d))
            continue
        m = BLK_MESSAGE.match(line)
        if m:
            k = message_kind(m.group(2).strip())
            msgs[k] = msgs.get(k, 0) + 1
            continue
        if line.startswith('dropped '):
            v = line.split()[1]
            dropped = int(v) if v.isdigit() else None
    ev.sort()
    if not ev:
        raise ValueError('no block event in the trace')
    t0, span = ev[0][0], max(ev[-1][0] - ev[0][0], 1e-9)
    queued, issued = {}, {}
    lat = {(st, d): [] for st in ('q2d', 'd2c', 'q2c') for d in 'RW'}
    done = {'R': 0, 'W': 0}
    early = {'R': 0, 'W': 0}
    procs, disp, seeks, merges, prev_end = [], [], [], 0, None
    for t, _, a, proc, sec, n, d in ev:
        if d is None:
            continue
        if a == 'Q':
            queued[(d, sec)] = (t, proc)
        elif a == 'M':
            # a bio merged at a request's back: no request of its own
            merges += 1
            queued.pop((d, sec), None)
        elif a == 'F':
            # at its front: the request now starts at this bio, and was
            # queued when its old first bio was
            merges += 1
            q = queued.pop((d, sec + n), None)
            if q:
                queued[(d, sec)] = q
        elif a == 'D' and n:
            q = queued.pop((d, sec), None)
            issued[(d, sec)] = (t, q)
            if q:
                lat[('q2d', d)].append(t - q[0])
            else:
                early[d] += 1
            who = q[1] if q else '?'
            if who not in procs:
                procs.append(who)
            disp.append([round((t - t0) * 1e3, 3),
                         round(sec * 512 / 2**30, 6), procs.index(who)])
            if prev_end is not None and sec != prev_end:
                seeks.append(abs(sec - prev_end) * 512 / 2**30)
            prev_end = sec + n
        elif a == 'C' and n:
            i = issued.pop((d, sec), None)
            done[d] += n * 512
            if i:
                lat[('d2c', d)].append(t - i[0])
                if i[1]:
                    lat[('q2c', d)].append(t - i[1][0])
    met = {'trace_read_MBps': round(done['R'] / span / 1e6, 3),
           'trace_write_MBps': round(done['W'] / span / 1e6, 3),
           'dispatches': len(disp), 'seeks': len(seeks), 'merges': merges,
           'early_read': early['R'], 'early_write': early['W'],
           'trace_dropped': dropped}
    for pct in (50, 90, 100):
        v = percentile_of(seeks, pct)
        met[lat_key('seek', pct, 'GiB')] = None if v is None else round(v, 4)
    for (st, d), vals in sorted(lat.items()):
        for pct in TRACE_PCTS:
            v = percentile_of(vals, pct)
            met[lat_key('%s_%s' % (st, 'read' if d == 'R' else 'write'),
                        pct, 'ms')] = None if v is None else round(v * 1e3,
                                                                   4)
    if len(disp) > TRACE_MAX_POINTS:
        step = len(disp) / float(TRACE_MAX_POINTS)
        disp = [disp[int(i * step)] for i in range(TRACE_MAX_POINTS)]
    return {'metrics': met, 'detail': {'dispatch': disp, 'procs': procs,
                                       'messages': msgs,
                                       'span_s': round(span, 6)}}


def percentile_of(values, pct):
    """percentile() of a list of values (each counted once)."""
    bins = {}
    for v in values:
        bins[v] = bins.get(v, 0) + 1
    return percentile(bins, pct)


def startup_stats(text, cap, app):
    """The starts of the startup experiment (tests/common/startup's
    startup_run lines: "ok SECONDS SECTORS" or "over SECONDS SECTORS") ->
    its metrics.  A start over the cap is never a number it did not
    reach: start_mean_s and start_max_s are None when any start is over
    it, start_p90_s when the 90th percentile (nearest rank) is.
    app is what the application reads on the idle disk, in bytes, or '-'
    for the idle disk itself: then app_MB is the mean of what the disk
    moved per start (10^6 B) and there is no load.  With a load, bg_MBps
    is what the disk moved during the starts, each less app (never below
    0), over the starts' seconds together (a start over the cap read less than
    app: the load's figure is then low by at most app over the cap's
    seconds); None when
    a line has no SECTORS.  ValueError when there is no start or a line
    is malformed."""
    cap = float(cap)
    times, moved = [], []
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        if len(f) != 3 or f[0] not in ('ok', 'over'):
            raise ValueError('not a start: %r' % line)
        secs = float(f[1])
        times.append(secs if f[0] == 'ok' else None)
        moved.append(None if f[2] == '-' else (int(f[2]) * 512, secs))
    if not times:
        raise ValueError('no start')
    over = sum(1 for t in times if t is None)
    done = sorted(t for t in times if t is not None)
    # over the cap sorts last
    ranked = done + [None] * over
    p90 = ranked[max(1, -(-len(ranked) * 9 // 10)) - 1]
    known = None not in moved

    def r(v, n=4):
        return None if v is None else round(v, n)
    out = {'starts': len(times), 'over_cap': over, 'cap_s': cap,
           'start_mean_s': r(sum(done) / len(done)) if not over else None,
           'start_p90_s': r(p90),
           'start_max_s': r(done[-1]) if not over else None}
    if app == '-':
        out['app_MB'] = r(sum(b for b, _ in moved) / len(moved) / 1e6, 3) \
            if known else None
    else:
        secs = sum(t for _, t in moved) if known else 0
        out['bg_MBps'] = r(sum(b - min(b, int(app)) for b, _ in moved) /
                           secs / 1e6, 3) if secs > 0 else None
    return out


def fio_deadlines(text, ms, secs):
    """A periodic reader's deadlines, from fio's completion latency log
    (--write_lat_log with --log_avg_msec=0: "TIME_MS, CLAT_NS, DIR, BS,
    OFFSET" a read, TIME_MS its completion since the job started): one
    read every ms milliseconds for secs seconds, the k-th (from 0) due
    ms x (k + 1) after the start.  rt_deadlines: the reads due within
    secs; rt_misses: those of them that completed late or not at all (a
    reader that falls behind misses every read until it catches up, and
    every read it never makes); rt_reads: the reads made; rt_p99_ms: the
    99th percentile of their completion latency.  ValueError when the
    log holds no read."""
    period = float(ms)
    times, lats = [], []
    for line in text.splitlines():
        f = [x.strip() for x in line.split(',')]
        if len(f) < 3 or f[2] != '0':
            continue
        try:
            times.append(float(f[0]))
            lats.append(int(f[1]))
        except ValueError:
            continue
    if not times:
        raise ValueError('the log holds no read')
    times.sort()
    due = int(float(secs) * 1e3 / period + 1e-9)
    met = sum(1 for k, t in enumerate(times[:due]) if t <= period * (k + 1))
    return {'rt_reads': len(times), 'rt_deadlines': due,
            'rt_misses': due - met,
            'rt_p99_ms': float('%.6g' % (percentile_of(lats, 99) / 1e6))}


def pgbench_script_tps(text, script):
    """The tps pgbench measured for one of its scripts, or None."""
    return parse_pgbench(text)['script_tps'].get(script)


# KIND -> (the arguments it takes before the files, the parser of the
# files' text and those arguments)
def parse_blk_wait(text):
    """Where a request waited: blkparse's lines "SECONDS ACTION PID SECTOR"
    (its -f '%T.%9t %a %p %S\\n', actions I, D and C) -> {'requests': the
    requests seen from insertion to completion, 'unmatched': the events
    that fit no such request (a dispatch or a completion with nothing
    before it, an insertion or a dispatch with nothing after it),
    'max_sched_ms': the longest from insertion into the scheduler to
    dispatch to the driver (I to D: the wait the elevator decides),
    'max_disk_ms': the longest from dispatch to completion (D to C: the
    device's queue and service), 'max_total_ms': the longest from
    insertion to completion}.  Requests at one sector are matched first in,
    first out.  The maxima are None when no request was seen whole; a
    caller that needs every request must check requests and unmatched."""
    events = blk_events(text, ('I', 'D', 'C'))
    inserted, issued = {}, {}
    n, odd, sched, disk, total = 0, 0, None, None, None
    for t, _, act, _, sector in events:
        if act == 'I':
            inserted.setdefault(sector, []).append(t)
        elif act == 'D':
            if inserted.get(sector):
                issued.setdefault(sector, []).append(
                    (inserted[sector].pop(0), t))
            else:
                odd += 1
        elif issued.get(sector):
            ti, td = issued[sector].pop(0)
            n += 1
            sched = max(sched or 0.0, td - ti)
            disk = max(disk or 0.0, t - td)
            total = max(total or 0.0, t - ti)
        else:
            odd += 1
    odd += sum(len(v) for v in inserted.values())
    odd += sum(len(v) for v in issued.values())

    def ms(v):
        return round(v * 1e3, 3) if v is not None else None
    return {'requests': n, 'unmatched': odd, 'max_sched_ms': ms(sched),
            'max_disk_ms': ms(disk), 'max_total_ms': ms(total)}


PARSERS = {
    'vmstat': ((), parse_vmstat),
    'readprofile': ((), lambda t: parse_readprofile(t, 10)),
    'time': ((), parse_time),
    'pgbench': ((), parse_pgbench),
    'pgbench-script-tps': (('SCRIPT',), pgbench_script_tps),
    'sg-window': ((), lambda t: sg_window(*parse_sg_snaps(t))),
    'blk-time': ((), parse_blk_time),
    'blk-wait': ((), parse_blk_wait),
    'fio-read-p99': ((), fio_read_p99),
    'fio-job-p99': (('JOB', 'ms|us'), fio_job_p99),
    'fio-job-lat': (('JOB', 'read|write', 'ms|us', 'PREFIX'), fio_job_lat),
    'trace-summary': ((), trace_summary),
    'fio-iops': ((), fio_iops),
    'fio-mbps': (('JOB', 'read|write'), fio_mbps),
    'fio-deadlines': (('MS', 'SECONDS'), fio_deadlines),
    'startup': (('CAP', 'APP_BYTES|-'), startup_stats),
}


def parse_rows(text):
    """JSON lines -> rows; a line that is not JSON becomes a note."""
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            rows.append(json.loads(line))
        except ValueError:
            rows.append({'note': 'unparsable row from the guest: %s'
                         % line[:200]})
    return rows


def run_parse(argv, prog='bench.py --parse'):
    """KIND [ARG...] FILE...: the parser's JSON of the files' text, one
    after another; status 1 when the parser finds nothing it needs."""
    args = PARSERS[argv[0]][0] if argv and argv[0] in PARSERS else None
    if args is None or len(argv) < 2 + len(args):
        sys.stderr.write('usage: %s KIND [ARG...] FILE...\n' % prog)
        for k in sorted(PARSERS):
            sys.stderr.write('  %s\n' % ' '.join((k,) + PARSERS[k][0]))
        return 2
    text = ''
    for f in argv[1 + len(args):]:
        try:
            with open(f) as fh:
                text += fh.read()
        except OSError as ex:
            sys.stderr.write('%s %s: %s\n' % (prog, argv[0], ex))
            return 1
    try:
        out = PARSERS[argv[0]][1](text, *argv[1:1 + len(args)])
    except (KeyError, ValueError) as ex:
        sys.stderr.write('%s %s: %s\n' % (prog, argv[0], ex))
        return 1
    print(json.dumps(out))
    return 0


if __name__ == '__main__':
    sys.exit(run_parse(sys.argv[1:], 'parsers.py'))
