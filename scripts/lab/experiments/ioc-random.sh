# SPDX-License-Identifier: GPL-2.0
# ioc-random (seed 002): N = 2, 4, 8 random readers (O_DIRECT, 64 KiB, each
# its own process and its own region) on a simhba raid0 LUN striped over 4
# u320-10k members (64 KiB chunks, tagged queue depth 32), like the seed's
# 4-bus MSA1000 LUN.  Reported: the sum of the readers' MB/s.
#
# Seed columns: base (no I/O controller: mq-deadline here), ioc off, ioc no
# idle, ioc idle (the CFQ I/O controller with groups).  CFQ does not exist
# in this kernel: those columns are reported missing.  What exists is
# measured in extra, clearly named columns: bfq without groups, and bfq
# with one cgroup per reader, with its idling (slice_idle default) and
# without (slice_idle=0).
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
size=$(($(cat /sys/block/"$dev"/size) * 512))
bench_note "columns ioc off, ioc no idle and ioc idle need CFQ and its I/O controller, which this kernel does not have: missing, not estimated"

setups=("base")
grep -qw bfq <<<"$avail" && setups+=("bfq" "bfq groups" "bfq groups slice_idle=0")
grep -qw bfq <<<"$avail" || bench_note "bfq is not available: no bfq columns"
cg=/sys/fs/cgroup
groups_ok=0
if [ -f $cg/cgroup.controllers ] && grep -qw io $cg/cgroup.controllers &&
   echo +io >$cg/cgroup.subtree_control 2>/dev/null; then
	groups_ok=1
fi
nlist="2 4 8"
if bench_smoke; then
	nlist=2
	bench_note "smallest size: N=2 only"
fi
bench_plan $((${#setups[@]} * $(wc -w <<<"$nlist") * BENCH_RUNS))

for run in $(seq 1 "$BENCH_RUNS"); do
	for setup in "${setups[@]}"; do
		case $setup in
		base) sched=mq-deadline ;;
		*) sched=bfq ;;
		esac
		for n in $nlist; do
			bench_step "$setup ($sched) run $run: $n random readers (${secs} s)"
			if [ "${setup#bfq groups}" != "$setup" ] && [ $groups_ok = 0 ]; then
				bench_note "cgroup v2 io controller not available: no $setup column"
				continue
			fi
			echo "$sched" >/sys/block/"$dev"/queue/scheduler || {
				bench_note "cannot select $sched on $dev"
				continue
			}
			if [ "$sched" = bfq ]; then
				if [ "$setup" = "bfq groups slice_idle=0" ]; then
					echo 0 >/sys/block/"$dev"/queue/iosched/slice_idle
				else
					echo 8 >/sys/block/"$dev"/queue/iosched/slice_idle
				fi
			fi
			pids=()
			for i in $(seq 1 $n); do
				grp=
				if [ "${setup#bfq groups}" != "$setup" ]; then
					grp=$cg/bench-r$i
					mkdir -p "$grp"
				fi
				(
					[ -z "$grp" ] || echo $BASHPID >"$grp/cgroup.procs"
					exec fio --output-format=json --output="$TEST_TMP/r$i.json" \
					    --time_based --runtime="$secs" --filename=/dev/"$dev" \
					    --name=r --rw=randread --bs=64k --direct=1 \
					    --ioengine=psync --norandommap --randseed=$i \
					    --offset=$(((i - 1) * (size / n))) --size=$((size / n)) \
					    >/dev/null 2>&1
				) &
				pids+=($!)
			done
			wait "${pids[@]}"
			sum=$(python3 - "$TEST_TMP" $n <<'PY'
import json, sys
t = 0
for i in range(1, int(sys.argv[2]) + 1):
    j = json.load(open('%s/r%d.json' % (sys.argv[1], i)))
    t += j['jobs'][0]['read']['bw_bytes']
print('%.2f' % (t / 1e6))
PY
)
			[ -n "$sum" ] || sum=null
			bench_row "{\"N\": $n, \"setup\": \"$setup\", \"elevator\": \"$sched\"}" "{\"MBps\": $sum}"
		done
	done
done
rmdir $cg/bench-r* 2>/dev/null
_simhba_unload
