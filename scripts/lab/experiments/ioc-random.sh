# SPDX-License-Identifier: GPL-2.0
# ioc-random (seed 002): N = 2, 4, 8 random readers (O_DIRECT, 64 KiB, each
# its own process and its own region) on a simhba raid0 LUN striped over 4
# u320-10k members (64 KiB chunks, tagged queue depth 32), like the seed's
# 4-bus MSA1000 LUN.  Reported: the sum of the readers' MB/s.
#
# Seed columns: base (no I/O controller: mq-deadline here), ioc off (cfq
# without groups), ioc no idle (cfq, one cgroup per reader, group_idle=0),
# ioc idle (cfq, one cgroup per reader, default idling).  Extra columns:
# bfq without groups, and bfq with one cgroup per reader, with its idling
# (slice_idle default) and without (slice_idle=0).  A scheduler the kernel
# lacks leaves its columns missing (bench_ioc_random).
# Each measurement lasts 10 s x BENCH_SCALE (at least 1 s).

secs=$(bench_size 10 1)
bench_ctx seconds "$secs"
if ! _have_module simhba >/dev/null ||
   ! _simhba_load 1 profile=raid0 raid_members=4 raid_member=u320-10k \
		raid_chunk_kb=64 qdepth=32 nostore=1 >/dev/null; then
	bench_note "simhba is not available: ioc-random needs its striped LUN"
	exit 1
fi
dev=$(_simhba_disks | head -n1)
avail=$(bench_schedulers "$dev")

setups=("base")
if grep -qw cfq <<<"$avail"; then
	setups+=("ioc off" "ioc no idle" "ioc idle")
else
	bench_note "cfq is not available: columns ioc off, ioc no idle and ioc idle are missing, not estimated"
fi
if grep -qw bfq <<<"$avail"; then
	setups+=("bfq" "bfq groups" "bfq groups slice_idle=0")
else
	bench_note "bfq is not available: no bfq columns"
fi
nlist="2 4 8"
if bench_smoke; then
	nlist=2
	bench_note "smallest size: N=2 only"
fi
bench_plan $((${#setups[@]} * $(wc -w <<<"$nlist") * BENCH_RUNS))

for run in $(seq 1 "$BENCH_RUNS"); do
	bench_ioc_random "$dev" "$secs" "$nlist" "" "${setups[@]}"
done
_simhba_unload
