#!/bin/sh
# Builds specviz in release mode and installs it under PREFIX (default /usr/local):
#   PREFIX/bin/specviz
#   PREFIX/share/bash-completion/completions/specviz
#   PREFIX/share/zsh/site-functions/_specviz
#   PREFIX/share/fish/vendor_completions.d/specviz.fish
#   PREFIX/share/man/man1/specviz.1
# The completions come from `specviz --generate-completion-script`, the man page from
# swift-argument-parser's generate-manual plugin (no network needed once the package's
# dependencies are resolved). DESTDIR is honoured for packaging. Safe to run again.
# Usage: scripts/install.sh [PREFIX]
set -eu
PREFIX="${1:-/usr/local}"
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
DESTDIR="${DESTDIR:-}"
cd "$(dirname "$0")/.."

say() { echo "install: $*"; }

say "building release"
swift build -c release --product specviz
bin="$(swift build -c release --show-bin-path)/specviz"
[ -x "$bin" ] || { echo "install: no binary at $bin" >&2; exit 1; }

say "generating the man page"
swift package plugin generate-manual >/dev/null
man=".build/plugins/GenerateManual/outputs/SpecvizCLI/specviz.1"
[ -f "$man" ] || man="$(find .build/plugins -name specviz.1 -newer Package.swift 2>/dev/null | head -n 1)"
[ -n "$man" ] && [ -f "$man" ] || { echo "install: the generate-manual plugin wrote no specviz.1" >&2; exit 1; }

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
"$bin" --generate-completion-script bash > "$stage/specviz"
"$bin" --generate-completion-script zsh > "$stage/_specviz"
"$bin" --generate-completion-script fish > "$stage/specviz.fish"

root="$DESTDIR$PREFIX"
SUDO=""
probe="$root"
while [ ! -d "$probe" ]; do probe="$(dirname "$probe")"; done
if [ ! -w "$probe" ] && [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install: cannot write $root (run as root or give another PREFIX)" >&2; exit 1; }
  SUDO="sudo"
fi
$SUDO install -d "$root/bin" "$root/share/bash-completion/completions" "$root/share/zsh/site-functions" \
  "$root/share/fish/vendor_completions.d" "$root/share/man/man1"
$SUDO install -m 755 "$bin" "$root/bin/specviz"
$SUDO install -m 644 "$stage/specviz" "$root/share/bash-completion/completions/specviz"
$SUDO install -m 644 "$stage/_specviz" "$root/share/zsh/site-functions/_specviz"
$SUDO install -m 644 "$stage/specviz.fish" "$root/share/fish/vendor_completions.d/specviz.fish"
$SUDO install -m 644 "$man" "$root/share/man/man1/specviz.1"
say "installed $("$root/bin/specviz" --version) under $root"
