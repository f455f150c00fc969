#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The include rules between the layers of docs/architecture.md.

Reads every #include of src/, kernels/ and gst/, resolves the quoted ones in
the including file's directory, then src/, kernels/, gst/helpers/ and
gst/element/ (the build's include paths together), and prints each include
that breaks a rule:

  src/steps/   includes only steps/ headers and <cstddef>, <cstdint>,
               <cmath>, <cstring>, <cfloat>, <climits>: it is compiled by
               both the host compiler and nvcc, with nothing else around it
  src/*        (the library API and shared host code) includes neither
               src/cpu/, src/cuda/ nor kernels/
  src/cpu/     does not include src/cuda/ or kernels/
  src/cuda/    does not include src/cpu/; of kernels/ only the .h headers
               (host C++; the .cuh and .cu files are device code)
  kernels/     includes only kernels/ and src/steps/ headers; its .h
               headers, which host C++ includes, no .cuh
  src/, kernels/  never include gst/ or GStreamer and GLib headers
  gst/         does not include kernels/
  gst/helpers/ does not include gst/element/: the element is built on the
               helpers, which the monitor and the fuzzer link without it;
               nor src/cpu/ or src/cuda/ (it links no metric library)

Also: every source of gst/ lies in gst/helpers/ or gst/element/, no two
modules of src/ or kernels/ include each other (a header and its .cc or .cu
are one module: x.h including y.h while y.cc includes x.h is a cycle), no
header of gst/ includes, directly or not, a header that includes it back
(the element's own header, gstssimulacra2cmp.h, at the bottom: it declares
the type and the instance struct), and no file of src/, kernels/ or gst/
reads the environment (getenv): the library and the plugin take their
settings from arguments and properties, and test hooks live in tests/.

With --compile CXX [ARGS...], also compiles each src/steps header on its own
with only -I src, so that each one includes all it needs.
Exit status 0 when every rule holds, 1 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
INCLUDE_ROOTS = ["src", "kernels", "gst/helpers", "gst/element"]
SCANNED = {"src": (".h", ".cc"), "kernels": (".h", ".cu", ".cuh"), "gst": (".h", ".cc")}
# The layers of gst/: its two folders, and "gst" for a source outside them.
GST_LAYERS = ("helpers", "element", "gst")
STEPS_SYSTEM = {"cstddef", "cstdint", "cmath", "cstring", "cfloat", "climits"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def layer(path):
    """The layer of a repository-relative path, or None outside them."""
    parts = path.split("/")
    if parts[0] == "src":
        return parts[1] if len(parts) > 2 and parts[1] in ("steps", "cpu", "cuda") else "api"
    if parts[0] == "kernels":
        return "kernels"
    if parts[0] == "gst":
        return parts[1] if len(parts) > 2 and parts[1] in ("helpers", "element") else "gst"
    return None


def resolve(including, name):
    """The repository-relative path a quoted include finds, or None."""
    for base in [os.path.dirname(including)] + INCLUDE_ROOTS:
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(ROOT, candidate)):
            return candidate
    return None


def sources():
    for top, suffixes in SCANNED.items():
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if f.endswith(suffixes):
                    yield os.path.relpath(os.path.join(dirpath, f), ROOT)


def includes(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1) == "<", m.group(2)


def violation(path, system, name, target):
    """Why this include breaks a rule, or None."""
    src_layer = layer(path)
    if system:
        if src_layer == "steps" and name not in STEPS_SYSTEM:
            return "steps/ headers include no system header but " + ", ".join(sorted(STEPS_SYSTEM))
        if src_layer not in GST_LAYERS and re.match(r"(gst|glib|gobject)[/.-]", name):
            return "the metric library does not include GStreamer or GLib"
        return None
    if target is None:
        return "not found in the include's directory or in " + ", ".join(INCLUDE_ROOTS)
    to = layer(target)
    if src_layer == "steps" and to != "steps":
        return "steps/ headers include only steps/ headers"
    if src_layer in ("api", "steps", "cpu", "cuda", "kernels") and to in GST_LAYERS:
        return "the metric library does not include the element"
    if src_layer == "api" and to in ("cpu", "cuda", "kernels"):
        return "the library API does not include a backend or kernels"
    if src_layer == "cpu" and to in ("cuda", "kernels"):
        return "the CPU backend does not include CUDA code"
    if src_layer == "cuda" and to == "cpu":
        return "the CUDA backend does not include the CPU backend (shared code lives in src/)"
    if src_layer == "cuda" and to == "kernels" and not target.endswith(".h"):
        return "host code includes only the kernels' .h headers, no device code"
    if src_layer == "kernels" and to not in ("kernels", "steps"):
        return "kernels include only kernels/ and steps/ headers"
    if src_layer == "kernels" and path.endswith(".h") and not target.endswith(".h"):
        return "a kernels/ .h header is host C++: it includes no device code"
    if src_layer in GST_LAYERS and to == "kernels":
        return "the element does not include kernels"
    if src_layer == "helpers" and to == "element":
        return "gst/helpers/ does not include gst/element/ (the monitor links it alone)"
    if src_layer == "helpers" and to in ("cpu", "cuda"):
        return "gst/helpers/ does not include a backend (it links no metric library)"
    return None


def check_includes():
    failures = 0
    for path in sources():
        for number, system, name in includes(path):
            target = None if system else resolve(path, name)
            why = violation(path, system, name, target)
            if why:
                failures += 1
                shown = f"<{name}>" if system else f'"{name}"'
                print(f"{path}:{number}: includes {shown}: {why}")
    return failures


def check_environment():
    failures = 0
    for path in sources():
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if re.search(r"\b(g_)?getenv\s*\(", line):
                    failures += 1
                    print(f"{path}:{number}: reads the environment; a test hook belongs in tests/")
    return failures


def check_gst_folders():
    """Prints each source of gst/ outside its two folders: a file there
    would belong to neither layer."""
    failures = 0
    for path in sources():
        if layer(path) == "gst":
            failures += 1
            print(f"{path}: a source of gst/ belongs in gst/helpers/ or gst/element/")
    return failures


def module(path):
    """A file's module: its path without the extension (x.h, x.cc, x.cu)."""
    return os.path.splitext(path)[0]


def check_cycles():
    """Prints each cycle between the modules of src/ and kernels/, and
    between the headers of gst/."""
    graph = {}
    for path in sources():
        in_gst = layer(path) in GST_LAYERS
        if in_gst and not path.endswith(".h"):
            continue
        node = path if in_gst else module(path)
        for _, system, name in includes(path):
            target = None if system else resolve(path, name)
            if target is None or (layer(target) in GST_LAYERS) != in_gst:
                continue
            to = target if in_gst else module(target)
            if to != node:
                graph.setdefault(node, set()).add(to)
    cycles = set()

    def visit(node, stack):
        if node in stack:
            cycle = stack[stack.index(node):]
            start = cycle.index(min(cycle))
            cycles.add(tuple(cycle[start:] + cycle[:start]))
            return
        for nxt in sorted(graph.get(node, ())):
            visit(nxt, stack + [node])

    for node in sorted(graph):
        visit(node, [])
    for cycle in sorted(cycles):
        print("include cycle: " + " -> ".join(cycle + (cycle[0],)))
    return len(cycles)


def compile_steps_alone(cxx):
    failures = 0
    steps = os.path.join(ROOT, "src", "steps")
    with tempfile.TemporaryDirectory() as scratch:
        for header in sorted(os.listdir(steps)):
            if not header.endswith(".h"):
                continue
            unit = os.path.join(scratch, "alone.cc")
            with open(unit, "w", encoding="utf-8") as f:
                f.write(f'#include "steps/{header}"\n')
            cmd = cxx + ["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
                         "-I", os.path.join(ROOT, "src"), unit]
            result = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True)
            if result.returncode != 0:
                failures += 1
                print(f"src/steps/{header} does not compile on its own with -I src:\n"
                      + result.stderr)
    return failures


def main(argv):
    failures = (check_includes() + check_gst_folders() + check_cycles()
                + check_environment())
    if len(argv) > 1 and argv[1] == "--compile":
        failures += compile_steps_alone(argv[2:])
    if failures:
        print(f"{failures} broken rule(s); docs/architecture.md, \"Layers and the "
              "includes between them\", gives the rules")
        return 1
    print("every include keeps to the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
