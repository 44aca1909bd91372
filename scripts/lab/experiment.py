# SPDX-License-Identifier: GPL-2.0
"""What the host needs to know about an experiment: its columns, its
boots (parts) and the functions that print its seed-format table and
judge its goals.  Each experiment declares one next to its script, in
experiments/NAME.py; bench.py lists them."""


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
        self.minutes = minutes          # guest time at BENCH_SCALE=1, 1 run
        self.accel = accel              # None: the experiment's
        self.cpus = cpus                # None: the experiment's


class Experiment:
    """What the host needs to know about one experiment."""

    def __init__(self, name, desc, columns, baseline=None, mem=2048,
                 minutes=10, append='', kernels=False, formatter=None,
                 parts=None, no_icount=None, cpus=1, goals=None):
        self.name = name
        self.desc = desc
        self.columns = columns          # [(metric, heading)]
        self.baseline = baseline        # (config key, value) for ratios
        self.mem = mem
        self.minutes = minutes          # guest time at BENCH_SCALE=1, 1 run
        self.append = append            # kernel command line additions
        self.kernels = kernels          # compares kernel configurations
        self.formatter = formatter      # seed-format table, or None
        # one boot per part; the rows of all parts make one table
        self.parts = parts or [Part(None, minutes)]
        # why the experiment cannot run on the instruction-counted clock:
        # it then runs under TCG when the lab's clock would be icount
        self.no_icount = no_icount
        self.cpus = cpus                # vCPUs of its guest
        # (experiment, rows) -> the pass/fail lines of its goals, or None
        self.goals = goals


# why an experiment whose measured time reads the 9p root is kept off the
# instruction-counted clock (Experiment.no_icount)
NO_9P = ('its measured time includes programs and files read over the 9p '
         'root after the caches are dropped; on the instruction-counted '
         'clock an idle guest waiting for the host jumps to its next timer, '
         'which turns each such wait into up to seconds of guest time')
