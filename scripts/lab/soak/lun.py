# SPDX-License-Identifier: GPL-2.0
"""One LUN in one phase: what the events did (counts, the injected
ranges, the violations found, the event log) and the elevator switches.
The other events are in faults.py and tunables.py, and working through
the plan in events.py, all mixed into Lun."""

import os
import threading
import time

from .common import REGION, block_ios, current_elevator, progress, wr
from .events import Events
from .faults import Faults
from .tunables import Tunables


class Lun(Events, Faults, Tunables):
    """The events of one LUN in one phase, and what they found."""

    def __init__(self, dev, sched, scheds, rng, selftest, full):
        self.d = dev
        self.disk = dev['disk']
        self.sched = sched
        self.scheds = scheds
        self.rng = rng
        self.selftest = selftest
        self.ranges = []            # injected medium errors, sectors [a, b)
        self.count = dict(switches=0, medium=0, lost=0, busy=0, dev_reset=0,
                          host_reset=0, tunable_good=0, tunable_bad=0,
                          cgroups=0)
        self.violations = []
        self.events = []
        self.switch_max_s = 0.0
        self.planned = self.done = 0
        self.io0 = block_ios(self.disk)
        self.t0 = None              # when fio's I/O reached the LUN
        # what fio touches; lost commands in a row
        self.span = REGION if full else REGION * 2 // 3
        self.lost_max = 2 if full else 1
        self.helpers = []
        self.stop = threading.Event()

    def violation(self, what):
        self.violations.append(what)
        progress('%s: %s: %s' % (self.sched, self.d['label'], what))

    def note(self, t0, kind, **kw):
        self.events.append(dict(t=round(time.monotonic() - t0, 2),
                                dev=self.d['label'], kind=kind, **kw))

    def sleep(self, s):
        return self.stop.wait(s)

    def elevator(self, name):
        t = time.monotonic()
        e = wr('/sys/block/%s/queue/scheduler' % self.disk, name)
        self.switch_max_s = max(self.switch_max_s, time.monotonic() - t)
        if e:
            self.violation('switch to %s failed: %s' % (name, os.strerror(e)))
        elif current_elevator(self.disk) != name:
            self.violation('switched to %s, %s is in use'
                           % (name, current_elevator(self.disk)))
        else:
            self.count['switches'] += 1

    def switch(self, t0):
        """To another scheduler and back."""
        other = self.rng.choice([s for s in self.scheds
                                 if s != self.sched] or [self.sched])
        hold = self.rng.uniform(0.3, 2.0)
        self.elevator(other)
        self.sleep(hold)
        self.elevator(self.sched)
        self.note(t0, 'switch', to=other, hold=round(hold, 2))

    def guarded(self, fn, *args):
        try:
            fn(*args)
        except Exception as e:          # a broken soak must not pass
            self.violation('soak error in %s: %r' % (fn.__name__, e))
