#!/bin/sh
# Checks scripts/install.sh the way a user meets it: a fresh clone of this checkout's
# HEAD, installed into a temporary prefix, then `specviz --help`, `--version`, a render with
# no Swift toolchain in reach, the man pages (man -l; one per command, non-ASCII kept) and
# bash completion of `specviz render --mo<TAB>`.
# Usage: scripts/test-install.sh        (needs git, man-db, bash; slow: a release build)
set -eu
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }

git clone -q "$repo" "$work/src"
# Reuse already fetched dependencies when there are any (CI may have no network).
# (scripts/test.sh builds in .build/test, a plain `swift build` in .build.)
for fetched in "$repo/.build/repositories" "$repo/.build/test/repositories"; do
  if [ -d "$fetched" ]; then mkdir -p "$work/src/.build" && cp -r "$fetched" "$work/src/.build/" && break; fi
done
sh "$work/src/scripts/install.sh" "$work/prefix" > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "install.sh failed"; }
p="$work/prefix"
for f in bin/specviz share/bash-completion/completions/specviz share/zsh/site-functions/_specviz \
         share/fish/vendor_completions.d/specviz.fish share/man/man1/specviz.1; do
  [ -s "$p/$f" ] || fail "missing $p/$f"
done

"$p/bin/specviz" --help | grep -q "USAGE: specviz" || fail "--help"
version="$("$p/bin/specviz" --version)"
commit="$(git -C "$repo" rev-parse --short=12 HEAD)"
echo "$version" | grep -q "$commit" || fail "--version '$version' does not name commit $commit"

# The Swift runtime is linked in: the binary runs with no toolchain on the path or in ldd.
if ldd "$p/bin/specviz" | grep -E 'libswift|libFoundation|libdispatch|/swift/' >&2; then fail "links the Swift runtime dynamically"; fi
env -i PATH=/usr/bin:/bin HOME="$work" "$p/bin/specviz" render "$repo/examples/demo.ogg" --at 2 --size 160x90 \
  -o "$work/still.png" --quiet || fail "the installed binary cannot render without the toolchain"
[ -s "$work/still.png" ] || fail "no still from the installed binary"

man1="$p/share/man/man1"
for c in render join analyze peaks live modes tune presets tempo tone bench; do
  [ -s "$man1/specviz-$c.1" ] || fail "missing man page specviz-$c.1"
done
# A text line starting with '.' would be read as a roff request and vanish from the page.
if grep -n '^\.[a-z0-9]' "$man1"/specviz*.1 >&2; then fail "man page text lines start with '.' (reflow the help text)"; fi
MANWIDTH=100 man -l "$man1/specviz.1" 2>/dev/null | grep -q "specviz render" || fail "man -l shows no 'specviz render'"
tune_page="$(LC_ALL=C.UTF-8 MANWIDTH=100 man -l "$man1/specviz-tune.1" 2>/dev/null)"
echo "$tune_page" | grep -q "D (−2)" || fail "specviz-tune(1) lost the minus sign of 'D (−2)'"
for section in ENVIRONMENT FILES "EXIT STATUS" "SEE ALSO"; do
  echo "$tune_page" | grep -q "^$section" || fail "specviz-tune(1) has no $section section"
done
echo "$tune_page" | grep -q "143" || fail "specviz-tune(1) does not list exit status 143"

got="$(bash -c '
  source "$1"
  COMP_LINE="specviz render --mo"; COMP_POINT=${#COMP_LINE}
  COMP_WORDS=(specviz render --mo); COMP_CWORD=2
  PATH="$2:$PATH" _specviz specviz --mo render
  printf "%s\n" "${COMPREPLY[@]}"' sh "$p/share/bash-completion/completions/specviz" "$p/bin")"
[ "$got" = "--mode" ] || fail "bash completion of 'specviz render --mo' gave '$got'"
zsh_ok=""; command -v zsh >/dev/null && { zsh -n "$p/share/zsh/site-functions/_specviz" && zsh_ok=" zsh syntax ok"; }
fish_ok=""; command -v fish >/dev/null && { fish -n "$p/share/fish/vendor_completions.d/specviz.fish" && fish_ok=" fish syntax ok"; }
echo "test-install: ok ($version; --help, static runtime, render without toolchain, 12 man pages, bash completion --mo -> --mode$zsh_ok$fish_ok)"
