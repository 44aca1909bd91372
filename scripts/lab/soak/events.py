# SPDX-License-Identifier: GPL-2.0
"""The events of a LUN in a phase: the random plan (every kind once, plus
more drawn by weight, at random times within each kind's window), and
working through it once fio's I/O has reached the LUN (Events, a part of
lun.Lun)."""

import threading
import time

from .common import STARTUP, block_ios

KINDS = ('switch', 'medium', 'lost', 'busy', 'dev_reset', 'host_reset',
         'tunable')
# Weights of the extra events.  A host reset holds the host for 10 s (the
# midlayer's settle time): one per phase, so that no command waits longer
# than its retries allow ((retries + 1) x the device timeout, 30 s here).
WEIGHTS = (3, 3, 1, 2, 1, 0, 3)


def plan(rng, start, end, mean, host_reset=True):
    """Every kind of event once (a host reset only if HOST_RESET), plus one
    per MEAN seconds drawn by weight, at random times in [start,
    end[kind]]."""
    kinds = [k for k in KINDS if host_reset or k != 'host_reset']
    kinds += rng.choices(KINDS, WEIGHTS, k=int((end['switch'] - start) / mean))
    rng.shuffle(kinds)
    return sorted((rng.uniform(start, end[k]), k) for k in kinds)


def windows(runtime, lost_max, tmo):
    """When events may happen in a phase whose fio runs RUNTIME seconds:
    from (the start) and, per kind, until.  Events end before fio does.
    Up to LOST_MAX lost commands in a row must be recovered in fio's time
    (TMO, the device timeout, each), and a host reset holds the host for
    the midlayer's settle time (HOST_RESET_SETTLE_TIME, 10 s)."""
    w0 = 0.5
    end = {k: max(w0 + 2, runtime - 2) for k in KINDS}
    end['lost'] = max(w0 + 1, runtime - lost_max * tmo - 1)
    end['host_reset'] = max(w0 + 0.5, runtime - 12)
    return w0, end


class Events:
    """A LUN's plan, event by event."""

    def event(self, t0, kind):
        if kind == 'switch':
            self.switch(t0)
        elif kind == 'medium':
            self.medium(t0)
        elif kind == 'lost':
            self.lost(t0)
        elif kind == 'busy':
            self.busy(t0)
        elif kind == 'dev_reset':
            self.reset(t0, kind)
        elif kind == 'host_reset':
            # The midlayer then holds the host for its settle time
            # (HOST_RESET_SETTLE_TIME, 10 s); the other events go on.
            t = threading.Thread(target=self.guarded, args=(self.reset, t0,
                                                            kind))
            t.start()
            self.helpers.append(t)
        elif kind == 'tunable':
            self.tunable(t0)

    def run_plan(self, plan):
        """The events of PLAN, each at its time after fio's I/O reached
        the LUN (fio's start takes seconds under TCG, a minute on the debug
        kernel of a busy host)."""
        t = time.monotonic()
        while block_ios(self.disk) == self.io0:
            if self.stop.wait(0.1) or time.monotonic() > t + STARTUP:
                self.violation('no I/O from fio in %d s'
                               % (time.monotonic() - t))
                return
        self.t0 = t0 = time.monotonic()
        if self.selftest == 'unrecorded-fault':
            self.guarded(self.medium, t0, False)
        for at, kind in plan:
            if self.stop.wait(max(0, t0 + at - time.monotonic())):
                break
            self.guarded(self.event, t0, kind)
            self.done += 1
        for t in self.helpers:
            t.join()
