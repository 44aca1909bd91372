# SPDX-License-Identifier: GPL-2.0
# sg-segments (seed 001): 2 qla2xxx-like simhba HBAs x 10 u320-10k LUNs and
# 20 parallel "dd bs=256k count=2000 iflag=direct" readers (one per LUN),
# for sg_segments = 32 and 64.
#
# Measured, over a window while all 20 dd run (after their start-up, before
# the first one ends): MB/s from the disks' own sectors-read counters,
# read() calls of the dd processes (the offset of their input, fd 0, in
# /proc/PID/fdinfo, over 256 KiB: every read is a full one, which dd's
# "count+0 records in" confirms) and their context switches
# (/proc/PID/status), SCSI commands from the disks' completed reads and from
# simhba's per-LUN statistics, interrupts and context switches of the
# whole guest (/proc/stat), the links' busy time (simhba_link); each
# divided by the guest time (/proc/uptime) between the window's two
# snapshots.  vmstat samples (bi in cs us sy id) every 5 s (1 s for runs
# shorter than 20 s) are kept as the seed printed them.  Every dd must
# exit 0 having read all its blocks, or the run fails with its message.
# count scales with BENCH_SCALE (at least 240: at the smallest size the
# sampler, about 0.1 s a snapshot on the instruction-counted clock, still
# gets several snapshots before the first reader ends).

# beyond lib.sh's (make bench's root on tmpfs)
PROGRAMS="stdbuf /usr/libexec/coreutils/libstdbuf.so vmstat mkfifo"

count=$(bench_size 2000 240)
bench_ctx count "$count"
ival=5
[ "$count" -ge 1000 ] || ival=1
bench_ctx vmstat_interval "$ival"
bench_plan $((2 * BENCH_RUNS))
if ! _have_module simhba >/dev/null; then
	bench_note "simhba is not available: sg-segments needs 20 simhba LUNs"
	exit 1
fi

# A pause that executes nothing: read with a timeout from a FIFO no one
# writes to.
mkfifo "$TEST_TMP/pause"
exec {sg_pause_fd}<>"$TEST_TMP/pause"
sg_pause() { read -r -t "$1" -u "$sg_pause_fd" _ || :; }

# sg_snap: append one snapshot of every counter the window needs to
# $TEST_TMP/snaps, with bash builtins only (no program runs inside the
# measured interval; on the instruction-counted clock a program read from
# the host's 9p root jumps the guest's clock).  A file of several lines is
# read whole by one mapfile: read, line by line, seeks back after each
# line, and procfs and sysfs then generate the file again, with counters
# that may have changed length.  Sets sg_running=0 when one of the readers
# (pids[i], reading disks[i]) is no longer reading (it has read its last
# block or closed its input, it ended, or it is a zombie).
# The host parses the lines (bench.py parse_sg_snaps).
sg_snap()
{
	local up _ i d h p l v st pos vc nc line reads rbytes lines

	sg_running=1
	{
		read -r up _ </proc/uptime
		echo "snap $up"
		for d in "${disks[@]}"; do
			read -r line </sys/block/"$d"/stat
			echo "disk $d $line"
			reads=- rbytes=-
			mapfile -t lines <"/sys/block/$d/device/simhba_stats"
			for l in "${lines[@]}"; do
				case $l in
				"reads "*) reads=${l#reads } ;;
				"read_bytes "*) rbytes=${l#read_bytes } ;;
				esac
			done
			echo "lun $d $reads $rbytes"
		done
		for h in "${hosts[@]}"; do
			mapfile -t lines <"/sys/class/scsi_host/host$h/simhba_link"
			for l in "${lines[@]}"; do
				echo "link $h $l"
			done
		done
		for i in "${!pids[@]}"; do
			p=${pids[i]}
			st=- pos=- vc=- nc=-
			if mapfile -t lines <"/proc/$p/status"; then
				for l in "${lines[@]}"; do
					v=${l#*:}
					v=${v//[[:space:]]/}
					case $l in
					State:*) st=${v:0:1} ;;
					voluntary_ctxt_switches:*) vc=$v ;;
					nonvoluntary_ctxt_switches:*) nc=$v ;;
					esac
				done
				# dd reads its input on fd 0
				mapfile -t lines <"/proc/$p/fdinfo/0"
				for l in "${lines[@]}"; do
					v=${l#*:}
					case $l in pos:*) pos=${v//[[:space:]]/} ;; esac
				done
			fi 2>/dev/null
			# a reader that has read its last block, or closed its
			# input on the way out, has finished reading: "E"
			[ "$pos" != - ] && [ "$pos" -lt $((count * 262144)) ] ||
				st=E
			case $st in R | S | D) ;; *) sg_running=0 ;; esac
			echo "proc $p $st $pos $vc $nc ${disks[i]}"
		done
		mapfile -t lines </proc/stat
		for l in "${lines[@]}"; do
			case $l in
			"cpu "* | "ctxt "*) echo "$l" ;;
			"intr "*) v=${l#intr }; echo "intr ${v%% *}" ;;
			esac
		done
		read -r up _ </proc/uptime
		echo "end $up"
	} >>"$TEST_TMP/snaps"
}

# Every program the runs execute is read from the host's 9p root once
# before, so that none waits on the host while the readers run.
dd if=/dev/zero of=/dev/null count=1 2>/dev/null
stdbuf -oL vmstat -n 1 1 >/dev/null
ran=0
failed=0
for run in $(seq 1 "$BENCH_RUNS"); do
	for seg in 32 64; do
		bench_step "sg_segments=$seg run $run: 20 dd readers, bs=256k count=$count"
		if ! _simhba_load 20 hosts=2 luns=10 personality=qla2xxx \
				sg_segments=$seg profile=u320-10k nostore=1 >"$TEST_TMP/load.log"; then
			bench_note "cannot load simhba with sg_segments=$seg: $(tr '\n"' ' ' <"$TEST_TMP/load.log")"
			failed=1
			continue
		fi
		mapfile -t disks < <(_simhba_disks)
		mapfile -t hosts < <(_simhba_hosts)
		d0=${disks[0]}
		maxs=$(cat /sys/block/"$d0"/queue/max_sectors_kb)
		segs=$(cat /sys/block/"$d0"/queue/max_segments)
		# the links' capacity towards the host, 10^6 B/s
		cap=0
		for h in "${hosts[@]}"; do
			cap=$((cap + $(awk '$1 == "to_host" || $1 == "both" { print $3 }' \
				/sys/class/scsi_host/host"$h"/simhba_link)))
		done
		# the readers' expected time at the links' capacity, and from it
		# the start-up left out of the window and the sampling period
		est=$(awk -v n=${#disks[@]} -v c="$count" -v cap="$cap" \
			'BEGIN { print (cap > 0 ? n * c * 262144 / (cap * 1e6) : 30) }')
		skip=$(awk -v e="$est" 'BEGIN { v = e / 10; print (v < 0.2 ? 0.2 : v) }')
		every=$(awk -v e="$est" 'BEGIN { v = e / 40; print (v < 0.1 ? 0.1 : v) }')
		declare -A r0=()
		for d in "${disks[@]}"; do
			read -r "r0[$d]" _ </sys/block/"$d"/stat
		done
		echo "bs 262144" >"$TEST_TMP/snaps"
		stdbuf -oL vmstat -n "$ival" >"$TEST_TMP/vmstat" &
		vpid=$!
		pids=()
		for d in "${disks[@]}"; do
			dd if=/dev/"$d" of=/dev/null bs=256k count="$count" iflag=direct \
				2>"$TEST_TMP/dd.$d" &
			pids+=($!)
		done
		# start-up: until every disk has completed a read, then skip
		for i in "${!disks[@]}"; do
			d=${disks[i]}
			while read -r r _ </sys/block/"$d"/stat && [ "$r" = "${r0[$d]}" ] &&
			      [ -r /proc/"${pids[i]}"/status ]; do
				sg_pause 0.02
			done
		done
		# the sampler must not starve behind the readers it measures
		# when they keep the CPUs busy (a slow virtual CPU); renice is
		# a program, so it runs here, before the window
		renice -n -10 -p $BASHPID >/dev/null
		sg_pause "$skip"
		sg_snap
		while [ $sg_running = 1 ]; do
			sg_pause "$every"
			sg_snap
		done
		renice -n 0 -p $BASHPID >/dev/null
		# vmstat's samples are of the readers' run, not of what follows
		kill "$vpid" 2>/dev/null
		wait "$vpid" 2>/dev/null
		bad=
		for i in "${!pids[@]}"; do
			d=${disks[i]}
			if wait "${pids[i]}"; then
				# every read() was a full one: count+0 records
				while read -r line; do
					[ "$line" = "$count+0 records in" ] && continue 2
				done <"$TEST_TMP/dd.$d"
				bad+="dd of $d read short: $(tr '\n"' ' ' <"$TEST_TMP/dd.$d"); "
			else
				bad+="dd of $d failed (status $?): $(tr '\n"' ' ' <"$TEST_TMP/dd.$d"); "
			fi
		done
		if [ -n "$bad" ]; then
			bench_note "sg_segments=$seg run $run: $bad"
			failed=1
			_simhba_unload
			continue
		fi
		# the most segments one command brought to a host, this run
		for h in "${hosts[@]}"; do
			echo "max_segs $h $(cat /sys/class/scsi_host/host"$h"/simhba_max_segs)"
		done >>"$TEST_TMP/snaps"
		# the raw samples, kept beside the results
		bench_keep "$TEST_TMP/snaps" "sg-segments-snaps-seg$seg-run$run.txt"
		samples=$(bench_parse vmstat "$TEST_TMP/vmstat")
		win=$(bench_parse sg-window "$TEST_TMP/snaps")
		case $win in
		*'"window_s": null'*)
			bench_note "sg_segments=$seg run $run: no window while all readers ran ($(grep -c '^snap ' "$TEST_TMP/snaps") snapshots, one every $every s after $skip s): its rates are missing" ;;
		esac
		bench_row "{\"sg_segments\": $seg, \"max_sectors\": $((maxs * 2)), \"max_segments\": $segs}" \
			"$win" "{\"vmstat\": $samples}"
		ran=1
		_simhba_unload
	done
done
[ $ran = 1 ] && [ $failed = 0 ]
