#!/bin/sh
# Builds and runs the test suite: optimised code (the analysis, rasteriser and CLI tests run
# about 3x faster than a debug build: 90 s against 220 s for the whole suite on 2 cores) with
# testing enabled and the internal consistency checks on (-DSPECVIZ_CHECKS keeps the checks a
# debug build makes, e.g. that a mode's damage key never hides a changed item).
# Its own build folder (.build/test), so it never rebuilds the release binary of
# `swift build -c release` with other flags. Arguments go to `swift test` (e.g. --filter X).
#   sh scripts/test.sh [--filter TempoTests]
set -eu
cd "$(dirname "$0")/.."
flags="-c release -Xswiftc -enable-testing -Xswiftc -DSPECVIZ_CHECKS --scratch-path .build/test"
# A whole run (no arguments: the README's test command, which CI's .ci/run runs) first checks
# that README.md still gives this script as its test command, the formatting, and the installer
# from a fresh clone (a release build); a run with arguments (--filter X) goes straight to the suite.
if [ $# -eq 0 ]; then
    readme_command=$(awk '/^```sh$/ { block++; next } /^```$/ { next } block == 2 { print; exit }' README.md)
    [ "$readme_command" = "sh scripts/setup.sh && sh scripts/test.sh" ] || {
        echo "scripts/test.sh: README.md's test command is now '$readme_command'; .ci/run runs 'sh scripts/setup.sh && sh scripts/test.sh'" >&2
        exit 1
    }
    sh scripts/format-check.sh
    sh scripts/test-install.sh
fi
# shellcheck disable=SC2086
swift build --build-tests $flags
# The suite is XCTest only (--disable-swift-testing). Its test cases run in parallel, one process
# each, as many at a time as there are cores (--parallel): most of the CLI tests wait on the
# binary they start, so 2 cores finish the suite in about 70 s instead of about 105 s. Every
# test keeps its files in its own temporary folder. SwiftPM prints a failing test's log and
# exits non-zero; the last line below counts the tests that ran.
log=$(mktemp)
rc_file=$(mktemp)
trap 'rm -f "$log" "$rc_file"' EXIT
# shellcheck disable=SC2086
{
    rc=0
    swift test --skip-build --disable-swift-testing --parallel $flags "$@" 2>&1 || rc=$?
    echo "$rc" >"$rc_file"
} | tee "$log"
rc=$(cat "$rc_file")
ran=$(grep -c '^\[[0-9]*/[0-9]*\] Testing ' "$log" || :)
if [ "$rc" -eq 0 ]; then
    echo "scripts/test.sh: $ran tests ran (in parallel), none failed"
else
    echo "scripts/test.sh: $ran tests ran (in parallel); the suite failed (exit $rc)" >&2
fi
exit "$rc"
