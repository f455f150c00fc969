# SPDX-License-Identifier: BSD-3-Clause
"""Test of ssimulacra2cmp-plot (meson test plot_tool): writes results files
in the three formats by hand (a sine of scores, one file without its summary,
as a run cut short leaves it), plots them overlaid to PNG and SVG, and checks
that the pictures exist with the asked size; that the threshold's line has
a colour far from every curve's (in the SVG); a file with no frame is an
error; --metric ssim plots SSIM's column and refuses a file without it. Usage: test_plot.py PATH/TO/ssimulacra2cmp-plot"""
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile

try:
    import matplotlib  # noqa: F401
except ImportError:
    # A test dependency (.ci/install-deps.sh): its absence is a failure.
    print("FAIL: python3-matplotlib is not installed")
    sys.exit(1)

plot = sys.argv[1]
scores = [70 + 10 * math.sin(i / 7) for i in range(120)]
frames = [{"frameNum": i, "timestamp": i * 40000000, "running_time": i * 40000000,
           "dist_timestamp": i * 40000000, "metrics": {"ssimulacra2": s}}
          for i, s in enumerate(scores)]
pooled = {"min": min(scores), "max": max(scores), "mean": sum(scores) / len(scores),
          "harmonic_mean": 0, "p5": sorted(scores)[5]}

with tempfile.TemporaryDirectory() as d:
    paths = [os.path.join(d, name) for name in ("a.json", "b.jsonl", "c.csv", "unfinished.json")]
    with open(paths[0], "w") as f:
        json.dump({"version": "test", "frames": frames,
                   "pooled_metrics": {"ssimulacra2": pooled}, "summary": {}}, f)
    with open(paths[1], "w") as f:
        for fr in frames:
            f.write(json.dumps({"frameNum": fr["frameNum"], "ssimulacra2": fr["metrics"]["ssimulacra2"] - 5}) + "\n")
    with open(paths[2], "w") as f:
        f.write("frameNum,segment,timestamp,running_time,dist_timestamp,ssimulacra2\n")
        for fr in frames:
            f.write(f"{fr['frameNum']},0,,,,{fr['metrics']['ssimulacra2'] - 10!r}\n")
        f.write(f"# fps,\n# mean,{pooled['mean'] - 10!r}\n# p5,{pooled['p5'] - 10!r}\n"
                "# segment,0\n# reason,eos\n")
    with open(paths[3], "w") as f:  # cut short: no "]}" and no summary
        f.write('{"version":"test","frames":[\n' + json.dumps(frames[0]) + "\n," + json.dumps(frames[1]) + "\n")

    png = os.path.join(d, "plot.png")
    subprocess.run([plot, "-o", png, "--threshold", "65", "--size", "1000x500", *paths], check=True)
    with open(png, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", head
    size = struct.unpack(">II", head[16:24])
    assert size == (1000, 500), size

    # The threshold's line has a colour of its own, far from every curve's
    # (matplotlib's cycle: four files take its first four colours).
    svg = os.path.join(d, "threshold.svg")
    subprocess.run([plot, "-o", svg, "--threshold", "65", *paths], check=True)
    with open(svg) as f:
        text = f.read()
    colours = {name: re.findall(r'<g id="%s">\s*<path [^>]*?stroke: (#[0-9a-f]{6})' % name, text)
               for name in ("curve", "threshold")}
    threshold, curves = colours["threshold"], colours["curve"]
    assert len(threshold) == 2, threshold  # the curves' axes and the histogram's
    assert len(set(curves)) == len(paths), curves
    rgb = lambda c: [int(c[i:i + 2], 16) for i in (1, 3, 5)]  # noqa: E731
    for colour in curves:
        distance = math.dist(rgb(colour), rgb(threshold[0]))
        assert distance > 100, (threshold[0], colour, distance)

    svg = os.path.join(d, "plot.svg")
    subprocess.run([plot, "-o", svg, paths[0]], check=True)
    with open(svg) as f:
        text = f.read()
    # The default 1200x600 pixels at 100 dpi: 864 x 432 points.
    assert "<svg" in text and 'width="864pt"' in text and 'height="432pt"' in text, text[:400]

    empty = os.path.join(d, "empty.jsonl")
    open(empty, "w").close()
    run = subprocess.run([plot, "-o", os.path.join(d, "e.png"), empty], capture_output=True, text=True)
    assert run.returncode == 1 and "no scored frame" in run.stderr, (run.returncode, run.stderr)

    # --metric ssim: a csv with SSIM's columns and its "# ssim_" statistics
    # plots; a file without SSIM is an error that says so.
    both = os.path.join(d, "both.csv")
    with open(both, "w") as f:
        f.write("frameNum,timestamp,running_time,dist_timestamp,ssimulacra2,ssim,ssim_db,"
                "ssim_y,ssim_cb,ssim_cr\n")
        for i, s in enumerate(scores):
            f.write(f"{i},,,,{s!r},{s / 100!r},1,1,1,1\n")
        f.write("# mean,70\n# p5,60\n# ssim_mean,0.7\n# ssim_p5,0.6\n")
    subprocess.run([plot, "--metric", "ssim", "-o", os.path.join(d, "ssim.png"), both], check=True)
    run = subprocess.run([plot, "--metric", "ssim", "-o", os.path.join(d, "x.png"), paths[0]],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "no 'ssim'" in run.stderr, (run.returncode, run.stderr)
print("ok")
