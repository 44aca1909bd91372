# SPDX-License-Identifier: GPL-2.0
"""A LUN's row of a phase (one line of soak-rows.jsonl): fio's I/Os and
latency, the switches and faults the events made, the errors the kernel
reported at and outside the injected ranges, fio's errors and verify
failures outside them, splats, violations, simhba's counters, the bounce
segments and the event log."""

import os

from .classify import classify, fio_classify
from .common import block_ios, rd, simhba_stats
from .fiojobs import fio_results


def lun_row(lun, out, tag, before, bounce0, trace, kmsg, splats, t0, times):
    """The row of LUN after phase TAG: BEFORE, its simhba counters and
    block I/Os, and BOUNCE0, its host's bounce segments, when the phase
    began (at T0); TRACE, KMSG and SPLATS, what the kernel reported in
    the phase; TIMES, the phase's seconds, fio_s and joined_s."""
    d = lun.d
    tagd = '%s-%s' % (tag, d['label'])
    res = fio_results(os.path.join(out, tagd + '.json'),
                      os.path.join(out, tagd + '.log'))
    if not res['fio_ok']:
        lun.violation('no fio report')
    st0, io0 = before
    st1 = simhba_stats(d['disk'])
    state = rd('/sys/block/%s/device/state' % d['disk'])
    if state != 'running':
        lun.violation('device state %s after the phase' % state)
    kern, extents = classify(lun, trace, kmsg)
    unexplained, vout = fio_classify(res, lun.ranges, extents)
    cnt = lun.count
    faults = cnt['medium'] + cnt['lost'] + cnt['busy'] + \
        cnt['dev_reset'] + cnt['host_reset']
    return dict(
        scheduler=lun.sched, device=d['label'], disk=d['disk'],
        ios=res['ios'], reads=res['reads'], writes=res['writes'],
        block_ios=block_ios(d['disk']) - io0,
        switches=cnt['switches'], switch_max_s=round(lun.switch_max_s, 2),
        faults=faults,
        errors_injected=max(kern['trace_injected'],
                            kern['dmesg_injected']),
        errors_elsewhere=max(kern['trace_elsewhere'],
                             kern['dmesg_elsewhere'], len(unexplained)),
        verify_failures=len(res['verify']),
        verify_failures_outside=len(vout),
        splats=len(splats), violations=len(lun.violations),
        max_lat_ms=res['max_lat_ms'], seconds=times['seconds'],
        fio_s=times['fio_s'], joined_s=times['joined_s'],
        io_start_s=round(lun.t0 - t0, 1) if lun.t0 else None,
        counts=cnt, events_planned=lun.planned, events_done=lun.done,
        kernel_errors=kern, fio_errors=res['fio_errors'],
        fio_io_errors=len(res['io_errors']),
        fio_errors_unexplained=unexplained[:20], verify_outside=vout[:20],
        injected_ranges=lun.ranges, violation_list=lun.violations,
        simhba={k: st1[k] - st0.get(k, 0) for k in
                ('commands', 'medium_errors', 'timeouts', 'busy',
                 'aborts', 'resets') if k in st1},
        bounce_segs=int(rd('/sys/class/scsi_host/host%d/simhba_bounce_segs'
                           % d['host'])) - bounce0,
        events=lun.events, splat_lines=splats[:10])
