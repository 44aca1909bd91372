# SPDX-License-Identifier: GPL-2.0
"""Fault injection on a LUN (Faults, a part of lun.Lun): medium errors on
recorded LBA ranges (simhba's debugfs medium_error_lba/_sectors), read
back at once; lost commands that the SCSI error handler must recover
(timeout_next); TASK SET FULL returns (busy_next); device and host resets
(sg_reset -d, -H); and clearing what is left at the end of a phase."""

import errno
import mmap
import os
import subprocess
import time

from .common import wr


class Faults:
    """A LUN's injected faults."""

    def probe(self, sector, nsect):
        """An O_DIRECT read of the sectors: 0 or the errno."""
        buf = mmap.mmap(-1, max(4096, nsect * 512))
        fd = os.open('/dev/' + self.disk, os.O_RDONLY | os.O_DIRECT)
        try:
            os.preadv(fd, [memoryview(buf)[:nsect * 512]], sector * 512)
            return 0
        except OSError as e:
            return e.errno
        finally:
            os.close(fd)
            buf.close()

    def medium(self, t0, record=True):
        dbg = self.d['dbg']
        nsect = 8 * self.rng.randint(1, 16)
        lba = 8 * self.rng.randrange((self.span // 512 - nsect) // 8)
        hold = self.rng.uniform(0.5, 3.0)
        if record:
            self.ranges.append((lba, lba + nsect))
        wr(dbg + '/medium_error_lba', lba)
        wr(dbg + '/medium_error_sectors', nsect)
        # fio may or may not read there in time: read it ourselves
        e = self.probe(lba + self.rng.randrange(nsect // 8) * 8, 8)
        if e not in (errno.ENODATA, errno.EIO):
            self.violation('read of injected medium error at %d+%d: %s'
                           % (lba, nsect, os.strerror(e) if e else 'no error'))
        self.sleep(hold)
        wr(dbg + '/medium_error_sectors', 0)
        self.count['medium'] += 1
        self.note(t0, 'medium' if record else 'unrecorded-medium',
                  lba=lba, sectors=nsect, hold=round(hold, 2))

    def lost(self, t0):
        n = self.rng.randint(1, self.lost_max)
        wr(self.d['dbg'] + '/timeout_next', n)
        self.count['lost'] += n
        self.note(t0, 'lost', commands=n)

    def busy(self, t0):
        n = self.rng.randint(1, 8)
        wr(self.d['dbg'] + '/busy_next', n)
        self.count['busy'] += n
        self.note(t0, 'busy', commands=n)

    def reset(self, t0, kind):
        flag = '-d' if kind == 'dev_reset' else '-H'
        tries = 0
        while True:
            tries += 1
            p = subprocess.run(['sg_reset', flag, '/dev/' + self.disk],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               timeout=300)
            # EAGAIN while the host recovers, e.g. from an earlier reset
            # still in its settle time: sg_reset opens O_NONBLOCK
            if not p.returncode or 'try again later' not in p.stdout or \
                    tries >= 60:
                break
            time.sleep(1)
        if p.returncode:
            self.violation('sg_reset %s failed (%d): %s'
                           % (flag, p.returncode, p.stdout.strip()))
        self.count[kind] += 1
        self.note(t0, kind, status=p.returncode, tries=tries)

    def clear_faults(self):
        for f in ('medium_error_sectors', 'timeout_next', 'busy_next'):
            wr(self.d['dbg'] + '/' + f, 0)
