# SPDX-License-Identifier: GPL-2.0
"""What every part of the soak shares: where the lab is, the three LUNs
(label, profile and personality of their host) and simhba's parameters
for them, the region fio touches, and small sysfs helpers."""

import os
import re

LAB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = os.path.dirname(os.path.dirname(LAB))

# The LUNs: label, profile and personality of their host.
DEVICES = (('sata-7200', 'sata-7200', 'generic'),
           ('raid0-4x-ncq', 'raid0', 'generic'),
           ('aacraid-dma32', 'u320-10k', 'aacraid'))
SIMHBA_PARAMS = ['hosts=%d' % len(DEVICES),
                 'personality=' + ','.join(d[2] for d in DEVICES),
                 'profile=' + ','.join(d[1] for d in DEVICES),
                 'raid_members=4', 'dma_bits=32', 'capacity_mb=64']
MiB = 1 << 20
REGION = 24 * MiB           # what the fio jobs touch, from the start
STARTUP = 180               # seconds fio may take to start


def rd(path):
    with open(path) as f:
        return f.read().strip()


def wr(path, value):
    """Write VALUE to a sysfs/debugfs file: 0 or the errno."""
    try:
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, str(value).encode())
        finally:
            os.close(fd)
        return 0
    except OSError as e:
        return e.errno


def progress(msg):
    print('soak: ' + msg, flush=True)


def current_elevator(dev):
    m = re.search(r'\[(\S+)\]', rd('/sys/block/%s/queue/scheduler' % dev))
    return m.group(1) if m else None


def simhba_stats(dev):
    st = {}
    for line in rd('/sys/block/%s/device/simhba_stats' % dev).splitlines():
        k, _, v = line.partition(' ')
        if v.strip().lstrip('-').isdigit():
            st[k] = int(v)
    return st


def block_ios(dev):
    f = rd('/sys/block/%s/stat' % dev).split()
    return int(f[0]) + int(f[4])


def splat_re():
    """The kernel splat pattern boot.sh and tests/run read."""
    return re.compile(open(os.path.join(LAB, 'splat.ere')).read().strip())
