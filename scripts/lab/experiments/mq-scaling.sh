# SPDX-License-Identifier: GPL-2.0
# mq-scaling: what an elevator costs on a multi-queue disk as submitting
# CPUs are added.  null_blk with 4 submit queues (a hardware context for
# each of the guest's 4 vCPUs) completes every request at once, so the
# IOPS measure the submission and dispatch path, the elevator's lock
# included.  4 KiB random reads at QD 8 per job from 1, 2 and 4 jobs, job i
# bound to CPU i, each elevator in 2 s turns (bench_nullblk_turns), on the
# instruction-counted clock.  The vCPUs take turns on one host thread and
# share one instruction counter, so 10^9 / IOPS is the instructions the
# guest spends per request, all CPUs together: without contention the IOPS
# stay the same from 1 to 4 CPUs, and a CPU that spins on a lock another
# one holds spends counted instructions, which lowers them, as does the
# deeper total queue (QD 8 per job).
# Each measurement lasts 10 s x BENCH_SCALE (at least 2 s).

secs=$(bench_size 10 2)
bench_ctx seconds "$secs"
if ! bench_icount; then
	bench_note "mq-scaling needs a guest booted with LAB_ACCEL=icount: its IOPS count instructions"
	exit 1
fi
ncpu=$(nproc)
[ "$ncpu" -ge 4 ] || { bench_note "mq-scaling needs 4 vCPUs, the guest has $ncpu"; exit 1; }
if ! nb=$(bench_nullblk 4 0); then
	bench_note "null_blk is not available: mq-scaling needs it"
	exit 1
fi
hctx=$(ls /sys/block/"$nb"/mq | wc -l)
bench_ctx hardware_contexts "$hctx"
if [ "$hctx" != 4 ]; then
	bench_note "null_blk has $hctx hardware contexts, not 4 (loaded before with other parameters?)"
	modprobe -r null_blk 2>/dev/null
	exit 1
fi
scheds=$(bench_schedulers "$nb")
for s in anticipatory cfq; do
	grep -qw -- "$s" <<<"$scheds" ||
		bench_note "elevator $s is not available in this kernel: its rows are missing"
done
bench_plan $(($(wc -w <<<"$scheds") * BENCH_RUNS * 3))

for n in 1 2 4; do
	# shellcheck disable=SC2086
	NB_JOBS=$n NB_PIN=1 bench_nullblk_turns "$nb" "$secs" kiops \
		"$n CPU$([ "$n" = 1 ] || echo s)" "\"cpus\": $n, " $scheds
done
modprobe -r null_blk 2>/dev/null || true
