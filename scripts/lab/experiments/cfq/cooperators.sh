# SPDX-License-Identifier: GPL-2.0
# cfq's workload "cooperators" (part disk), sourced by ../cfq.sh: the
# simhba sata-7200 disk, 4 threads reading one stream in turn
# (tests/common/coop-reader: each takes the next 64 KiB chunk of a 1 GiB
# region, passes the turn on and reads it with O_DIRECT) for $secs
# seconds, under each setup of $coop: mq-deadline, bfq, cfq (cooperators
# 1, the default) and cfq with cooperators 0 (setup cfq-unmerged).
# Rows: config {workload: "cooperators", elevator, setup}; metrics
# threads_MBps, what the threads read, and seeks_per_kread, the disk's
# seeks (simhba's counters) per 1000 reads; cfq's row carries
# coop_merges, the processes it moved to a merged queue, as a detail.

# cfq_cooperators DEV: one row per setup of the cooperators workload, each
# reading the same region (the same zone) from its start.
cfq_cooperators()
{
	local dev=$1 setup s out s0 r0 reads rd seeks merges on t

	for setup in $coop; do
		s=${setup%-unmerged}
		bench_step "cooperators: $setup, 4 threads reading one stream in turn (${secs} s)"
		bench_select "$dev" "$s" || continue
		on=1
		[ "$setup" = cfq ] || on=0
		[ "$s" != cfq ] || echo "$on" >/sys/block/"$dev"/queue/iosched/cooperators
		s0=$(_simhba_stat "$dev" seeks)
		r0=$(_simhba_stat "$dev" reads)
		if ! out=$("$LAB_TOP/tests/common/coop-reader" /dev/"$dev" 4 64 0 \
				1024 seq:"$secs"); then
			bench_note "cooperators: coop-reader failed under $setup"
			continue
		fi
		read -r _ reads _ t <<<"$out"
		rd=$(($(_simhba_stat "$dev" reads) - r0))
		seeks=$(($(_simhba_stat "$dev" seeks) - s0))
		merges=
		[ "$setup" != cfq ] || merges=$(_sched_stat "$dev" coop_merges)
		bench_row "{\"workload\": \"cooperators\", \"elevator\": \"$s\", \"setup\": \"$setup\"}" \
			"{\"threads_MBps\": $(awk -v n="$reads" -v t="$t" 'BEGIN { printf "%.2f", n * 64 / 1024 / t }'), \"seeks_per_kread\": $((rd > 0 ? seeks * 1000 / rd : 0))}" \
			${merges:+"{\"coop_merges\": $merges}"}
	done
	bench_select "$dev" cfq >/dev/null 2>&1 &&
		echo 1 >/sys/block/"$dev"/queue/iosched/cooperators
}
