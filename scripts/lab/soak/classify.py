# SPDX-License-Identifier: GPL-2.0
"""Errors placed against the medium errors injected in a phase: the
kernel's (block_rq_error trace records and the log's "... error, dev sdX,
sector N" lines) by sector, fio's I/O errors and verify failures by
offset.  An error outside every injected range (and outside a failed
extent that starts in one) is an error elsewhere, which fails the soak."""

import re


def inside(sector, ranges):
    return any(a <= sector < b for a, b in ranges)


def overlaps(a, b, ranges):
    return any(a < y and x < b for x, y in ranges)


def classify(lun, trace, kmsg):
    """Kernel-reported errors by sector, fio's by offset."""
    disk, ranges = lun.disk, lun.ranges
    c = dict(trace_injected=0, trace_elsewhere=0, dmesg_injected=0,
             dmesg_elsewhere=0, elsewhere_sectors=[])
    extents = []            # failed extents that start in an injected range
    for devt, rwbs, sector, n, err in trace:
        if devt != lun.d['devt']:
            continue
        if 'R' in rwbs and inside(sector, ranges):
            c['trace_injected'] += 1
            extents.append((sector, sector + n))
        else:
            c['trace_elsewhere'] += 1
            c['elsewhere_sectors'].append(sector)
    pat = re.compile(r'error, dev %s, sector (\d+) op 0x[0-9a-f]+:\((\w+)\)'
                     % re.escape(disk))
    for line in kmsg:
        m = pat.search(line)
        if not m:
            continue
        if m.group(2) == 'READ' and inside(int(m.group(1)), ranges):
            c['dmesg_injected'] += 1
        else:
            c['dmesg_elsewhere'] += 1
            c['elsewhere_sectors'].append(int(m.group(1)))
    c['elsewhere_sectors'] = sorted(set(c['elsewhere_sectors']))[:20]
    return c, extents


def fio_classify(res, ranges, extents):
    """fio's I/O errors outside the injected ranges and outside a failed
    extent that starts in one (SCSI fails the rest of a command after a
    medium error, and a request may merge several of fio's I/Os), and its
    verify failures outside the ranges."""
    unexplained = [(o, l) for o, l in res['io_errors']
                   if not overlaps(o // 512, (o + l + 511) // 512, ranges)
                   and not any(a <= o // 512 and (o + l) // 512 <= b
                               for a, b in extents)]
    vout = [(o, l) for o, l in res['verify']
            if not overlaps(o // 512, (o + l + 511) // 512, ranges)]
    return unexplained, vout
