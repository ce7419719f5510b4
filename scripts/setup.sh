#!/bin/sh
# Installs what specviz needs to build, test and run on Debian 12 (Swift itself is
# expected on PATH). Safe to run again. Run as root, or it uses sudo.
set -e
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
# Text: HarfBuzz shapes, FriBidi orders, fontconfig finds fallback fonts. Fonts: DejaVu Sans
# (2.9 MB installed) has Latin, Greek, Cyrillic, Arabic and Hebrew; for CJK we install
# fonts-wqy-microhei (5.0 MB installed, 1.6 MB download: Chinese, Japanese kana and kanji,
# Hangul) rather than fonts-noto-cjk (89 MB installed, 54 MB download) or
# fonts-ipafont-gothic (11.9 MB, Japanese only). The three -dev packages are 4.1 MB, but
# libharfbuzz-dev pulls in libglib2.0-dev and friends (~30 MB) and libicu-dev (47 MB) where
# they are not installed yet; at run time only libharfbuzz0b, libfribidi0 and libfontconfig1
# (and the fonts) are needed. fontconfig builds the font cache. rsync: GNU parallel's
# --basefile/--return (the ssh recipe in docs/CLUSTER.md) copy files with it.
PACKAGES="pkg-config libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev \
 libpng-dev libasound2-dev libfreetype-dev libharfbuzz-dev libfribidi-dev libfontconfig-dev \
 fontconfig fonts-dejavu-core fonts-wqy-microhei ffmpeg parallel rsync man-db"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
for pc in libavformat libavcodec libavutil libswresample libswscale libpng alsa freetype2 harfbuzz fribidi fontconfig; do
  pkg-config --exists "$pc" || { echo "setup: pkg-config cannot find $pc" >&2; exit 1; }
done
command -v swift >/dev/null || { echo "setup: swift is not on PATH (install Swift 6 from swift.org)" >&2; exit 1; }
echo "setup: ok"
