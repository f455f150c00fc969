# SPDX-License-Identifier: BSD-3-Clause
"""The test data are what their reference values were computed from.

Every file that tests/data/README.md lists has the sha256 listed there, and
each flower PNG, decoded here (by a decoder of its own, not the tests' PNG
reader) and written as the binary PPM the canonical tool read
("P6\\n510 532\\n255\\n" and the pixels), has that PPM's sha256.

Usage: test_data.py TESTDATA_DIR"""
import hashlib
import os
import re
import struct
import sys
import zlib

testdata = sys.argv[1]
failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def png_as_ppm(path):
    """An 8-bit RGB, non-interlaced PNG as the bytes of a P6 PPM file."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(path + ": not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    width, height, depth, color, _, _, interlace = header
    if (depth, color, interlace) != (8, 2, 0):
        raise ValueError(path + ": not 8-bit RGB without interlacing")
    raw, stride, bpp = zlib.decompress(idat), width * 3, 3
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            a = row[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            row[x] = (row[x] + (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]) & 0xFF
        rows.append(bytes(row))
        prev = row
    return b"P6\n%d %d\n255\n" % (width, height) + b"".join(rows)


listed = re.findall(r"(?m)^    ([0-9a-f]{64})  (\S+)$",
                    open(os.path.join(testdata, "README.md")).read())
# 15 files here and the 4 PPM files the canonical tool read.
if len(listed) != 19:
    fail("README.md lists %d checksums, want 19" % len(listed))
for sha, name in listed:
    try:
        if name.endswith(".ppm"):
            what = name + " (from " + name[:-4] + ".png)"
            data = png_as_ppm(os.path.join(testdata, name[:-4] + ".png"))
        else:
            what = name
            data = open(os.path.join(testdata, name), "rb").read()
    except (OSError, ValueError) as e:
        fail(str(e))
        continue
    got = hashlib.sha256(data).hexdigest()
    if got != sha:
        fail("%s: sha256 %s, the README lists %s" % (what, got, sha))
    else:
        print("ok   " + what)
print("%d files checked, %d failed" % (len(listed), len(failures)))
sys.exit(1 if failures or not listed else 0)
