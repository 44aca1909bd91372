#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The fault-and-switch soak behind "make soak": boot the lab kernel once and
# run scripts/lab/soak-guest in it for MINUTES minutes of guest time (fio
# with verification on three simhba LUNs under every I/O scheduler, with
# elevator switches, injected faults, resets, cgroups and tunable writes at
# random times), then print the table and write it as JSON and CSV.
#
#   soak.sh [-m MINUTES] [-s SEED] [-o DIR] [-n]
#
# MINUTES (default 60, or $MINUTES) is a positive whole number.  SEED (or
# $SOAK_SEED; default: a random one, printed) fixes the plan of events: the
# same seed replays the same events.  DIR defaults to results/soak-<stamp>.
# -n only checks the arguments.  The guest has a hard timeout of MINUTES
# plus a margin.  SOAK_SELFTEST=unrecorded-fault makes the run fail on
# purpose (see scripts/lab/soak-guest).
#
# Exit status: 0 when every must-be-zero column is zero, no splat, every
# scheduler x LUN row present; 1 otherwise (and for bad arguments).
set -euo pipefail
. "$(dirname "$0")/common.sh"

minutes=${MINUTES:-60}
seed=${SOAK_SEED:-}
out=
check=
usage() { sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts m:s:o:nh opt; do
	case $opt in
	m) minutes=$OPTARG ;;
	s) seed=$OPTARG ;;
	o) out=$OPTARG ;;
	n) check=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || usage
[[ $minutes =~ ^[1-9][0-9]{0,5}$ ]] ||
	die "MINUTES='$minutes': give the soak's length in minutes, a whole number from 1 to 999999, e.g. make soak MINUTES=10"
[ -z "$seed" ] || [[ $seed =~ ^[0-9]{1,18}$ ]] ||
	die "SEED='$seed': the seed is a non-negative whole number (printed by an earlier run)"
case ${SOAK_SELFTEST:-} in
''|unrecorded-fault) ;;
*) die "SOAK_SELFTEST=$SOAK_SELFTEST: the only self-test is unrecorded-fault" ;;
esac
[ -z "$check" ] || exit 0

need_cmd qemu-system-x86_64 qemu-system-x86
need_cmd fio fio
need_cmd sg_reset sg3-utils
need_cmd python3 python3
[ -n "$seed" ] || seed=$((RANDOM << 30 | RANDOM << 15 | RANDOM))
[ -n "$out" ] || out=$LAB_TOP/results/soak-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out/guest"
out=$(cd "$out" && pwd)

# Boot, module loading and the last phase's tail, on top of MINUTES; the
# debug kernel boots and loads modules several times slower.
margin=$((300 + minutes * 6))
[ "$KERNEL" != debug ] || margin=$((840 + minutes * 15))
tmo=$((minutes * 60 + margin))
selftest=()
[ -z "${SOAK_SELFTEST:-}" ] || selftest=(--selftest "$SOAK_SELFTEST")

log "soak: seed $seed, $minutes min of guest time, KERNEL=$KERNEL, hard timeout $tmo s"
replay="make soak MINUTES=$minutes SEED=$seed"
[ "$KERNEL" = default ] || replay+=" KERNEL=$KERNEL"
log "soak: replay with: $replay${SOAK_SELFTEST:+ SOAK_SELFTEST=$SOAK_SELFTEST}"
log "soak: results in $out"
start=$(date +%s)
cd "$LAB_TOP"
set +e
# The guest's progress lines ("soak: ...") from the console, timed.
LAB_QUIET='' "$LAB_DIR/boot.sh" -m 4096 -c 2 -t "$tmo" -o "$out/guest" -- \
	scripts/lab/soak-guest --minutes "$minutes" --seed "$seed" "${selftest[@]}" |
	while IFS= read -r line; do
		case $line in
		soak:*) printf '[soak %4d s] %s\n' $(($(date +%s) - start)) "${line#soak: }" ;;
		esac
	done
rc=${PIPESTATUS[0]}
set -e
log "soak: the guest ran $(($(date +%s) - start)) s (status $rc)"
exec python3 "$LAB_DIR/soak-guest" --report "$out" --status "$rc"
