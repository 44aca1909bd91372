# SPDX-License-Identifier: GPL-2.0
# sg-segments (seed 001): 2 qla2xxx-like simhba HBAs x 10 u320-10k LUNs and
# 20 parallel "dd bs=256k count=2000 iflag=direct" readers (one per LUN),
# for sg_segments = 32 and 64.  vmstat samples (bi in cs us sy id) every
# 5 s (1 s for runs shorter than 20 s), aggregate MB/s, context switches per
# second and per direct-I/O call (one dd read() is one call).
# count scales with BENCH_SCALE (at least 8).

count=$(bench_size 2000 8)
bench_ctx count "$count"
ival=5
[ "$count" -ge 1000 ] || ival=1
bench_ctx vmstat_interval "$ival"
bench_plan $((2 * BENCH_RUNS))
if ! _have_module simhba >/dev/null; then
	bench_note "simhba is not available: sg-segments needs 20 simhba LUNs"
	exit 1
fi
# Every program the measured interval runs is read from the host's 9p
# root once before it, so that none waits on the host inside it (on the
# instruction-counted clock such a wait jumps the guest's clock).
dd if=/dev/zero of=/dev/null count=1 2>/dev/null
stdbuf -oL vmstat -n 1 1 >/dev/null
bench_now >/dev/null
ran=0
for run in $(seq 1 "$BENCH_RUNS"); do
	for seg in 32 64; do
		bench_step "sg_segments=$seg run $run: 20 dd readers, bs=256k count=$count"
		if ! _simhba_load 20 hosts=2 luns=10 personality=qla2xxx \
				sg_segments=$seg profile=u320-10k nostore=1 >"$TEST_TMP/load.log"; then
			bench_note "cannot load simhba with sg_segments=$seg: $(tr '\n"' ' ' <"$TEST_TMP/load.log")"
			continue
		fi
		mapfile -t disks < <(_simhba_disks)
		d0=${disks[0]}
		maxs=$(cat /sys/block/"$d0"/queue/max_sectors_kb)
		segs=$(cat /sys/block/"$d0"/queue/max_segments)
		stdbuf -oL vmstat -n "$ival" >"$TEST_TMP/vmstat" &
		vpid=$!
		sleep 1
		s0=$(bench_stat)
		t0=$(bench_now)
		pids=()
		for d in "${disks[@]}"; do
			dd if=/dev/"$d" of=/dev/null bs=256k count="$count" iflag=direct 2>/dev/null &
			pids+=($!)
		done
		wait "${pids[@]}"
		t1=$(bench_now)
		s1=$(bench_stat)
		kill "$vpid" 2>/dev/null
		wait "$vpid" 2>/dev/null
		secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		calls=$((${#disks[@]} * count))
		st=$(bench_stat_delta "$s0" "$s1" "$secs")
		cs=$(sed 's/.*"cs": \([0-9]*\).*/\1/' <<<"$st")
		samples=$(bench_parse vmstat "$TEST_TMP/vmstat")
		bench_row "{\"sg_segments\": $seg, \"max_sectors\": $((maxs * 2)), \"max_segments\": $segs}" \
			"{\"MBps\": $(awk -v n=$calls -v t="$secs" 'BEGIN { printf "%.2f", n * 262144 / t / 1e6 }'), \
\"secs\": $secs, $st, \"cs_per_call\": $(awk -v c="$cs" -v n=$calls 'BEGIN { printf "%.3f", c / n }')}" \
			"{\"vmstat\": $samples}"
		ran=1
		_simhba_unload
	done
done
[ $ran = 1 ]
