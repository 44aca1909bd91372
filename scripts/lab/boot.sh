#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot the lab kernel in QEMU, run one command in the guest, power off, and
# exit with that command's status.
#
#   boot.sh [-m MEM_MB] [-c CPUS] [-t TIMEOUT_S] [-a APPEND] [-d DISKS]
#           [-o OUTDIR] -- COMMAND...
#
# The guest's root is the host's root, shared read-only over 9p, so the
# host's fio, blktrace, PostgreSQL... run in the guest.  The guest starts in
# the current directory.  /tmp and /run are tmpfs; $LAB_OUT is a writable
# directory that is OUTDIR (default: a fresh $BUILD/run/<id>/out) on the
# host.  DISKS scratch disks (default 2) of 1 GiB, new and sparse for every
# boot, are attached: virtio-blk with serials blk26-vd0, blk26-vd1, ... and one
# virtio-scsi disk with serial blk26-sd0.  LAB_NVME=1 adds an emulated
# NVMe disk with one I/O queue per vCPU (serial blk26-nv0).
#
# LAB_GUEST_ROOT="WORD..." runs the command in a root on tmpfs that holds
# copies of the programs (names looked up in PATH) and absolute paths
# (files, directories) it names, with their libraries, plus the lab's guest
# scripts and the kernel's modules.  boot.sh packs them and the job into an
# initramfs; the guest reads nothing from the host until the command ends,
# and only then writes OUTDIR (see scripts/lab/guest-root and guest-init).
#
# LAB_PKG_ROOT=DIR boots the kernel and modules of a linux-image package
# unpacked into DIR (dpkg-deb -x; make deb), in place of make kernel's.
# DIR must lie under $BUILD or the tree, which the guest sees.
#
# LAB_ACCEL picks the accelerator: auto (default: KVM when a short probe
# boots, else TCG), kvm, tcg, or icount: TCG with an instruction counter
# for a clock (-icount shift=N,sleep=off; 2^N guest nanoseconds per
# instruction of any vCPU, the vCPUs take turns on one host thread), so
# CPU-bound rates are repeatable whatever else the host runs; its
# real-time clock (CMOS) then runs on that clock too, from
# 2026-01-01 00:00 UTC in every boot, and a job in LAB_GUEST_ROOT starts
# with the same instructions at the same guest times in every boot (see
# "The same run twice" in Documentation/block/blk26-lab.rst).
# LAB_ICOUNT_SHIFT=N (0 to 10, default 0: one instruction per nanosecond)
# slows that virtual CPU down by 2^N; it only applies to icount.  Under
# icount QEMU's own random numbers (RDRAND) come from LAB_SEED (default 1,
# QEMU's -seed).  The guest finds the choices in /proc/cmdline as
# blk26.accel= and blk26.icount_shift=.  make bench boots with icount;
# boot.sh alone, and so make test, keeps auto.
#
# Exit status: the command's, or 124 on timeout, 125 when the guest died
# before the command finished, 126 when the kernel reported a splat (oops,
# BUG, WARNING, lockdep, KASAN, hung task...); the splat is printed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

mem=${LAB_MEM:-2048}
cpus=${LAB_CPUS:-2}
tmo=${LAB_TIMEOUT:-600}
append=${LAB_APPEND:-}
ndisks=${LAB_DISKS:-2}
outdir=
usage() { sed -n '3,48p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts m:c:t:a:d:o:h opt; do
	case $opt in
	m) mem=$OPTARG ;;
	c) cpus=$OPTARG ;;
	t) tmo=$OPTARG ;;
	a) append="$append $OPTARG" ;;
	d) ndisks=$OPTARG ;;
	o) outdir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage
for v in "$mem" "$cpus" "$tmo" "$ndisks"; do
	[[ $v =~ ^[0-9]+$ ]] || die "-m, -c, -t and -d take positive integers (got '$v')"
done
[ "$mem" -ge 256 ] || die "-m $mem: the guest needs at least 256 MB"
[ "$cpus" -ge 1 ] || die "-c $cpus: at least one CPU"
shift_n=${LAB_ICOUNT_SHIFT:-0}
[[ $shift_n =~ ^([0-9]|10)$ ]] ||
	die "LAB_ICOUNT_SHIFT=$shift_n: use an integer from 0 to 10 (2^N ns per guest instruction; 0, one per ns, is the fastest; QEMU's shift=auto follows the host's speed and is not repeatable)"
icount_sleep=${LAB_ICOUNT_SLEEP:-off}
case $icount_sleep in on|off) ;; *) die "LAB_ICOUNT_SLEEP=$icount_sleep: use on or off" ;; esac
case ${LAB_NVME:-0} in
0|1) ;;
*) die "LAB_NVME=$LAB_NVME: use 0 or 1" ;;
esac
seed=${LAB_SEED:-1}
[[ $seed =~ ^[0-9]{1,9}$ ]] || die "LAB_SEED=$seed: use a non-negative integer"

need_cmd qemu-system-x86_64 qemu-system-x86
need_cmd timeout coreutils
if [ -n "${LAB_PKG_ROOT:-}" ]; then
	# a linux-image package unpacked into LAB_PKG_ROOT (dpkg-deb -x):
	# its boot/vmlinuz-<release> and lib/modules/<release>
	LAB_PKG_ROOT=$(cd "$LAB_PKG_ROOT" 2>/dev/null && pwd) ||
		die "LAB_PKG_ROOT: no such directory"
	case $LAB_PKG_ROOT/ in
	"$BUILD"/*|"$LAB_TOP"/*) ;;
	*) die "LAB_PKG_ROOT=$LAB_PKG_ROOT: must lie under $BUILD or $LAB_TOP, which the guest sees" ;;
	esac
	deps=("$LAB_PKG_ROOT"/lib/modules/*/modules.dep)
	[ ${#deps[@]} = 1 ] && [ -f "${deps[0]}" ] ||
		die "LAB_PKG_ROOT=$LAB_PKG_ROOT: want exactly one lib/modules/<release>/modules.dep"
	rel=${deps[0]%/modules.dep}
	rel=${rel##*/}
	img=$LAB_PKG_ROOT/boot/vmlinuz-$rel
	kconfig=$LAB_PKG_ROOT/boot/config-$rel
	KMOD=$LAB_PKG_ROOT
	[ -f "$img" ] || die "LAB_PKG_ROOT: $img missing"
	# the guest's root is 9p over virtio, and its tests need no module
	# to find it
	for o in VIRTIO_PCI NET_9P_VIRTIO 9P_FS; do
		grep -qx "CONFIG_$o=y" "$kconfig" ||
			die "LAB_PKG_ROOT: the package's kernel does not build in CONFIG_$o ($kconfig): the lab cannot boot it (make deb builds the lab's configuration by default)"
	done
else
	img=$KOBJ/arch/x86/boot/bzImage
	kconfig=$KOBJ/.config
	[ -f "$img" ] || die "$img missing: run 'make kernel KERNEL=$KERNEL' first"
	rel=$(kernel_release)
fi

run=$BUILD/run/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$run"
[ -n "$outdir" ] || outdir=$run/out
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
rm -f "$outdir/exit-status" "$outdir/recorded"

# The job: environment, working directory, command.
{
	echo "export LAB_TOP=$(printf %q "$LAB_TOP") LAB_KERNEL=$(printf %q "$KERNEL")"
	for v in $(compgen -v | grep -E '^(LAB_|BENCH_|T$|TEST_)' || true); do
		# and not the host's own knobs: the job is packed into a sealed
		# guest's archive, whose bytes must not hang on them
		case $v in
		LAB_TOP|LAB_DIR|LAB_OUT|LAB_QUIET|LAB_TIMEOUT) continue ;;
		BENCH_RESULTS|BENCH_TIMEOUT_SCALE) continue ;;
		esac
		echo "export $v=$(printf %q "${!v}")"
	done
	echo "cd $(printf %q "$PWD")"
	printf '%q ' "$@"
	echo
} >"$outdir/job.sh"

# The root on tmpfs: the files the job asked for, and those guest-init and
# the job's modprobe need, listed here with the guest's PATH, copied and
# packed with the job (/.blk26-job) into an initramfs.  The same job on the
# same host files packs the same bytes: names sorted, inode numbers
# renumbered, no device numbers and root as owner (cpio --reproducible
# -R 0:0), the lab's Python caches left out, and what the copy made
# (job.sh, the directories) dated from the guest's first second.  Two
# boots of archives that differed in inode numbers alone parted within
# 0.4 s on the instruction-counted clock.
rm -f "$outdir/guest-root" "$outdir/root-files" "$outdir/root-sha256"
initrd=()
# what guest-init runs (ip, to bring up lo, only where the host has it)
guest_init="cat cp cut dirname du ln mkdir mount mountpoint sed sync umount"
guest_init+=" $(PATH=/usr/sbin:/usr/bin:/sbin:/bin type -P ip || true)"
# the copy and the archive go when boot.sh does, whatever ends it (bash
# runs no EXIT trap when a signal kills it)
trap 'rm -rf "$run/root" "$run/root.cpio" "$run/stamp" "$run/copy.err" "$run"/*.img "$run/replay.bin"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT HUP
if [ -n "${LAB_GUEST_ROOT:-}" ]; then
	grep -qx CONFIG_BLK_DEV_INITRD=y "$kconfig" ||
		die "LAB_GUEST_ROOT needs a kernel with CONFIG_BLK_DEV_INITRD=y (base.config has it): run 'make kernel KERNEL=$KERNEL' first"
	# shellcheck disable=SC2086
	PATH=$LAB_DIR/guest-bin:/usr/sbin:/usr/bin:/sbin:/bin \
		"$LAB_DIR/guest-root" --list $LAB_GUEST_ROOT bash sh $guest_init \
		/usr/sbin/modprobe "$LAB_DIR" "$KMOD/lib/modules/$rel" \
		>"$outdir/guest-root" ||
		die "LAB_GUEST_ROOT: cannot list the files of '$LAB_GUEST_ROOT'"
	echo "exclude ${LAB_TOP#/}/*/__pycache__" >>"$outdir/guest-root"
	need_cmd cpio cpio
	stage=$run/root
	touch "$run/stamp"
	# a failed copy says why (tar's last lines: the bench keeps only
	# boot.sh's own)
	"$LAB_DIR/guest-root" --copy "$stage" "$outdir/guest-root" 2>"$run/copy.err" ||
		die "LAB_GUEST_ROOT: cannot copy the files of '$LAB_GUEST_ROOT': $(tail -n 3 "$run/copy.err" | tr '\n' ' ')"
	mkdir -p "$stage/.blk26-job" "$stage$PWD"
	cp "$outdir/job.sh" "$stage/.blk26-job/"
	find "$stage" -newer "$run/stamp" -exec touch -h -d @1767225600 {} +
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --reproducible -R 0:0 --quiet) >"$run/root.cpio" ||
		die "LAB_GUEST_ROOT: cannot pack the initramfs"
	# what the guest runs, for bench.py's JSON (runner.root_doc): the
	# files and links packed, by their host paths, and the archive's
	# whole sha256
	(cd "$stage" && find . -mindepth 1 ! -type d | cut -c2- | LC_ALL=C sort) \
		>"$outdir/root-files"
	rm -rf "$stage"
	initrd=(-initrd "$run/root.cpio")
	sum=$(sha256sum <"$run/root.cpio" | cut -d' ' -f1)
	echo "$sum" >"$outdir/root-sha256"
	log "root in the initramfs: $(($(stat -c %s "$run/root.cpio") >> 20)) MB, sha256 ${sum:0:16}"
fi

# --- accelerator: KVM only when a short probe shows it boots here -------
accel=tcg
want=${LAB_ACCEL:-auto}
case $want in
auto|kvm|tcg|icount|kvm-probe) ;;
*) die "LAB_ACCEL=$want: use auto, kvm, tcg or icount" ;;
esac
if [ "$want" = kvm ] || { [ "$want" = auto ] && [ -w /dev/kvm ]; }; then
	probe=$BUILD/accel-probe
	if [ ! -f "$probe" ]; then
		log "probing KVM (20 s at most)"
		if LAB_ACCEL=kvm-probe LAB_DISKS=0 LAB_GUEST_ROOT= timeout --foreground -k 5 30 \
			"$0" -m 256 -c 1 -t 20 -- true >/dev/null 2>&1; then
			echo kvm >"$probe"
		else
			echo tcg >"$probe"
			log "KVM does not boot here: using TCG"
		fi
	fi
	accel=$(cat "$probe")
	[ "$want" != kvm ] || [ "$accel" = kvm ] || die "LAB_ACCEL=kvm, but KVM did not boot in the probe"
fi
case $want in
kvm-probe) accel=kvm ;;
tcg) accel=tcg ;;
icount) accel=icount ;;
esac
if [ "$accel" = kvm ]; then
	qaccel=(-accel kvm -cpu host)
elif [ "$accel" = icount ]; then
	# sleep=off: an idle guest's clock jumps to its next timer.  No
	# align=on: it would only slow a guest that runs ahead of the host's
	# clock, which a 1 GIPS guest under TCG does not do (and QEMU refuses
	# it with sleep=off).
	# LAB_ICOUNT_SLEEP=on (experimental): an idle guest's clock follows
	# the host's instead, so waits for the host cost their real time.
	# The real-time clock on the guest's clock from a fixed date: on the
	# host's clock what the guest reads from it (its time, its update
	# cycle) depends on the host, and two boots' kernel logs parted
	# within half a second.
	# A sealed job (LAB_GUEST_ROOT) on one vCPU with no scratch disk is
	# also recorded (rr=record; the log is thrown away): two runs of an
	# experiment on plain icount parted after minutes of guest time, two
	# recorded ones did not (Documentation/block/blk26-lab.rst, "The
	# same run twice").  QEMU records one vCPU only, and disks only
	# through its blkreplay driver.
	rr=
	[ ${#initrd[@]} = 0 ] || [ "$cpus" -ne 1 ] || [ "$ndisks" -ne 0 ] ||
		[ "${LAB_NVME:-0}" != 0 ] || rr=,rr=record,rrfile=$run/replay.bin
	qaccel=(-accel tcg -icount "shift=$shift_n,sleep=$icount_sleep$rr" -cpu max
		-seed "$seed" -rtc base=2026-01-01T00:00:00,clock=vm)
else
	qaccel=(-accel tcg,thread=multi -cpu max)
fi

# --- disks ----------------------------------------------------------------
drives=()
if [ "$ndisks" -gt 0 ]; then
	for ((i = 0; i < ndisks; i++)); do
		truncate -s 1G "$run/vd$i.img"
		drives+=(-drive "file=$run/vd$i.img,if=none,id=vd$i,format=raw,cache=none,aio=threads"
			 -device "virtio-blk-pci,drive=vd$i,serial=blk26-vd$i")
	done
	truncate -s 1G "$run/sd0.img"
	drives+=(-device virtio-scsi-pci,id=vscsi
		 -drive "file=$run/sd0.img,if=none,id=sd0,format=raw,cache=none,aio=threads"
		 -device "scsi-hd,bus=vscsi.0,drive=sd0,serial=blk26-sd0")
fi

# LAB_NVME=1: an emulated NVMe disk too (serial blk26-nv0, 1 GiB), with
# one I/O queue pair for each vCPU, so that blk-mq gives it a hardware
# context per CPU
if [ "${LAB_NVME:-0}" = 1 ]; then
	truncate -s 1G "$run/nv0.img"
	drives+=(-drive "file=$run/nv0.img,if=none,id=nv0,format=raw,cache=none,aio=threads"
		 -device "nvme,drive=nv0,serial=blk26-nv0,max_ioqpairs=$cpus")
fi

if [ ${#initrd[@]} = 0 ]; then
	cmdline="console=ttyS0 rootfstype=9p root=blk26root ro"
	cmdline+=" rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=262144"
	cmdline+=" init=$LAB_DIR/guest-init"
else
	# no root=: the kernel's own root is then a tmpfs, not a ramfs
	cmdline="console=ttyS0 rdinit=$LAB_DIR/guest-init"
fi
cmdline+=" panic=-1 oops=panic"
# Under TCG a vCPU is a host thread that may not run for seconds on a busy
# host: RCU stall warnings are then noise, and real hangs hit the timeout.
cmdline+=" rcupdate.rcu_cpu_stall_suppress=1"
cmdline+=" blk26.modroot=$KMOD blk26.keep=$LAB_TOP,$BUILD blk26.accel=$accel"
[ "$accel" != icount ] || cmdline+=" blk26.icount_shift=$shift_n"
cmdline+=" $append"

clock=$accel
[ "$accel" != icount ] || clock="icount shift=$shift_n,sleep=$icount_sleep${rr:+,rr=record}"
# for bench.py's JSON: this guest was recorded
[ -z "${rr:-}" ] || : >"$outdir/recorded"
log "booting $rel ($clock, ${cpus} CPU, ${mem} MB, timeout ${tmo} s), console: $run/console.log"
set +e
# --foreground: QEMU stays in this script's process group, so that
# whoever stops the boot by its group (bench.py's runner, a Ctrl-C)
# stops QEMU too; timeout's own group would keep it running.
timeout --foreground -k 10 "$tmo" qemu-system-x86_64 "${qaccel[@]}" \
	-smp "$cpus" -m "$mem" -nographic -no-reboot -nodefaults \
	-serial stdio -display none \
	-kernel "$img" "${initrd[@]}" -append "$cmdline" \
	-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=root,mount_tag=blk26root \
	-fsdev local,id=out,path="$outdir",security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=out,mount_tag=blk26out \
	"${drives[@]}" </dev/null 2>"$run/qemu.err" |
	sed -u 's/\r$//' | tee "$run/console.log" |
	if [ -n "${LAB_QUIET:-}" ]; then cat >/dev/null; else cat; fi
qrc=${PIPESTATUS[0]}
set -e
cp "$run/console.log" "$outdir/console.log" 2>/dev/null || true

# A kernel splat fails the run whatever the command said.  The pattern is
# shared with tests/run, which blames the test during which one appeared.
splat=$(cat "$LAB_DIR/splat.ere")
if grep -Eq "$splat" "$run/console.log"; then
	line=$(grep -En "$splat" "$run/console.log" | head -n1 | cut -d: -f1)
	{
		echo "[lab] ---- kernel splat in the guest (console line $line) ----"
		sed -n "$((line > 5 ? line - 5 : 1)),$((line + 60))p" "$run/console.log"
		echo "[lab] ---- end of splat; full console: $run/console.log ----"
	} >&2
	exit 126
fi
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	log "guest timed out after ${tmo} s (console: $run/console.log)"
	exit 124
fi
if [ ! -s "$outdir/exit-status" ]; then
	[ ! -s "$run/qemu.err" ] || sed 's/^/[qemu] /' "$run/qemu.err" >&2
	if grep -q '^blk26: could not copy \$LAB_OUT to the host' "$run/console.log"; then
		log "the command ended ($(grep -o '^blk26: job exit status [0-9]*' "$run/console.log" | tail -n1)), but its output did not reach $outdir (console: $run/console.log)"
	else
		log "the guest died before the command finished (qemu status $qrc, console: $run/console.log)"
	fi
	tail -n 20 "$run/console.log" >&2
	exit 125
fi
exit "$(cat "$outdir/exit-status")"
