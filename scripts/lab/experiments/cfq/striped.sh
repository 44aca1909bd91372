# SPDX-License-Identifier: GPL-2.0
# cfq's workload "striped" (part disk), sourced by ../cfq.sh: seed 002's
# table on a simhba raid0 LUN of 4 u320-10k members (64 KiB chunks,
# tagged queue depth 32): N = $nlist random readers (2, 4 and 8; 2 only
# at the smallest size), each setup of $setups: base (mq-deadline), ioc
# off, ioc no idle and ioc idle (bench_ioc_random, as the ioc-random
# experiment measures them).
# Rows: config {workload: "striped", N, setup, elevator}, metric MBps.

# cfq_striped: the striped rows, on a LUN of their own.
cfq_striped()
{
	local dev

	if ! _simhba_load 1 profile=raid0 raid_members=4 raid_member=u320-10k \
			raid_chunk_kb=64 qdepth=32 nostore=1 >/dev/null; then
		bench_note "cannot load simhba's striped LUN: no striped rows"
		return
	fi
	dev=$(_simhba_disks | head -n1)
	bench_ioc_random "$dev" "$secs" "$nlist" '"workload": "striped", ' \
		"${setups[@]}"
}
