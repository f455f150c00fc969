# SPDX-License-Identifier: BSD-3-Clause
"""The decisions' index agrees with their sections, and every decision
number the tree cites exists.

docs/decisions.md is the index: one table row per number,
"| Dnn | title | [name](path) |", the path relative to docs/. A number's
section is a heading "## Dnn. Title" in docs/decisions/*.md (in force) or
docs/history/decisions-superseded.md (replaced). A row whose title is
"reserved" holds a number for work not yet merged: its file must exist and
no section may have the number yet. The test fails when
  (a) a number has no section, or more than one across those files, or a
      reserved number has one (the index itself holds no section);
  (b) the index lacks a number that has a section, lists one twice or out
      of order, or names another file or title than its section's;
  (c) a decision number (a word "D" and digits) in a file of the tree is
      neither a section nor reserved. The files are those git tracks
      (git ls-files); where the source root is not a git checkout, every
      file outside build directories and hidden ones. Binary files are
      skipped;
  (d) the index's list of subjects lacks a file of docs/decisions/, or
      gives one another count of decisions in force (those whose title
      does not begin "Not taken") than its sections.
Each failure is printed with its file and line.

Usage: test_decisions.py SOURCE_ROOT"""
import glob
import os
import re
import subprocess
import sys

root = sys.argv[1]
INDEX = "docs/decisions.md"
HISTORY = "docs/history/decisions-superseded.md"
HEADING = re.compile(r"## D(\d+)\. (.+)")
ROW = re.compile(r"\| D(\d+) \| (.+?) \| \[[^\]]+\]\(([^)]+)\) \|")
CITED = re.compile(r"\bD(\d+)\b")
failures = []


def lines_of(rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read().split("\n")


def sections():
    """{number: [(file, line, title)]} of every decision heading."""
    found = {}
    files = sorted(glob.glob(os.path.join(root, "docs/decisions/*.md")))
    files = [os.path.relpath(f, root) for f in files] + [HISTORY]
    for rel in files:
        for at, line in enumerate(lines_of(rel), 1):
            m = HEADING.fullmatch(line)
            if m:
                found.setdefault(int(m.group(1)), []).append((rel, at, m.group(2)))
            elif re.match(r"#+ *D\d", line):
                failures.append(f"{rel}:{at}: a decision heading must read '## Dnn. Title': {line}")
    return found


def index_rows():
    """[(line, number, title, file relative to the root)] of the index's table."""
    rows = []
    for at, line in enumerate(lines_of(INDEX), 1):
        if re.match(r"#+ *D\d", line):
            failures.append(f"{INDEX}:{at}: a section in the index; it belongs in its subject's file")
        if not line.startswith("| D"):
            continue
        m = ROW.fullmatch(line)
        if not m:
            failures.append(f"{INDEX}:{at}: a row must read '| Dnn | title | [name](path) |': {line}")
            continue
        path = os.path.normpath(os.path.join("docs", m.group(3)))
        rows.append((at, int(m.group(1)), m.group(2), path))
    return rows


def tree_files():
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
    if files:
        return files
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


found = sections()
rows = index_rows()
reserved = {n for _, n, title, _ in rows if title == "reserved"}

# (a) one section a number, none for a reserved one.
for n, places in sorted(found.items()):
    if len(places) > 1:
        failures.append(f"D{n} has {len(places)} sections: "
                        + ", ".join(f"{f}:{at}" for f, at, _ in places))
    if n in reserved:
        failures.append(f"D{n} is reserved in the index but has a section at "
                        f"{places[0][0]}:{places[0][1]}")

# (b) a row a number, in order, naming the section's file and title.
listed = {}
previous = 0
for at, n, title, path in rows:
    if n in listed:
        failures.append(f"{INDEX}:{at}: D{n} listed again (first at line {listed[n]})")
    elif n <= previous:
        failures.append(f"{INDEX}:{at}: D{n} out of order (after D{previous})")
    listed.setdefault(n, at)
    previous = max(previous, n)
    if n in reserved:
        if not os.path.isfile(os.path.join(root, path)):
            failures.append(f"{INDEX}:{at}: D{n}'s file {path} does not exist")
        continue
    if n not in found:
        failures.append(f"{INDEX}:{at}: D{n} has no section in docs/decisions/ or {HISTORY}")
        continue
    rel, line, heading = found[n][0]
    if path != rel:
        failures.append(f"{INDEX}:{at}: D{n} names {path}; its section is in {rel}:{line}")
    if title != heading:
        failures.append(f"{INDEX}:{at}: D{n}'s title reads '{title}'; its heading "
                        f"({rel}:{line}) reads '{heading}'")
for n, places in sorted(found.items()):
    if n not in listed:
        failures.append(f"{INDEX}: no row for D{n} ({places[0][0]}:{places[0][1]})")

# (d) the index's list of subjects: a line for each file of docs/decisions/,
# with the number of its decisions in force (those not titled "Not taken").
SUBJECT = re.compile(r"- \[[^\]]+\]\((decisions/[^)]+)\): .* \((\d+)\)")
subjects = {}
for at, line in enumerate(lines_of(INDEX), 1):
    m = SUBJECT.fullmatch(line)
    if m:
        subjects[os.path.normpath(os.path.join("docs", m.group(1)))] = (at, int(m.group(2)))
in_force = {}
for n, places in found.items():
    rel, _, title = places[0]
    if rel != HISTORY:
        in_force[rel] = in_force.get(rel, 0) + (not title.startswith("Not taken"))
for rel in sorted(set(in_force) | set(subjects)):
    if rel not in subjects:
        failures.append(f"{INDEX}: no subject line for {rel}")
    elif subjects[rel][1] != in_force.get(rel, 0):
        failures.append(f"{INDEX}:{subjects[rel][0]}: {rel} holds {in_force.get(rel, 0)} "
                        f"decisions in force, the line says {subjects[rel][1]}")

# (c) every number the tree cites exists.
files = tree_files()
for rel in files:
    try:
        with open(os.path.join(root, rel), "rb") as f:
            data = f.read()
    except OSError:
        continue  # deleted in the work tree but still tracked
    if b"\0" in data:
        continue
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        continue
    for at, line in enumerate(text.split("\n"), 1):
        for m in CITED.finditer(line):
            n = int(m.group(1))
            if n not in found and n not in reserved:
                failures.append(f"{rel}:{at}: D{n} is no decision: {line.strip()}")

for f in failures:
    print("FAIL", f)
print(f"{len(found)} decisions with sections, {len(reserved)} reserved, "
      f"{len(rows)} index rows, {len(files)} files searched for citations; "
      f"{len(failures)} failures")
sys.exit(1 if failures or not found or not files else 0)
