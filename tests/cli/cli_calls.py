#!/usr/bin/env python3
"""cli_calls.py SRC - the files of SRC/cli (and SRC/main.c) call one another
one way only: the graph of which file calls a function another defines has
no circle.  Prints every circle found and exits 1; prints the order
bottom to top and exits 0 when there is none."""
import glob
import os
import re
import sys

src = sys.argv[1]
files = sorted(glob.glob(os.path.join(src, "cli", "*.c"))) + [os.path.join(src, "main.c")]


def strip(text):
    """The code without comments and string literals."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


code = {f: strip(open(f, encoding="utf-8").read()) for f in files}
# functions each file defines at its top level, not static
defines = {}
for f, text in code.items():
    for m in re.finditer(r"^(?!static)[A-Za-z_][\w \*]*?\b(cli_\w+)\s*\([^;{]*\)\s*\{", text, re.M):
        defines[m.group(1)] = f
calls = {f: set() for f in files}
for f, text in code.items():
    for name, owner in defines.items():
        if owner != f and re.search(r"\b" + name + r"\s*\(", text):
            calls[f].add(owner)

# a depth-first search for circles
state, order, circles = {}, [], []


def visit(f, path):
    state[f] = "open"
    for g in sorted(calls[f]):
        if state.get(g) == "open":
            circles.append(path[path.index(g):] + [g])
        elif g not in state:
            visit(g, path + [g])
    state[f] = "done"
    order.append(f)


for f in files:
    if f not in state:
        visit(f, [f])
name = os.path.basename
if circles:
    for c in circles:
        print("circle: " + " -> ".join(name(f) for f in c))
    sys.exit(1)
print("cli calls, bottom to top: " + " < ".join(name(f) for f in order))
