#!/usr/bin/env python3
# The bytes one exact SSIMULACRA 2 pair moves to and from device memory, per
# pass, in two designs of the blurs: "planes", the CUDA backend's
# (kernels/blur.cu writes 15 blurred planes per scale, kernels/
# blur_vertical.cu reads them back), and "bands", the design of D102
# (docs/decisions/bytes-per-pair.md: a band's horizontal outputs go to the
# vertical pass on chip, the columns' states from band to band). A model,
# not a measurement: every plane touched once per pass, no cache reuse
# except where noted; the profiles (tests/bench/profile-pipeline.sh) give
# the measured totals. Also the floor each total puts on a pair at a GPU's
# copy rate.
# Usage: bytes_model.py [WxH ...] (default 3840x2160 1920x1080)
import sys

F = 4  # bytes per float
SLOTS = 4  # band boundaries whose states are kept


def scales(w, h):
    """The pyramid's (width, height) per scale: up to 6, halved rounding up,
    down to 8 pixels a side."""
    out = []
    for s in range(6):
        if w < 8 or h < 8:
            break
        out.append((w, h))
        w, h = (w + 1) // 2, (h + 1) // 2
    return out


def band_states(sc):
    """Bytes of the column states' slots of every scale (bands design):
    per slot, tile column, channel and plane, the three poles' last two
    outputs."""
    return sum(SLOTS * ((a + 31) // 32) * 32 * 3 * 5 * 6 * F for a, _ in sc)


def passes(w, h, design):
    """(name, read bytes, written bytes) per pass of one 8-bit I420 pair."""
    sc = scales(w, h)
    frames = 2 * w * h * 3 // 2
    rows = [("front end", frames, 6 * F * w * h + 6 * F * sc[1][0] * sc[1][1])]
    later = sum(a * b for a, b in sc[1:])
    # Scale s > 0: reads its linear planes, writes XYB and the next linear.
    rows.append(("scale starts", 6 * F * later, 6 * F * later + 6 * F * sum(a * b for a, b in sc[2:])))
    px = sum(a * b for a, b in sc)
    if design == "planes":
        rows.append(("horizontal blur", 6 * F * px, 15 * F * px))
        rows.append(("vertical blur + terms", 15 * F * px + 6 * F * px, 9 * F * px))
    else:
        # The halo lines are read again; they were read by the band above a
        # moment before, so most come from L2: counted once here. The
        # states' slots are counted as written once, though sized to stay
        # in L2.
        rows.append(("banded blur + terms", 6 * F * px, 9 * F * px + band_states(sc)))
    rows.append(("sums' chunk passes and walks", 9 * F * px, 0))
    return rows


def memory(w, h, design):
    sc = scales(w, h)
    plane = lambda a, b: ((a + 31) // 32 * 32) * b * F
    scale0 = (6 + (15 if design == "planes" else 9)) * plane(*sc[0])
    odd = 6 * plane(*sc[1])
    bands = 0 if design == "planes" else band_states(sc)
    return scale0 + odd + bands


def main():
    sizes = [tuple(map(int, a.split("x"))) for a in sys.argv[1:]] or [(3840, 2160), (1920, 1080)]
    for w, h in sizes:
        for design in ("planes", "bands"):
            rows = passes(w, h, design)
            total = sum(r + wr for _, r, wr in rows)
            print(f"{w}x{h} {design}: {total / 1e9:.3f} GB per pair, "
                  f"planes and states {memory(w, h, design) / 2**20:.0f} MiB per pair in flight")
            for name, r, wr in rows:
                print(f"  {name:30s} read {r / 1e9:6.3f} GB  written {wr / 1e9:6.3f} GB")
            for gpu, gbs in (("L4", 300), ("T4", 320), ("A10", 600), ("H200", 4800)):
                print(f"  floor at {gpu} ({gbs} GB/s): {total / gbs / 1e6:.2f} ms")


if __name__ == "__main__":
    main()
