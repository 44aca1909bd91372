# SPDX-License-Identifier: GPL-2.0
# cfq's workload "weights" (part disk), sourced by ../cfq.sh: on the
# simhba sata-7200 disk under cfq, 4 cgroups of io.cfq.weight 100, 200,
# 400 and 800 ($weights), each one sequential O_DIRECT reader of its own
# 256 MiB region (all in the outer zone, so that bytes measure the time
# spent reading).  Each group's bytes are counted (io.stat rbytes) over
# one window of $long seconds in which all 4 readers run, so that the
# readers' staggered starts and ends are not measured.
# Rows: config {workload: "weights", weight, elevator: "cfq"}; metrics
# share (the group's bytes over all groups' bytes, which bench.py
# compares with the weight's share of the weights; null, with a note, when
# a reader did not run through the window) and read_MB.

# cfq_weights DEV: one row per group of the weights workload.
cfq_weights()
{
	local dev=$1 cg=/sys/fs/cgroup w i=0 pids=() p ok=1 num t
	local -A from to

	bench_step "weights $weights, one sequential reader each (${long} s)"
	bench_select "$dev" cfq || return
	num=$(cat /sys/block/"$dev"/dev)
	# run sleep once before the measured window: the first run reads it
	# over 9p, which moves the guest's clock (see cfq_fair)
	sleep 0.1
	for w in $weights; do
		mkdir -p $cg/bench-w$w
		echo "default $w" >$cg/bench-w$w/io.cfq.weight
		(
			echo $BASHPID >$cg/bench-w$w/cgroup.procs
			exec fio --output-format=json --output="$TEST_TMP/w$w.json" \
			    --name=w$w --filename=/dev/"$dev" --rw=read --bs=64k \
			    --direct=1 --ioengine=psync --offset=$((i * 256))M \
			    --size=256M --time_based --runtime=$((long + 15)) \
			    >/dev/null 2>&1
		) &
		pids+=($!)
		i=$((i + 1))
	done
	# the window opens once every group has read (within 10 s), and
	# closes before any reader ends
	for ((t = 0; t < 100; t++)); do
		for w in $weights; do
			[ "$(_cgroup_rbytes $cg/bench-w$w "$num")" != 0 ] || break
		done
		[ "$(_cgroup_rbytes $cg/bench-w$w "$num")" = 0 ] || break
		sleep 0.1
	done
	sleep 1
	for w in $weights; do
		from[$w]=$(_cgroup_rbytes $cg/bench-w$w "$num")
	done
	sleep "$long"
	for w in $weights; do
		to[$w]=$(_cgroup_rbytes $cg/bench-w$w "$num")
	done
	for p in "${pids[@]}"; do
		kill -0 "$p" 2>/dev/null || ok=0
	done
	for w in $weights; do
		[ "${from[$w]}" != 0 ] || ok=0
	done
	[ $ok = 1 ] ||
		bench_note "weights: not every reader ran through the window: no shares"
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}"
	for w in $weights; do
		echo "$w $((to[$w] - from[$w])) $ok"
	done | awk '{ w[NR] = $1; b[NR] = $2; ok = $3; tot += $2 }
		END { for (i = 1; i <= NR; i++) {
			share = (ok && tot > 0) ? sprintf("%.5f", b[i] / tot) : "null"
			printf "%d %s %.2f\n", w[i], share, b[i] / 1e6 } }' \
		>"$TEST_TMP/shares"
	while read -r w share mb; do
		bench_row "{\"workload\": \"weights\", \"weight\": $w, \"elevator\": \"cfq\"}" \
			"{\"share\": $share, \"read_MB\": $mb}"
		rmdir $cg/bench-w$w 2>/dev/null
	done <"$TEST_TMP/shares"
}
