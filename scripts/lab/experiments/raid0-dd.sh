# SPDX-License-Identifier: GPL-2.0
# raid0-dd (seed 004): md raid0 over 4 simhba u320-10k LUNs, and
#   dd if=/dev/zero of=/dev/md0 bs=1024k count=2048
# five times (x BENCH_RUNS).  count scales with BENCH_SCALE (at least 16).
# On the host, KERNELS=a,b boots each kernel configuration in turn; the
# table has one column per configuration.  The array is built without
# superblocks (mdadm --build): the LUNs keep no data (nostore).

# beyond lib.sh's (make bench's root on tmpfs)
PROGRAMS="mdadm"

count=$(bench_size 2048 16)
nruns=$((5 * BENCH_RUNS))
bench_ctx count "$count"
bench_plan $((nruns + 1))
bench_step "set up 4 simhba u320-10k LUNs and md raid0"
if ! _have_module simhba >/dev/null || ! _simhba_load 4 luns=4 profile=u320-10k nostore=1 >/dev/null; then
	bench_note "simhba is not available: raid0-dd needs 4 simhba LUNs"
	exit 1
fi
mapfile -t disks < <(_simhba_disks | head -n4 | sed 's|^|/dev/|')
mdadm --stop /dev/md0 >/dev/null 2>&1
if ! mdadm --build /dev/md0 --level=0 --chunk=64 --raid-devices=4 \
		"${disks[@]}" >"$TEST_TMP/mdadm.log" 2>&1; then
	bench_note "mdadm --build of raid0 failed: $(tr '\n"' ' ' <"$TEST_TMP/mdadm.log")"
	_simhba_unload
	exit 1
fi
bench_ctx array "md0 raid0 chunk 64K over ${disks[*]}"
# seed 004 is about writeback: say which limits this run wrote under
bench_ctx writeback "$(cd /proc/sys/vm && for k in dirty_ratio dirty_background_ratio \
	dirty_bytes dirty_background_bytes; do echo "$k=$(cat $k)"; done | paste -sd' ')"
kname=${BENCH_KERNEL_NAME:-${LAB_KERNEL:-default}}
for i in $(seq 1 "$nruns"); do
	bench_step "dd bs=1024k count=$count to md0, run $i/$nruns"
	dd if=/dev/zero of=/dev/md0 bs=1024k count="$count" 2>"$TEST_TMP/dd.log"
	# dd's own figure, as in the seed: "... copied, 7.5 s, 286 MB/s"
	mbps=$(awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") t = $(i - 1)
		     b = $1 } END { if (t > 0) printf "%.2f", b / t / 1e6; else print "null" }' "$TEST_TMP/dd.log")
	bench_row "{\"kernel\": \"$kname\"}" "{\"MBps\": $mbps}"
done
mdadm --stop /dev/md0 >/dev/null 2>&1
_simhba_unload
