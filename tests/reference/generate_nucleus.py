#!/usr/bin/python3
"""Reference cuts for top-p (nucleus) sampling, computed with numpy from the
rule --top-p documents, apart from the program's code:

    the classes but the one skipped (<unk>), likeliest first (the lower id
    on a tie); the top_k likeliest of them when top_k is 1..C-1; then the
    fewest of those, from the likeliest, whose probabilities sum to top_p
    times the sum of all those kept by top_k or more

    /usr/bin/python3 tests/reference/generate_nucleus.py

writes tests/data/generate/nucleus.json: [{"p", "skip", "top_k", "top_p",
"kept"}, ...], the probabilities drawn from a Dirichlet distribution and
rounded to 6 decimals (so they sum to about 1, as the rule allows); a draw whose cumulative sum comes within 1e-9 of the
threshold is drawn again, so a different order of summing cannot change
the cut.  tests/engine/test_nucleus.c holds train_next_nucleus to it.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "data", "generate", "nucleus.json")


def cut(p, skip, top_k, top_p):
    ids = np.array([j for j in range(len(p)) if j != skip])
    q = p[ids]
    order = np.lexsort((ids, -q))  # likeliest first, then the lower id
    ids, q = ids[order], q[order]
    if 0 < top_k < len(ids):
        ids, q = ids[:top_k], q[:top_k]
    total = q.sum()
    c = np.cumsum(q)
    n = int(np.argmax(c >= top_p * total)) + 1 if top_p < 1 else len(ids)
    margin = np.min(np.abs(c - top_p * total)) if top_p < 1 else 1.0
    return [int(i) for i in ids[:n]], margin


def main():
    rng = np.random.default_rng(47)
    cases = []
    # by hand: <unk> skipped, a tie broken by the lower id, P = 1 keeps all
    hand = [
        ([0.05, 0.4, 0.1, 0.25, 0.2], 0, 0, 0.5),
        ([0.05, 0.4, 0.1, 0.25, 0.2], -1, 0, 0.5),
        ([0.2, 0.3, 0.3, 0.2], -1, 0, 0.4),
        ([0.2, 0.3, 0.3, 0.2], -1, 0, 1.0),
        ([0.1, 0.6, 0.3], 0, 1, 0.9),
        ([0.7, 0.1, 0.1, 0.1], 0, 2, 0.6),
    ]
    for p, skip, k, tp in hand:
        kept, _ = cut(np.array(p), skip, k, tp)
        cases.append({"p": p, "skip": skip, "top_k": k, "top_p": tp, "kept": kept})
    for C in (2, 5, 20, 195):
        for top_k in (0, 3, 10):
            for top_p in (0.05, 0.5, 0.9, 0.99):
                while True:
                    p = np.round(rng.dirichlet(np.full(C, 0.3)), 6)
                    skip = int(rng.integers(-1, 1))
                    kept, margin = cut(p, skip, top_k, top_p)
                    if margin > 1e-9:
                        break
                cases.append({"p": [float(x) for x in p], "skip": skip, "top_k": top_k,
                              "top_p": top_p, "kept": kept})
    with open(OUT, "w") as f:
        json.dump({"generator": "tests/reference/generate_nucleus.py", "cases": cases}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
