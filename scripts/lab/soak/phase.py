# SPDX-License-Identifier: GPL-2.0
"""One phase of the soak: a scheduler on every LUN, fio on each, a thread
per LUN working through its plan of events and the cgroup mover, until
fio ends; then the faults are cleared and each LUN's row is made from
what fio, the kernel and simhba say (rows.py)."""

import random
import subprocess
import threading
import time

from .cgroups import cgroup_cycles
from .common import (STARTUP, block_ios, current_elevator, rd, simhba_stats,
                     splat_re, wr)
from .events import plan, windows
from .fiojobs import start_fios, wait_fios
from .kernel import trace_take
from .lun import Lun
from .rows import lun_row


def run_phase(idx, sched, devs, scheds, seed, runtime, scale, tmo, klog,
              have_trace, selftest, out):
    klog.phase = idx
    full = scale >= 1
    tag = 'phase%d-%s' % (idx, sched)
    luns = []
    for i, d in enumerate(devs):
        wr('/sys/block/%s/queue/scheduler' % d['disk'], sched)
        rng = random.Random('%d/%s/%s' % (seed, sched, d['label']))
        luns.append(Lun(d, sched, scheds, rng,
                        selftest if idx == 0 and i == 0 else None, full))
        if current_elevator(d['disk']) != sched:
            luns[-1].violation('cannot select %s' % sched)
    before = [(simhba_stats(d['disk']), block_ios(d['disk'])) for d in devs]
    bounce0 = [int(rd('/sys/class/scsi_host/host%d/simhba_bounce_segs'
                      % d['host'])) for d in devs]
    trace_take()
    depth = max(1, round(8 * scale))
    t0 = time.monotonic()
    fios = start_fios(devs, tag, out, seed, sched, runtime, depth, full)
    w0, end = windows(runtime, luns[0].lost_max, tmo)
    mean = 6.0 / scale
    threads = []
    for i, lun in enumerate(luns):
        # The debug kernel resets each host in one phase out of len(luns):
        # the settle time would take most of its short phases.
        p = plan(lun.rng, w0, end, mean, full or idx % len(luns) == i)
        lun.planned = len(p)
        threads.append(threading.Thread(target=lun.run_plan, args=(p,)))
    cstop = threading.Event()
    threads.append(threading.Thread(
        target=cgroup_cycles,
        args=(random.Random('%d/%s/cgroup' % (seed, sched)), luns, fios,
              runtime - 1, cstop)))
    for t in threads:
        t.start()
    hung, fio_s = wait_fios(fios, t0, STARTUP + runtime + 3 * tmo + 30)
    for lun in luns:
        lun.stop.set()
    cstop.set()
    for t in threads:
        t.join()
    joined_s = round(time.monotonic() - t0, 1)
    for lun in luns:
        lun.clear_faults()
    for i in hung:
        luns[i].violation('fio did not finish in time')
        try:
            fios[i].wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass
    elapsed = time.monotonic() - t0
    time.sleep(0.5)                 # let the last kernel lines arrive
    trace = trace_take() if have_trace else []
    kmsg = klog.take(idx)
    splat = splat_re()
    splats = [m for m in kmsg if splat.search(m)]
    times = dict(seconds=round(elapsed, 1), fio_s=fio_s, joined_s=joined_s)
    return [lun_row(lun, out, tag, before[i], bounce0[i], trace, kmsg,
                    splats, t0, times)
            for i, lun in enumerate(luns)]
