# SPDX-License-Identifier: GPL-2.0
"""The cgroup mover of a phase: a thread that moves one fio job at a time
into a new cgroup (io controller on; a random io.bfq.weight where the file
exists), lets it run there, moves it back and removes the group once the
job left it.  A step that fails is a violation of the job's LUN."""

import errno
import os
import time

from .common import wr
from .fiojobs import fio_children


def cgroup_cycles(rng, luns, fios, length, stop):
    """Move a fio job into a new cgroup, let it run there, move it back and
    remove the group, for LENGTH seconds once fio's I/O reached every LUN:
    at least once per LUN when there is time."""
    root = '/sys/fs/cgroup'
    if not os.path.exists(root + '/cgroup.procs'):
        return
    while any(lun.t0 is None for lun in luns):
        if stop.wait(0.1):
            return
    end = time.monotonic() + length
    order = list(range(len(luns)))
    n = 0
    while not stop.is_set():
        if not order:
            order = list(range(len(luns)))
        rng.shuffle(order)
        i = order.pop()
        lun = luns[i]
        hold = rng.uniform(0.5, 3.0)
        if stop.wait(rng.uniform(0.2, 2.0)) or time.monotonic() + hold > end:
            break
        pids = fio_children(fios[i].pid)
        if not pids:
            continue
        pid = rng.choice(pids)
        cg = '%s/soak-%d' % (root, n)
        n += 1
        try:
            os.mkdir(cg)
        except OSError as e:
            lun.violation('mkdir %s: %s' % (cg, os.strerror(e.errno)))
            continue
        weight = rng.randint(1, 1000)
        if os.path.exists(cg + '/io.bfq.weight'):
            e = wr(cg + '/io.bfq.weight', weight)
            if e:
                lun.violation('io.bfq.weight %d: %s' % (weight, os.strerror(e)))
        err = wr(cg + '/cgroup.procs', pid)
        if err not in (0, errno.ESRCH):     # ESRCH: the job has ended
            lun.violation('moving fio job %d into %s: %s'
                          % (pid, cg, os.strerror(err)))
        stop.wait(hold)
        if not err:
            err = wr(root + '/cgroup.procs', pid)
            if err not in (0, errno.ESRCH):
                lun.violation('moving fio job %d out of %s: %s'
                              % (pid, cg, os.strerror(err)))
        for _ in range(100):
            try:
                os.rmdir(cg)
                break
            except OSError as e:
                if e.errno != errno.EBUSY:
                    lun.violation('rmdir %s: %s' % (cg, os.strerror(e.errno)))
                    break
                time.sleep(0.1)
        else:
            lun.violation('rmdir %s: still busy' % cg)
        lun.count['cgroups'] += 1
        lun.note(lun.t0, 'cgroup', pid=pid, weight=weight, hold=round(hold, 2),
                 status=err)
