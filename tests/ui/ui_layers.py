#!/usr/bin/env python3
"""ui_layers.py - src's libraries, and src/ui's folders, are layers.

The libraries: a file includes headers of its own library and of the
libraries it stands on (LIBRARIES below, as doc/HACKING.md draws them),
never of one above or beside it, and each library's meson.build links only
those.  src/train holds two: the training engine (train_*, mha_training)
and the run driver on it (trun*, mha_train), which knows no lessons.

src/ui's folders: a file includes headers of its own folder and of the
folders below it, never above.  The order is the one src/ui/README.md names
("state < draw < views < modes < train < follow < commands < panes < app"),
one folder to a layer: no two folders include each other.  A function
declared in a folder's header is defined in that folder.  ui/draw draws from plain data: it
includes no lesson or training header.  Also: no circle of includes between
src/ui's modules (a.c and a.h are one module).  struct ui_stream's members
are read in follow/ and app/ only, and struct ui_app (modes/ui_app.h) is
opened in app/ and the few files APP_ALLOWED names; the rest are given
parts.

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
# a layer is one folder: folders of one rank ("panes|train") could include
# each other, which the order exists to rule out
order = m.group(1).split(" < ")
for layer in order:
    if "|" in layer:
        problems.append(f"src/ui/README.md: '{layer}' puts folders at one rank; each folder "
                        f"is a layer of its own, above or below the others")
rank = {name: i for i, layer in enumerate(order) for name in layer.split("|")}

# ---- src/ui's folders ----


def ui_sources():
    """Each C file under src/ui: its path from src/ui (with /) and its path."""
    for dirpath, _, names in os.walk(ui):
        for name in sorted(names):
            if name.endswith((".c", ".h")):
                path = os.path.join(dirpath, name)
                yield os.path.relpath(path, ui).replace(os.sep, "/"), path


graph = {}
for rel, path in ui_sources():
    folder = rel.split("/")[0] if "/" in rel else None
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
for rel, path in ui_sources():
    # ui.h and ui_driver.c, at src/ui's top, are the top layer's
    folder = rel.split("/")[0] if "/" in rel else order[-1]
    text = top_level(open(path, encoding="utf-8").read())
    text = re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)
    for m in re.finditer(r"([^;{}]*?)\b(\w+)\s*\(([^;{}()]|\([^;{}()]*\))*\)\s*([;{])",
                         text):
        lead = m.group(1).strip()
        if re.match(r"(static|typedef)\b", lead) or not lead:
            continue
        if m.group(4) == "{":
            defined.setdefault(m.group(2), set()).add(folder)
        elif rel.endswith(".h"):
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


# struct ui_stream (modes/ui_app.h: recording, replaying, following) is
# read member by member only in follow/ and app/; the parts below ask it
# through the predicates beside the struct (ui_stream_streamed, ...), the
# parts above through follow/ui_stream.h's functions.
def no_comments(text):
    # a comment's lines kept, so a line number holds
    text = re.sub(r"/\*.*?\*/|//[^\n]*", lambda c: " " + "\n" * c.group(0).count("\n"), text,
                  flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


STREAM_READERS = ("follow", "app")
STREAM_HOME = "modes/ui_parts.h"  # the struct, and the predicates beside it
home = no_comments(open(os.path.join(ui, STREAM_HOME), encoding="utf-8").read())
body = re.search(r"struct ui_stream \{(.*?)\n\};", home, re.S)
if not body:
    sys.exit(f"src/ui/{STREAM_HOME}: no struct ui_stream found")
members = set(re.findall(r"(\w+)\s*(?:\[[^\]]*\])?\s*;", body.group(1)))
members |= set(re.findall(r"\(\s*\*\s*(\w+)\s*\)", body.group(1)))
n_stream_files = 0
for rel, path in ui_sources():
    if rel.split("/")[0] in STREAM_READERS or rel == STREAM_HOME:
        continue
    n_stream_files += 1
    text = no_comments(open(path, encoding="utf-8").read())
    # "stream", and whatever is declared a struct ui_stream pointer here
    holders = {"stream"} | set(re.findall(r"struct\s+ui_stream\s*\*\s*(?:const\s+)?(\w+)",
                                          text))
    # (a lookahead: app->stream.follow is app->stream and stream.follow)
    for m in re.finditer(r"\b(\w+)(?=\s*(\.|->)\s*(\w+))", text):
        if m.group(1) in holders and m.group(3) in members:
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"src/ui/{rel}:{line}: reads {''.join(m.groups())}: struct "
                            f"ui_stream's "
                            f"members are read in {' and '.join(r + '/' for r in STREAM_READERS)} only "
                            f"(ask ui_stream_streamed and the like, {STREAM_HOME})")


# struct ui_app (modes/ui_app.h), the explorer whole, is opened at the top:
# below app/ a mode's or a pane's file is given the parts it reads
# (modes/ui_parts.h, or a small view made in app/ui_views_of.c) and a mode
# is bound to its part in app/ui_mode_parts.c.  The few files below app/
# still given the whole app are named here, and the list only shrinks: a
# file named that no longer includes the header is a problem too.
APP_HOME = "modes/ui_app.h"
APP_OPENERS = ("app",)
APP_ALLOWED = {
    "commands/ui_commands.c": "the ':' commands' handlers, which get the app",
    "follow/ui_record.c": "the recording: keys, state lines and the run's snapshots",
    "follow/ui_watch.c": "the teacher's snapshots applied to the run and the state",
    "train/ui_train_app.c": "where the training screen sits in the app: ticks, layout, lessons",
}
app_includers = set()
for rel, path in ui_sources():
    if rel == APP_HOME or "/" not in rel or rel.split("/")[0] in APP_OPENERS:
        continue
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if re.match(r'\s*#\s*include\s+"ui/' + re.escape(APP_HOME) + '"', line):
            app_includers.add(rel)
            if rel not in APP_ALLOWED:
                problems.append(f"src/ui/{rel}:{n}: includes {APP_HOME}: below "
                                f"{' and '.join(r + '/' for r in APP_OPENERS)} a file takes "
                                f"the parts it reads (modes/ui_parts.h, a view made in "
                                f"app/ui_views_of.c), not struct ui_app")
for rel in sorted(set(APP_ALLOWED) - app_includers):
    problems.append(f"tests/ui/ui_layers.py: APP_ALLOWED names src/ui/{rel}, which no longer "
                    f"includes {APP_HOME}: take it off the list")

for p in problems:
    print(p)
print(f"ui_layers: {len(LIBRARIES)} libraries ({n_files} files, {n_links} links), "
      f"{len(order)} ui layers ({' < '.join(order)}), {len(graph)} modules, "
      f"{n_functions} functions declared where they are defined, "
      f"{n_stream_files} files reading no struct ui_stream member, "
      f"{len(app_includers)} files below app/ opening struct ui_app, "
      f"{len(problems)} problems")
sys.exit(1 if problems else 0)
