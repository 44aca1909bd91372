# SPDX-License-Identifier: GPL-2.0
# cfq (issue 13's benchmarks), every goal judged on ratios measured in the
# same run.  Rows carry a "workload" key.  This is the driver: it finds
# what the kernel and the guest offer, plans the steps, runs the wanted
# workloads and tidies up.  Each workload is a file of cfq/, sourced
# first, whose header says what it measures and the rows it writes:
#
# Part "disk" (BENCH_PART=disk, or empty), on simhba LUNs:
#   cfq/striped.sh      striped: seed 002's table on a raid0 LUN, MBps
#   cfq/weights.sh      weights: 4 cgroups of io.cfq.weight, their shares
#   cfq/fair.sh         fair time: 4 kinds of reader under cfq, traced:
#                       time and slice shares, latency (fair-rows.py)
#   cfq/scale.sh        scale: N random readers under cfq, the longest
#                       read and wait in cfq against its round
#                       (scale-rows.py)
#   cfq/cooperators.sh  cooperators: 4 threads reading one stream in turn
#   cfq/readers.sh      readers+writer: 2 streaming readers against a
#                       buffered writer, per elevator; measured last (a
#                       stall leaves the disk unusable)
# Part "overhead" (BENCH_PART=overhead, or empty; it runs first), in a
# guest whose clock counts instructions (elsewhere it is skipped):
#   cfq/null_blk.sh     null_blk: random-read kIOPS per elevator
#   cfq/scale-cost.sh   scale cost: guest time per read, N processes
#
# Each measurement lasts 10 s x BENCH_SCALE (at least 1 s; $secs); weights,
# fair time and scale 20 s x BENCH_SCALE (at least 2 s; $long).  At the
# smallest size the striped table has N=2 only and the scale workload N=16
# only.
#
# BENCH_ONLY (optional, comma separated) runs only the workloads named:
# striped, weights, fair, readers (readers+writer), null_blk, scale,
# scale-cost, cooperators.

# beyond lib.sh's (make bench's root on tmpfs)
PROGRAMS="blktrace blkparse"

# the workloads' files, and the Python scripts that make fair's and
# scale's rows
cfqdir=$LAB_TOP/scripts/lab/experiments/cfq
for f in striped weights fair scale cooperators readers null_blk \
	 scale-cost; do
	# shellcheck disable=SC1090
	. "$cfqdir/$f.sh"
done

secs=$(bench_size 10 1)
long=$(bench_size 20 2)
bench_ctx seconds "$secs"
bench_ctx seconds_weights "$long"
parts=$(bench_parts) || exit 2
nlist="2 4 8"
setups=("base" "ioc off" "ioc no idle" "ioc idle")
mixed="mq-deadline cfq bfq anticipatory"
overhead="mq-deadline cfq bfq"
weights="100 200 400 800"
scale_n="16 64 256"
scale_cost="mq-deadline cfq"
if bench_smoke; then
	nlist=2
	scale_n=16
	bench_note "smallest size: striped N=2 only; scale N=16 only"
fi
# want WORKLOAD: BENCH_ONLY is unset or names WORKLOAD.
want() { [ -z "${BENCH_ONLY:-}" ] || [[ ",$BENCH_ONLY," == *",$1,"* ]]; }
coop_setups="mq-deadline bfq cfq cfq-unmerged"
if [ -n "${BENCH_ONLY:-}" ]; then
	bench_note "BENCH_ONLY=$BENCH_ONLY: the other workloads did not run"
	want cooperators || coop_setups=
	want striped || nlist=
	want readers || mixed=
	want null_blk || overhead=
	want scale-cost || scale_cost=
fi
disk=0
[[ " $parts " != *" disk "* ]] || disk=1
nb=
if [[ " $parts " == *" overhead "* ]]; then
	nb=$(bench_nullblk) ||
		bench_note "null_blk is not available: no scheduler-overhead rows"
fi
have_simhba=0
if [ $disk = 1 ]; then
	if _have_module simhba >/dev/null; then
		have_simhba=1
	else
		bench_note "simhba is not available: no striped, weights, readers+writer or fair-time rows"
	fi
fi

# What this kernel offers, from a disk that exists now (make bench's root
# on tmpfs boots without the virtio scratch disks).
if [ -n "$nb" ]; then
	avail=$(bench_schedulers "$nb")
else
	avail=$(bench_schedulers "$(bench_disk sata-7200)")
fi
have() { grep -qw -- "$1" <<<"$avail"; }
pick()
{
	local s out=

	for s in "$@"; do
		if have "$s"; then
			out="$out $s"
		else
			bench_note "elevator $s is not available in this kernel: its rows are missing"
		fi
	done
	echo "$out"
}
groups=0
if have cfq && bench_io_groups; then
	mkdir -p /sys/fs/cgroup/bench-probe
	[ -e /sys/fs/cgroup/bench-probe/io.cfq.weight ] && groups=1
	rmdir /sys/fs/cgroup/bench-probe
fi
[ $groups = 1 ] || [ $disk = 0 ] ||
	bench_note "no io.cfq.weight (cfq, cgroup v2 io controller, CFQ_GROUP_IOSCHED): no weights rows"
mixed=$(pick $mixed)
overhead=$(pick $overhead)
scale_cost=$(pick $scale_cost)
have cfq || setups=("base")
have cfq || scale_cost=
# the setups whose elevator this kernel has
coop=
for s in $coop_setups; do
	if have "${s%-unmerged}"; then
		coop="$coop $s"
	elif [ "$s" != cfq-unmerged ]; then
		bench_note "elevator $s is not available in this kernel: its cooperators row is missing"
	fi
done
want weights || groups=0
fair=0
scale=
if have cfq; then
	want fair && fair=1
	want scale && scale=$scale_n
fi

steps=0
if [ $have_simhba = 1 ]; then
	steps=$((${#setups[@]} * $(wc -w <<<"$nlist") + $(wc -w <<<"$mixed") +
		 groups + fair + $(wc -w <<<"$scale") + $(wc -w <<<"$coop")))
fi
[ -z "$nb" ] || ! bench_icount ||
	steps=$((steps + $(wc -w <<<"$overhead") +
		 $(wc -w <<<"$scale_cost") * $(wc -w <<<"$scale_n")))
bench_plan $((steps * BENCH_RUNS))

stalled=0
for run in $(seq 1 "$BENCH_RUNS"); do
	[ $have_simhba = 1 ] || break
	[ -z "$nlist" ] || cfq_striped
	dev=$(bench_disk sata-7200)
	bench_ctx device "$dev"
	[ $groups = 0 ] || cfq_weights "$dev"
	[ $fair = 0 ] || cfq_fair "$dev"
	[ -z "$scale" ] || cfq_scale "$dev"
	[ -z "$coop" ] || cfq_cooperators "$dev"
	# last: a stall here (bench_stalled) leaves the disk unusable
	if ! cfq_readers "$dev" "$run"; then
		stalled=1
		break
	fi
done
[ $have_simhba = 0 ] || [ "$stalled" = 1 ] || _simhba_unload

[ -n "$nb" ] || exit 0
if bench_icount; then
	[ -z "$overhead" ] || cfq_null_blk "$nb"
	[ -z "$scale_cost" ] || cfq_scale_cost "$nb"
else
	bench_note "the overhead part needs a guest booted with LAB_ACCEL=icount: skipped"
fi
