#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the lab kernel (bzImage + modules) for KERNEL=default|debug|bare.
#
# The configuration is tinyconfig plus, in this order, the tracked fragment
# scripts/lab/config/base.config, Debian's block-layer options (taken from
# linux-config-6.12 by kconfig_debian.py, less config/debian.exceptions),
# every blk26-*.config (one per component of the series) and, for
# KERNEL=debug, debug.config.  KERNEL=bare takes bare.config instead of
# Debian's options: the lab's earlier block layer, without writeback
# throttling, iocost or blk-throttle, for comparisons (make bench
# KERNELS=bare,default).  The configuration is regenerated only when a
# fragment changes, and every fragment line is checked against the result.  Objects go to $BUILD/obj/$KERNEL, modules to $BUILD/mod/$KERNEL.
set -euo pipefail
. "$(dirname "$0")/common.sh"

need_cmd gcc build-essential
need_cmd flex flex
need_cmd bison bison
need_cmd bc bc
need_cmd ccache ccache

case $KERNEL in
default|debug|bare) ;;
*) die "unknown KERNEL=$KERNEL (known: default debug bare)" ;;
esac
"$LAB_DIR/tree.sh"

frags=(scripts/lab/config/base.config)
mapfile -t -O 1 frags < <(src_ls scripts/lab/config | grep '/blk26-[^/]*\.config$')
[ "$KERNEL" = debug ] && frags+=(scripts/lab/config/debug.config)
mkdir -p "$KOBJ/fragments"
rm -f "$KOBJ"/fragments/*
fragpaths=()
for f in "${frags[@]}"; do
	src_cat "$f" >"$KOBJ/fragments/${f##*/}"
	fragpaths+=("$KOBJ/fragments/${f##*/}")
	if [ "$f" = scripts/lab/config/base.config ] && [ "$KERNEL" = bare ]; then
		src_cat scripts/lab/config/bare.config >"$KOBJ/fragments/bare.config"
		fragpaths+=("$KOBJ/fragments/bare.config")
	elif [ "$f" = scripts/lab/config/base.config ]; then
		src_cat scripts/lab/config/debian.exceptions >"$KOBJ/debian.exceptions"
		DEBIAN_EXCEPTIONS=$KOBJ/debian.exceptions "$LAB_DIR/kconfig_debian.py" \
			fragment >"$KOBJ/fragments/debian-block.config" ||
			die "cannot take the block-layer options from Debian's configuration"
		fragpaths+=("$KOBJ/fragments/debian-block.config")
	fi
done

jobs=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_BASEDIR=$BUILD
export KBUILD_BUILD_USER=blk26 KBUILD_BUILD_HOST=lab
kmake() { make -s -C "$KTREE" O="$KOBJ" CC="ccache gcc" LOCALVERSION= "$@"; }

want=$(cat "${fragpaths[@]}" "$KTREE/.git/blk26-source" | sha1sum | cut -c1-40)
if [ ! -f "$KOBJ/.config" ] || [ "$(cat "$KOBJ/.blk26-config" 2>/dev/null)" != "$want" ]; then
	log "configuring KERNEL=$KERNEL from ${fragpaths[*]##*/}"
	kmake tinyconfig >/dev/null
	(cd "$KTREE" && scripts/kconfig/merge_config.sh -m -O "$KOBJ" \
		"$KOBJ/.config" "${fragpaths[@]}" >"$KOBJ/merge_config.log")
	kmake olddefconfig >/dev/null
	bad=0
	while IFS= read -r line; do
		case $line in
		'# CONFIG_'*' is not set')
			sym=${line#\# }; sym=${sym%% *}
			if grep -q "^$sym=" "$KOBJ/.config"; then
				warn "fragment wants '$line' but .config has $(grep "^$sym=" "$KOBJ/.config")"
				bad=1
			fi ;;
		CONFIG_*=*)
			if ! grep -qxF -- "$line" "$KOBJ/.config"; then
				sym=${line%%=*}
				warn "fragment wants $line but .config has: $(grep -E "^$sym=|^# $sym is not set" "$KOBJ/.config" || echo 'nothing (unknown symbol or unmet dependency)')"
				bad=1
			fi ;;
		esac
	done < <(cat "${fragpaths[@]}" |
		 # a later fragment overrides an earlier one: check the last word
		 sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1 &/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1 &/p' |
		 awk '{ k = $1; sub(/^[^ ]* /, ""); last[k] = $0; if (!(k in seen)) { seen[k] = 1; order[n++] = k } }
		      END { for (i = 0; i < n; i++) print last[order[i]] }')
	[ $bad = 0 ] || die "kernel configuration does not match the fragments (see above)"
	echo "$want" >"$KOBJ/.blk26-config"
fi

log "building KERNEL=$KERNEL with $jobs jobs (ccache: $CCACHE_DIR)"
start=$(date +%s)
kmake -j"$jobs" bzImage modules
rm -rf "$KMOD.new"
kmake INSTALL_MOD_PATH="$KMOD.new" INSTALL_MOD_STRIP=1 modules_install >/dev/null
rm -rf "$KMOD" && mv "$KMOD.new" "$KMOD"
git -C "$KTREE" rev-parse HEAD^{tree} >"$KOBJ/.blk26-tree"
log "built $(kernel_release) in $(( $(date +%s) - start )) s: $KOBJ/arch/x86/boot/bzImage"
