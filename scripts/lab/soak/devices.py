# SPDX-License-Identifier: GPL-2.0
"""The soak's disks: simhba loaded with three LUNs, each on a host of its
own (common.DEVICES), every I/O scheduler module loaded first (the tests'
own helpers do both), and the elevators all three LUNs offer."""

import os
import re
import subprocess
import sys

from .common import DEVICES, SIMHBA_PARAMS, TOP, rd

SETUP_SH = r'''
. "$LAB_TOP/tests/common/rc"
. "$LAB_TOP/tests/simhba/rc"
. "$LAB_TOP/tests/block/elevator.sh"
_expected_schedulers >/dev/null		# loads every I/O scheduler module
_simhba_load %d "$@" || exit 1
for d in $(_simhba_disks); do
	echo "disk $d $(readlink -f /sys/block/$d/device)"
done
'''


def setup_devices():
    """One dict per LUN: its label, disk, debugfs fault directory, host
    number, profile, personality, DMA mask, NCQ depth and devt."""
    env = dict(os.environ, LAB_TOP=TOP)
    p = subprocess.run(['bash', '-c', SETUP_SH % len(DEVICES), 'setup']
                       + SIMHBA_PARAMS, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    disks = [l.split() for l in p.stdout.splitlines()
             if l.startswith('disk ')]
    if p.returncode or len(disks) != len(DEVICES):
        sys.exit('soak: simhba setup failed: ' + p.stdout.strip())
    devs = []
    for (label, _, pers), (_, name, sysdev) in zip(DEVICES, disks):
        # .../simhba/adapter<id>/host<n>/target<n>:0:0/<n>:0:0:<lun>; the
        # fault files are in debugfs under <id>:<lun>
        m = re.search(r'/adapter(\d+)/host(\d+)/.*:(\d+)$', sysdev)
        adapter, host, lun = m.groups()
        dbg = '/sys/kernel/debug/simhba/%s:%s' % (adapter, lun)
        if not os.path.isdir(dbg):
            sys.exit('soak: no fault injection directory %s for %s'
                     % (dbg, name))
        hdir = '/sys/class/scsi_host/host%s' % host
        d = dict(label=label, disk=name, dbg=dbg, host=int(host),
                 profile=rd('/sys/block/%s/device/simhba_profile' % name),
                 personality=rd(hdir + '/simhba_personality'),
                 dma_bits=int(rd(hdir + '/simhba_dma_bits')),
                 ncq_depth=int(rd('/sys/block/%s/device/simhba_ncq_depth'
                                  % name)),
                 devt=rd('/sys/block/%s/dev' % name))
        if d['personality'] != pers:
            sys.exit('soak: %s has personality %s, wanted %s'
                     % (name, d['personality'], pers))
        devs.append(d)
    return devs


def schedulers(devs):
    """The elevators every LUN offers, in the order the kernel lists them."""
    lists = [rd('/sys/block/%s/queue/scheduler' % d['disk'])
             .replace('[', '').replace(']', '').split() for d in devs]
    return [s for s in lists[0] if all(s in l for l in lists)]
