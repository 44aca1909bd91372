# SPDX-License-Identifier: GPL-2.0
"""The fair-time rows of cfq's experiment (fair.sh), as JSON lines on
stdout, notes among them:

  fair-rows.py DIR N NAME...

DIR holds fair.json (parsers.py blk-time of the trace) and f0.json ...
f<N-1>.json, the fio reports of the N processes, named NAME... in that
order."""

import json, os, sys
sys.path.insert(0, os.path.join(os.environ['LAB_TOP'], 'scripts', 'lab'))
from parsers import (cfq_slice_note, cfq_workload_key, cfq_workload_names,
                     fio_jobs)
d, n, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
try:
    t = json.load(open(d + '/fair.json'))
except (OSError, ValueError):
    t = {}
busy = t.get('busy_s') or 0
if t.get('note'):
    print(json.dumps({'note': 'fair time: ' + t['note']}))
elif not busy:
    print(json.dumps({'note': 'fair time: the trace saw no request at the '
                      'disk: no time shares'}))
if t.get('dropped', 0) is None:
    print(json.dumps({'note': 'fair time: blktrace did not say whether it '
                      'dropped events'}))
served = t.get('served') or {}
# the time cfq gave the disk to anyone (from set_active to expiry); none
# from a trace that lost events (its messages may be among them)
lossy = bool(t.get('note')) or t.get('dropped', 0) is None
held = 0 if lossy else sum(v.get('held_s') or 0 for v in served.values())
if not served:
    print(json.dumps({'note': 'fair time: the trace has no cfq messages: '
                      'no workload types'}))
for i, name in enumerate(names[:n]):
    lat, mb = {}, None
    try:
        j = fio_jobs(open('%s/f%d.json' % (d, i)).read())[0]['read']
        # fio's own percentiles of the read latency, and its longest
        for k, pct in (('p50_ms', '50.000000'), ('p90_ms', '90.000000'),
                       ('p99_ms', '99.000000'), ('p999_ms', '99.900000')):
            lat[k] = j['clat_ns']['percentile'][pct] / 1e6
        lat['max_ms'] = j['clat_ns']['max'] / 1e6
        mb = j['bw_bytes'] / 1e6
    except (OSError, ValueError, KeyError, IndexError):
        pass
    s = t.get('kinds', {}).get(name)
    share = s / busy if busy and s is not None else None
    if busy and s is None:
        # its requests were queued by a process the map did not name
        print(json.dumps({'note': 'fair time: no disk time attributed to '
                          '%s in the trace: its share is missing' % name}))
    # the workloads cfq served it in: the fraction of its slices in each
    sv = served.get(name) or {}
    wl = sv.get('workloads') or {}
    n_sl = sum(wl.values())
    if served and not n_sl:
        print(json.dumps({'note': 'fair time: cfq\'s messages name no slice '
                          'of %s: its workload type is missing' % name}))
    elif cfq_slice_note(name, sv):
        print(json.dumps({'note': cfq_slice_note(name, sv)}))
    m = {'time_share': share, 'read_MBps': mb,
         'held_share': (sv.get('held_s') or 0) / held if held else None,
         'slices': n_sl if served else None,
         'slice_ms': (sum(sv['slices_us']) / len(sv['slices_us']) / 1e3
                      if sv.get('slices_us') else None)}
    for k in ('p50_ms', 'p90_ms', 'p99_ms', 'p999_ms', 'max_ms'):
        m[k] = lat.get(k)
    # every type in every run (0 where it was not served), so that the
    # medians over the runs compare alike
    for w in (cfq_workload_names() if n_sl else []) + sorted(wl):
        m[cfq_workload_key(w)] = wl.get(w, 0) / n_sl
    print(json.dumps({'config': {'workload': 'fair time', 'process': name,
                                 'elevator': 'cfq'},
                      'metrics': m}))
