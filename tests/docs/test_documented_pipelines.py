# SPDX-License-Identifier: BSD-3-Clause
"""Every documented launch line and monitor configuration runs.

Extracts the gst-launch-1.0 lines from README.md, docs/*.md and
examples/pipelines.md (fenced code blocks, and the README's indented ones),
and runs each in a directory that holds inputs under the names the
documents use (ref.png, dist.png, a.png, b.png, flower_small.png,
flower_small_q70.png: copies of the test data; ref.mkv, dist.mkv: short
generated clips; dist.ts, dist.mp4: their H.264 encodes). The same files'
```ini blocks with [channel NAME] groups are ssimulacra2cmp-monitor
configurations: each runs in that directory until every channel has scored
5 frames (its /metrics say so), and the monitor then stops with status 0
on SIGTERM. A block that says it needs
something the test machine lacks carries a comment line starting with
"# template:" or "# needs:"; its lines are listed, not run. Two rewrites
keep a run short and headless, and are the only ones: a live
videotestsrc gets num-buffers=30, and autovideosink becomes
fakesink sync=true. A line passes when its shell command exits 0 (with a
"| grep ..." that means the expected output was there).

Usage: test_documented_pipelines.py SOURCE_ROOT TESTDATA_DIR MONITOR
(TESTDATA_DIR: tests/data; a file missing there fails the test; MONITOR:
ssimulacra2cmp-monitor). GST_PLUGIN_PATH must find the plugin."""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

root, testdata, monitor = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
MARKERS = ("# template:", "# needs:")


def blocks(path):
    """(line number, text) of each code block that has a gst-launch-1.0 line."""
    text = open(path).read()
    found = [(m.start(), m.group(1)) for m in re.finditer(r"```[a-z]*\n(.*?)```", text, re.S)]
    found += [(m.start(), re.sub(r"(?m)^    ", "", m.group(0)))
              for m in re.finditer(r"(?m)^    gst-launch-1\.0.*(?:\n    .*)*", text)]
    return [(text[:at].count("\n") + 1, b) for at, b in found if "gst-launch-1.0" in b]


def monitor_blocks(path):
    """(line number, text) of each ```ini block that configures monitor channels."""
    text = open(path).read()
    return [(text[:m.start()].count("\n") + 1, m.group(1))
            for m in re.finditer(r"```ini\n(.*?)```", text, re.S)
            if re.search(r"(?m)^\[channel ", m.group(1))]


def run_monitor(config, d, timeout=60):
    """Runs the monitor on `config` in `d` until each of its channels has
    scored 5 frames, then stops it: None, or what went wrong."""
    path = os.path.join(d, "channels.conf")
    with open(path, "w") as f:
        f.write(config)
    names = re.findall(r"(?m)^\[channel ([^\]]+)\]", config)
    process = subprocess.Popen([monitor, "--config", path, "--listen", "127.0.0.1:0"], cwd=d,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    events = []
    threading.Thread(target=lambda: events.extend(json.loads(l) for l in process.stdout),
                     daemon=True).start()
    problem, url = None, None
    deadline = time.monotonic() + timeout
    while problem is None:
        time.sleep(0.2)
        failures = [e for e in list(events) if e["event"] in ("failed", "config-error")
                    and e["details"].get("reason") != "end of stream"]  # files loop
        url = url or next((f"http://127.0.0.1:{e['details']['port']}/metrics"
                           for e in list(events) if e["event"] == "listening"), None)
        if process.poll() is not None:
            problem = f"the monitor exited with status {process.returncode}: {process.stderr.read()}"
        elif failures:
            problem = json.dumps(failures[0])
        elif time.monotonic() > deadline:
            problem = f"timed out after {timeout} s; events: {events[-5:]}"
        elif url:
            try:
                with urllib.request.urlopen(url, timeout=10) as r:
                    metrics = r.read().decode()
            except OSError:
                continue  # exiting: the next round says why
            scored = dict(re.findall(
                r'(?m)^ssimulacra2cmp_frames_scored_total\{channel="([^"]*)"\} (\S+)$', metrics))
            if all(float(scored.get(name, 0)) >= 5 for name in names):
                break
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        if process.wait(timeout=60) != 0 and problem is None:
            problem = f"status {process.returncode} after SIGTERM"
    return problem


def commands(block):
    """The shell commands of a block, continuation lines joined."""
    out, current = [], ""
    for line in block.splitlines():
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        current += line.rstrip("\\").rstrip() + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            out.append(current.strip())
            current = ""
    return [c for c in out if c.startswith("gst-launch-1.0")]


def rewrite(command):
    command = command.replace("videotestsrc is-live=true", "videotestsrc is-live=true num-buffers=30")
    return command.replace("autovideosink", "fakesink sync=true")


def make_inputs(d):
    def launch(line):
        subprocess.run(["gst-launch-1.0", "-q", *line.split()], cwd=d, check=True)
    pngs = {"flower_small.png": "flower_small.png", "flower_small_q70.png": "flower_small_q70.png",
            "ref.png": "flower_small.png", "dist.png": "flower_small_q70.png",
            "a.png": "flower_small.png", "b.png": "flower_small_q70.png"}
    for name, source in pngs.items():
        shutil.copy(os.path.join(testdata, source), os.path.join(d, name))
    # Raw RGB, as the quickstart writes: what vp8enc cannot take unconverted.
    frames = ("videotestsrc num-buffers=15 pattern=smpte horizontal-speed=2 ! "
              "video/x-raw,format=RGB,width=160,height=96,framerate=30/1")
    launch(f"{frames} ! matroskamux ! filesink location=ref.mkv")
    launch(f"{frames} ! jpegenc quality=30 ! matroskamux ! filesink location=dist.mkv")
    # An encoder's output as a broadcast feed carries it (MPEG-TS), and as a file.
    h264 = f"{frames} ! videoconvert ! x264enc speed-preset=ultrafast"
    launch(f"{h264} ! mpegtsmux ! filesink location=dist.ts")
    launch(f"{h264} ! mp4mux ! filesink location=dist.mp4")


failures, ran, marked = [], 0, []
files = [os.path.join(root, "README.md"), *sorted(glob.glob(os.path.join(root, "docs", "*.md"))),
         os.path.join(root, "examples", "pipelines.md")]
with tempfile.TemporaryDirectory() as d:
    make_inputs(d)
    for path in files:
        for line, block in blocks(path):
            where = f"{os.path.relpath(path, root)}:{line}"
            marker = next((l.strip() for l in block.splitlines() if l.strip().startswith(MARKERS)), None)
            if marker:
                marked.append(f"{where}: {marker}")
                continue
            for command in commands(block):
                ran += 1
                run = subprocess.run(["sh", "-c", rewrite(command)], cwd=d, capture_output=True,
                                     text=True, timeout=180)
                status = "ok" if run.returncode == 0 else f"FAILED (exit {run.returncode})"
                print(f"{status}  {where}  {command[:110]}")
                if run.returncode != 0:
                    failures.append(where)
                    print((run.stdout + run.stderr)[-1500:])
        for line, block in monitor_blocks(path):
            where = f"{os.path.relpath(path, root)}:{line}"
            marker = next((l.strip() for l in block.splitlines() if l.strip().startswith(MARKERS)), None)
            if marker:
                marked.append(f"{where}: {marker}")
                continue
            ran += 1
            problem = run_monitor(block, d)
            print(f"{'ok' if problem is None else 'FAILED'}  {where}  ssimulacra2cmp-monitor")
            if problem is not None:
                failures.append(where)
                print(problem[-1500:])
for m in marked:
    print(f"not run  {m}")
print(f"{ran} documented launch lines and configurations run, {len(failures)} failed, "
      f"{len(marked)} blocks marked")
sys.exit(1 if failures or ran == 0 else 0)
