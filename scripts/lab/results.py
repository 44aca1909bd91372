#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn what a lab run printed into test results.

Sources: the TAP that tests/run writes in the guest, the KTAP that KUnit
printed on the guest console, and the TAP of the host-side tests.  The
summary ends with the line "N passed, N failed, N skipped"; the exit status
is 1 when anything failed or an expected test left no result.

An expected name "kunit/SUITE" is met by any case of that KUnit suite.
With --allowed-skips, a skip of a test that the file does not list (with
its reason) counts as a failure: nothing is allowed to stop running quietly.

  results.py --set LABEL,TAP,CONSOLE,EXPECT... [--allowed-skips FILE]
             [--json FILE]
"""

import argparse
import json
import os
import re
import sys

TAP_RE = re.compile(r'^(not ok|ok)\s+(\d+)\s*(?:-\s*)?(\S*)\s*(?:-\s*)?(.*)$')
STAMP_RE = re.compile(r'^\[\s*\d+\.\d+\]\s?')
SKIP_RE = re.compile(r'#\s*SKIP\b\s*(.*)$', re.IGNORECASE)


class Result:
    """One test's outcome: status is 'pass', 'fail' or 'skip'."""

    def __init__(self, name, status, detail=''):
        self.name = name
        self.status = status
        self.detail = detail

    def as_dict(self):
        return {'name': self.name, 'status': self.status,
                'detail': self.detail}

    def __repr__(self):
        return 'Result(%r, %r)' % (self.name, self.status)


def _status(word, rest):
    if SKIP_RE.search(rest):
        return 'skip'
    return 'pass' if word == 'ok' else 'fail'


def parse_tap(text, prefix=''):
    """Results of a flat TAP stream ("ok 1 group/001 - description").

    Diagnostic lines ("# ...") after a "not ok" become its detail.
    """
    results = []
    for line in text.splitlines():
        m = TAP_RE.match(line)
        if m:
            word, _, name, rest = m.groups()
            skip = SKIP_RE.search(line)
            detail = skip.group(1) if skip else rest
            results.append(Result(prefix + name, _status(word, line),
                                  detail.strip()))
        elif line.startswith('#') and results and \
                results[-1].status == 'fail':
            d = results[-1].detail
            results[-1].detail = d + '\n' + line if d else line
    return results


def parse_ktap(console):
    """KUnit test cases from a kernel console log.

    Every "# Subtest: SUITE" at one level of nesting opens a suite; the
    results at that level are its cases ("kunit/SUITE/CASE").  Deeper
    results (parameters) are folded into their case.  A suite whose plan
    promises more cases than it reported (the kernel died, a case hung)
    gets one failed result for the missing ones.
    """
    results = []
    suite = None
    plan = 0
    seen = 0

    def close():
        if suite is not None and seen < plan:
            results.append(Result('kunit/%s/(missing)' % suite, 'fail',
                                  '%d of %d cases reported no result'
                                  % (plan - seen, plan)))

    for raw in console.splitlines():
        line = STAMP_RE.sub('', raw.rstrip('\r\n'))
        body = line.lstrip(' ')
        indent = len(line) - len(body)
        if indent == 4 and body.startswith('# Subtest:'):
            close()
            suite = body.split(':', 1)[1].strip()
            plan = seen = 0
        elif suite is None:
            continue
        elif indent == 4 and re.match(r'^1\.\.\d+$', body):
            plan = int(body[3:])
        elif indent == 4:
            m = TAP_RE.match(body)
            if m:
                word, _, name, rest = m.groups()
                skip = SKIP_RE.search(body)
                results.append(Result('kunit/%s/%s' % (suite, name),
                                      _status(word, body),
                                      skip.group(1).strip() if skip
                                      else rest.strip()))
                seen += 1
        elif indent == 0 and TAP_RE.match(body):
            close()
            suite = None
    close()
    return results


def summarize(results, expect=()):
    """Add a failed result for each expected name that has none.

    An expected name is met by a result of that name or by one below it
    ("kunit/SUITE" by "kunit/SUITE/CASE").
    """
    names = {r.name for r in results}
    out = list(results)
    for name in expect:
        if name not in names and \
                not any(n.startswith(name + '/') for n in names):
            out.append(Result(name, 'fail', 'did not run'))
    return out


def read_allowed_skips(path):
    """{test name: reason} from a file of "NAME  REASON" lines ("#" comments).
    NAME may carry a set label ("debug:block/013"): the skip is allowed in
    that set only.

    A line without a reason is an error: every allowed skip says why.
    """
    allowed = {}
    with open(path) as fh:
        for num, line in enumerate(fh, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 1)
            if len(parts) < 2:
                raise ValueError('%s:%d: %s has no reason' % (path, num,
                                                              parts[0]))
            allowed[parts[0]] = parts[1]
    return allowed


def police_skips(results, allowed):
    """Turn every skip whose test is not in @allowed into a failure.

    An entry without a set label allows the test's skip in every set
    ("block/003" allows "default:block/003"); one with a label, in that
    set alone ("debug:block/013").
    """
    for r in results:
        if r.status != 'skip' or r.name in allowed or \
                r.name.split(':', 1)[-1] in allowed:
            continue
        r.status = 'fail'
        r.detail = 'skipped, and tests/allowed-skips does not allow it: ' + \
            r.detail
    return results


def counts(results):
    c = {'pass': 0, 'fail': 0, 'skip': 0}
    for r in results:
        c[r.status] += 1
    return c


def collect(label, tap, console, expect):
    """Results of one boot (or of the host tests), names prefixed by label.

    A boot whose TAP file did not reach the host (a guest in a root packed
    into its initramfs hands its output over when its job ends: it timed
    out or died first) has its TAP read from the console, where
    tests/run prints it too."""
    results = []
    first = (tap, parse_tap)
    if tap and console and not os.path.exists(tap):
        first = (console, parse_tap)
    for path, parse in (first, (console, parse_ktap)):
        if not path:
            continue
        try:
            with open(path, errors='replace') as fh:
                results += parse(fh.read())
        except FileNotFoundError:
            pass
    names = []
    if expect:
        with open(expect) as fh:
            names = [n.strip() for n in fh if n.strip()]
    for r in results:
        r.name = label + r.name
    return summarize(results, [label + n for n in names])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--set', action='append', default=[], metavar='SET',
                    help='LABEL,TAP,CONSOLE,EXPECT: one source of results; '
                         'empty fields are skipped, EXPECT lists the test '
                         'names that must have a result')
    ap.add_argument('--allowed-skips', metavar='FILE',
                    help='the tests that may skip, one "NAME REASON" a line; '
                         'any other skip fails')
    ap.add_argument('--json')
    args = ap.parse_args(argv)

    results = []
    for spec in args.set:
        fields = (spec.split(',') + ['', '', '', ''])[:4]
        results += collect(*fields)
    if args.allowed_skips:
        try:
            allowed = read_allowed_skips(args.allowed_skips)
        except (OSError, ValueError) as err:
            print('results.py: %s' % err, file=sys.stderr)
            return 2
        police_skips(results, allowed)

    for r in results:
        word = 'not ok' if r.status == 'fail' else 'ok'
        tail = ' # SKIP ' + r.detail if r.status == 'skip' else ''
        print('%s %s%s' % (word, r.name, tail))
        if r.status == 'fail' and r.detail:
            for d in r.detail.splitlines():
                print('#   ' + d.lstrip('# '))
    c = counts(results)
    if args.json:
        with open(args.json, 'w') as fh:
            json.dump({'results': [r.as_dict() for r in results],
                       'counts': c}, fh, indent=1)
    print('%d passed, %d failed, %d skipped' % (c['pass'], c['fail'],
                                                c['skip']))
    return 1 if c['fail'] else 0


if __name__ == '__main__':
    sys.exit(main())
