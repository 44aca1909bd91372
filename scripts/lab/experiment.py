# SPDX-License-Identifier: GPL-2.0
"""What the host needs to know about an experiment: its columns, its
boots (parts) and the functions that print its seed-format table and
judge its goals.  Each experiment declares one next to its script, in
experiments/NAME.py; bench.py lists them."""

from stats import decimals_for, direction, direction_why, goal_result, noise


class Part:
    """A part of an experiment that needs its own kind of boot.

    The guest runs the experiment's script with BENCH_PART=name.  accel
    'icount' boots QEMU with an instruction counter for a clock
    (scripts/lab/boot.sh, LAB_ACCEL): a guest second is 10^9 instructions,
    so a CPU-bound rate measures path length and does not depend on how
    busy the host is.
    """

    def __init__(self, name, minutes, accel=None, cpus=None):
        self.name = name
        # minutes one run takes at BENCH_SCALE=1 on the experiment's own
        # clock and shift: the basis of its boot's timeout
        self.minutes = minutes
        self.accel = accel              # None: the experiment's
        self.cpus = cpus                # None: the experiment's


class Experiment:
    """What the host needs to know about one experiment."""

    def __init__(self, name, desc, columns, baseline=None, mem=2048,
                 minutes=10, append='', kernels=False, formatter=None,
                 parts=None, no_icount_9p=None, cpus=1,
                 goals=None, seed=None, seed_table=None, effects=None,
                 values_per_run=1, icount_shift=0, constants=()):
        self.name = name
        self.desc = desc
        self.columns = columns          # [(metric, heading)]
        self.baseline = baseline        # (config key, value) for ratios
        self.mem = mem
        # minutes one run takes at BENCH_SCALE=1 on the experiment's own
        # clock and shift: the basis of its boot's timeout
        self.minutes = minutes
        self.append = append            # kernel command line additions
        self.kernels = kernels          # compares kernel configurations
        self.formatter = formatter      # seed-format table, or None
        # one boot per part; the rows of all parts make one table
        self.parts = parts or [Part(None, minutes)]
        # why the experiment cannot run on the instruction-counted clock
        # while it reads the host's root over 9p (BENCH_ROOT=9p): it then
        # runs under TCG when the lab's clock would be icount
        self.no_icount_9p = no_icount_9p
        # the instruction-counted clock's shift it runs at (2^N ns per
        # guest instruction) unless LAB_ICOUNT_SHIFT says otherwise
        self.icount_shift = icount_shift
        self.cpus = cpus                # vCPUs of its guest
        # (experiment, rows) -> the pass/fail lines of its goals, or None
        self.goals = goals
        # the results page (scripts/lab/publish.py): the seed thread it
        # reproduces ('000'..'004'), () -> the seed's own table as text,
        # and (experiment, rows) -> [Effect] for the page's summary
        self.seed = seed
        self.seed_table = seed_table
        self.effects = effects
        # the values one run gives each figure (raid0-dd: five dd runs)
        self.values_per_run = values_per_run
        # the numbers its own code writes on the results page, no value
        # of a run (republish.py checks that every number has a source):
        # ((pattern of the words around it, group 1.. spanning the
        # number), reason), as republish.STRUCTURAL
        self.constants = tuple(constants)


class Effect:
    """One line of the results page's summary: an effect the seed
    reports (or a goal of an issue), the seed's figure ('' for a goal),
    the figure measured in the run ('missing' when not), the result
    ('reproduced', 'not reproduced', 'met', 'not met' or 'missing'), one
    line on why, and where the effect comes from ('issue 13'; None: the
    experiment's seed)."""

    def __init__(self, what, seed, measured, result, why, source=None):
        self.source = source
        self.what = what
        self.seed = seed
        self.measured = measured
        self.result = result
        self.why = why

    def __repr__(self):
        return 'Effect(%r, %r, %r, %r)' % (self.what, self.seed,
                                           self.measured, self.result)


class Goal(tuple):
    """A goal's (what, verdict), a pair like any other, judged on what
    basis names instead of the medians of the run ("the worst of this
    run's 3 runs", "1 run"): the summary's why says it."""

    def __new__(cls, what, verdict, basis):
        g = super().__new__(cls, (what, verdict))
        g.basis = basis
        return g


def goal_effects(goals, issue):
    """The summary's lines of an issue's goals: [(what, verdict)] ->
    [Effect], one per goal; the why names what the verdict was judged
    on: the medians of the run, or a Goal's basis."""
    out = []
    for g in goals:
        what, v = g
        fig, res = goal_result(v)
        out.append(Effect(what.strip(), '', fig, res,
                          'goal of issue %s, not measured in this run (see '
                          'its notes)' % issue if res == 'missing' else
                          'goal of issue %s, from %s' % (
                              issue, getattr(g, 'basis',
                                             'the medians of this run')),
                          'issue %s' % issue))
    return out


def ratio_effect(what, seed_x, a, b, rows, metric, why_not='',
                 missing='not measured', seed_text=None, also=''):
    """The summary's line of a seed effect that is a ratio: the seed's
    seed_x (printed as seed_text, e.g. for a bound) against this run's
    a / b (medians of metric in rows, None when not measured), judged by
    direction() against the spread of metric in rows; also is added to
    the why of a measured ratio, why_not to one not reproduced."""
    x = a / b if a is not None and b else None
    nx = noise(rows, metric)
    if a is not None and b == 0:
        # measured, but the ratio has no value: not the seed's either
        res, measured = 'not reproduced', 'no ratio (%g / 0)' % a
        why = 'the figure it is divided by measured 0'
    else:
        res = direction(seed_x, x, nx)
        # the decimals that show on which side of the spread x is: above
        # it (x > nx) for a seed ratio above 1, below it (x < 1 / nx) else
        if x is None:
            d = 2
        elif seed_x > 1:
            d = decimals_for(nx, x, 2)
        else:
            d = decimals_for(x, 1 / nx, 2)
        measured = 'missing' if x is None else '%.*fx' % (d, x)
        why = direction_why(res, nx, why_not, missing)
    if also and res != 'missing':
        why += '; ' + also
    return Effect(what, seed_text or '%.2fx' % seed_x, measured, res, why)


# why an experiment whose measured time reads the 9p root is kept off the
# instruction-counted clock when it runs there (Experiment.no_icount_9p)
NO_9P = ('its measured time includes programs and files read over the 9p '
         'root after the caches are dropped; on the instruction-counted '
         'clock an idle guest waiting for the host jumps to its next timer, '
         'which turns each such wait into up to seconds of guest time')
