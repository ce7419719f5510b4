#!/bin/sh
# Checks that Sources, Tests and Package.swift are formatted as .swift-format says
# (swift-format ships with the Swift 6 toolchain). Fix with:
#   swift format -i -r -p Sources Tests Package.swift
set -e
cd "$(dirname "$0")/.."
if ! swift format --version >/dev/null 2>&1; then
  echo "format-check: this Swift toolchain has no swift-format; skipped" >&2
  exit 0
fi
swift format lint --strict -r -p Sources Tests Package.swift
echo "format-check: ok"
