#!/usr/bin/env python3
# Summary of an Nsight Compute raw CSV (tests/bench/profile-pipeline.sh): per
# kernel (template arguments dropped), its launches, total time and share,
# DRAM bandwidth achieved, warps active, the share of the SMs' issue slots
# used, instructions (millions of warp instructions) and the two largest
# stall reasons, weighted by time. With --launches-per-pair FILE: the number
# of launches between two launches of the scale-0 front end. With --fp64
# FILE: the f64 instructions per kernel and in all (millions of warp
# instructions on the fp64 pipe; dadd + dmul + dfma thread operations).
import csv
import re
import sys


def rows(path):
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]  # ncu's own messages are not quoted
    table = list(csv.reader(lines))
    header, body = table[0], table[2:]  # row 1 holds the units
    return [dict(zip(header, r)) for r in body]


def short(name):
    name = name.replace("(anonymous namespace)", "anon")
    name = re.sub(r"^void ", "", re.sub(r"\([^()]*\)$", "", name))
    base = re.sub(r"<.*", "", name).split("::")[-1]
    if "FrameSource" in name:
        base += "<frame>"
    return base


def number(r, key):
    try:
        return float(r.get(key, "").replace(",", ""))
    except ValueError:
        return 0.0


def launches_per_pair(path):
    names = [r.get("Kernel Name", "") for r in rows(path)]
    starts = [i for i, n in enumerate(names) if "FrameSource" in n]
    return starts[1] - starts[0] if len(starts) > 1 else len(names)


def summary(path):
    rs = rows(path)
    stall_cols = {}
    for k in rs[0]:
        m = re.match(r"smsp__average_warps?_(?:latency_)?issue_stalled_(\w+?)_per_issue_active\.ratio", k)
        if m and "not_issued" not in k:
            stall_cols[k] = m.group(1)
    groups = {}
    for r in rs:
        g = groups.setdefault(short(r.get("Kernel Name", "?")), [])
        g.append(r)
    total = sum(number(r, "gpu__time_duration.sum") for r in rs)
    print(f"{len(rs)} launches, {total / 1e3:.1f} us of kernel time")
    print(f"{'kernel':32s} {'n':>3s} {'us':>8s} {'share':>6s} {'DRAM %':>6s} {'GB/s':>7s} "
          f"{'warps %':>7s} {'issue %':>7s} {'regs':>4s} {'Minst':>7s}  main stalls (cycles per issue)")
    order = sorted(groups.items(), key=lambda kv: -sum(number(r, "gpu__time_duration.sum") for r in kv[1]))
    for name, g in order:
        t = sum(number(r, "gpu__time_duration.sum") for r in g)
        w = lambda key: sum(number(r, key) * number(r, "gpu__time_duration.sum") for r in g) / max(t, 1e-9)
        nbytes = sum(number(r, "dram__bytes_read.sum") + number(r, "dram__bytes_write.sum") for r in g)
        stalls = sorted(((w(k), v) for k, v in stall_cols.items()), reverse=True)[:3]
        print(f"{name:32s} {len(g):3d} {t / 1e3:8.1f} {100 * t / total:5.1f}% "
              f"{w('gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed'):6.1f} {nbytes / max(t, 1e-9):7.0f} "
              f"{w('sm__warps_active.avg.pct_of_peak_sustained_active'):7.1f} "
              f"{w('sm__inst_executed.avg.pct_of_peak_sustained_elapsed'):7.1f} "
              f"{int(max(number(r, 'launch__registers_per_thread') for r in g)):4d} "
              f"{sum(number(r, 'smsp__inst_executed.sum') for r in g) / 1e6:7.1f}  "
              + ", ".join(f"{v} {c:.1f}" for c, v in stalls))


def fp64(path):
    ops = ["smsp__sass_thread_inst_executed_op_%s_pred_on.sum" % o for o in ("dadd", "dmul", "dfma")]
    groups = {}
    for r in rows(path):
        g = groups.setdefault(short(r.get("Kernel Name", "?")), [0.0, 0.0])
        g[0] += number(r, "smsp__inst_executed_pipe_fp64.sum")
        g[1] += sum(number(r, o) for o in ops)
    print(f"{'kernel':32s} {'fp64 Minst':>10s} {'dadd+dmul+dfma M':>16s}")
    for name, (warp, thread) in sorted(groups.items(), key=lambda kv: -kv[1][0]):
        print(f"{name:32s} {warp / 1e6:10.3f} {thread / 1e6:16.3f}")
    warp = sum(g[0] for g in groups.values())
    thread = sum(g[1] for g in groups.values())
    print(f"{'all':32s} {warp / 1e6:10.3f} {thread / 1e6:16.3f}")


if __name__ == "__main__":
    if sys.argv[1] == "--launches-per-pair":
        print(launches_per_pair(sys.argv[2]))
    elif sys.argv[1] == "--fp64":
        fp64(sys.argv[2])
    else:
        summary(sys.argv[1])
