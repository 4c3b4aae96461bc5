#!/usr/bin/python3
"""Reference numbers for --dump patching, computed with numpy (float64) from
the model files alone, apart from the program's code:

    x       = embedding[tokens] + positions[:T]
    each layer: q, k, v = x W^T + b split into heads; softmax of the scores
            (divided by sqrt(d_k) when scaled; later keys masked when causal);
            z_h = weights_h v_h; x = x + sum_h z_h W_o[:, h]^T + b_o
    logits  = x[T-1] U^T + bias of the output read (the one named "next"
              with a class per word, else the first)
    A, B    = the clean run's and the corrupted run's likeliest class, or
              the answers given; d = logit A - logit B
    patched = the corrupted run with z_h of one layer's head the clean
              run's at every position, the layers above run on it
    score   = (d_patched - d_corrupt) / (d_clean - d_corrupt), None when
              |d_clean - d_corrupt| < 1e-3
    at t    = the same with z_h the clean run's at position t alone

    /usr/bin/python3 tests/reference/generate_patching.py

writes tests/data/patching/cases.json, which tests/cli/test_cli_patching.c
runs the program on and compares, and tests/data/patching/positions.json
(each case's figures per layer, head and position), which
tests/engine/test_patch_positions.c holds train_patch_heads to.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
OUT = os.path.join(HERE, "..", "data", "patching", "cases.json")
OUT_AT = os.path.join(HERE, "..", "data", "patching", "positions.json")
MIN_DIFF = 1e-3

CASES = [
    # (model, clean, corrupt, answer or None)
    ("assets/models/sentences.json", "the cat sat on the", "the dog sat on the", None),
    ("assets/models/sentences.json", "the cat sat on the", "the dog sat on the", "rug,mat"),
    ("assets/models/sentences.json", "the horse couldn't cross the road because it was",
     "the horse couldn't cross the river because it was", None),
    ("tests/data/train/layers2_causal_2heads.model.json", "tok1 tok4 tok7 tok2 tok9",
     "tok1 tok4 tok3 tok2 tok9", None),
    ("tests/data/train/layers2_causal_20tokens.model.json", "tok0 tok3 tok5 tok3 tok8 tok1",
     "tok0 tok6 tok5 tok3 tok8 tok1", "tok2,tok7"),
    ("tests/data/train/layers3_plain_nobias.model.json", "tok1 tok2 tok3 tok4",
     "tok5 tok2 tok3 tok4", "tok1,tok2"),
]


def layers_of(m):
    return m["layers"] if "layers" in m else [m]


def run(m, ids, patch=None):
    """The residual stream at the end and every layer's z (T, H, d_k);
    patch = (layer, head, z of that layer from another run, the position
    patched or None for every one)."""
    d, H = m["d_model"], m["num_heads"]
    dk = d // H
    T = len(ids)
    x = np.array(m["embedding"], dtype=np.float64)[ids] + np.array(m["positions"])[:T]
    zs = []
    for l, a in enumerate(layers_of(m)):
        W = {n: np.array(a[n], dtype=np.float64) for n in ("w_q", "w_k", "w_v", "w_o")}
        B = {n: np.array(a.get(n, [0.0] * d), dtype=np.float64)
             for n in ("b_q", "b_k", "b_v", "b_o")}
        q = (x @ W["w_q"].T + B["b_q"]).reshape(T, H, dk)
        k = (x @ W["w_k"].T + B["b_k"]).reshape(T, H, dk)
        v = (x @ W["w_v"].T + B["b_v"]).reshape(T, H, dk)
        s = np.einsum("thd,uhd->htu", q, k)
        if m.get("scaled", True):
            s = s / np.sqrt(dk)
        if m["causal"]:
            s = np.where(np.triu(np.ones((T, T), dtype=bool), 1), -np.inf, s)
        s = s - s.max(axis=-1, keepdims=True)
        w = np.exp(s)
        w /= w.sum(axis=-1, keepdims=True)
        z = np.einsum("htu,uhd->thd", w, v)
        if patch and patch[0] == l:
            z = z.copy()
            at = slice(None) if patch[3] is None else patch[3]
            z[at, patch[1], :] = patch[2][at, patch[1], :]
        zs.append(z)
        x = x + z.reshape(T, d) @ W["w_o"].T + B["b_o"]
    return x, zs


def output_of(m):
    for i, o in enumerate(m["outputs"]):
        if o["name"] == "next" and o["classes"] == len(m["vocab"]):
            return i
    return 0


def logits(m, x, k):
    o = m["outputs"][k]
    u = np.array(o["unembed"], dtype=np.float64)
    return x[-1] @ u.T + np.array(o.get("bias", [0.0] * o["classes"]), dtype=np.float64)


def ids_of(m, words):
    if m.get("words") == "lower":
        words = words.lower()
    return [m["vocab"].index(w) for w in words.split()]


def case(path, clean, corrupt, answer):
    with open(os.path.join(ROOT, path)) as f:
        m = json.load(f)
    k = output_of(m)
    ci, xi = ids_of(m, clean), ids_of(m, corrupt)
    xc, zc = run(m, ci)
    xx, _ = run(m, xi)
    lc, lx = logits(m, xc, k), logits(m, xx, k)
    if answer:
        a, b = (m["vocab"].index(w) for w in answer.split(","))
    else:
        a, b = int(np.argmax(lc)), int(np.argmax(lx))
    d_clean, d_corrupt = lc[a] - lc[b], lx[a] - lx[b]
    span = d_clean - d_corrupt
    measurable = bool(abs(span) >= MIN_DIFF)
    if measurable:
        assert abs(abs(span) - MIN_DIFF) > 1e-6
    for top in (lc, lx):  # a likeliest answer that is not a near tie
        second = np.sort(top)[-2]
        assert top.max() - second > 1e-4 or answer
    heads = []
    for l in range(len(layers_of(m))):
        for h in range(m["num_heads"]):
            xp, _ = run(m, xi, (l, h, zc[l], None))
            lp = logits(m, xp, k)
            dp = lp[a] - lp[b]
            at = []
            for t in range(len(ci)):
                xt, _ = run(m, xi, (l, h, zc[l], t))
                lt = logits(m, xt, k)
                dt = lt[a] - lt[b]
                at.append({"d_patched": float(dt),
                           "score": float((dt - d_corrupt) / span) if measurable else None})
            heads.append({"layer": l, "head": h, "d_patched": float(dp),
                          "score": float((dp - d_corrupt) / span) if measurable else None,
                          "at": at})
    names = m["vocab"] if m["outputs"][k]["classes"] == len(m["vocab"]) else None
    return {"model": path, "tokens": clean, "corrupt": corrupt, "answer": answer,
            "output": m["outputs"][k]["name"],
            "a": names[a] if names else a, "b": names[b] if names else b,
            "d_clean": float(d_clean), "d_corrupt": float(d_corrupt), "measurable": measurable,
            "heads": heads}


def main():
    cases = [case(*c) for c in CASES]
    at = [{"model": c["model"], "tokens": c["tokens"], "corrupt": c["corrupt"],
           "answer": c["answer"], "a": c["a"], "b": c["b"], "measurable": c["measurable"],
           "heads": [{"layer": h["layer"], "head": h["head"], "at": h.pop("at")}
                     for h in c["heads"]]} for c in cases]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    for path, what in ((OUT, cases), (OUT_AT, at)):
        with open(path, "w") as f:
            json.dump({"generator": "tests/reference/generate_patching.py", "min_diff": MIN_DIFF,
                       "cases": what}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
