# SPDX-License-Identifier: GPL-2.0
# cfq's workload "readers" (readers+writer; part disk), sourced by
# ../cfq.sh: the simhba sata-7200 disk, 2 streaming buffered readers
# (started 1 s apart) against a streaming buffered writer for $secs
# seconds, under each elevator of $mixed: mq-deadline, cfq, bfq and
# anticipatory (bench_reader_writer, with bench_small_writeback's limits).
# Rows: config {workload: "readers+writer", elevator}; metrics those of
# bench_reader_writer, reader_MBps the readers' sum.
# Measured last: a measurement that does not end (stalled I/O) is a note
# with the scheduler's state (bench_stalled), and nothing more runs on
# that disk.

# cfq_readers DEV RUN: a row per elevator of $mixed; fails after a stall.
cfq_readers()
{
	local dev=$1 run=$2 size region s m

	bench_small_writeback
	size=$(($(cat /sys/block/"$dev"/size) * 512))
	region=$((size / 8))
	for s in $mixed; do
		bench_select "$dev" "$s" || continue
		bench_step "elevator=$s run $run: 2 readers + buffered writer (${secs} s)"
		if m=$(bench_within $((3 * secs + 60)) bench_reader_writer "$dev" \
				"$secs" 0 $((4 * region)) $region 2); then
			bench_row "{\"workload\": \"readers+writer\", \"elevator\": \"$s\"}" "{$m}"
		else
			bench_stalled "$dev" "$s" $((3 * secs + 60)) \
				"2 readers + buffered writer"
			return 1
		fi
	done
}
