#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The test run behind "make test": boot each kernel variant once and run the
# in-guest suite (tests/run) there, collect the KTAP that KUnit printed, run
# the host-side tests of the lab (tests/lab/), and print every result and the
# line "N passed, N failed, N skipped".  Exits 1 if anything failed, did not
# run, timed out, or if the kernel printed a splat.
#
#   test.sh [FILTER...]      FILTER: a group ("block") or a test ("block/002")
#
# KERNELS (default: "$KERNEL") names the variants to boot ("icount" is the
# default kernel on the instruction-counted clock), LAB_MEM/LAB_CPUS size
# the guest, SUITE_TIMEOUT (s) bounds each boot.
set -uo pipefail
. "$(dirname "$0")/common.sh"

kernels=${KERNELS:-$KERNEL}
filters=("$@")
[ ${#filters[@]} -gt 0 ] || filters=(all)
out=$BUILD/test/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"

# test_matches TEST FILTER...
. "$LAB_TOP/tests/common/filter"

sets=()
status=0
start=$(date +%s)
# list FILE: the tests a list file names, one a line, comments left out
list()
{
	grep -v '^#' "$LAB_TOP/tests/$1" | awk 'NF { print $1 }' | tr '\n' ' '
}

# A test that runs on the instruction-counted clock only (CLOCK=icount)
# and is not in tests/icount-tests would run in no boot at all.
for t in $(cd "$LAB_TOP/tests" && grep -lx CLOCK=icount [a-z]*/[0-9][0-9][0-9]); do
	[[ " $(list icount-tests) " == *" $t "* ]] ||
		die "$t runs on the instruction-counted clock only (CLOCK=icount) but is not in tests/icount-tests"
done

for k in $kernels; do
	# Unless filtered, the debug kernel runs blk26's KUnit suites, the
	# tests of tests/debug-tests (the paths lockdep and KASAN must watch:
	# scheduler switches, timeouts, error handling, resets, unloads) and
	# the kmemleak scan.  DEBUG_TESTS="all" (or groups) runs more.  The
	# icount variant boots the default kernel on the instruction-counted
	# clock for the tests of tests/icount-tests, which measure time.
	kf=("${filters[@]}")
	kern=$k
	accel=${LAB_ACCEL:-}
	groot=
	disks=()
	if [ "$k" = debug ] && [ "${filters[*]}" = all ]; then
		read -r -a kf <<<"${DEBUG_TESTS:-$(list debug-tests)}"
		[ ${#kf[@]} -gt 0 ] || kf=(kunit)
	fi
	if [ "$k" = icount ]; then
		# only the tests of the list, of those the filters name
		kern=default
		accel=icount
		kf=()
		for t in $(list icount-tests); do
			! test_matches "$t" "${filters[@]}" || kf+=("$t")
		done
		[ ${#kf[@]} -gt 0 ] || continue
		# Its tests run in a root on tmpfs, packed into the guest's
		# initramfs, and without the virtio scratch disks (whose
		# partition tables the kernel reads from the host): a wait for
		# the host would be a jump of the guest's clock.
		disks=(-d 0)
		groot=$("$LAB_TOP/tests/run" --programs "${kf[@]}") && [ -n "$groot" ] ||
			die "tests/run --programs listed nothing for the icount boot"
		groot=$(tr '\n' ' ' <<<"$groot")
	fi
	# Every KUnit suite of tests/kunit-suites must report (tests/run loads
	# the KUnit modules in every boot).
	grep -v '^#' "$LAB_TOP/tests/kunit-suites" | awk 'NF { print "kunit/" $1 }' >"$out/$k.expect"
	for t in $(cd "$LAB_TOP/tests" && ls -d [a-z]*/[0-9][0-9][0-9] | grep -v '^lab/' | sort); do
		# CLOCK=icount: a test for the instruction-counted clock only
		[ "$accel" = icount ] || ! grep -qx CLOCK=icount "$LAB_TOP/tests/$t" ||
			continue
		test_matches "$t" "${kf[@]}" && echo "$t" >>"$out/$k.expect"
	done
	if ! grep -qv '^kunit/' "$out/$k.expect" && ! printf '%s\n' "${kf[@]}" | grep -qx kunit; then
		continue
	fi
	log "KERNEL=$k: booting the guest suite (${kf[*]})"
	KERNEL=$kern LAB_ACCEL=$accel LAB_ICOUNT_SHIFT=0 LAB_QUIET=${LAB_QUIET-1} \
		LAB_GUEST_ROOT=$groot \
		"$LAB_DIR/boot.sh" "${disks[@]}" \
		-m "${LAB_MEM:-4096}" -c "${LAB_CPUS:-2}" \
		-t "${SUITE_TIMEOUT:-2400}" -o "$out/$k" -- tests/run "${kf[@]}"
	rc=$?
	if [ $rc != 0 ]; then
		status=1
		echo "not ok 1 $k:boot - the guest run ended with status $rc" >"$out/$k.boot.tap"
	else
		echo "ok 1 $k:boot - the guest booted, ran the suite and powered off" >"$out/$k.boot.tap"
	fi
	sets+=("$k:,$out/$k/tests.tap,$out/$k/console.log,$out/$k.expect"
	       ",$out/$k.boot.tap,,")
done

# Host-side tests of the lab itself.
export LAB_TOP BUILD
: >"$out/host.tap"
: >"$out/host.expect"
n=0
for t in $(cd "$LAB_TOP/tests" && ls -d lab/[0-9][0-9][0-9] 2>/dev/null | sort); do
	test_matches "$t" "${filters[@]}" || continue
	echo "$t" >>"$out/host.expect"
	n=$((n + 1))
	log "host test $t"
	mkdir -p "$out/host/lab"
	TEST_TMP=$(mktemp -d) KERNEL=$KERNEL timeout -k 10 1800 \
		bash "$LAB_TOP/tests/exec-one" "$t" >"$out/host/$t.full" 2>"$out/host/$t.err"
	rc=$?
	if [ $rc = 77 ]; then
		echo "ok $n $t # SKIP $(head -n1 "$out/host/$t.full")" >>"$out/host.tap"
	elif [ $rc = 0 ] && { [ ! -f "$LAB_TOP/tests/$t.out" ] ||
			diff -u "$LAB_TOP/tests/$t.out" "$out/host/$t.full" >"$out/host/$t.diff"; }; then
		echo "ok $n $t" >>"$out/host.tap"
	else
		{
			echo "not ok $n $t - exit status $rc"
			cat "$out/host/$t.diff" 2>/dev/null
			tail -n 15 "$out/host/$t.full" "$out/host/$t.err"
		} | sed '2,$s/^/# /' >>"$out/host.tap"
	fi
done
[ ! -s "$out/host.expect" ] || sets+=(",$out/host.tap,,$out/host.expect")

echo
echo "==== results ($(( $(date +%s) - start )) s; logs in $out) ===="
set_args=()
for s in "${sets[@]}"; do set_args+=(--set "$s"); done
python3 "$LAB_DIR/results.py" "${set_args[@]}" --json "$out/results.json" \
	--allowed-skips "$LAB_TOP/tests/allowed-skips" || status=1
exit $status
