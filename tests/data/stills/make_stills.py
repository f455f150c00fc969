#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the still images of this folder (README.md says what each is for).

Plain PNG writer, no ancillary chunks; the pixels are arithmetic patterns, so
the files come out byte for byte the same on every run.
Usage: make_stills.py [FOLDER]   (default: the folder of this script)
"""
import os
import struct
import sys
import zlib

W, H = 64, 48


def chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data)))


def write_png(path, colour_type, depth, rows):
    """rows: one list of samples per row, channels interleaved."""
    raw = bytearray()
    for row in rows:
        raw.append(0)  # filter: none
        for v in row:
            raw += struct.pack(">H", v) if depth == 16 else bytes((v,))
    ihdr = struct.pack(">IIBBBBB", W, H, depth, colour_type, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
                chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def colour(x, y):
    """A reference picture: gradients, a disc and a fine check pattern."""
    r = (x * 255) // (W - 1)
    g = (y * 255) // (H - 1)
    b = 200 if (x - 40) ** 2 + (y - 20) ** 2 < 150 else (x * y) % 97
    if (x // 2 + y // 2) % 2 == 0 and y > 30:
        r, g = g, r
    return [r, g, b]


def distorted(x, y):
    """The reference, quantised to steps of 4, with a block shifted right."""
    sx = x - 1 if 8 <= y < 24 and 10 <= x < 40 else x
    return [min(255, (v // 4) * 4 + 2) for v in colour(sx, y)]


def ramp(x, y):
    """Transparent at the left edge, opaque at the right."""
    return (x * 255) // (W - 1)


def ramp_steps(x, y):
    """The ramp in eight steps, and one transparent corner."""
    return 0 if x > 50 and y < 10 else min(255, (ramp(x, y) // 32) * 32 + 16)


def grey(pixel):
    """The green channel alone."""
    return lambda x, y: [pixel(x, y)[1]]


def image(pixel, alpha=None, wide=False):
    rows = []
    for y in range(H):
        row = []
        for x in range(W):
            samples = pixel(x, y) + ([alpha(x, y)] if alpha else [])
            # 16 bits: the 8-bit value in the high byte, a pattern in the low.
            row += [(v << 8) | ((x + 3 * y + 5 * i) % 16 * 16) if wide else v
                    for i, v in enumerate(samples)]
        rows.append(row)
    return rows


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    files = {
        "opaque.png": (2, 8, image(colour)),
        "opaque_distorted.png": (2, 8, image(distorted)),
        "ramp.png": (6, 8, image(colour, ramp)),
        "ramp_distorted.png": (6, 8, image(distorted, ramp)),
        "steps_distorted.png": (6, 8, image(distorted, ramp_steps)),
        "grey_ramp.png": (4, 8, image(grey(colour), ramp)),
        "grey_ramp_distorted.png": (4, 8, image(grey(distorted), ramp_steps)),
        "ramp16.png": (6, 16, image(colour, ramp, wide=True)),
        "ramp16_distorted.png": (6, 16, image(distorted, ramp_steps, wide=True)),
    }
    for name, (colour_type, depth, rows) in files.items():
        write_png(os.path.join(out, name), colour_type, depth, rows)


if __name__ == "__main__":
    main()
