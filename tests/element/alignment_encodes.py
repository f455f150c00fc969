#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Real encodes whose distorted stream is out of step with its reference.

A pan over a photograph of tests/data (a 640x360 window, 25 fps, scaled
to 320x180 so that the 25 cases score in seconds) is the lossless
reference (Y4M); libx264 at CRF 30 encodes it, and each variant is cut from
the DECODED encode, frame by frame, so that a distorted frame holds exactly
the bytes of the decode it came from: late (a lead-in of the encode's
earlier frames), early (its first frames cut), a frame dropped, a frame
repeated, both, a flat grey clip, and a scene cut in the first frames.

Each variant comes with, for each of its distorted frames, the index of the
decoded frame it is a copy of (`sources`), and for each reference frame the
index of the decoded frame of the same picture (`partners`). A reference
frame's right partner is any distorted frame with that source; the
"pre-cut" file is the decode of the reference's frames alone, in order,
which pairs each reference frame with its right partner by time.

    alignment_encodes.py OUTDIR [TESTDATA]

writes the Y4M files and cases.json into OUTDIR (TESTDATA: tests/data, or
$S2C_TESTDATA); a test imports it and writes each case's distorted file
as it runs it (make(), Case.write()). Needs ffmpeg with libx264, or
OUTDIR as an earlier make() left it: the files ffmpeg made are reused
while encodes.key holds the hash of this file, which is how the GPU
machine, without ffmpeg, runs the cases made elsewhere.
"""
import hashlib
import json
import os
import subprocess
import sys

WINDOW_W, WINDOW_H = 640, 360  # the window moving over the photograph
WIDTH, HEIGHT, RATE = 320, 180, 25  # the clips
FRAMES = 75  # of each reference
LEAD = 10  # frames of the encode before the reference's first: late cases' lead-in
CRF = 30


KEY_FILE = "encodes.key"


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", *args], check=True)


def key():
    """What the files ffmpeg makes depend on: this file (sizes, rates,
    pans, encoder settings)."""
    with open(os.path.abspath(__file__), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def made(outdir):
    """Whether `outdir` holds the encodes of this version of the file."""
    try:
        with open(os.path.join(outdir, KEY_FILE)) as f:
            return f.read() == key()
    except OSError:
        return False


def has_libx264():
    try:
        out = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return False
    return any(line.split()[1:2] == ["libx264"] for line in out.splitlines())


def read_y4m(path):
    """The header line and the frames' bytes (without their FRAME lines)."""
    data = open(path, "rb").read()
    end = data.index(b"\n") + 1
    header, frames, pos = data[:end], [], end
    size = WIDTH * HEIGHT * 3 // 2  # 4:2:0
    while pos < len(data):
        line_end = data.index(b"\n", pos) + 1
        assert data[pos:line_end].startswith(b"FRAME"), path
        frames.append(data[line_end:line_end + size])
        pos = line_end + size
    return header, frames


def write_y4m(path, header, frames):
    with open(path, "wb") as f:
        f.write(header)
        for frame in frames:
            f.write(b"FRAME\n" + frame)


def pan(photo, path, frames, x0, y0, dx, dy, scale=None):
    """`frames` frames of a 640x360 window moving (dx, dy) pixels a second
    over `photo` from (x0, y0), scaled to the clips' size, losslessly in
    Y4M 4:2:0."""
    vf = (f"scale={scale}," if scale else "") + \
        f"crop={WINDOW_W}:{WINDOW_H}:x='{x0}+t*{dx}':y='{y0}+t*{dy}'," \
        f"scale={WIDTH}:{HEIGHT},format=yuv420p"
    ffmpeg("-loop", "1", "-framerate", str(RATE), "-i", photo, "-vf", vf, "-frames:v",
           str(frames), path)


def flat(path, frames):
    ffmpeg("-f", "lavfi", "-i", f"color=c=0x808080:size={WIDTH}x{HEIGHT}:rate={RATE}",
           "-vf", "format=yuv420p", "-frames:v", str(frames), path)


def encode_and_decode(source, stem):
    """libx264 CRF 30 of `source`, decoded back to `stem`.y4m."""
    ffmpeg("-i", source, "-c:v", "libx264", "-crf", str(CRF), "-pix_fmt", "yuv420p",
           stem + ".mkv")
    ffmpeg("-i", stem + ".mkv", "-pix_fmt", "yuv420p", stem + ".y4m")


class Family:
    """A source (a Y4M file) encoded and decoded; its reference is frames
    first .. first + FRAMES - 1 of the source, written beside their pre-cut
    decode."""

    def __init__(self, source, stem, first, reuse):
        header, frames = read_y4m(source)
        self.reference = stem + "-ref.y4m"
        self.precut = stem + "-precut.y4m"
        write_y4m(self.reference, header, frames[first:first + FRAMES])
        if not reuse:
            encode_and_decode(source, stem + "-encode")
        self.header, self.decoded = read_y4m(stem + "-encode.y4m")
        write_y4m(self.precut, self.header, self.decoded[first:first + FRAMES])
        self.first = first


class Case:
    """A distorted stream of a family's decoded frames `sources`, written
    to `distorted` by write()."""

    def __init__(self, name, family, sources, outdir, decidable=True):
        self.name = name
        # False: no picture tells the offset (flat content); every pair
        # must then be flagged or unscored.
        self.decidable = decidable
        self.family = family
        self.reference = family.reference
        self.precut = family.precut
        self.distorted = os.path.join(outdir, name + ".y4m")
        self.sources = sources
        self.partners = list(range(family.first, family.first + FRAMES))

    def write(self):
        write_y4m(self.distorted, self.family.header,
                  [self.family.decoded[s] for s in self.sources])
        return self.distorted

    def description(self):
        return {"reference": self.reference, "distorted": self.distorted,
                "precut": self.precut, "sources": self.sources, "partners": self.partners,
                "decidable": self.decidable}


def make(outdir, testdata):
    """Encodes the families into `outdir` and returns the cases, their
    distorted files not yet written."""
    os.makedirs(outdir, exist_ok=True)
    path = lambda name: os.path.join(outdir, name)  # noqa: E731
    reuse = made(outdir)
    if not reuse and os.path.exists(path(KEY_FILE)):
        os.remove(path(KEY_FILE))
    cases = []

    # The pan: LEAD frames before the reference's first, so that a late
    # stream's lead-in is the same encode's earlier pictures.
    if not reuse:
        pan(os.path.join(testdata, "tank_source.png"), path("pan-source.y4m"), LEAD + FRAMES,
            0, 300, 200, 40)
    pans = Family(path("pan-source.y4m"), path("pan"), LEAD, reuse)
    on_time = list(range(LEAD, LEAD + FRAMES))
    for k in range(1, 11):
        cases.append(Case(f"late-{k}", pans, list(range(LEAD - k, LEAD + FRAMES)), outdir))
    for k in range(1, 11):
        cases.append(Case(f"early-{k}", pans, list(range(LEAD + k, LEAD + FRAMES)), outdir))
    cases.append(Case("dropped-25", pans, on_time[:25] + on_time[26:], outdir))
    cases.append(Case("repeated-25", pans, on_time[:26] + on_time[25:], outdir))
    cases.append(Case("dropped-20-repeated-50", pans,
                      on_time[:20] + on_time[21:51] + on_time[50:], outdir))

    # A flat grey clip, late by 3: no picture tells the offset.
    if not reuse:
        flat(path("flat-source.y4m"), 3 + FRAMES)
    flats = Family(path("flat-source.y4m"), path("flat"), 3, reuse)
    cases.append(Case("flat-late-3", flats, list(range(0, 3 + FRAMES)), outdir,
                      decidable=False))

    # A scene cut at the reference's second frame (another photograph
    # before it), the distorted stream late by 4.
    if not reuse:
        pan(os.path.join(testdata, "flower_small.png"), path("other-scene.y4m"), 10, 100, 0,
            0, 150, scale="1024:-2")
    _, before = read_y4m(path("other-scene.y4m"))
    header, after = read_y4m(path("pan-source.y4m"))
    write_y4m(path("cut-source.y4m"), header, before + after[10:])
    cuts = Family(path("cut-source.y4m"), path("cut"), 9, reuse)
    cases.append(Case("cut-late-4", cuts, list(range(5, 9 + FRAMES)), outdir))
    with open(path(KEY_FILE), "w") as f:
        f.write(key())
    return cases


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    all_cases = make(out, sys.argv[2] if len(sys.argv) == 3 else os.environ["S2C_TESTDATA"])
    for case in all_cases:
        case.write()
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump({case.name: case.description() for case in all_cases}, f, indent=1)
