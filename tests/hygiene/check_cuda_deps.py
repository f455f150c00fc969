#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Ninja rebuilds a .cu object when a header it includes changes.

For every .cu of the build (compile_commands.json), asks ninja which files
the object depends on (`ninja -t deps`, what it read from nvcc's dependency
file) and fails unless each project header the .cu includes, directly or
through other headers, is among them: src/steps/pixel_steps.h for the
kernels that use it, kernels/ordered_sum.cuh, and so on. A header ninja does
not know of would leave a stale kernel after an edit.

Usage: check_cuda_deps.py BUILD_DIR NINJA... ; exit status 77 (skipped) in a
build without CUDA.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# Where the project's quoted includes are found, after the including file's
# directory (the include_directories of the .cu targets).
INCLUDE_ROOTS = ["src", "kernels", "tests/unit", "tests/common"]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def project_headers(path, seen=None):
    """The project files `path` includes, directly or not (absolute paths)."""
    seen = set() if seen is None else seen
    with open(path, encoding="utf-8") as f:
        names = [m.group(1) for m in map(INCLUDE.match, f) if m]
    for name in names:
        for base in [os.path.dirname(path)] + [os.path.join(ROOT, r) for r in INCLUDE_ROOTS]:
            candidate = os.path.normpath(os.path.join(base, name))
            if os.path.isfile(candidate):
                if candidate not in seen:
                    seen.add(candidate)
                    project_headers(candidate, seen)
                break
    return seen


def recorded_deps(build, ninja, output):
    """The files ninja's deps log holds for `output`, or None."""
    result = subprocess.run(ninja + ["-C", build, "-t", "deps", output],
                            capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    if not lines or "deps not found" in lines[0] or "(STALE)" in lines[0]:
        return None
    return {os.path.normpath(os.path.join(build, line.strip()))
            for line in lines[1:] if line.strip()}


def main(argv):
    build, ninja = os.path.abspath(argv[1]), argv[2:]
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = [c for c in json.load(f) if c["file"].endswith(".cu")]
    if not commands:
        print("skipped: this build has no CUDA sources")
        return 77
    failures = 0
    for c in commands:
        source = os.path.normpath(os.path.join(c["directory"], c["file"]))
        shown = os.path.relpath(source, ROOT)
        deps = recorded_deps(build, ninja, c["output"])
        if deps is None:
            failures += 1
            print(f"{shown}: ninja has no dependencies for {c['output']} "
                  "(nvcc wrote no dependency file where ninja reads it)")
            continue
        missing = sorted(os.path.relpath(h, ROOT) for h in project_headers(source) - deps)
        if missing:
            failures += 1
            print(f"{shown}: ninja does not know that {c['output']} depends on "
                  + ", ".join(missing))
        else:
            steps = sorted(os.path.basename(h) for h in deps if "/src/steps/" in h)
            print(f"{shown}: ninja knows its {len(project_headers(source))} project headers "
                  f"(steps: {', '.join(steps) or 'none'})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
