#!/bin/sh
# Builds specviz in release mode and installs it under PREFIX (default /usr/local):
#   PREFIX/bin/specviz
#   PREFIX/share/bash-completion/completions/specviz
#   PREFIX/share/zsh/site-functions/_specviz
#   PREFIX/share/fish/vendor_completions.d/specviz.fish
#   PREFIX/share/man/man1/specviz.1 and specviz-COMMAND.1 for each command
# The binary links the Swift standard library and Foundation statically, so it runs
# without a Swift toolchain (it needs Debian's FFmpeg, libpng, FreeType, HarfBuzz, FriBidi,
# fontconfig, ALSA and fonts).
# The completions come from `specviz --generate-completion-script`, the man pages from
# swift-argument-parser's generate-manual tool and scripts/man-pages.sh (no network needed
# once the package's dependencies are resolved). DESTDIR is honoured for packaging. Safe
# to run again.
# Usage: scripts/install.sh [PREFIX]
set -eu
PREFIX="${1:-/usr/local}"
case "$PREFIX" in /*) ;; *) PREFIX="$(pwd)/$PREFIX" ;; esac
DESTDIR="${DESTDIR:-}"
cd "$(dirname "$0")/.."

say() { echo "install: $*"; }

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

say "building release (Swift runtime linked statically)"
swift build -c release --product specviz --static-swift-stdlib
built="$(swift build -c release --show-bin-path)/specviz"
[ -x "$built" ] || { echo "install: no binary at $built" >&2; exit 1; }
if readelf -d "$built" | grep -q 'NEEDED.*libswiftCore'; then
  echo "install: $built links the Swift runtime dynamically (--static-swift-stdlib was not applied)" >&2; exit 1
fi
# Kept aside: the plugin below builds specviz again without the static runtime.
bin="$stage/bin/specviz"
mkdir -p "$stage/bin" && cp "$built" "$bin"

say "building the manual generator"
swift package plugin generate-manual >/dev/null
tool="$(find .build -name generate-manual-tool -type f -perm -u+x 2>/dev/null | head -n 1)"
[ -n "$tool" ] || { echo "install: the generate-manual plugin built no generator" >&2; exit 1; }

say "generating the man pages"
# The generator drops non-ASCII characters: hand it the help with them spelt QQU<hex>QQ,
# which scripts/man-pages.sh turns into groff escapes.
cat > "$stage/specviz" <<WRAP
#!/bin/sh
"$bin" "\$@" | perl -CSD -pe 's/([^\\x00-\\x7f])/sprintf("QQU%04XQQ", ord(\$1))/ge'
WRAP
chmod +x "$stage/specviz"
mkdir -p "$stage/generated"
"$tool" "$stage/specviz" --multi-page -o "$stage/generated" >/dev/null
sh scripts/man-pages.sh "$stage/generated" "$stage/man"
"$bin" --generate-completion-script bash > "$stage/specviz.bash"
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
$SUDO install -m 755 -s "$bin" "$root/bin/specviz"
$SUDO install -m 644 "$stage/specviz.bash" "$root/share/bash-completion/completions/specviz"
$SUDO install -m 644 "$stage/_specviz" "$root/share/zsh/site-functions/_specviz"
$SUDO install -m 644 "$stage/specviz.fish" "$root/share/fish/vendor_completions.d/specviz.fish"
$SUDO install -m 644 "$stage"/man/*.1 "$root/share/man/man1/"
say "installed $("$root/bin/specviz" --version) under $root"
