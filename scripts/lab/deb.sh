#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build Debian packages of the patched kernel (linux-image-*,
# linux-headers-*, linux-libc-dev) with the kernel's own bindeb-pkg.
#
#   deb.sh [lab|debian|CONFIG-FILE]        (make deb [KCONFIG=...])
#   deb.sh --check [lab|debian|CONFIG-FILE]  check the argument only
#
# lab (the default): the lab's default configuration, the .config of
#   make kernel.  Its block layer is Debian's, but it has drivers for
#   QEMU's devices only: it boots the lab's guests (tests/lab/016), not a
#   real machine.
# debian: Debian's whole 6.12 configuration (linux-config-6.12,
#   config.amd64_none_amd64.xz) plus the series' options
#   (scripts/lab/config/blk26-*.config): for a real machine.
# CONFIG-FILE: that configuration (say /boot/config-$(uname -r)) plus the
#   series' options.
#
# From debian and a file, the result keeps the series' options as the
# fragments give them, without debug information (no -dbg package, a much
# shorter build) and with the release suffix -blk26.  Where the
# configuration verifies module signatures (CONFIG_MODULE_SIG), every
# module is signed with a key the build makes (certs/signing_key.pem in
# the object directory); Debian's own key files are not needed.  The
# kernel image itself is not signed.  KUnit suites stay out where the
# configuration has no KUnit.  KDEB_COMPRESS (dpkg-deb's -Z: xz, gzip,
# none...) is passed to bindeb-pkg.
#
# Objects go to $BUILD/obj/deb-<name> (deb-lab, deb-debian, deb-custom),
# as deep as the lab kernel's own, so that ccache reuses the lab kernel's
# compilations; the packages to $BUILD/deb/<name>/.  The build's time is
# printed and kept in $BUILD/deb/<name>/build-time.
set -euo pipefail
. "$(dirname "$0")/common.sh"

check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
src=${1:-lab}
[ $# -le 1 ] || die "usage: deb.sh [--check] [lab|debian|CONFIG-FILE]"
[ -n "$src" ] || die "KCONFIG is empty: use lab, debian or a kernel .config file"
case $src in
lab|debian) name=$src ;;
*)
	[ -f "$src" ] || die "KCONFIG=$src: no such file (use lab, debian or a kernel .config)"
	grep -q '^CONFIG_' "$src" || die "KCONFIG=$src: not a kernel configuration (no CONFIG_ line)"
	src=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")
	name=custom ;;
esac
case ${KDEB_COMPRESS:-xz} in
xz|gzip|bzip2|lzma|zstd|none) ;;
*) die "KDEB_COMPRESS=$KDEB_COMPRESS: use xz, gzip, bzip2, lzma, zstd or none" ;;
esac
[ $check = 0 ] || exit 0

need_cmd dpkg-buildpackage dpkg-dev
need_cmd dh_testdir debhelper
need_cmd ccache ccache

obj=$BUILD/obj/deb-$name
out=$BUILD/deb/$name
mkdir -p "$obj" "$BUILD/deb"
# bindeb-pkg leaves its packages in the parent of the object directory,
# which every package build shares: one at a time
exec 9>"$BUILD/deb/.lock"
flock -n 9 || die "another make deb is running in $BUILD (lock $BUILD/deb/.lock)"

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_BASEDIR=$BUILD
export KBUILD_BUILD_USER=blk26 KBUILD_BUILD_HOST=lab
export DEBFULLNAME="blk26 developers" DEBEMAIL=blk26@example.org
kmake() { make -s -C "$KTREE" O="$obj" CC="ccache gcc" LOCALVERSION= "$@"; }

if [ "$name" = lab ]; then
	# the lab kernel's configuration, as make kernel made it
	KERNEL=default "$LAB_DIR/build.sh"
	cp "$BUILD/obj/default/.config" "$obj/.config"
else
	"$LAB_DIR/tree.sh"
	if [ "$name" = debian ]; then
		"$LAB_DIR/kconfig_debian.py" source | sed 's/^/[lab] configuration: /' >&2
		"$LAB_DIR/kconfig_debian.py" full >"$obj/.config.base"
	else
		log "configuration: $src"
		cp "$src" "$obj/.config.base"
	fi
	frags=()
	for f in $(src_ls scripts/lab/config | grep '/blk26-[^/]*\.config$'); do
		src_cat "$f" >"$obj/${f##*/}"
		frags+=("$obj/${f##*/}")
	done
	cat >"$obj/deb.config" <<-'EOF'
	CONFIG_LOCALVERSION="-blk26"
	# CONFIG_LOCALVERSION_AUTO is not set
	CONFIG_SYSTEM_TRUSTED_KEYS=""
	CONFIG_SYSTEM_REVOCATION_KEYS=""
	CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"
	CONFIG_MODULE_SIG_ALL=y
	CONFIG_DEBUG_INFO_NONE=y
	# CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT is not set
	# CONFIG_DEBUG_INFO_DWARF4 is not set
	# CONFIG_DEBUG_INFO_DWARF5 is not set
	EOF
	(cd "$KTREE" && scripts/kconfig/merge_config.sh -m -O "$obj" \
		"$obj/.config.base" "${frags[@]}" "$obj/deb.config" >"$obj/merge_config.log")
	kmake olddefconfig >/dev/null
	# the series' options must hold; its KUnit suites need KUnit
	bad=0
	while IFS= read -r line; do
		sym=${line%%=*}
		grep -qxF -- "$line" "$obj/.config" && continue
		case $sym in
		*_KUNIT_TEST)
			grep -qx 'CONFIG_KUNIT=[ym]' "$obj/.config" ||
				{ log "$sym left out: the configuration has no KUnit"; continue; } ;;
		esac
		warn "the series wants $line but the configuration has: $(grep -E "^$sym=|^# $sym is not set" "$obj/.config" || echo 'nothing (a dependency is missing)')"
		bad=1
	done < <(cat "${frags[@]}" | grep '^CONFIG_')
	[ $bad = 0 ] || die "the configuration cannot take the series' options (see above)"
	! grep -qx CONFIG_MODULE_SIG=y "$obj/.config" ||
		grep -qx CONFIG_MODULE_SIG_ALL=y "$obj/.config" ||
		die "the configuration verifies module signatures but would not sign its modules (CONFIG_MODULE_SIG_ALL)"
fi
grep -q '^CONFIG_MODULES=y' "$obj/.config" || die "the configuration has no loadable modules"

jobs=${JOBS:-$(nproc)}
# the new packages go to $out.new, and replace $out's only when complete
new=$out.new
rm -rf "$new"
mkdir -p "$new"
find "$BUILD/obj" -maxdepth 1 -type f \
	\( -name '*.deb' -o -name '*.buildinfo' -o -name '*.changes' \) -delete
log "building the packages of configuration '$name' with $jobs jobs in $obj (ccache: $CCACHE_DIR); log: $new/build.log"
start=$(date +%s)
make -C "$KTREE" O="$obj" CC="ccache gcc" LOCALVERSION= -j"$jobs" \
	bindeb-pkg >"$new/build.log" 2>&1 ||
	die "bindeb-pkg failed; the end of $new/build.log: $(tail -n 20 "$new/build.log")"
secs=$(( $(date +%s) - start ))
find "$BUILD/obj" -maxdepth 1 -type f \
	\( -name '*.deb' -o -name '*.buildinfo' -o -name '*.changes' \) \
	-exec mv -t "$new" {} +
ls "$new"/linux-image-*.deb >/dev/null 2>&1 ||
	die "bindeb-pkg made no linux-image package (see $new/build.log)"
# the configuration the packages carry, for the record
cp "$obj/.config" "$new/config"
echo "$secs" >"$new/build-time"
rm -rf "$out"
mv "$new" "$out"
log "built in $secs s ($(cat "$obj/include/config/kernel.release")):"
for d in "$out"/*.deb; do
	log "  $d ($(du -h "$d" | cut -f1))"
done
