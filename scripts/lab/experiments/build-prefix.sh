#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the lab kernel of a prefix of the series, for comparing kernels:
#
#   build-prefix.sh N BUILD_DIR [VARIANT]
#
# builds pristine 6.12 + the first N patches of patches/series into
# BUILD_DIR (KERNEL=VARIANT, default "default"), from a private copy of the
# tree whose patches/series stops after entry N.  The overlay files that
# later patches claim, and the config fragment lines of the symbols they
# add, are left out of the copy.  The kernel tree of the current $BUILD
# (default build/) is reused when there is one, instead of a new
# extraction; ccache does the rest.
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
[ $# -ge 2 ] || { sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
n=$1
build=$2
variant=${3:-default}
[[ $n =~ ^[0-9]+$ ]] || { echo "build-prefix: N must be a number (got '$n')" >&2; exit 2; }
case $build in /*) ;; *) build=$top/$build ;; esac
src_build=${BUILD:-$top/build}
case $src_build in /*) ;; *) src_build=$top/$src_build ;; esac

mapfile -t entries < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/patches/series" | awk '{ print $1 }')
[ "$n" -le ${#entries[@]} ] ||
	{ echo "build-prefix: the series has ${#entries[@]} patches, not $n" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$top" && git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$tmp" 2>/dev/null) || true
git -C "$tmp" init -q

{
	grep '^#' "$top/patches/series" || true
	printf '%s\n' "${entries[@]:0:$n}"
} >"$tmp/patches/series"

for p in "${entries[@]:$n}"; do
	# overlay files the dropped patch claims
	for g in $(sed -n 's/^Overlay: *//p' "$top/patches/$p"); do
		rm -rf "${tmp:?}/${g%/}"
	done
	# config symbols it adds: their fragment lines go too
	for sym in $(sed -n 's/^+\(menu\)\{0,1\}config \([A-Z0-9_]*\).*/\2/p' "$top/patches/$p"); do
		sed -i -e "/^CONFIG_$sym=/d" -e "/^# CONFIG_$sym is not set/d" "$tmp"/scripts/lab/config/*.config
	done
	rm -f "$tmp/patches/$p"
done

if [ ! -d "$build/linux" ] && [ -d "$src_build/linux/.git" ]; then
	mkdir -p "$build"
	echo "[lab] copying the kernel tree of $src_build" >&2
	cp -a "$src_build/linux" "$build/linux"
fi
echo "[lab] building pristine + ${n} patches (${entries[*]:0:$n}) into $build" >&2
BUILD=$build KERNEL=$variant JOBS=${JOBS:-2} "$tmp/scripts/lab/build.sh"
