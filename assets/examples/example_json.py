"""Pieces the example builders share: rounding, softmax, and writing an
example file with one matrix row per line (used by make_cat_sat.py and
make_translate.py; run those with /usr/bin/python3, which has numpy)."""

import json
import os

import numpy as np


def r4(a):
    """Round to the 4 decimals the example files keep."""
    return np.round(np.asarray(a, dtype=np.float64), 4)


def softmax(s):
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def dumps(doc):
    """JSON with one matrix row per line."""
    lines = ["{"]
    items = list(doc.items())
    for n, (k, val) in enumerate(items):
        comma = "," if n + 1 < len(items) else ""
        if isinstance(val, list) and val and isinstance(val[0], list):
            rows = ["    [" + ", ".join(f"{x:.4f}" for x in row) + "]" for row in val]
            lines.append(f'  "{k}": [\n' + ",\n".join(rows) + f"\n  ]{comma}")
        else:
            lines.append(f'  "{k}": {json.dumps(val)}{comma}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_example(doc, name):
    """Write doc as NAME next to this file and say where."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    with open(path, "w") as f:
        f.write(dumps(doc))
    print("wrote", path)
