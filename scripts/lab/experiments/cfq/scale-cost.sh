# SPDX-License-Identifier: GPL-2.0
# cfq's workload "scale-cost" (scale cost; part overhead, only on the
# instruction-counted clock), sourced by ../cfq.sh: null_blk under cfq and
# mq-deadline ($scale_cost), N = 16, 64 and 256 processes ($scale_n) of
# 4 KiB O_DIRECT random reads (psync; null_blk completes them as they are
# issued) for $secs seconds each, BENCH_RUNS times.
# Rows: config {workload: "scale cost", N, elevator}; metrics us_per_io,
# guest time per read, which on this clock is path length (1 us is 1000
# instructions), and kiops.

# cfq_scale_cost NB: BENCH_RUNS scale cost rows per N of $scale_n and
# scheduler of $scale_cost, on null_blk.
cfq_scale_cost()
{
	local nb=$1 n s iops run

	for run in $(seq 1 "$BENCH_RUNS"); do
		for n in $scale_n; do
			for s in $scale_cost; do
				bench_step "scale cost: elevator=$s run $run, $n processes of null_blk 4 KiB random reads (${secs} s)"
				bench_select "$nb" "$s" || continue
				fio --output-format=json --output="$TEST_TMP/sc.json" \
				    --name=sc --filename=/dev/"$nb" --rw=randread \
				    --bs=4k --direct=1 --ioengine=psync --norandommap \
				    --numjobs="$n" --group_reporting --time_based \
				    --runtime="$secs" >/dev/null 2>&1
				iops=$(fio_total_iops "$TEST_TMP/sc.json" 2>/dev/null)
				bench_row "{\"workload\": \"scale cost\", \"N\": $n, \"elevator\": \"$s\"}" \
					"$(awk -v i="$iops" 'BEGIN {
						if (i > 0) printf "{\"us_per_io\": %.4f, \"kiops\": %.2f}", 1e6 / i, i / 1000
						else print "{\"us_per_io\": null, \"kiops\": null}" }')"
			done
		done
	done
}
