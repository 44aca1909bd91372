#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Check for, and with --install install, every Debian package the lab uses.
#
#   deps.sh            report what is missing, exit 1 if anything is
#   deps.sh --install  apt-get install what is missing (needs root)
set -euo pipefail
. "$(dirname "$0")/common.sh"

PKGS=(
	# kernel build
	build-essential bc bison flex libelf-dev libssl-dev cpio kmod ccache
	git xz-utils perl python3
	# Debian's own kernel configuration: the lab kernel's block-layer
	# options are taken from it (scripts/lab/kconfig_debian.py)
	linux-config-6.12
	# make deb: the kernel's bindeb-pkg
	dpkg-dev debhelper
	# boot
	qemu-system-x86
	# guest userspace (the guest runs the host's root read-only)
	fio blktrace sg3-utils mdadm gnuplot-nox util-linux procps e2fsprogs
	# the font of every figure (figures.py: pngcairo, "DejaVu Sans"),
	# named so that no other font stands in for it: the published
	# figures are compared byte for byte (tests/lab/019)
	fonts-dejavu-core
	# dbt2: postgres, initdb and pgbench run in the guest only
	postgresql postgresql-contrib
	# make test: the bench report page opened in a headless browser
	# (tests/lab/010), the published results page read by docutils
	# (tests/lab/011, 014), checkpatch's SPDX check (scripts/spdxcheck.py,
	# tests/lab/005)
	chromium python3-docutils python3-ply python3-git
)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

# The kernel source: pinned version, or the newest 6.12.y with a warning.
have_src=$(dpkg-query -W -f='${Version}' "$KSRC_PKG" 2>/dev/null || true)
src_want=
if [ "$have_src" != "$KSRC_PIN" ]; then
	src_want="$KSRC_PKG=$KSRC_PIN"
fi

if [ "${1:-}" != --install ]; then
	if [ ${#missing[@]} -gt 0 ]; then
		log "missing packages: ${missing[*]}"
		log "install them with: apt-get install ${missing[*]}"
	fi
	if [ -z "$have_src" ]; then
		log "missing kernel source: apt-get install $KSRC_PKG=$KSRC_PIN"
		exit 1
	fi
	[ -z "$src_want" ] || warn "$KSRC_PKG is $have_src, the series is pinned to $KSRC_PIN"
	[ ${#missing[@]} -eq 0 ] || exit 1
	exit 0
fi

[ "$(id -u)" = 0 ] || die "installing packages needs root; as root run: apt-get install ${missing[*]} $src_want"

export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ] || [ -n "$src_want" ]; then
	log "apt-get update"
	apt-get update -qq >/dev/null || warn "apt-get update failed; trying with the lists at hand"
fi
if [ ${#missing[@]} -gt 0 ]; then
	# Debian's postgresql creates and starts a "main" cluster on the host
	# when installed; the lab runs its own server in the guest.  So
	# postgresql-common (which creates no cluster) goes first, and its
	# createcluster.conf then says to create none.
	if [[ " ${missing[*]} " == *" postgresql "* ]]; then
		cc=/etc/postgresql-common/createcluster.conf
		apt-get install -y -qq --no-install-recommends postgresql-common >/dev/null ||
			die "apt-get install failed for: postgresql-common"
		sed -i 's/^#* *create_main_cluster *=.*/create_main_cluster = false/' $cc
		grep -q '^create_main_cluster = false' $cc ||
			echo "create_main_cluster = false" >>$cc
		log "$cc: no main cluster on the host"
	fi
	log "installing: ${missing[*]}"
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install failed for: ${missing[*]}"
fi
if [ -n "$src_want" ]; then
	if apt-get install -y -qq --allow-downgrades "$src_want" >/dev/null 2>&1; then
		log "installed $src_want"
	else
		warn "$KSRC_PKG $KSRC_PIN is no longer in the archive; falling back to the newest 6.12.y"
		apt-get install -y -qq "$KSRC_PKG" >/dev/null ||
			die "apt-get install $KSRC_PKG failed"
		warn "using $KSRC_PKG $(dpkg-query -W -f='${Version}' "$KSRC_PKG"): patches may need a refresh"
	fi
fi
exit 0
