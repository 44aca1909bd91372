#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Prepare the managed kernel tree: pristine Debian 6.12 source + the series.
#
# The tree ($BUILD/linux) is a git repository whose first commit is the
# pristine extraction (tag "pristine").  Every run rebuilds, in a private
# index, one commit per entry of patches/series: the patch's diff applied to
# the upstream files, plus the new files of the overlay that the patch claims
# with "Overlay:" lines in its header.  The last commit is then checked out.
# Git rewrites only files whose content changed, so re-running is idempotent
# and an unchanged file keeps its timestamp (no needless rebuilds).
set -euo pipefail
. "$(dirname "$0")/common.sh"

need_cmd git git
need_cmd xz xz-utils
[ -r "$KSRC_TARBALL" ] ||
	die "$KSRC_TARBALL missing: apt-get install $KSRC_PKG=$KSRC_PIN (or run 'make deps')"

srcver=$(dpkg-query -W -f='${Version}' "$KSRC_PKG" 2>/dev/null || echo unknown)
[ "$srcver" = "$KSRC_PIN" ] ||
	warn "$KSRC_PKG is $srcver, the series is pinned to $KSRC_PIN"

g() { git -C "$KTREE" "${LAB_GIT_ID[@]}" "$@"; }

# --- 1. extract once ----------------------------------------------------
stamp=$KTREE/.git/blk26-source
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$srcver" ]; then
	log "extracting $KSRC_TARBALL ($srcver)"
	rm -rf "$KTREE" "$BUILD/extract"
	mkdir -p "$BUILD/extract"
	tar -C "$BUILD/extract" -xf "$KSRC_TARBALL"
	mv "$BUILD/extract"/linux-source-6.12 "$KTREE"
	rmdir "$BUILD/extract"
	g init -q
	# Debian's top-level .gitignore ignores everything: add with -f.
	g add -f -A
	g commit -q -m "Linux $srcver (Debian $KSRC_PKG, pristine)"
	g tag -f pristine >/dev/null
	# Old objects were built from another source: start them over.
	rm -rf "$BUILD/obj" "$BUILD/mod"
	echo "$srcver" >"$stamp"
fi

# --- 2. build the commit chain in a private index -----------------------
# All overlay files: tracked plus untracked-but-not-ignored, so that work in
# progress is built too.
# shellcheck disable=SC2046
mapfile -t overlay < <(src_ls $(overlay_dirs))
IDX=$KTREE/.git/blk26-index
export GIT_INDEX_FILE=$IDX
g read-tree pristine

declare -A claimed=()

parent=$(g rev-parse pristine)
work=$(mktemp -d)
trap 'rm -rf "$work" "$IDX" "$IDX.lock"' EXIT
n=0
while read -r name _; do
	case $name in ''|'#'*) continue ;; esac
	src_cat "patches/$name" >"$work/patch" 2>/dev/null ||
		die "patches/series names $name, which does not exist${LAB_REF:+ in $LAB_REF}"
	n=$((n + 1))
	git mailinfo "$work/msg" "$work/diff" <"$work/patch" >"$work/info" ||
		die "patch $name: cannot parse its mail header"
	subject=$(sed -n 's/^Subject: //p' "$work/info")
	[ -n "$subject" ] || die "patch $name: no Subject: line"
	grep -q '^Signed-off-by: ' "$work/msg" || die "patch $name: no Signed-off-by: line"

	if grep -q '^diff --git ' "$work/diff"; then
		g apply --cached --whitespace=nowarn "$work/diff" 2>"$work/err" || {
			cat "$work/err" >&2
			die "patch $name does not apply (series entry $n)"
		}
	fi

	# New files this patch brings in.
	mapfile -t globs < <(sed -n 's/^Overlay: *//p' "$work/msg" | tr ' ' '\n' | sed '/^$/d')
	add=()
	for f in "${overlay[@]}"; do
		[ -z "${claimed[$f]:-}" ] || continue
		for gl in "${globs[@]}"; do
			# shellcheck disable=SC2053
			if [[ $f == $gl || $f == ${gl%/}/* ]]; then
				add+=("$f")
				claimed[$f]=$name
				break
			fi
		done
	done
	for f in "${add[@]}"; do
		if g cat-file -e "pristine:$f" 2>/dev/null; then
			die "overlay file $f exists upstream: change it with a patch instead"
		fi
	done
	for f in "${add[@]}"; do
		blob=$(src_cat "$f" | g hash-object -w --stdin)
		g update-index --add --cacheinfo "$(src_mode "$f"),$blob,$f"
	done

	tree=$(g write-tree)
	{
		echo "$subject"
		echo
		grep -v '^Overlay: ' "$work/msg"
	} >"$work/commit"
	author=$(sed -n 's/^Author: //p' "$work/info")
	email=$(sed -n 's/^Email: //p' "$work/info")
	parent=$(GIT_AUTHOR_NAME=${author:-blk26 developers} \
		 GIT_AUTHOR_EMAIL=${email:-blk26@example.org} \
		 GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" \
		 GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		 g commit-tree "$tree" -p "$parent" -F "$work/commit")
done < <(src_cat patches/series)

for f in "${overlay[@]}"; do
	[ -n "${claimed[$f]:-}" ] ||
		die "overlay file $f is claimed by no patch: add it to an 'Overlay:' line of the patch that wires it up"
done

# --- 3. check out the result --------------------------------------------
unset GIT_INDEX_FILE
cur=$(g rev-parse -q --verify HEAD^{tree} || true)
new=$(g rev-parse "$parent^{tree}")
if [ "$cur" != "$new" ] || [ -n "$(g status --porcelain --untracked-files=no)" ]; then
	log "checking out pristine + ${n} patches ($(g rev-parse --short "$parent"))"
	g checkout -q -f --detach "$parent"
else
	g update-ref --no-deref HEAD "$parent"
fi
g update-ref refs/heads/blk26 "$parent"
log "tree ready: $KTREE ($srcver + $n patches, ${#overlay[@]} overlay files${LAB_REF:+, from $LAB_REF})"
