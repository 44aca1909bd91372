#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Export the series as mail (out/series/: a cover letter and numbered
# patches, git format-patch style), one patch per entry of patches/series
# with the overlay files it claims.
#
#   series.sh           export
#   series.sh --check   export, then "git am" it onto a fresh extraction of
#                       the same source and check that the result is the
#                       tree the lab built (so the series builds)
set -euo pipefail
. "$(dirname "$0")/common.sh"

"$LAB_DIR/tree.sh"
g() { git -C "$KTREE" "${LAB_GIT_ID[@]}" "$@"; }

dest=$LAB_TOP/out/series
n=$(g rev-list --count pristine..blk26)
[ "$n" -gt 0 ] || die "patches/series is empty: nothing to export"
rm -rf "$dest"
mkdir -p "$dest"
g format-patch -q --cover-letter --subject-prefix="PATCH blk26" \
	--no-signature -o "$dest" pristine..blk26

# The cover letter's subject and text come from patches/cover-letter.
cover=$(ls "$dest"/0000-cover-letter.patch)
title=$(src_cat patches/cover-letter | head -n1)
src_cat patches/cover-letter | tail -n +3 >"$dest/.blurb"
python3 - "$cover" "$title" "$dest/.blurb" <<'EOF'
import sys
path, title, blurb = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
text = open(path).read()
text = text.replace('*** SUBJECT HERE ***', title)
text = text.replace('*** BLURB HERE ***', blurb.rstrip('\n'))
open(path, 'w').write(text)
EOF
rm -f "$dest/.blurb"
log "wrote $dest: cover letter + $n patches"

[ "${1:-}" = --check ] || exit 0

# --- check: git am onto a pristine extraction ---------------------------
chk=$BUILD/series-check
rm -rf "$chk"
mkdir -p "$chk"
tar -C "$chk" -xf "$KSRC_TARBALL"
c() { git -C "$chk/linux-source-6.12" "${LAB_GIT_ID[@]}" "$@"; }
c init -q
c add -f -A
c commit -q -m pristine
mapfile -t mails < <(ls "$dest"/[0-9]*.patch | grep -v /0000-cover-letter.patch)
c am -q --whitespace=error-all "${mails[@]}" 2>"$chk/am.err" || {
	cat "$chk/am.err" >&2
	die "the series does not apply with git am (see above)"
}
got=$(c rev-parse HEAD^{tree})
want=$(g rev-parse blk26^{tree})
applied=$(c rev-list --count HEAD~"$n"..HEAD 2>/dev/null || echo 0)
rm -rf "$chk"
[ "$applied" = "$n" ] || die "git am applied $applied of $n patches"
[ "$got" = "$want" ] ||
	die "git am gives tree $got, the lab's tree is $want"
built=$(cat "$BUILD/obj/default/.blk26-tree" 2>/dev/null || true)
[ "$built" = "$want" ] ||
	die "the lab has not built this tree yet: run 'make kernel' first"
log "series applies with git am to pristine $KSRC_PKG and gives the tree the lab built ($want)"
