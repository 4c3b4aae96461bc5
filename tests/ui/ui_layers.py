#!/usr/bin/env python3
"""ui_layers.py - src/ui's folders are layers: a file includes headers of its
own folder and of the folders below it, never above.  The order is the one
src/ui/README.md names ("state < draw < views < modes < app").  Also: no
circle of includes between src/ui's modules (a.c and a.h are one module).
Prints each include that breaks a rule; exit 1 when any does."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
ui = os.path.join(root, "src", "ui")

readme = open(os.path.join(ui, "README.md"), encoding="utf-8").read()
m = re.search(r"`(\w+(?: < \w+)+)`", readme)
if not m:
    sys.exit("src/ui/README.md: no layer order like `state < draw < ...` found")
order = m.group(1).split(" < ")
rank = {name: i for i, name in enumerate(order)}

problems = []
graph = {}
for dirpath, _, names in os.walk(ui):
    for name in sorted(names):
        if not name.endswith((".c", ".h")):
            continue
        path = os.path.join(dirpath, name)
        rel = os.path.relpath(path, ui)
        folder = rel.split(os.sep)[0] if os.sep in rel else None
        if folder is not None and folder not in rank:
            problems.append(f"src/ui/{rel}: folder '{folder}' is not in README's layer order")
            continue
        here = rank[folder] if folder is not None else len(order)  # ui.h, ui_driver.c: the top
        module = rel.rsplit(".", 1)[0]
        deps = graph.setdefault(module, set())
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            inc = re.match(r'\s*#\s*include\s+"ui/([^"]+)"', line)
            if not inc:
                continue
            target = inc.group(1)
            tfolder = target.split("/")[0] if "/" in target else None
            # ui.h, at src/ui's top, is what the top layer offers the command line
            there = rank.get(tfolder, len(order)) if tfolder is not None else len(order) - 1
            if tfolder is not None and tfolder not in rank:
                problems.append(f"src/ui/{rel}:{n}: includes {target}, in no layer")
            elif there > here:
                problems.append(
                    f"src/ui/{rel}:{n}: includes ui/{target}, a layer above "
                    f"({folder or 'top'} < {tfolder or 'top'})")
            tmod = target.rsplit(".", 1)[0]
            if tmod != module:
                deps.add(tmod)

# circles between modules
state = {}


def visit(mod, stack):
    state[mod] = 1
    stack.append(mod)
    for dep in sorted(graph.get(mod, ())):
        if state.get(dep) == 1:
            cyc = stack[stack.index(dep):] + [dep]
            problems.append("include circle: " + " -> ".join(cyc))
        elif dep not in state:
            visit(dep, stack)
    stack.pop()
    state[mod] = 2


for mod in sorted(graph):
    if mod not in state:
        visit(mod, [])

for p in problems:
    print(p)
print(f"ui_layers: {len(order)} layers ({' < '.join(order)}), {len(graph)} modules, "
      f"{len(problems)} problems")
sys.exit(1 if problems else 0)
