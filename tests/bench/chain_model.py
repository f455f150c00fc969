#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The blurs' time as two chains, for either design of the blur passes
# (docs/decisions/bytes-per-pair.md). The recursive Gaussian runs along
# each line and down each column in order, so every design walks the tiles
# of a line one after another and the rows of a column one after another:
#
#   T = a * (tiles walked, summed over the scales)
#     + b * (steps down a column: bands, or the vertical pass's row
#            batches, summed over the scales)
#
# The per-step costs a and b are fitted from two frames that each isolate
# one chain: 3840x64 (120 tiles, a few bands) and 64x2160 (2 tiles, many
# bands), whose blur stage the bench times (`bench_cuda 10 0.1 1 3840x64
# 64x2160`). The model then gives a frame's time with the GPU to itself
# and no other chain in the way; where a frame has more blocks than the
# GPU runs at once without sharing a multiprocessor, the time measured is
# longer. It also gives the a that a design would need to reach a target
# time for a size with its b unchanged.
# Usage: chain_model.py --rows ROWS WIDE_MS TALL_MS [--target MS WxH] [WxH ...]
#   ROWS: rows per band (the banded blur) or per row batch (the vertical
#   pass); WIDE_MS, TALL_MS: the blur stage at 3840x64 and 64x2160.
import argparse

from bytes_model import scales

TILE = 32  # columns per tile
# A band's outputs start N - 1 rows above it. The planes design's row
# batches start at row 0 but are counted the same way here, which adds at
# most one batch a scale (under 2 % of b's count at 64x2160).
UP = 4


def chains(w, h, rows):
    """(tiles walked, column steps) summed over the scales."""
    sc = scales(w, h)
    return (sum((a + TILE - 1) // TILE for a, _ in sc),
            sum((b + UP + rows - 1) // rows for _, b in sc))


def size(text):
    w, h = text.split("x")
    return int(w), int(h)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, required=True)
    p.add_argument("--target", nargs=2, metavar=("MS", "WxH"))
    p.add_argument("wide", type=float)
    p.add_argument("tall", type=float)
    p.add_argument("sizes", nargs="*", type=size, default=[(3840, 2160), (1920, 1080)])
    args = p.parse_args()
    (t1, s1), (t2, s2) = chains(3840, 64, args.rows), chains(64, 2160, args.rows)
    det = t1 * s2 - t2 * s1
    a = (args.wide * s2 - args.tall * s1) / det
    b = (t1 * args.tall - t2 * args.wide) / det
    print(f"a = {a * 1e3:.2f} us per tile, b = {b * 1e3:.2f} us per column step "
          f"({args.rows} rows)")
    for w, h in args.sizes:
        tiles, steps = chains(w, h, args.rows)
        print(f"{w}x{h}: {tiles} tiles, {steps} column steps: "
              f"{a * tiles:.3f} + {b * steps:.3f} = {a * tiles + b * steps:.3f} ms")
    if args.target:
        ms, (w, h) = float(args.target[0]), size(args.target[1])
        tiles, steps = chains(w, h, args.rows)
        print(f"{w}x{h} in {ms} ms with b unchanged: a = {(ms - b * steps) / tiles * 1e3:.2f} us per tile")


if __name__ == "__main__":
    main()
