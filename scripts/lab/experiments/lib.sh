# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest side of the experiments (scripts/lab/experiments/*.sh),
# sourced by scripts/lab/experiments/run.  An experiment script reports:
#
#   bench_plan N                 how many steps it will take (for progress)
#   bench_step "what"            one step starts (prints progress)
#   bench_row CONFIG_JSON METRICS_JSON
#                                one measurement of one configuration
#   bench_note "text"            something the table must say (a missing
#                                scheduler, a fallback device)
#
# Rows go to $LAB_OUT/$BENCH_EXP.rows (JSON lines) for bench.py.

. "$LAB_TOP/tests/common/rc"
. "$LAB_TOP/tests/simhba/rc"

BENCH_ROWS=$LAB_OUT/$BENCH_EXP.rows
: >"$BENCH_ROWS"
_bench_steps=0
_bench_step=0

bench_plan() { _bench_steps=$1; echo "bench: plan $1" >&2; }

bench_step()
{
	_bench_step=$((_bench_step + 1))
	echo "bench: step $_bench_step/$_bench_steps $*" >&2
}

bench_row()
{
	printf '{"config": %s, "metrics": %s}\n' "$1" "$2" >>"$BENCH_ROWS"
}

bench_note()
{
	printf '{"note": "%s"}\n' "$*" >>"$BENCH_ROWS"
	echo "bench: note: $*" >&2
}

# The I/O schedulers a disk offers (loading every scheduler module first).
bench_schedulers()
{
	local modroot ko m

	modroot=$(sed -n 's/.*blk26\.modroot=\([^ ]*\).*/\1/p' /proc/cmdline)
	for ko in $(find "$modroot/lib/modules/$(uname -r)/kernel/block" \
			-name '*-iosched.ko*' 2>/dev/null); do
		m=$(basename "$ko")
		modprobe "${m%%.ko*}" 2>/dev/null
	done
	_schedulers "$1"
}

# bench_disk PROFILE: set up one simhba LUN of PROFILE (nostore: data is not
# kept, reads return zeros) and print its name; without simhba, fall back to
# the first virtio scratch disk and say so.
bench_disk()
{
	local profile=$1 d

	if _have_module simhba >/dev/null &&
	   _simhba_load 1 profile="$profile" nostore=1 >/dev/null; then
		d=$(_simhba_disks | head -n1)
		echo "$d"
		return
	fi
	bench_note "simhba is not available: measuring the virtio scratch disk instead of $profile"
	_scratch_name 0
}

bench_drop_caches()
{
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# fio_json FILE JOBNAME read|write: bandwidth in MB/s of one job of a fio
# JSON report.
fio_mbps()
{
	python3 - "$@" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
for job in j['jobs']:
    if job['jobname'] == sys.argv[2]:
        print('%.2f' % (job[sys.argv[3]]['bw_bytes'] / 1e6))
        break
else:
    sys.exit('no job %s in %s' % (sys.argv[2], sys.argv[1]))
EOF
}
