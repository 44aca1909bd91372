# SPDX-License-Identifier: GPL-2.0
"""What the kernel reports during the soak: its log, read from /dev/kmsg
as it is written and tagged with the phase that ran, and the
block_rq_error trace event (not rate limited, unlike the log's "...
error, dev sdX, sector N" lines), which gives each failed request's
device, direction and sectors."""

import errno
import os
import re
import threading

from .common import rd, wr

TRACE = '/sys/kernel/tracing'


class KernelLog(threading.Thread):
    """Reads /dev/kmsg as it is written; each record is tagged with the
    phase that was running."""

    def __init__(self):
        super().__init__(daemon=True)
        self.phase = -1
        self.records = []
        self.lock = threading.Lock()

    def run(self):
        fd = os.open('/dev/kmsg', os.O_RDONLY)
        while True:
            try:
                rec = os.read(fd, 8192).decode(errors='replace')
            except OSError as e:
                if e.errno == errno.EPIPE:      # overwritten: go on
                    continue
                raise
            msg = rec.partition(';')[2]
            msg = msg.split('\n')[0]
            with self.lock:
                self.records.append((self.phase, msg))

    def take(self, phase):
        """The records of PHASE so far (and of the setup before phase 0)."""
        with self.lock:
            return [m for p, m in self.records
                    if p == phase or (phase == 0 and p < 0)]


def trace_setup():
    ev = TRACE + '/events/block/block_rq_error/enable'
    if not os.path.exists(ev):
        return False
    wr(TRACE + '/buffer_size_kb', '4096')
    return wr(ev, '1') == 0 and wr(TRACE + '/tracing_on', '1') == 0


def trace_take():
    """block_rq_error records since the last call: (devt, rwbs, sector,
    sectors, error)."""
    try:
        text = rd(TRACE + '/trace')
    except OSError:
        return []
    with open(TRACE + '/trace', 'w'):
        pass                                    # truncating clears it
    out = []
    for m in re.finditer(r'block_rq_error: (\d+),(\d+) (\S+) \(.*?\) (\d+) '
                         r'\+ (\d+) .*?\[(-?\d+)\]', text):
        out.append(('%s:%s' % (m.group(1), m.group(2)), m.group(3),
                    int(m.group(4)), int(m.group(5)), int(m.group(6))))
    return out
