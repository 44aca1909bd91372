# SPDX-License-Identifier: GPL-2.0
"""The soak's report on the host (soak-guest --report DIR): reads
DIR/guest/ (boot.sh's output directory: soak-meta.json, soak-rows.jsonl,
console.log), writes DIR/soak.json, DIR/soak.csv and DIR/soak.txt,
prints the table; 1 when a must-be-zero column is not zero, the kernel
printed a splat, a phase is missing or the guest run failed."""

import csv
import json
import os
import sys

from .common import splat_re

MUST_BE_ZERO = ('errors_elsewhere', 'verify_failures_outside', 'splats',
                'violations')
COLUMNS = (('scheduler', 'scheduler', '%-13s'), ('device', 'device', '%-14s'),
           ('ios', 'I/Os', '%8s'), ('switches', 'switches', '%8s'),
           ('faults', 'faults', '%6s'), ('errors_injected', 'err@inj', '%7s'),
           ('errors_elsewhere', 'err-else', '%8s'),
           ('verify_failures_outside', 'verify-else', '%11s'),
           ('splats', 'splats', '%6s'), ('violations', 'violations', '%10s'),
           ('max_lat_ms', 'max-lat-ms', '%10s'))


def load(guest):
    """soak-meta.json ({} without one) and the rows of soak-rows.jsonl."""
    try:
        meta = json.load(open(os.path.join(guest, 'soak-meta.json')))
    except (OSError, ValueError):
        meta = {}
    rows = []
    try:
        for line in open(os.path.join(guest, 'soak-rows.jsonl')):
            if line.strip():
                rows.append(json.loads(line))
    except OSError:
        pass
    return meta, rows


def failures_of(meta, rows, status, guest):
    """Why the soak fails (none: it passed), and the console's splat
    lines."""
    failures = []
    if status:
        failures.append('the guest run ended with status %d%s (see %s)' % (
            status, {124: ' (timeout)', 125: ' (the guest died)',
                     126: ' (kernel splat)'}.get(status, ''),
            os.path.join(guest, 'console.log')))
    splat = splat_re()
    try:
        console = open(os.path.join(guest, 'console.log'),
                       errors='replace').read().splitlines()
    except OSError:
        console = []
    console_splats = [l for l in console if splat.search(l)]
    if console_splats:
        failures.append('the kernel printed %d splat line(s), first: %s'
                        % (len(console_splats), console_splats[0].strip()))
    if not meta:
        failures.append('the guest wrote no soak-meta.json (setup failed?)')
    have = {(r['scheduler'], r['device']) for r in rows}
    for s in meta.get('schedulers', []):
        for d in meta.get('devices', []):
            if (s, d) not in have:
                failures.append('no row for %s on %s (the phase did not end)'
                                % (s, d))
    for r in rows:
        for k in MUST_BE_ZERO:
            if r.get(k):
                failures.append('%s on %s: %s = %s' % (r['scheduler'],
                                                       r['device'], k, r[k]))
        for v in r.get('violation_list', []):
            failures.append('%s on %s: %s' % (r['scheduler'], r['device'], v))
        if r.get('errors_elsewhere'):
            failures.append('%s on %s: kernel-reported error sectors outside '
                            'the injected ranges: %s; injected: %s'
                            % (r['scheduler'], r['device'],
                               r['kernel_errors']['elsewhere_sectors'],
                               r['injected_ranges']))
        if not r.get('ios'):
            failures.append('%s on %s: no I/O completed'
                            % (r['scheduler'], r['device']))
    return failures, console_splats


def table(meta, rows, failures, verdict, top):
    """soak.txt: the table, the legend, the failures and the verdict."""
    lines = ['soak: seed %s, %s min, kernel %s, %d rows'
             % (meta.get('seed', '?'), meta.get('minutes', '?'),
                meta.get('kernel', '?'), len(rows)),
             '  '.join(fmt % h for _, h, fmt in COLUMNS)]
    for r in rows:
        lines.append('  '.join(fmt % r.get(k, '') for k, _, fmt in COLUMNS))
    lines.append('')
    lines.append('faults: medium-error ranges + lost commands + busy returns '
                 '+ device and host resets; err@inj / err-else: errors the '
                 'kernel reported at / outside the injected LBAs; splats: '
                 'kernel splats while the scheduler ran; violations: a bad '
                 'tunable value accepted, a switch, reset or cgroup step '
                 'that failed, fio stuck, a LUN not running afterwards')
    lines += ['FAIL: ' + f for f in failures[:40]]
    if len(failures) > 40:
        lines.append('FAIL: ... and %d more (soak.json)' % (len(failures) - 40))
    lines.append('soak: %s (%s)' % (verdict.upper(), top))
    return '\n'.join(lines) + '\n'


def report(args):
    top = args.report
    guest = os.path.join(top, 'guest')
    meta, rows = load(guest)
    failures, console_splats = failures_of(meta, rows, args.status, guest)
    verdict = 'fail' if failures else 'pass'
    doc = dict(soak=meta, boot_status=args.status, verdict=verdict,
               failures=failures, console_splats=console_splats[:20],
               rows=rows)
    with open(os.path.join(top, 'soak.json'), 'w') as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(top, 'soak.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow([k for k, _, _ in COLUMNS])
        for r in rows:
            w.writerow([r.get(k, '') for k, _, _ in COLUMNS])
    text = table(meta, rows, failures, verdict, top)
    with open(os.path.join(top, 'soak.txt'), 'w') as f:
        f.write(text)
    sys.stdout.write(text)
    return 1 if failures else 0
