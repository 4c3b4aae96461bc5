#!/usr/bin/python3
"""Reference for the words offered in place of an unknown word, with numpy
in float64 from the model's definition (no code shared with the engine).
The model run on the known words before the unknown one, w_1 .. w_p:

    x   = E[w] + P[:p]
    a   = MHA(x, x, x)   heads of d_k = d / H, W [out][in], x W^T + b,
                         scores / sqrt(d_k) when scaled, causal mask
    r   = x + a
    p_w = softmax(r[p-1] U_next^T + bias_next)      over every word w
    e   = sum_w p_w E[w]                             what it expects, embedded
    cos_w = E[w] . e / (|E[w]| |e|)

and the 3 words (not <unk>) of highest cos_w, the lower id on a tie.

Run with Debian's interpreter (python3-numpy), from the repository's top:

    /usr/bin/python3 tests/reference/generate_words.py

It reads tests/data/train/<case>.model.json and writes
tests/data/train/words.json.
"""

import json
import os

import numpy as np

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "train")
CASES = [("text_next_word_vocab300", [[5], [5, 17, 40], [0, 1, 2, 3, 4, 5, 6, 299]])]
N = 3


def arr(x):
    return np.asarray(x, dtype=np.float64)


def opt(mj, key, d):
    return arr(mj[key]) if mj.get(key) is not None else np.zeros(d)


def forward(mj, ids):
    d, H = mj["d_model"], mj["num_heads"]
    dk = d // H
    E, P = arr(mj["embedding"]), arr(mj["positions"])
    T = len(ids)
    x = E[ids] + P[:T]
    q = x @ arr(mj["w_q"]).T + opt(mj, "b_q", d)
    k = x @ arr(mj["w_k"]).T + opt(mj, "b_k", d)
    v = x @ arr(mj["w_v"]).T + opt(mj, "b_v", d)
    s = np.sqrt(dk) if mj.get("scaled", True) else 1.0
    heads = []
    for h in range(H):
        sl = slice(h * dk, (h + 1) * dk)
        sc = q[:, sl] @ k[:, sl].T / s
        if mj.get("causal", True):
            sc = np.where(np.tril(np.ones((T, T))) > 0, sc, -np.inf)
        w = np.exp(sc - sc.max(axis=1, keepdims=True))
        w /= w.sum(axis=1, keepdims=True)
        heads.append(w @ v[:, sl])
    a = np.concatenate(heads, axis=1) @ arr(mj["w_o"]).T + opt(mj, "b_o", d)
    return x + a


def neighbours(mj, ids):
    out = next(o for o in mj["outputs"] if o["name"] == "next")
    r = forward(mj, ids)[-1]
    z = r @ arr(out["unembed"]).T + arr(out.get("bias", np.zeros(len(mj["vocab"]))))
    p = np.exp(z - z.max())
    p /= p.sum()
    E = arr(mj["embedding"])
    e = p @ E
    cos = E @ e / (np.linalg.norm(E, axis=1) * np.linalg.norm(e))
    order = sorted((w for w in range(len(E)) if mj["vocab"][w] != "<unk>"),
                   key=lambda w: (-cos[w], w))[:N]
    return [[w, cos[w]] for w in order]


def main():
    cases = []
    for name, prefixes in CASES:
        with open(os.path.join(DATA, name + ".model.json")) as f:
            mj = json.load(f)
        cases.append({"name": name, "slots": [{"before": ids, "nearest": neighbours(mj, ids)}
                                              for ids in prefixes]})
    out = {"generator": "tests/reference/generate_words.py", "numpy": np.__version__,
           "cases": cases}
    with open(os.path.join(DATA, "words.json"), "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
