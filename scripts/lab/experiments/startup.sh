# SPDX-License-Identifier: GPL-2.0
# startup: responsiveness.  How long an application takes to start with
# cold caches while other programs keep the disk busy, under every
# elevator; and whether a reader that needs 1 MiB every 40 ms (a video
# player) gets it in time beside the same loads.
#
# One ext4 file system on a simhba sata-7200 disk holds everything: the
# application (tests/common/startup: the guest's Python interpreter in a
# root of its own, importing about 60 standard-library modules; it reads
# nothing from anywhere else) and the loads' files, as on a desktop.
# The loads, each started and run for a while before the first start:
#   idle                 nothing
#   5 seq readers        5 buffered sequential readers (64 KiB reads), each
#                        of its own file
#   5 seq writers        5 buffered sequential writers (1 MiB writes), each
#                        overwriting its own file
#   5 random readers     5 buffered 4 KiB random readers of the readers' files
#   2 readers 2 writers  2 of the readers and 2 of the writers
# Elevators: every one the kernel offers, and cfq once more with
# low_latency=0 ("cfq low_latency=0"), all at their defaults, the kernel's
# writeback defaults too; or the configurations BENCH_VARIANTS names (comma
# separated, each an elevator and its tunables as NAME=VALUE, for example
# "bfq,cfq slice_sync=400 low_latency=0").  Per elevator and load, in this
# order:
#   - STARTS cold starts (10 x BENCH_SCALE, at least 1), each after
#     drop_caches (no sync: the load's dirty data stays, as on a desktop),
#     timed in the guest; a start that has not ended after CAP
#     seconds (120 x BENCH_SCALE, at least 3) is killed and recorded as
#     over the cap.  The start over the cap that puts p90 over it (the
#     second of 10) ends the series (a note says so): the mean, p90 and
#     max are then over it whatever the rest would do.  Metrics (parsers.py startup_stats): start_mean_s,
#     start_p90_s, start_max_s (null when over the cap), over_cap, starts;
#     on the idle disk app_MB (what the disk moved per start: the
#     application's reads), with a load bg_MBps (what the disk moved during
#     the starts, less the application's reads on the idle disk: the
#     load's share; a scheduler that wins by stalling the load shows it);
#     the detail row keeps every start.
#   - the soft real-time reader: 1 MiB buffered reads of its own file, 25
#     a second (fio rate_iops), for RT seconds (10 x BENCH_SCALE, at least
#     2), from a cold cache, the k-th read due 40 ms x (k + 1) after the
#     start: rt_deadlines (the reads due in that time), rt_misses (those
#     that completed late or not at all; parsers.py fio_deadlines),
#     rt_reads (the reads made), rt_p99_ms.
# The load's files are written full of zeros, which simhba does not store.
# At the smoke size (BENCH_SCALE below 0.01, as lab/007 runs it) the
# application imports its first 6 modules only, and the loads run under
# bfq only and with O_DIRECT, every elevator starting on the idle disk:
# each code path once, in a few minutes of the host's time.

PROGRAMS="ldd chroot mkfs.ext4 /etc/mke2fs.conf"
. "$LAB_TOP/tests/common/startup"

starts=$(bench_size 10 1)
cap=$(bench_size 120 3)
settle=$(bench_size 5 1)
rt_secs=$(bench_size 10 1)
# the readers' files: larger together than the guest's memory at full size
read_mb=$(bench_size 1024 8)
write_mb=$(bench_size 256 8)
smoke=0
if bench_smoke; then
	smoke=1
	STARTUP_MODULES=$(echo $STARTUP_MODULES | cut -d' ' -f1-6)
	bench_note "smoke size (BENCH_SCALE $BENCH_SCALE): the application imports 6 modules, only bfq runs the loads, and they bypass the page cache (O_DIRECT)"
	# the loads' files are small enough to stay cached: buffered, the
	# loads would copy from the cache at the CPU's pace (the guest's
	# instructions are its clock) and seldom reach the disk
	smoke_io=--direct=1
else
	smoke_io=
fi
bench_ctx starts "$starts"
bench_ctx cap_s "$cap"
bench_ctx application "python3, $(wc -w <<<"$STARTUP_MODULES") modules imported"
LOADS=("idle" "5 seq readers" "5 seq writers" "5 random readers" "2 readers 2 writers")

if ! _simhba_load 1 profile=sata-7200 store_mb=512 >"$TEST_TMP/sl.log"; then
	bench_note "cannot load simhba: $(tr '\n"' ' ' <"$TEST_TMP/sl.log")"
	exit 1
fi
dev=$(_simhba_disks | head -n1)
mnt=$TEST_TMP/fs
mkdir -p "$mnt"
if ! mkfs.ext4 -q -F -J size=64 -E lazy_itable_init=1,lazy_journal_init=1,nodiscard \
		/dev/"$dev" >"$TEST_TMP/mkfs.log" 2>&1 ||
   ! mount -o noinit_itable /dev/"$dev" "$mnt"; then
	bench_note "mkfs.ext4/mount on $dev failed: $(tr '\n"' ' ' <"$TEST_TMP/mkfs.log")"
	_simhba_unload
	exit 1
fi
bench_ctx device "$dev"
if ! startup_install "$mnt/app" >"$TEST_TMP/install.log" 2>&1; then
	bench_note "cannot install the application: $(tr '\n"' ' ' <"$TEST_TMP/install.log")"
	umount "$mnt"
	_simhba_unload
	exit 1
fi
mkdir -p "$mnt/load"
for i in 1 2 3 4 5; do
	dd if=/dev/zero of="$mnt/load/r$i" bs=1M count="$read_mb" 2>/dev/null
	dd if=/dev/zero of="$mnt/load/w$i" bs=1M count="$write_mb" 2>/dev/null
done
dd if=/dev/zero of="$mnt/load/rt" bs=1M count="$read_mb" 2>/dev/null
# the first idle disk must be idle: nothing of the files left to write
sync

# the configurations: every elevator, cfq a second time with low_latency=0
# ("cfq low_latency=0"); or those BENCH_VARIANTS names
mapfile -t variants < <(bench_configs "$dev" "cfq low_latency=0")
if [ "$smoke" = 1 ]; then
	bench_plan $(((${#variants[@]} + ${#LOADS[@]} - 1) * BENCH_RUNS))
else
	bench_plan $((${#variants[@]} * ${#LOADS[@]} * BENCH_RUNS))
fi

# startup_load NAME: start load NAME's fio in the background (its pid in
# load_pid, none for idle), and return once the disk has moved data for
# it and it has run for another $settle seconds.
startup_load()
{
	local jobs=() i s0

	load_pid=
	case $1 in
	idle) return 0 ;;
	"5 seq readers")
		for i in 1 2 3 4 5; do jobs+=(--name=r$i --filename="$mnt/load/r$i" --rw=read --bs=64k); done ;;
	"5 seq writers")
		for i in 1 2 3 4 5; do jobs+=(--name=w$i --filename="$mnt/load/w$i" --rw=write --bs=1M); done ;;
	"5 random readers")
		for i in 1 2 3 4 5; do jobs+=(--name=q$i --filename="$mnt/load/r$i" --rw=randread --bs=4k); done ;;
	"2 readers 2 writers")
		for i in 1 2; do
			jobs+=(--name=r$i --filename="$mnt/load/r$i" --rw=read --bs=64k)
			jobs+=(--name=w$i --filename="$mnt/load/w$i" --rw=write --bs=1M)
		done ;;
	esac
	read -r s0 < <(awk '{ print $3 + $7 }' /sys/block/"$dev"/stat)
	# shellcheck disable=SC2086
	# the program itself (lib.sh's fio is a function: in the background,
	# a shell whose kill would leave fio running), one process (--thread)
	# that the kill in startup_stop ends whole
	command fio --randseed="$BENCH_SEED" --thread --ioengine=psync --zero_buffers --invalidate=0 --time_based $smoke_io \
	    --runtime=1000000 --output=/dev/null "${jobs[@]}" >/dev/null 2>&1 &
	load_pid=$!
	while kill -0 "$load_pid" 2>/dev/null &&
	      [ "$(awk '{ print $3 + $7 }' /sys/block/"$dev"/stat)" = "$s0" ]; do
		sleep 0.1
	done
	sleep "$settle"
	kill -0 "$load_pid" 2>/dev/null
}

# startup_stop: end the load, and write its dirty data back before the
# next one starts (the next elevator's idle disk must be idle).
startup_stop()
{
	[ -n "$load_pid" ] || return 0
	kill "$load_pid" 2>/dev/null
	wait "$load_pid" 2>/dev/null
	load_pid=
	sync
}

for run in $(seq 1 "$BENCH_RUNS"); do
	for v in "${variants[@]}"; do
		# a new instance: every tunable at its default but those named
		bench_config "$dev" "$v" || continue
		app=
		for load in "${LOADS[@]}"; do
			[ "$smoke" = 0 ] || [ "$load" = idle ] || [ "$v" = bfq ] || continue
			cfg="{\"elevator\": \"$v\", \"load\": \"$load\"}"
			bench_step "elevator=$v run $run: $starts cold start(s) with load \"$load\", then the 40 ms reader"
			if ! startup_load "$load"; then
				startup_stop
				bench_note "elevator $v: load $load did not start"
				continue
			fi
			: >"$TEST_TMP/starts"
			over=0
			# starts over the cap that put the 90th percentile
			# (nearest rank, ceil(0.9 x starts)) over it too
			enough=$((starts - (9 * starts + 9) / 10 + 1))
			for ((i = 0; i < starts; i++)); do
				startup_run "$mnt/app" "$cap" "$dev" >>"$TEST_TMP/starts" \
					2>>"$TEST_TMP/app.err" || break
				# enough starts over the cap put the mean, the 90th
				# percentile and the maximum over it, whatever the
				# others do: they would only spend a cap each
				[ "$(tail -n1 "$TEST_TMP/starts" | cut -d' ' -f1)" = over ] || continue
				((++over < enough || i + 1 == starts)) && continue
				bench_note "elevator $v, load $load: $((i + 1)) of $starts starts ran; $over over the cap put the mean, p90 and max over it and ended the series"
				break
			done
			if [ -s "$TEST_TMP/app.err" ]; then
				bench_note "elevator $v, load $load: $(head -c 300 "$TEST_TMP/app.err" | tr '\n"' ' ')"
				: >"$TEST_TMP/app.err"
			fi
			# the idle disk's starts give the application's own bytes
			[ "$load" != idle ] || app=$(awk '$1 == "ok" && $3 != "-" {
				b += $3 * 512; n++ } END { if (n) printf "%d", b / n }' \
				"$TEST_TMP/starts")
			if m=$(bench_parse startup "$cap" \
					"$([ "$load" = idle ] && echo - || echo "${app:-0}")" \
					"$TEST_TMP/starts"); then
				bench_row "$cfg" "$m" "{\"starts\": \"$(tr '\n' ';' <"$TEST_TMP/starts")\"}"
				n=$(grep -c '^over ' "$TEST_TMP/starts")
				[ "$n" = 0 ] ||
					bench_note "elevator $v, load $load: $n of $(wc -l <"$TEST_TMP/starts") start(s) over the cap ($cap s)"
			fi
			startup_cold
			# every read's completion time, in a log fio writes at
			# its end (log_avg_msec=0: one line a read)
			rm -f "$TEST_TMP"/rt_*.log
			fio --output=/dev/null --name=rt --write_lat_log="$TEST_TMP/rt" \
			    --log_avg_msec=0 --filename="$mnt/load/rt" --rw=read \
			    --bs=1M --rate_iops=25 --ioengine=psync --invalidate=0 \
			    --time_based --runtime="$rt_secs" >/dev/null 2>&1
			if m=$(bench_parse fio-deadlines 40 "$rt_secs" "$TEST_TMP/rt_clat.1.log"); then
				bench_row "$cfg" "$m"
			else
				bench_note "elevator $v, load $load: the 40 ms reader measured nothing"
			fi
			startup_stop
		done
	done
done
for i in 1 2 3 4 5; do
	umount "$mnt" 2>"$TEST_TMP/umount.log" && break
	sleep 1
done
! grep -qs " $mnt " /proc/mounts ||
	bench_note "cannot unmount the file system on $dev: $(tr '\n"' ' ' <"$TEST_TMP/umount.log")"
_simhba_unload >"$TEST_TMP/sl.log" ||
	bench_note "$(tr '\n"' ' ' <"$TEST_TMP/sl.log")"
