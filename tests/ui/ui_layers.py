#!/usr/bin/env python3
"""ui_layers.py - src's libraries, and src/ui's folders, are layers.

The libraries: a file includes headers of its own library and of the
libraries it stands on (LIBRARIES below, as doc/HACKING.md draws them),
never of one above or beside it, and each library's meson.build links only
those.  src/train holds two: the training engine (train_*, mha_training)
and the run driver on it (trun*, mha_train), which knows no lessons.

src/ui's folders: a file includes headers of its own folder and of the
folders below it, never above.  The order is the one src/ui/README.md names
("state < draw < views < modes < panes|train|follow|commands < app"):
folders joined by | are siblings of one rank, which may include each
other's headers (the panes show the training's state, the training screen
holds the lesson pane) but never round a circle of modules.  A function
declared in a folder's header is defined in that folder.  ui/draw draws from plain data: it
includes no lesson or training header.  Also: no circle of includes between
src/ui's modules (a.c and a.h are one module).

Prints each include that breaks a rule; exit 1 when any does."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
src = os.path.join(root, "src")
ui = os.path.join(src, "ui")

# ---- the libraries ----

# Each library and the libraries it stands on (all of them, not only the
# next one down): engine < training < io < lesson, training < train (the
# run driver), and ui and cli over them all.
LIBRARIES = {
    "engine": (),
    "training": ("engine",),
    "train": ("engine", "training"),
    "io": ("engine", "training"),
    "lesson": ("engine", "training", "io"),
    "ui": ("engine", "training", "train", "io", "lesson"),
    "cli": ("engine", "training", "train", "io", "lesson", "ui"),
}
# the meson names of their libraries and dependencies
LIB_NAMES = {"mha_" + name: name for name in LIBRARIES}
DEP_NAMES = {name + "_dep": name for name in LIBRARIES}


def library(rel):
    """The library of a path under src/ ("train/trun.c"), or of an include
    ("train/train.h"); None for one outside them (mha_config.h)."""
    parts = rel.replace(os.sep, "/").split("/")
    if len(parts) == 1:
        return "cli" if parts[0] == "main.c" else None
    if parts[0] == "train":
        return "train" if parts[1].startswith("trun") else "training"
    return parts[0] if parts[0] in LIBRARIES else None


problems = []
n_files = 0
for dirpath, _, names in os.walk(src):
    for name in sorted(names):
        if not name.endswith((".c", ".h")):
            continue
        path = os.path.join(dirpath, name)
        rel = os.path.relpath(path, src).replace(os.sep, "/")
        lib = library(rel)
        if lib is None:
            problems.append(f"src/{rel}: in no library")
            continue
        n_files += 1
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            inc = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not inc or "/" not in inc.group(1):
                continue
            there = library(inc.group(1))
            if there is None:
                problems.append(f"src/{rel}:{n}: includes {inc.group(1)}, in no library")
            elif there != lib and there not in LIBRARIES[lib]:
                problems.append(f"src/{rel}:{n}: includes {inc.group(1)}, of {there}, "
                                f"which {lib} does not stand on")
            elif rel.startswith("ui/draw/") and there in ("lesson", "training", "train"):
                problems.append(f"src/{rel}:{n}: includes {inc.group(1)}: ui/draw draws "
                                f"from plain data, with no {there} header")

# what each library's meson.build links
n_links = 0
for dirpath, _, names in os.walk(src):
    if "meson.build" not in names:
        continue
    path = os.path.join(dirpath, "meson.build")
    text = open(path, encoding="utf-8").read()
    lists = dict(re.findall(r"^(\w+)\s*=\s*(\[[^\]]*\])", text, re.M))
    for m in re.finditer(r"static_library\(\s*'(\w+)'.*?dependencies:\s*(\[[^\]]*\]|\w+)",
                         text, re.S):
        lib = LIB_NAMES.get(m.group(1))
        if lib is None:
            continue
        deps = lists.get(m.group(2), m.group(2))
        for dep in re.findall(r"\w+", deps):
            there = DEP_NAMES.get(dep)
            n_links += 1
            if there is not None and there != lib and there not in LIBRARIES[lib]:
                problems.append(f"{os.path.relpath(path, root)}: {m.group(1)} links {dep}, "
                                f"which {lib} does not stand on")

readme = open(os.path.join(ui, "README.md"), encoding="utf-8").read()
m = re.search(r"`(\w+(?:\|\w+)*(?: < \w+(?:\|\w+)*)+)`", readme)
if not m:
    sys.exit("src/ui/README.md: no layer order like `state < draw < ...` found")
# a layer is one folder, or sibling folders of one rank ("panes|train")
order = m.group(1).split(" < ")
rank = {name: i for i, layer in enumerate(order) for name in layer.split("|")}

# ---- src/ui's folders ----

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


# Where each function is declared and where it is defined: a function
# declared in a header of one folder is defined in that folder, so a lower
# folder never offers (and its files never call) what a higher one does.
def top_level(text):
    """text without comments, string literals and what is inside braces."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"' + r"|'(?:\\.|[^'\\\n])*'", '""', text)
    out, depth = [], 0
    for ch in text:
        if ch == "{":
            depth += 1
            if depth == 1:
                out.append("{")
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


declared, defined = {}, {}
n_functions = 0
for dirpath, _, names in os.walk(ui):
    for name in sorted(names):
        if not name.endswith((".c", ".h")):
            continue
        rel = os.path.relpath(os.path.join(dirpath, name), ui).replace(os.sep, "/")
        # ui.h and ui_driver.c, at src/ui's top, are the top layer's
        folder = rel.split("/")[0] if "/" in rel else order[-1].split("|")[0]
        text = top_level(open(os.path.join(dirpath, name), encoding="utf-8").read())
        text = re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)
        for m in re.finditer(r"([^;{}]*?)\b(\w+)\s*\(([^;{}()]|\([^;{}()]*\))*\)\s*([;{])",
                             text):
            lead = m.group(1).strip()
            if re.match(r"(static|typedef)\b", lead) or not lead:
                continue
            if m.group(4) == "{":
                defined.setdefault(m.group(2), set()).add(folder)
            elif name.endswith(".h"):
                declared.setdefault(m.group(2), []).append((rel, folder))
for fn, places in sorted(declared.items()):
    folders = defined.get(fn)
    if not folders:
        continue  # not defined in src/ui (a curses function, or a library's)
    n_functions += 1
    for rel, folder in places:
        if folder not in folders:
            problems.append(f"src/ui/{rel}: declares {fn}, defined in "
                            f"{' and '.join(sorted(folders))}/, not in {folder}/")

for p in problems:
    print(p)
print(f"ui_layers: {len(LIBRARIES)} libraries ({n_files} files, {n_links} links), "
      f"{len(order)} ui layers ({' < '.join(order)}), {len(graph)} modules, "
      f"{n_functions} functions declared where they are defined, "
      f"{len(problems)} problems")
sys.exit(1 if problems else 0)
