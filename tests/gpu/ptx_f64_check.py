#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the f64 instructions of one path's kernels in PTX files.

Each kernel (.entry) belongs to the native path when its mangled name holds
a native tag (NativeF64, TermsAsDoubles, or a kernel only the tree sums use:
SumChunksKernel, cub's DeviceReduce), else to the integer path: the integer
instantiations and the kernels both paths share. A kernel's f64
instructions are those of its body and of every device function it calls
(.func, followed through the calls).

  ptx_f64_check.py integer FILE...   fails if an integer kernel has one
  ptx_f64_check.py native FILE...    fails unless a native kernel has one
                                     (the check sees f64 where there is f64)
"""
import re
import sys

NATIVE_TAGS = ("NativeF64", "TermsAsDoubles", "SumChunksKernel", "DeviceReduce")
HEADER = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)")
CALL = re.compile(r"\bcall(?:\.uni)?\s+(?:\([^)]*\),\s*)?([\w$]+)")
F64 = re.compile(r"\.f64\b")


def functions(text):
    """{name: (kind, [lines of the body])} of a PTX file."""
    out = {}
    name = None
    depth = 0
    for line in text.splitlines():
        if name is None:
            m = HEADER.match(line)
            if m:
                name, kind, body, depth = m.group(2), m.group(1), [], 0
                out[name] = (kind, body)
            continue
        body.append(line)
        depth += line.count("{") - line.count("}")
        if depth == 0 and "}" in line:
            name = None
    return out


def main(argv):
    if len(argv) < 3 or argv[1] not in ("integer", "native"):
        print(__doc__)
        return 2
    path = argv[1]
    funcs = {}
    for f in argv[2:]:
        with open(f) as fh:
            funcs.update(functions(fh.read()))

    def f64_lines(name, seen):
        if name in seen or name not in funcs:
            return []
        seen.add(name)
        lines = [l.strip() for l in funcs[name][1] if F64.search(l)]
        for l in funcs[name][1]:
            for callee in CALL.findall(l):
                lines += f64_lines(callee, seen)
        return lines

    entries = [n for n, (kind, _) in funcs.items() if kind == "entry"]
    mine = [n for n in entries if any(t in n for t in NATIVE_TAGS) == (path == "native")]
    if not mine:
        print("no %s kernels found in %s" % (path, " ".join(argv[2:])))
        return 1
    with_f64 = {n: f64_lines(n, set()) for n in mine}
    with_f64 = {n: l for n, l in with_f64.items() if l}
    print("%d %s kernels, %d with f64 instructions" % (len(mine), path, len(with_f64)))
    if path == "native":
        return 0 if with_f64 else 1
    for n, lines in sorted(with_f64.items()):
        print("%s: %d f64 instructions, e.g. %s" % (n, len(lines), lines[0]))
    return 1 if with_f64 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
