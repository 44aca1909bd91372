# SPDX-License-Identifier: GPL-2.0
# bs-sweep (seed 003): the CPU cost of a sequential read per transfer size.
# Transfers of 1K, 2K, ... 64K, read through the SCSI generic path
# (sgp_dd bs=512 bpt=2..128, as in the seed) and through O_DIRECT dd, on a
# simhba u320-10k disk and on a simhba array LUN.  Each size reads the same
# number of bytes: 8 MB x BENCH_SCALE (at least 1 MB).  Reported: real,
# user and sys time, context switches per second and MB/s.
#
# simhba has no mirrored LUN: the array is its raid0 LUN of 2 u320-10k
# members (a sequential read of a mirror is served by one disk at a time,
# of a 2-member stripe by both: the array's MB/s is not the mirror's).

# beyond lib.sh's (make bench's root on tmpfs)
PROGRAMS="sgp_dd"

mb=$(bench_size 8 1)
bench_ctx mb "$mb"
sizes="1 2 4 8 16 32 64"
if bench_smoke; then
	sizes="1 64"
	bench_note "smallest size: 1K and 64K transfers only"
fi
bench_plan $((2 * 2 * $(wc -w <<<"$sizes") * BENCH_RUNS))
if ! _have_module simhba >/dev/null ||
   ! _simhba_load 2 hosts=2 profile=u320-10k,raid0 raid_members=2 \
		raid_member=u320-10k nostore=1 >/dev/null; then
	bench_note "simhba is not available: bs-sweep needs a u320-10k disk and an array LUN"
	exit 1
fi
mapfile -t disks < <(_simhba_disks)
names=(u320-10k array-raid0x2)
bench_note "the array is simhba's raid0 LUN of 2 u320-10k disks: simhba has no mirror profile"
have_sg=1
command -v sgp_dd >/dev/null || { have_sg=0; bench_note "sgp_dd (sg3-utils) is not installed: no sg rows"; }
TIMEFORMAT='%3R %3U %3S'
ran=0
for run in $(seq 1 "$BENCH_RUNS"); do
	for i in 0 1; do
		d=${disks[$i]}
		sg=$(ls /sys/block/"$d"/device/scsi_generic 2>/dev/null | head -n1)
		for path in sg dio; do
			for k in $sizes; do
				bench_step "${names[$i]} $path ${k}K transfers, $mb MB, run $run"
				if [ $path = sg ]; then
					[ $have_sg = 1 ] && [ -n "$sg" ] || continue
					cmd=(sgp_dd if=/dev/"$sg" of=/dev/null bs=512 bpt=$((2 * k)) count=$((mb * 2048)))
				else
					cmd=(dd if=/dev/"$d" of=/dev/null bs=${k}K count=$((mb * 1024 / k)) iflag=direct)
				fi
				s0=$(bench_stat)
				{ time "${cmd[@]}" >"$TEST_TMP/out" 2>&1; } 2>"$TEST_TMP/time"
				rc=$?
				s1=$(bench_stat)
				if [ $rc != 0 ]; then
					bench_note "${cmd[*]} failed: $(tail -n1 "$TEST_TMP/out" | tr '"' "'")"
					continue
				fi
				read -r real user sys <"$TEST_TMP/time"
				# its own times are the CPU figures: a short read may
				# pass no tick of /proc/stat's, so no CPU shares
				st=$(bench_rate_delta "$s0" "$s1" "$real")
				bench_row "{\"device\": \"${names[$i]}\", \"path\": \"$path\", \"size_kb\": $k}" \
					"{\"real_s\": $real, \"user_s\": $user, \"sys_s\": $sys, \
\"MBps\": $(awk -v m="$mb" -v t="$real" 'BEGIN { if (t > 0) printf "%.2f", m * 1048576 / t / 1e6; else print "null" }'), $st}"
				ran=1
			done
		done
	done
done
_simhba_unload
[ $ran = 1 ]
