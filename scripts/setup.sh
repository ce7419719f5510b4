#!/bin/sh
# Installs what specviz needs to build, test and run on Debian 12 (Swift itself is
# expected on PATH). Safe to run again. Run as root, or it uses sudo.
set -e
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
PACKAGES="pkg-config libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev \
 libpng-dev libasound2-dev libfreetype-dev fonts-dejavu-core ffmpeg parallel man-db"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
for pc in libavformat libavcodec libavutil libswresample libswscale libpng alsa freetype2; do
  pkg-config --exists "$pc" || { echo "setup: pkg-config cannot find $pc" >&2; exit 1; }
done
command -v swift >/dev/null || { echo "setup: swift is not on PATH (install Swift 6 from swift.org)" >&2; exit 1; }
echo "setup: ok"
