#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `meson install` into a DESTDIR, then what a user does with the result: the
# installed plugin loads from its directory (GST_PLUGIN_PATH, a private
# registry), a C program built with `pkg-config --cflags ssimulacra2cmp`
# reads a score through the installed header, and the installed
# ssimulacra2cmp-compare finds the installed plugin without GST_PLUGIN_PATH,
# although the system's GStreamer does not search the DESTDIR (as it does
# not search a /usr/local prefix).
#
# Usage: test_install.sh BUILD_DIR
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log"; echo "FAIL: meson install"; exit 1; }
prefix=$(meson introspect "$build" --buildoptions |
  python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
libdir=$(meson introspect "$build" --buildoptions |
  python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"))')
bindir=$(meson introspect "$build" --buildoptions |
  python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "bindir"))')
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
case $bindir in /*) ;; *) bindir=$prefix/$bindir ;; esac
plugins=$dest$libdir/gstreamer-1.0
[ -f "$plugins/libgstssimulacra2cmp.so" ] || { echo "FAIL: no plugin in $plugins"; ls -R "$dest"; exit 1; }
echo "plugin installed in $plugins"

export GST_PLUGIN_PATH=$plugins GST_REGISTRY=$tmp/registry.bin GST_REGISTRY_FORK=no
gst-inspect-1.0 ssimulacra2cmp >"$tmp/inspect.log" 2>&1 || {
  cat "$tmp/inspect.log"; echo "FAIL: gst-inspect-1.0 does not find the installed plugin"; exit 1; }
grep -q "ref_sink" "$tmp/inspect.log" || { echo "FAIL: gst-inspect-1.0 output without ref_sink"; exit 1; }
echo "gst-inspect-1.0 finds the installed plugin"

# The installed .pc file: its flags name the prefix's include directory and
# GStreamer's; the header is then read from the DESTDIR copy of that
# directory.
export PKG_CONFIG_PATH=$dest$libdir/pkgconfig
cflags=" $(pkg-config --cflags --libs ssimulacra2cmp) "
case $cflags in
  *" -I$prefix/include "*) ;;
  *) echo "FAIL: pkg-config --cflags ssimulacra2cmp lacks -I$prefix/include:$cflags"; exit 1 ;;
esac
cflags=$(echo "$cflags" | sed "s# -I$prefix/include # -I$dest$prefix/include #")
cat >"$tmp/read_score.c" <<'C'
#include <ssimulacra2cmp/ssimulacra2cmp-meta.h>
#include <stdio.h>

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  /* Loading the plugin registers the meta. */
  GstElement *e = gst_element_factory_make("ssimulacra2cmp", NULL);
  if (e == NULL) { puts("FAIL: no ssimulacra2cmp element"); return 1; }
  GstBuffer *b = gst_buffer_new();
  gdouble score = 0.0;
  if (ssimulacra2cmp_buffer_get_score(b, &score, NULL, NULL)) { puts("FAIL: score without meta"); return 1; }
  GstCustomMeta *m = gst_buffer_add_custom_meta(b, SSIMULACRA2CMP_META_NAME);
  gst_structure_set(gst_custom_meta_get_structure(m), SSIMULACRA2CMP_META_SCORE, G_TYPE_DOUBLE, 61.25,
                    SSIMULACRA2CMP_META_FRAME_INDEX, G_TYPE_UINT64, (guint64)7,
                    SSIMULACRA2CMP_META_DIST_TIMESTAMP, G_TYPE_UINT64, (guint64)40, NULL);
  guint64 index = 0;
  GstClockTime dist = 0;
  if (!ssimulacra2cmp_buffer_get_score(b, &score, &index, &dist) || score != 61.25 || index != 7 ||
      dist != 40) {
    puts("FAIL: the header read a different score");
    return 1;
  }
  puts("the installed header reads the score meta");
  gst_buffer_unref(b);
  gst_object_unref(e);
  return 0;
}
C
# shellcheck disable=SC2086  # the flags are words
cc -o "$tmp/read_score" "$tmp/read_score.c" $cflags ||
  { echo "FAIL: compiling against the installed header"; exit 1; }
"$tmp/read_score"

# The installed tool, on two PNGs, with GStreamer's own plugin search only.
# Where the system already has an ssimulacra2cmp plugin, that one would be
# found first: the system's plugins are then given through
# GST_PLUGIN_SYSTEM_PATH_1_0 as links, all but that one.
compare=$dest$bindir/ssimulacra2cmp-compare
[ -x "$compare" ] || { echo "FAIL: no ssimulacra2cmp-compare in $dest$bindir"; exit 1; }
system_plugin=$(env -u GST_PLUGIN_PATH GST_REGISTRY="$tmp/system.bin" \
  gst-inspect-1.0 ssimulacra2cmp 2>/dev/null | sed -n 's/^ *Filename *//p')
if [ -n "$system_plugin" ]; then
  mkdir "$tmp/system-plugins"
  for f in "$(pkg-config --variable=pluginsdir gstreamer-1.0)"/*; do
    [ "$f" -ef "$system_plugin" ] || ln -s "$f" "$tmp/system-plugins/"
  done
  GST_PLUGIN_SYSTEM_PATH_1_0=$tmp/system-plugins
  export GST_PLUGIN_SYSTEM_PATH_1_0
  if env -u GST_PLUGIN_PATH GST_REGISTRY="$tmp/hidden.bin" gst-inspect-1.0 ssimulacra2cmp \
      >/dev/null 2>&1; then
    echo "FAIL: the system's ssimulacra2cmp plugin ($system_plugin) cannot be hidden"
    exit 1
  fi
  echo "the system's own ssimulacra2cmp plugin ($system_plugin) is hidden"
fi
gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=RGB,width=32,height=24 \
  ! pngenc ! filesink location="$tmp/a.png" || { echo "FAIL: could not write a.png"; exit 1; }
score=$(env -u GST_PLUGIN_PATH GST_REGISTRY="$tmp/cli.bin" "$compare" --backend cpu \
  "$tmp/a.png" "$tmp/a.png" 2>"$tmp/cli.log") || {
  cat "$tmp/cli.log"; echo "FAIL: the installed ssimulacra2cmp-compare did not find its plugin"; exit 1; }
[ "$score" = "100.00000000" ] || { echo "FAIL: installed tool printed '$score'"; exit 1; }
echo "the installed ssimulacra2cmp-compare finds the installed plugin by itself"
