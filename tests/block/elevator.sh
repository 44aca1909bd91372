# SPDX-License-Identifier: GPL-2.0
# Shared by block/001 and block/002.

# The schedulers the booted kernel should offer: the built-in ones plus one
# per I/O scheduler module (loaded here, _sched_modules).
_expected_schedulers()
{
	echo none mq-deadline kyber bfq
	_sched_modules || _fail "cannot load every scheduler module"
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
