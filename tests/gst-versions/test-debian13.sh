#!/usr/bin/env bash
# Builds the project and runs its test suite against GStreamer 1.26, in a
# Debian 13 (trixie) root made from Debian's packages (debian13-root.sh),
# CPU-only and with warnings as errors. As root, from the project's root:
#
#   tests/gst-versions/test-debian13.sh [ROOT]   # default /var/tmp/s2c-debian13
#
# The first run makes the root (2.4 GiB, about 5 minutes); later runs reuse
# it and the build tree in ROOT/s2c/build-cpu. The build and the suite take
# about 8 minutes on 2 cores. Ends with one line "N passed, N failed, N
# skipped" and exits non-zero if any failed. Not part of .ci/run: too long
# for every run (docs/decisions.md, D32).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=${1:-/var/tmp/s2c-debian13}
tests/gst-versions/debian13-root.sh "$root"
build=/s2c/build-cpu
rc=0
# Suite "deploy" is left out: the image and its tests are Debian 12's.
tests/gst-versions/in-root.sh "$root" "
  set -e
  echo \"GStreamer \$(pkg-config --modversion gstreamer-1.0), \$(g++ --version | head -n 1)\"
  if [ -d $build ]; then meson setup --reconfigure $build; else
    meson setup $build -Dcuda=disabled -Dwerror=true; fi
  ninja -C $build
  meson test -C $build --print-errorlogs --num-processes 2 --no-suite deploy
" || rc=$?
# One closing line from meson's log of the run.
log=$root$build/meson-logs/testlog.json
if [ -f "$log" ]; then
  count() { grep -c "\"result\": \"$1\"" "$log" || true; }
  echo "$(count OK) passed, $(( $(count FAIL) + $(count TIMEOUT) + $(count ERROR) + $(count UNEXPECTEDPASS) )) failed, $(count SKIP) skipped (GStreamer 1.26, Debian 13)"
fi
exit $rc
