# SPDX-License-Identifier: GPL-2.0
"""The fault-and-switch soak of "make soak", run by scripts/lab/soak-guest
(its docstring says what the soak does).  One module a concern:

  common     paths, the LUNs' layout, sysfs reads and writes, progress
  devices    loading simhba's three LUNs, the elevators they offer
  kernel     what the kernel reports: its log (/dev/kmsg), block_rq_error
  fiojobs    the fio job file of a LUN, starting and waiting for fio, its
             report and log
  events     the random plan of events of a LUN in a phase, working
             through it
  lun        one LUN in one phase: its state, elevator switches
  faults     fault injection: medium errors, lost and busy commands, resets
  tunables   scheduler tunables written with good and bad values
  cgroups    the mover of fio jobs into new cgroups and out again
  classify   errors and verify failures placed against the injected ranges
  phase      one phase: a scheduler on every LUN, fio, the events
  rows       a LUN's row of a phase
  guest      the guest's main: setup, the phases, soak-rows.jsonl
  report     the host's table, JSON, CSV and verdict (--report)
"""
