# SPDX-License-Identifier: GPL-2.0
"""The soak in the guest: the LUNs set up (device timeout 5 s, 8 on the
debug kernel, which also gets a quarter of the work), the kernel's log
and block_rq_error trace read, the io controller on for the cgroup
mover, soak-meta.json written to $LAB_OUT; then one phase per scheduler,
the minutes shared between them, each phase's rows appended to
$LAB_OUT/soak-rows.jsonl as it ends, with a progress line per row."""

import json
import os
import sys
import time

from .common import SIMHBA_PARAMS, progress, rd, wr
from .devices import schedulers, setup_devices
from .kernel import KernelLog, trace_setup
from .phase import run_phase


def guest_main(args):
    out = os.environ.get('LAB_OUT')
    if not out:
        sys.exit('soak-guest: no $LAB_OUT: run it through scripts/lab/soak.sh')
    start = time.monotonic()
    deadline = start + args.minutes * 60
    release = os.uname().release
    debug = os.environ.get('LAB_KERNEL') == 'debug' or \
        release.endswith('-debug')
    # the debug kernel is about 4x slower: less work in the same time
    scale = 0.25 if debug else 1.0
    tmo = 8 if debug else 5
    klog = KernelLog()
    klog.start()
    steps = {'booted': round(start, 1)}    # CLOCK_MONOTONIC: since boot
    devs = setup_devices()
    steps['simhba'] = round(time.monotonic() - start, 1)
    for d in devs:
        wr('/sys/block/%s/device/timeout' % d['disk'], tmo)
    scheds = schedulers(devs)
    have_trace = trace_setup()
    steps['trace'] = round(time.monotonic() - start, 1)
    if os.path.exists('/sys/fs/cgroup/cgroup.controllers') and \
            'io' in rd('/sys/fs/cgroup/cgroup.controllers').split():
        wr('/sys/fs/cgroup/cgroup.subtree_control', '+io')
    meta = dict(seed=args.seed, minutes=args.minutes, kernel=release,
                kernel_variant='debug' if debug else 'default',
                work_scale=scale, device_timeout_s=tmo,
                schedulers=scheds, devices=[d['label'] for d in devs],
                luns=devs, simhba_params=SIMHBA_PARAMS,
                trace=have_trace, selftest=args.selftest, setup_s=steps,
                cgroup_io='io' in rd('/sys/fs/cgroup/cgroup.subtree_control')
                if os.path.exists('/sys/fs/cgroup/cgroup.subtree_control')
                else False)
    with open(os.path.join(out, 'soak-meta.json'), 'w') as f:
        json.dump(meta, f, indent=1)
    progress('seed %d, %d min, kernel %s, schedulers %s, set up in %d s'
             % (args.seed, args.minutes, release, ' '.join(scheds),
                time.monotonic() - start))
    progress('LUNs: ' + ', '.join('%s %s (%s, ncq %d, dma_bits %d)'
                                  % (d['disk'], d['label'], d['profile'],
                                     d['ncq_depth'], d['dma_bits'])
                                  for d in devs))
    rows_path = os.path.join(out, 'soak-rows.jsonl')
    open(rows_path, 'w').close()
    # A phase is fio's runtime plus fio's start, the recovery of what the
    # last events left behind and the collection: an estimate at first,
    # then the most any phase took beyond its runtime.
    overhead = 6 + tmo
    for idx, sched in enumerate(scheds):
        t = time.monotonic()
        phase = (deadline - t) / (len(scheds) - idx)
        runtime = int(max(14 if scale >= 1 else 8, phase - overhead))
        progress('phase %d/%d: %s, fio for %d s (%d s into the soak)'
                 % (idx + 1, len(scheds), sched, runtime, t - start))
        rows = run_phase(idx, sched, devs, scheds, args.seed, runtime, scale,
                         tmo, klog, have_trace, args.selftest, out)
        overhead = max(overhead, time.monotonic() - t - runtime)
        with open(rows_path, 'a') as f:
            for r in rows:
                f.write(json.dumps(r) + '\n')
        for r in rows:
            progress('  %s %-14s ios %d, switches %d, faults %d, errors %d '
                     'at injected LBAs, %d elsewhere, verify %d outside, '
                     'max latency %.0f ms'
                     % (sched, r['device'], r['ios'], r['switches'],
                        r['faults'], r['errors_injected'],
                        r['errors_elsewhere'], r['verify_failures_outside'],
                        r['max_lat_ms']))
    progress('done in %d s' % (time.monotonic() - start))
    return 0
