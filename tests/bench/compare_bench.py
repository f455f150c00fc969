#!/usr/bin/env python3
# Compares two bench_cuda outputs (the same arguments, two builds) row by
# row: ms per pair of each, and new / old. Usage: compare_bench.py OLD NEW
import re
import sys

ROW = re.compile(r"^\s*(\d+x\d+)\s+(\S+)\s+(exact|tree)\s+(device|pinned)\s+(.+?)\s+(\d+\.\d+)\s+\d+\s+\|")


def rows(path):
    out = {}
    for line in open(path):
        m = ROW.match(line)
        if m:
            out[m.groups()[:5]] = float(m.group(6))
    return out


old, new = rows(sys.argv[1]), rows(sys.argv[2])
print(f"{'size':9s} {'format':10s} {'sums':5s} {'input':6s} {'mode':15s} {'old ms':>8s} {'new ms':>8s} {'new/old':>7s}")
for key, ms in new.items():
    if key in old:
        print(f"{key[0]:9s} {key[1]:10s} {key[2]:5s} {key[3]:6s} {key[4]:15s} {old[key]:8.3f} {ms:8.3f} {ms / old[key]:7.3f}")
