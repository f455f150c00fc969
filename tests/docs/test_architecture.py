#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""docs/architecture.md and docs/architecture-tests.md (the test folders)
have a section for every folder of the tree that holds source, build,
script or test files, and no section for a folder that is gone.

The files: those git tracks (git ls-files in SOURCE_ROOT); where git is
missing or SOURCE_ROOT is not a git checkout, every file under it, less the
top-level build*/ folders and hidden folders at any depth. Of these, each
.cc, .h, .cu, .cuh, .c, .py, .sh and meson.build needs its folder named by
a section heading. A heading names a folder in backquotes, ending in "/"
(`gst/`, `tests/element/`; `./` is the root); one heading may name
several. A named folder must hold a tracked file (git) or exist (no git).

Usage: test_architecture.py SOURCE_ROOT [DOCUMENT...]
(DOCUMENT: default SOURCE_ROOT/docs/architecture.md and
SOURCE_ROOT/docs/architecture-tests.md). Exit status 0 when every folder
has its section in one of them and every section its folder, 1 otherwise,
with one line per fault."""
import os
import re
import subprocess
import sys

CHECKED_SUFFIXES = (".cc", ".h", ".cu", ".cuh", ".c", ".py", ".sh")
CHECKED_NAMES = ("meson.build",)


def git_files(root):
    """The files git tracks under root, relative to it, or None without git
    or a checkout (or when it tracks nothing there)."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True)
    except OSError:
        return None
    if listed.returncode != 0:
        return None
    files = [f for f in listed.stdout.decode("utf-8").split("\0")
             if f and os.path.isfile(os.path.join(root, f))]
    return files or None


def walked_files(root):
    """Every file under root, relative to it, without the top-level build*
    folders and hidden folders."""
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        top = os.path.samefile(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and not (top and d.startswith("build")))
        files += [os.path.relpath(os.path.join(dirpath, f), root) for f in filenames]
    return files


def folder_of(path):
    """A file's folder as the document writes it: "gst/", "./" for the root."""
    folder = os.path.dirname(path).replace(os.sep, "/")
    return folder + "/" if folder else "./"


def ancestors(path):
    """The folders that hold a file, from its own up to the root."""
    folders = []
    folder = os.path.dirname(path).replace(os.sep, "/")
    while folder:
        folders.append(folder + "/")
        folder = os.path.dirname(folder)
    return folders + ["./"]


def headed_folders(document, shown):
    """{folder: "document:line"} of every folder a section heading names,
    outside fenced code blocks."""
    named = {}
    fenced = False
    with open(document, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and re.match(r"#{1,6} ", line):
                for name in re.findall(r"`([^`]+)`", line):
                    if name.endswith("/"):
                        folder = name if name == "./" else name.removeprefix("./")
                        named.setdefault(folder, f"{shown}:{number}")
    return named


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    root = os.path.abspath(argv[1])
    documents = argv[2:] or [os.path.join(root, "docs", name)
                             for name in ("architecture.md", "architecture-tests.md")]
    files = git_files(root)
    from_git = files is not None
    if not from_git:
        files = walked_files(root)
    named = {}
    shown_all = []
    for document in documents:
        shown = os.path.relpath(document, root) if document.startswith(root + os.sep) \
            else document
        shown_all.append(shown)
        for folder, where in headed_folders(document, shown).items():
            named.setdefault(folder, where)
    shown = " and ".join(shown_all)

    faults = []
    for path in sorted(files):
        name = os.path.basename(path)
        if (name.endswith(CHECKED_SUFFIXES) or name in CHECKED_NAMES) \
                and folder_of(path) not in named:
            faults.append(f"{path}: its folder {folder_of(path)} has no section heading in "
                          f"{' or '.join(shown_all)}")
    in_tree = {folder for path in files for folder in ancestors(path)}
    for folder, where in sorted(named.items(), key=lambda item: item[1]):
        exists = folder in in_tree if from_git else os.path.isdir(os.path.join(root, folder))
        if not exists:
            faults.append(f"{where}: the heading names {folder}, which is not a "
                          f"folder of the tree")

    source = "git ls-files" if from_git else "a walk of the tree (no git checkout)"
    for fault in faults:
        print(fault)
    if faults:
        print(f"{len(faults)} fault(s); the files from {source}")
        return 1
    print(f"{len(named)} folders named by {shown}'s headings; every file of {source} "
          "that needs a section has one")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
