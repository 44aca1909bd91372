# SPDX-License-Identifier: GPL-2.0
# Shared by block/001 and block/002.

# The schedulers the booted kernel should offer: the built-in ones plus one
# per I/O scheduler module (loaded here).  A module "foo-iosched", or one
# with the alias "foo-iosched" (as bfq.ko has), registers "foo".
_expected_schedulers()
{
	local modroot ko m name

	echo none mq-deadline kyber bfq
	modroot=$(sed -n 's/.*blk26\.modroot=\([^ ]*\).*/\1/p' /proc/cmdline)
	for ko in $(find "$modroot/lib/modules/$(uname -r)/kernel/block" \
			-name '*.ko*' ! -name '*_kunit.ko*' 2>/dev/null); do
		m=$(basename "$ko")
		m=${m%%.ko*}
		case $m in
		*-iosched) name=${m%-iosched} ;;
		*) name=$(modinfo -F alias "$ko" 2>/dev/null |
			  sed -n 's/-iosched$//p' | head -n1) ;;
		esac
		[ -n "$name" ] || continue
		modprobe "$m" || _fail "cannot load scheduler module $m"
		echo "$name"
	done
}

_elevator_checks()
{
	local dev=$1 sched=/sys/block/$1/queue/scheduler s before listed expected

	# Load the scheduler modules first: they register on load.
	expected=$(_expected_schedulers)
	listed=" $(_schedulers "$dev") "
	for s in $expected; do
		[[ $listed == *" $s "* ]] || _fail "$dev: $s is not listed in '$listed'"
	done
	for s in $listed; do
		echo "$s" >"$sched" || _fail "$dev: cannot select $s"
		[ "$(_current_scheduler "$dev")" = "$s" ] ||
			_fail "$dev: selected $s, reads back '$(cat "$sched")'"
	done
	for s in $listed none; do
		echo "$s" >"$sched"
		before=$(cat "$sched")
		if echo no-such-elevator >"$sched" 2>/dev/null; then
			_fail "$dev: writing an unknown name succeeded"
		fi
		[ "$(cat "$sched")" = "$before" ] ||
			_fail "$dev: an unknown name changed '$before' to '$(cat "$sched")'"
	done
	echo none >"$sched"
}
