#!/usr/bin/python3
"""Reference composition scores for the models of layers in tests/data/train
(written by generate_train.py), from numpy in float64 and the formulas of
src/train/train_layers.h written out anew:

    W_OV,h = W_o[:, h] @ W_v[h, :]          W_QK,h = W_q[h, :].T @ W_k[h, :]
    Q = |W_OV,h0.T @ W_QK,h1| / (|W_OV,h0| |W_QK,h1|)
    K = |W_QK,h1 @ W_OV,h0|   / (|W_QK,h1| |W_OV,h0|)
    V = |W_OV,h1 @ W_OV,h0|   / (|W_OV,h1| |W_OV,h0|)     (Frobenius norms)

for every head h1 of every layer and every head h0 of every layer below it.
Writes tests/data/train/composition.json: {case: [{"from": [l0, h0], "to":
[l1, h1], "q", "k", "v"}, ...]}.

    /usr/bin/python3 tests/reference/generate_composition.py
"""
import json
import os

import numpy as np

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "train")
CASES = ["layers2_causal_2heads", "layers3_plain_nobias", "layers4_causal_4heads_unscaled"]


def main():
    out = {}
    for name in CASES:
        m = json.load(open(os.path.join(DATA, name + ".model.json")))
        d, h = m["d_model"], m["num_heads"]
        dk = d // h
        layers = [{k: np.asarray(v, dtype=np.float64) for k, v in a.items()}
                  for a in m["layers"]]

        def ov(a, i):
            s = slice(i * dk, (i + 1) * dk)
            return a["w_o"][:, s] @ a["w_v"][s, :]

        def qk(a, i):
            s = slice(i * dk, (i + 1) * dk)
            return a["w_q"][s, :].T @ a["w_k"][s, :]

        def norm(x):
            return float(np.linalg.norm(x))

        rows = []
        for l1, a1 in enumerate(layers):
            for h1 in range(h):
                for l0 in range(l1):
                    for h0 in range(h):
                        o0, o1, q1 = ov(layers[l0], h0), ov(a1, h1), qk(a1, h1)
                        rows.append({"from": [l0, h0], "to": [l1, h1],
                                     "q": norm(o0.T @ q1) / (norm(o0) * norm(q1)),
                                     "k": norm(q1 @ o0) / (norm(q1) * norm(o0)),
                                     "v": norm(o1 @ o0) / (norm(o1) * norm(o0))})
        out[name] = rows
    with open(os.path.join(DATA, "composition.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
