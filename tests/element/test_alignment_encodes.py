#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""ssimulacra2cmp-compare --align auto on real encodes out of step with
their reference (alignment_encodes.py: late and early by 1 to 10 frames, a
frame dropped, a frame repeated, both, a flat clip, a scene cut at the
start). For each, from the results file (jsonl):

- the summary's offsets hold the offsets the variant was made with, and
  its realignments count their changes;
- every record not flagged (alignFlagged) pairs the reference frame with a
  distorted frame of the same picture (dist_frameNum);
- after each event (the start, a dropped or repeated frame) at most 3
  reference frames are flagged, unscored or paired wrong;
- every frame paired right scores exactly what it scores against the
  pre-cut file (the decode of the reference's frames, --align off), the
  score's text in the file and its double alike;
- flat content, where no picture tells the offset, has no record that is
  not flagged, and no realignment.

    test_alignment_encodes.py PATH/TO/ssimulacra2cmp-compare WORKDIR

Skipped (77) without ffmpeg's libx264, unless WORKDIR holds the encodes
an earlier run made (alignment_encodes.made()). Each case's distorted file is
written as it runs, then removed.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import alignment_encodes  # noqa: E402

EVENT_FRAMES = 3  # reference frames after an event that may be wrong or flagged


def compare(tool, ref, dist, align, results):
    """Runs the tool; the summary line's fields as text, and the results
    file's frame records (floats kept as their text)."""
    backend = os.environ.get("S2C_TEST_BACKEND") or "cpu"
    run = subprocess.run([tool, "--backend", backend, "--align", align, "-o", results, ref, dist],
                         capture_output=True, text=True)
    if run.returncode not in (0, 3, 4):
        raise RuntimeError(f"{os.path.basename(dist)}: exit {run.returncode}: {run.stderr}")
    words = next(line for line in run.stdout.splitlines() if line.startswith("summary ")).split()
    summary = dict(zip(words[1::2], words[2::2]))
    with open(results) as f:
        lines = [json.loads(line, parse_float=str) for line in f]
    os.remove(results)
    return summary, [r for r in lines if "frameNum" in r]


def score_text(record):
    return str(record["ssimulacra2"])


def right_partners(case):
    """For each reference frame, the distorted frames that hold its
    picture's decode (none, one, or two for a repeated frame)."""
    where = {}
    for j, source in enumerate(case.sources):
        where.setdefault(source, []).append(j)
    return [where.get(p, []) for p in case.partners]


def expected_offsets(partners):
    """The offsets (distorted minus reference frame) of the frames with one
    right partner, in order, each change once."""
    offsets = []
    for i, js in enumerate(partners):
        if len(js) == 1 and (not offsets or offsets[-1] != js[0] - i):
            offsets.append(js[0] - i)
    return offsets


def events(partners):
    """The reference frames where the right pairing changes: the first with
    a partner, and each whose offsets differ from the last partnered one's."""
    found, last = [], None
    for i, js in enumerate(partners):
        if not js:
            continue
        offsets = {j - i for j in js}
        if offsets != last:
            found.append(i)
        last = offsets
    return found


def parse_offsets(text):
    """"0:25,-1:34" -> {0: 25, -1: 34}."""
    pairs = (item.split(":") for item in text.split(",") if item)
    return {int(offset): int(count) for offset, count in pairs}


def check(case, summary, records, precut):
    """The case's problems, as sentences (none: it passes)."""
    problems = []
    partners = right_partners(case)
    by_frame = {r["frameNum"]: r for r in records}
    wrong = set()  # reference frames with a partner, not paired right unflagged
    for i, js in enumerate(partners):
        record = by_frame.get(i)
        if record is None:
            if js:
                wrong.add(i)
            continue
        dist, flagged = record["dist_frameNum"], record["alignFlagged"]
        right = dist in js
        if not right and not flagged:
            problems.append(f"frame {i} paired with distorted frame {dist} (a copy of decoded "
                            f"frame {case.sources[dist] if dist < len(case.sources) else '?'}"
                            f"), not {js or 'none'}, and not flagged")
        if right and (score_text(record) != precut[i] or
                      float(score_text(record)) != float(precut[i])):
            problems.append(f"frame {i} scores {score_text(record)}, against the pre-cut file "
                            f"{precut[i]}")
        if js and (flagged or not right):
            wrong.add(i)
    flagged = sum(1 for r in records if r["alignFlagged"])
    if summary.get("align-flagged") != str(flagged):
        problems.append(f"summary align-flagged {summary.get('align-flagged')}, records "
                        f"flagged {flagged}")
    seen = parse_offsets(summary.get("offsets", ""))
    if not case.decidable:
        if summary.get("realignments") != "0":
            problems.append(f"flat content: realignments {summary.get('realignments')}")
        return problems
    expected = expected_offsets(partners)
    if summary.get("realignments") != str(len(expected) - 1):
        problems.append(f"realignments {summary.get('realignments')}, expected "
                        f"{len(expected) - 1} (offsets {expected})")
    missing = [o for o in expected if seen.get(o, 0) == 0]
    starts = events(partners)
    stray = sum(n for o, n in seen.items() if o not in expected)
    if missing or stray > EVENT_FRAMES * len(starts):
        problems.append(f"offsets {summary.get('offsets')}, expected {expected}")
    allowed = {e + n for e in starts for n in range(EVENT_FRAMES)}
    if wrong - allowed:
        problems.append(f"frames {sorted(wrong - allowed)} flagged, unscored or paired wrong, "
                        f"more than {EVENT_FRAMES} after an event (events at {starts})")
    return problems


def main():
    tool, workdir = sys.argv[1], sys.argv[2]
    if not alignment_encodes.has_libx264() and not alignment_encodes.made(workdir):
        print("SKIP: ffmpeg with libx264 not found")
        return 77
    cases = alignment_encodes.make(workdir, os.environ["S2C_TESTDATA"])
    results = os.path.join(workdir, "results.jsonl")
    precuts = {}
    failed = []
    for case in cases:
        if case.precut not in precuts:
            _, records = compare(tool, case.reference, case.precut, "off", results)
            precuts[case.precut] = {r["frameNum"]: score_text(r) for r in records}
        summary = {}
        try:
            summary, records = compare(tool, case.reference, case.write(), "auto", results)
            problems = check(case, summary, records, precuts[case.precut])
        except (RuntimeError, KeyError, StopIteration) as e:
            problems = [f"no results to check: {type(e).__name__} {e}"]
        os.remove(case.distorted)
        print(f"{'FAIL' if problems else 'ok  '} {case.name}: offsets "
              f"{summary.get('offsets')} realignments {summary.get('realignments')} "
              f"align-flagged {summary.get('align-flagged')} mean {summary.get('mean')}")
        for problem in problems:
            print(f"     {problem}")
        if problems:
            failed.append(case.name)
    if failed:
        print(f"FAIL: {len(failed)} of {len(cases)} cases: {' '.join(failed)}")
        return 1
    print(f"ok: {len(cases)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
