# SPDX-License-Identifier: GPL-2.0
# cfq's workload "null_blk" (part overhead, only on the
# instruction-counted clock), sourced by ../cfq.sh: 4 KiB random-read
# kIOPS on null_blk under cfq, mq-deadline and bfq ($overhead) in 2 s
# turns for $secs seconds (bench_nullblk_turns, as anticipatory measures
# them).
# Rows: config {workload: "null_blk", elevator}; metrics nullblk_kiops and
# nullblk_p99_us, the read latency's 99th percentile.

# cfq_null_blk NB: BENCH_RUNS rows per elevator of $overhead.
cfq_null_blk()
{
	# shellcheck disable=SC2086
	bench_nullblk_turns "$1" "$secs" nullblk_kiops \
		"instruction-counted clock" '"workload": "null_blk", ' \
		$overhead
}
