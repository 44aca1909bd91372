# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the blk26 lab scripts.  Sourced, never executed.
#
# Everything the lab builds lives under $BUILD (default: <repo>/build), which
# is ignored by git.  The one place the kernel source version is pinned is
# KSRC_PIN below.

LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LAB_DIR=$LAB_TOP/scripts/lab
BUILD=${BUILD:-$LAB_TOP/build}
case $BUILD in /*) ;; *) BUILD=$LAB_TOP/$BUILD ;; esac

# Debian package and version the series is developed against.  If the archive
# no longer carries this version, deps.sh falls back to the newest 6.12.y and
# warns.
KSRC_PKG=linux-source-6.12
KSRC_PIN=6.12.117-1~deb12u1
KSRC_TARBALL=/usr/src/linux-source-6.12.tar.xz

KTREE=$BUILD/linux		# managed git tree: pristine + overlay + series
KERNEL=${KERNEL:-default}	# kernel variant: default or debug
KOBJ=$BUILD/obj/$KERNEL		# O= output directory of that variant
KMOD=$BUILD/mod/$KERNEL		# INSTALL_MOD_PATH of that variant

# Identity used for the lab's own commits in the managed tree and for the
# exported series.
LAB_GIT_ID=(-c user.name="blk26 developers" -c user.email="blk26@example.org")

log()  { printf '[lab] %s\n' "$*" >&2; }
warn() { printf '[lab] WARNING: %s\n' "$*" >&2; }
die()  { printf '[lab] ERROR: %s\n' "$*" >&2; exit 1; }

# need_cmd CMD PACKAGE: fail with the install command when CMD is missing.
need_cmd()
{
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found: install it with 'apt-get install $2' (or run 'make deps')"
}

# The overlay: every path at a kernel location.
overlay_dirs() { echo block drivers fs include mm Documentation lib kernel; }

# Where the series' inputs (patches/, the overlay, config fragments) come
# from: the work tree (default), or with LAB_REF=<commit> that commit only, so
# that work in progress in the checkout stays out of the build.
LAB_REF=${LAB_REF:-}

# src_ls PATH...: the input files under PATH..., sorted.
src_ls()
{
	if [ -n "$LAB_REF" ]; then
		git -C "$LAB_TOP" ls-tree -r --name-only "$LAB_REF" -- "$@"
	else
		(cd "$LAB_TOP" && git ls-files -co --exclude-standard -- "$@")
	fi | sort -u
}

# src_cat PATH: an input file's content.
src_cat()
{
	if [ -n "$LAB_REF" ]; then
		git -C "$LAB_TOP" show "$LAB_REF:$1"
	else
		cat "$LAB_TOP/$1"
	fi
}

# src_mode PATH: 100755 or 100644.
src_mode()
{
	if [ -n "$LAB_REF" ]; then
		git -C "$LAB_TOP" ls-tree "$LAB_REF" -- "$1" | cut -d' ' -f1
	elif [ -x "$LAB_TOP/$1" ]; then
		echo 100755
	else
		echo 100644
	fi
}

kernel_release()
{
	cat "$KOBJ/include/config/kernel.release" 2>/dev/null ||
		die "no built kernel for KERNEL=$KERNEL: run 'make kernel KERNEL=$KERNEL'"
}
