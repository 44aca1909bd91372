# SPDX-License-Identifier: GPL-2.0
"""The experiments bench.py runs: NAME.sh is the guest side of one, NAME.py
(with _ for -) what the host prints and judges of it."""
