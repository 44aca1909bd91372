# SPDX-License-Identifier: GPL-2.0
"""Scheduler tunables written during the soak (Tunables, a part of
lun.Lun): a writable file of the elevator's iosched directory at random,
a good value (its own, or one in its documented range) that must be
taken, then a bad one that must fail with EINVAL and change nothing."""

import errno
import os

from .common import rd, wr

# Values no scheduler tunable may accept (all are decimal numbers).
BAD_VALUES = ('bogus', '12abc', '1.5', '-')
# Documented ranges (Documentation/block/anticipatory-iosched.rst): values
# outside them must fail with EINVAL as well.
RANGES = {'anticipatory': {
    'read_expire': (1, 60000), 'write_expire': (1, 60000),
    'read_batch_expire': (1, 60000), 'write_batch_expire': (1, 60000),
    'antic_expire': (0, 1000), 'new_boost': (0, 60000),
    'deep_queue_depth': (0, 4096),
    'front_merges': (0, 1)}}


class Tunables:
    """A LUN's tunable writes."""

    def tunable(self, t0):
        d = '/sys/block/%s/queue/iosched' % self.disk
        try:
            files = sorted(f for f in os.listdir(d)
                           if os.stat(os.path.join(d, f)).st_mode & 0o200)
        except OSError:
            files = []
        if not files:
            self.note(t0, 'tunable', file=None)
            return
        f = self.rng.choice(files)
        path = os.path.join(d, f)
        old = rd(path)
        rng = RANGES.get(self.sched, {}).get(f)
        good = str(self.rng.randint(*rng)) if rng else old
        e = wr(path, good)
        if e:
            self.violation('%s: good value %s refused: %s'
                           % (f, good, os.strerror(e)))
        else:
            self.count['tunable_good'] += 1
        wr(path, old)
        bad = list(BAD_VALUES)
        if rng:
            bad += [str(rng[1] + 1)] + ([str(rng[0] - 1)] if rng[0] else [])
        bad = self.rng.choice(bad)
        before = rd(path)
        e = wr(path, bad)
        after = rd(path)
        self.count['tunable_bad'] += 1
        if e != errno.EINVAL:
            self.violation('%s: bad value %r: %s, wanted EINVAL'
                           % (f, bad, os.strerror(e) if e else 'accepted'))
        if after != before:
            self.violation('%s: bad value %r changed %s to %s'
                           % (f, bad, before, after))
        self.note(t0, 'tunable', file=f, good=good, bad=bad, errno=e)
