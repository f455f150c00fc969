#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Predicts the time of one pair on each f64 path on GPUs we cannot run.

Usage: fp64_path_model.py NATIVE.csv INTEGER.csv

The inputs are tests/bench/profile-pipeline.sh's raw pages of one pair on an
H200 or an H100 SXM (the same SMs and clock), `--fp64 native` and `--fp64
integer`. Per kernel, the prediction on a GPU is the largest of three bounds:
  - its measured time scaled by SMs x clock (the measured GPU's share of
    issue slots, latency and integer and f32 pipes carried over as they
    were measured),
  - its f64 thread operations (dadd, dmul, dfma) at the GPU's f64 lanes per
    SM x SMs x clock,
  - its DRAM bytes at the GPU's memory bandwidth.
The f64 bound is the one that differs between the GPUs: the H100 and H200
have 64 f64 lanes per SM, the others 2. Prints the predicted ms per pair of
each path, which is faster, and the f64 lanes per SM below which the
integer path would win on an H200-like GPU (the crossover that
src/device_fp64.h takes).
"""
import sys

from profile_summary import number, rows  # the same raw page, read one way

# name, SMs, boost clock (GHz), f64 lanes per SM, DRAM GB/s: NVIDIA's
# published figures.
GPUS = [
    ("T4 (7.5)", 40, 1.59, 2, 320),
    ("A10 (8.6)", 72, 1.695, 2, 600),
    ("L4 (8.9)", 58, 2.04, 2, 300),
    ("RTX 4090 (8.9)", 128, 2.52, 2, 1008),
    ("H100 SXM (9.0)", 132, 1.98, 64, 3350),
    ("H200 (9.0)", 132, 1.98, 64, 4800),
]
MEASURED_ON = GPUS[-1]


def kernels(path):
    """(ns, f64 thread operations, DRAM bytes) of each launch."""
    return [(number(r, "gpu__time_duration.sum"),
             sum(number(r, f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum")
                 for op in ("dadd", "dmul", "dfma")),
             number(r, "dram__bytes_read.sum") + number(r, "dram__bytes_write.sum"))
            for r in rows(path)]


def predict(ks, gpu, f64_lanes=None):
    _, sms, ghz, lanes, bandwidth = gpu
    lanes = lanes if f64_lanes is None else f64_lanes
    scale = (MEASURED_ON[1] * MEASURED_ON[2]) / (sms * ghz)
    return sum(max(ns * scale, f64 / (sms * lanes * ghz), dram / bandwidth)
               for ns, f64, dram in ks) / 1e6  # ns -> ms


def main():
    native, integer = kernels(sys.argv[1]), kernels(sys.argv[2])
    print("| GPU | native ms | integer ms | faster |")
    print("|---|---|---|---|")
    for gpu in GPUS:
        n, i = predict(native, gpu), predict(integer, gpu)
        print(f"| {gpu[0]} | {n:.2f} | {i:.2f} | {'integer' if i < n else 'native'} "
              f"({max(n, i) / min(n, i):.2f}x) |")
    # The crossover: the f64 lanes per SM at which both paths take as long
    # on an H200 of fewer f64 lanes (bisection; the native time falls as the
    # lanes grow).
    lo, hi = 1e-3, 64.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if predict(native, MEASURED_ON, mid) > predict(integer, MEASURED_ON, mid):
            lo = mid
        else:
            hi = mid
    print(f"crossover: the integer path wins below {lo:.2f} f64 lanes per SM")


if __name__ == "__main__":
    main()
