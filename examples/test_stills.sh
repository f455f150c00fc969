#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Test of ssimulacra2cmp-compare on still images (meson test compare_stills):
# every 8-bit pair of tests/data/stills, with and without alpha, decoded by
# GStreamer's pngdec, prints the canonical tool's score and gives its double
# (scores.txt); the PNGs the canonical tool reads otherwise than pngdec
# (colour chunks, tRNS, sBIT, grey below 8 bits, 16 bits with colour or
# alpha) are refused with the reason and no score; the chunks the canonical
# tool reads as plain sRGB (sRGB with gAMA and cHRM, cICP of sRGB, sBIT of
# the full depth, a palette's tRNS) are scored as their pixels.
# Usage: test_stills.sh PATH/TO/ssimulacra2cmp-compare PATH/TO/tests/data/stills
set -u
compare=$1
stills=$2
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The canonical scores: the text's 8 decimals and the results file's double.
grep -v '^#' "$stills/scores.txt" | while read -r ref dist printed digits; do
  case $ref in *16*) continue ;; esac  # 16 bits: refused below
  "$compare" --backend cpu "$stills/$ref" "$stills/$dist" >"$dir/text.txt" \
    || fail "$ref $dist exited $?"
  [ "$(cat "$dir/text.txt")" = "$printed" ] \
    || fail "$ref $dist printed $(cat "$dir/text.txt"), canonical $printed"
  "$compare" --backend cpu --format jsonl "$stills/$ref" "$stills/$dist" >"$dir/out.jsonl" \
    || fail "$ref $dist --format jsonl exited $?"
  python3 - "$dir/out.jsonl" "$digits" <<'PY' || fail "$ref $dist: not the canonical double"
import json, sys
score = json.loads(open(sys.argv[1]).readline())["ssimulacra2"]
assert score == float(sys.argv[2]), (score, sys.argv[2])
PY
  echo "$ref $dist $printed"
done || exit 1

# Each refused PNG: exit status 1, the reason, nothing on standard output.
refused() {  # FILE WORDS-OF-THE-REASON
  "$compare" --backend cpu "$1" "$stills/opaque.png" >"$dir/out.txt" 2>"$dir/err.txt"
  rc=$?
  cat "$dir/err.txt"
  [ $rc = 1 ] || fail "$1 exited $rc, expected 1"
  grep -q "$2" "$dir/err.txt" && grep -q 'Not scored' "$dir/err.txt" || fail "$1: message"
  [ -s "$dir/out.txt" ] && fail "$1: a score was printed"
  return 0
}
refused "$stills/ramp16.png" 'is a 16-bit RGBA PNG'

# opaque.png with a chunk added before IDAT (or, for the grey and palette
# cases, a picture of its own): NAME TYPE HEX-BODY.
python3 - "$stills/opaque.png" "$dir" <<'PY' || fail "could not write the PNGs"
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
src = open(sys.argv[1], "rb").read()
head, rest = src[:33], src[33:]  # signature and IHDR, then the rest
def write(name, *chunks):
    open(sys.argv[2] + "/" + name, "wb").write(head + b"".join(chunks) + rest)
srgb_chrm = struct.pack(">8I", 31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)
write("gama.png", chunk(b"gAMA", struct.pack(">I", 45455)))
write("chrm.png", chunk(b"cHRM", srgb_chrm))
write("iccp.png", chunk(b"iCCP", b"x\0\0" + zlib.compress(b"not a profile")))
write("cicp_pq.png", chunk(b"cICP", bytes([9, 16, 0, 1])))
write("trns.png", chunk(b"tRNS", struct.pack(">HHH", 0, 0, 0)))
write("sbit5.png", chunk(b"sBIT", bytes([5, 5, 5])))
write("srgb_gama_chrm.png", chunk(b"sRGB", b"\0"), chunk(b"gAMA", struct.pack(">I", 45455)),
      chunk(b"cHRM", srgb_chrm))
write("cicp_srgb.png", chunk(b"cICP", bytes([1, 13, 0, 1])))
write("sbit8.png", chunk(b"sBIT", bytes([8, 8, 8])))
def picture(name, depth, colour_type, rows, *chunks):
    ihdr = struct.pack(">IIBBBBB", 64, 48, depth, colour_type, 0, 0, 0)
    data = zlib.compress(b"".join(b"\0" + r for r in rows))
    open(sys.argv[2] + "/" + name, "wb").write(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + b"".join(chunks) + chunk(b"IDAT", data)
        + chunk(b"IEND", b""))
picture("grey1.png", 1, 0, [bytes((x * 37 + y) % 256 for x in range(8)) for y in range(48)])
# A palette with tRNS: pngdec gives RGBA, as the canonical tool reads it.
palette = bytes((i * 16 + c * 40) % 256 for i in range(16) for c in range(3))
rows = [bytes((x // 3 + y // 2 * 5) % 16 for x in range(64)) for y in range(48)]
picture("palette.png", 8, 3, rows, chunk(b"PLTE", palette), chunk(b"tRNS", bytes(range(0, 256, 17))))
rgba = [bytes(v for x in range(64) for i in ((x // 3 + y // 2 * 5) % 16,)
              for v in list(palette[3 * i:3 * i + 3]) + [17 * i]) for y in range(48)]
picture("palette_as_rgba.png", 8, 6, rgba)
PY
refused "$dir/gama.png" 'has a gAMA or cHRM chunk and no sRGB chunk'
refused "$dir/chrm.png" 'has a gAMA or cHRM chunk and no sRGB chunk'
refused "$dir/iccp.png" 'has an ICC profile'
refused "$dir/cicp_pq.png" 'has a cICP chunk that does not say sRGB'
refused "$dir/trns.png" 'has a tRNS chunk'
refused "$dir/sbit5.png" 'has an sBIT chunk'
refused "$dir/grey1.png" 'fewer than 8 bits a sample'

# Chunks the canonical tool reads as sRGB: the score of the pixels alone.
"$compare" --backend cpu "$stills/opaque.png" "$stills/opaque_distorted.png" >"$dir/plain.txt" \
  || fail "plain run"
for f in srgb_gama_chrm cicp_srgb sbit8; do
  "$compare" --backend cpu "$dir/$f.png" "$stills/opaque_distorted.png" >"$dir/$f.txt" \
    || fail "$f.png exited $?"
  cmp -s "$dir/$f.txt" "$dir/plain.txt" || fail "$f.png: $(cat "$dir/$f.txt"), plain $(cat "$dir/plain.txt")"
done
"$compare" --backend cpu --format jsonl "$dir/palette.png" "$stills/ramp.png" >"$dir/palette.jsonl" \
  || fail "palette run"
"$compare" --backend cpu --format jsonl "$dir/palette_as_rgba.png" "$stills/ramp.png" \
  >"$dir/rgba.jsonl" || fail "palette as RGBA run"
# The frame lines, but for the time each was written.
first_frame() { head -n 1 "$1" | sed -E 's/"utc":"[^"]*"//'; }
[ "$(first_frame "$dir/palette.jsonl")" = "$(first_frame "$dir/rgba.jsonl")" ] \
  || fail "a palette with tRNS scores otherwise than its RGBA pixels"
echo "ok"
