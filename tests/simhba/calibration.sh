# SPDX-License-Identifier: GPL-2.0
# simhba-calibration, the guest side (sourced by the experiment runner after
# scripts/lab/experiments/lib.sh): for every profile, sequential-read MB/s
# at the outer and the inner zone and random 4 KiB read IOPS at QD1 and
# QD32, each next to the model's analytic expectation and the ratio.
#
# Expectations: for a disk, the named drive's datasheet (simhba_model's
# spec_* and avg_ns are its published figures, not derived from the
# model's geometry); for the ssd, from its parameters:
#   sequential (disk)   the datasheet's sustained rate at the outer and
#                       inner zone, times the members for raid0
#   sequential (ssd)    bs / (overhead + read latency + bs / channel rate)
#   random QD1 (disk)   1 / (average seek + half a revolution)
#   random QD1 (ssd)    1 / (overhead + read latency + 4 KiB / channel rate)
#   random QD32 (ssd)   min(32, channels) x the QD1 value
#   random QD32 (disk)  no closed form: the measured gain over QD1 is shown
# Each measurement lasts 10 s x BENCH_SCALE, at time_scale=1; every
# profile is measured BENCH_RUNS times (a row per run), in turns.

secs=$(awk -v s="${BENCH_SCALE:-1}" 'BEGIN { t = int(10 * s); print (t < 3 ? 3 : t) }')
bs=$((1024 * 1024))
bench_plan $((16 * ${BENCH_RUNS:-1}))

model() { awk -v k="$2" '$1 == k { print $2 }' /sys/block/"$1"/device/simhba_model; }

# random 4 KiB reads of disk $1 at queue depth $2 for $secs: total IOPS
rnd_iops()
{
	fio --output-format=json --output="$TEST_TMP/r$2.json" --name=rnd \
	    --filename=/dev/"$1" --rw=randread --bs=4k --ioengine=libaio \
	    --iodepth="$2" --direct=1 --norandommap --randrepeat=0 \
	    --time_based --runtime="$secs" >/dev/null 2>&1
	fio_total_iops "$TEST_TMP/r$2.json"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "null" }'; }

for run in $(seq 1 "${BENCH_RUNS:-1}"); do
	for p in u320-10k sata-7200 ssd raid0; do
		if ! _simhba_load 1 profile="$p" nostore=1 time_scale=1 >/dev/null; then
			bench_note "cannot load simhba profile=$p"
			continue
		fi
		d=$(_simhba_disks | head -n1)
		size=$(($(cat /sys/block/"$d"/size) * 512))
		# regions in whole blocks of $bs (O_DIRECT wants aligned offsets)
		region=$((size / 16 / bs * bs))
		inner_off=$(((size - region) / bs * bs))
		kind=$(model "$d" kind)
		members=$(model "$d" members)
		ovh=$(model "$d" overhead_ns)
		if [ "$kind" = hdd ]; then
			e_outer=$(awk -v r="$(model "$d" spec_outer_Bps)" -v m="$members" 'BEGIN { printf "%.2f", r * m / 1e6 }')
			e_inner=$(awk -v r="$(model "$d" spec_inner_Bps)" -v m="$members" 'BEGIN { printf "%.2f", r * m / 1e6 }')
			e_qd1=$(awk -v a="$(model "$d" avg_ns)" -v t="$(model "$d" rot_ns)" 'BEGIN { printf "%.1f", 1e9 / (a + t / 2) }')
			e_qd32=null
		else
			e_outer=$(awk -v b=$bs -v o="$ovh" -v r="$(model "$d" read_ns)" -v c="$(model "$d" chan_mbps)" \
				'BEGIN { printf "%.2f", b / ((o + r + b * 1000 / c) / 1e9) / 1e6 }')
			e_inner=$e_outer
			e_qd1=$(awk -v o="$ovh" -v r="$(model "$d" read_ns)" -v c="$(model "$d" chan_mbps)" \
				'BEGIN { printf "%.1f", 1e9 / (o + r + 4096 * 1000 / c) }')
			e_qd32=$(awk -v q="$e_qd1" -v n="$(model "$d" channels)" 'BEGIN { printf "%.1f", q * (n < 32 ? n : 32) }')
		fi

		bench_step "$p run $run: sequential read, outer zone"
		fio --output-format=json --output="$TEST_TMP/o.json" --name=seq \
		    --filename=/dev/"$d" --rw=read --bs=$bs --ioengine=psync --direct=1 \
		    --offset=0 --size=$region --time_based --runtime="$secs" >/dev/null 2>&1
		outer=$(fio_mbps "$TEST_TMP/o.json" seq read)

		bench_step "$p run $run: sequential read, inner zone"
		fio --output-format=json --output="$TEST_TMP/i.json" --name=seq \
		    --filename=/dev/"$d" --rw=read --bs=$bs --ioengine=psync --direct=1 \
		    --offset=$inner_off --size=$region \
		    --time_based --runtime="$secs" >/dev/null 2>&1
		inner=$(fio_mbps "$TEST_TMP/i.json" seq read)

		bench_step "$p run $run: random 4 KiB reads, QD1"
		qd1=$(rnd_iops "$d" 1)

		bench_step "$p run $run: random 4 KiB reads, QD32"
		qd32=$(rnd_iops "$d" 32)

		bench_row "{\"profile\": \"$p\"}" \
			"{\"seq_outer_MBps\": $outer, \"seq_outer_expected\": $e_outer, \"seq_outer_ratio\": $(ratio "$outer" "$e_outer"), \
\"seq_inner_MBps\": $inner, \"seq_inner_expected\": $e_inner, \"seq_inner_ratio\": $(ratio "$inner" "$e_inner"), \
\"rand_qd1_iops\": $qd1, \"rand_qd1_expected\": $e_qd1, \"rand_qd1_ratio\": $(ratio "$qd1" "$e_qd1"), \
\"rand_qd32_iops\": $qd32, \"rand_qd32_expected\": $e_qd32, \"rand_qd32_ratio\": $(ratio "$qd32" "${e_qd32/null/0}"), \
\"qd32_gain_over_qd1\": $(ratio "$qd32" "$qd1")}"
	done
done
_simhba_unload
