# SPDX-License-Identifier: GPL-2.0
# simhba-calibration: each simhba profile against its model's analytic
# expectation (sequential MB/s at the outer and inner zone, random 4 KiB
# IOPS at QD1 and QD32, with ratios).  The measurement belongs to simhba and
# lives with its tests (tests/simhba/calibration.sh); this only runs it.

cal=$LAB_TOP/tests/simhba/calibration.sh
if ! _have_module simhba >/dev/null; then
	bench_note "simhba is not available: nothing to calibrate"
	exit 1
fi
if [ ! -f "$cal" ]; then
	bench_note "tests/simhba/calibration.sh is missing: no calibration run"
	exit 1
fi
. "$cal"
[ -s "$BENCH_ROWS" ] && grep -q '"config"' "$BENCH_ROWS"
