# SPDX-License-Identifier: GPL-2.0
"""The scale row of cfq's experiment (scale.sh) for one N, as a JSON line
on stdout, with a note before it when the trace cannot give the waits:

  scale-rows.py FIO_JSON N TARGET_LATENCY SLICE_IDLE TRACE TRACED

FIO_JSON is fio's report of the N readers; TARGET_LATENCY and SLICE_IDLE
cfq's tunables (ms); TRACE the blktrace text, read when TRACED is 1."""

import json, os, sys
sys.path.insert(0, os.path.join(os.environ['LAB_TOP'], 'scripts', 'lab'))
from parsers import cfq_workload_key, cfq_workload_names, fio_jobs, parse_blk_wait
n, tl, idle = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
m = dict.fromkeys(('served', 'max_lat_ms', 'min_ios', 'mean_ios', 'iops'))
w = parse_blk_wait(open(sys.argv[5]).read()) if sys.argv[6] == '1' else {}
m['traced'] = w.get('requests')
m['trace_unmatched'] = w.get('unmatched')
total = None
try:
    jobs = [j['read'] for j in fio_jobs(open(sys.argv[1]).read())]
    if len(jobs) == n:
        ios = [j['total_ios'] for j in jobs]
        total = sum(ios)
        m.update({'served': sum(1 for i in ios if i > 0),
                  'max_lat_ms': max(j['lat_ns']['max'] for j in jobs) / 1e6,
                  'min_ios': min(ios), 'mean_ios': sum(ios) / n,
                  'iops': sum(j['iops'] for j in jobs)})
except (OSError, ValueError, KeyError, TypeError):
    pass
# the waits count only when the trace saw every read fio made whole and
# nothing it could not match (a dropped event, a late start): else they
# are missing, never a maximum over part of the reads
if w and total and w['requests'] >= total and w['unmatched'] == 0:
    m['max_sched_ms'] = w['max_sched_ms']
    m['max_disk_ms'] = w['max_disk_ms']
else:
    m['max_sched_ms'] = m['max_disk_ms'] = None
    if w:
        print(json.dumps({'note': 'scale N=%d: the trace saw %d of %s reads '
                          'whole, %d events unmatched: no wait in cfq'
                          % (n, w['requests'], total, w['unmatched'])}))
# low_latency's round for n busy queues: target_latency, or n of the
# shortest slice it gives (2 x slice_idle) when those do not fit in it
m['bound_ms'] = max(tl, n * 2 * idle)
print(json.dumps({'config': {'workload': 'scale', 'N': n, 'elevator': 'cfq'},
                  'metrics': m}))
