#!/usr/bin/python3
"""Reference lines for --generate, from a language model written here from
its equations in PyTorch (float64) and the sampling rule written out anew:

    x        = embedding[tokens] + positions[:T]
    r        = x + MHA(x) (causal, scaled, biases)
    p        = softmax(r[T-1] U^T + bias) / temperature)
    greedy   (temperature 0): the likeliest word but <unk>, the lower id on a tie
    sampled: the top_k likeliest words but <unk> (likeliest first), or every
             word but <unk> in id order when top_k is 0; u = mulberry32() * their
             sum; the first word whose running sum passes u
    a line   grows from its start until a word of only . ! ? or the context is full

Run with Debian's interpreter (python3-torch, python3-numpy):

    /usr/bin/python3 tests/reference/generate_writing.py

It draws a small model of words with numpy (seeded, rounded to float32) and
writes tests/data/generate/lm.model.json and tests/data/generate/cases.json:
[{"tokens", "temperature", "top_k", "seed", "n", "lines"}, ...].  Before it
writes, it checks that no choice it made was close to a tie (a greedy
margin under 1e-3, or a draw within 1e-4 of a boundary), so the engine's
float32 forward pass must make the same choices.
"""
import json
import math
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "data", "generate")

VOCAB = ["<unk>", "the", "a", "cat", "dog", "owl", "sat", "ran", "on", "by", "mat", "log",
         "big", "small", "and", "now", ".", "!", "?", "sings"]
D, H, CONTEXT = 8, 2, 10
M32 = 0xFFFFFFFF


class Mulberry32:
    def __init__(self, seed):
        self.state = seed & M32

    def next(self):
        self.state = (self.state + 0x6D2B79F5) & M32
        s = self.state
        t = ((s ^ (s >> 15)) * (s | 1)) & M32
        mixed = (t + (((t ^ (t >> 7)) * (t | 61)) & M32)) & M32
        t = mixed ^ t
        t ^= t >> 14
        return t / 4294967296.0


def f32(a):
    return np.asarray(a, dtype=np.float32).astype(np.float64)


def draw_model():
    rng = np.random.default_rng(20261127)
    V = len(VOCAB)
    m = {"vocab": VOCAB, "d_model": D, "num_heads": H, "context": CONTEXT, "causal": True,
         "scaled": True, "task": "writing", "words": "lower", "sample": [1, 3, 6]}
    m["embedding"] = f32(rng.normal(0, 1.0, (V, D)))
    m["positions"] = f32(rng.normal(0, 0.5, (CONTEXT, D)))
    for n in ("w_q", "w_k", "w_v", "w_o"):
        m[n] = f32(rng.normal(0, 0.6, (D, D)))
    for n in ("b_q", "b_k", "b_v", "b_o"):
        m[n] = f32(rng.normal(0, 0.2, D))
    m["outputs"] = [{"name": "next", "classes": V,
                     "unembed": f32(rng.normal(0, 1.2, (V, D))),
                     "bias": f32(rng.normal(0, 0.3, V))}]
    return m


def probs(m, ids, temperature):
    t = {k: torch.tensor(np.asarray(m[k])) for k in
         ("embedding", "positions", "w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o")}
    T, dk = len(ids), D // H
    x = t["embedding"][torch.tensor(ids)] + t["positions"][:T]

    def heads(y):
        return y.reshape(T, H, dk).permute(1, 0, 2)

    q, k, v = (heads(x @ t[w].T + t[b]) for w, b in (("w_q", "b_q"), ("w_k", "b_k"),
                                                      ("w_v", "b_v")))
    s = q @ k.transpose(-1, -2) / math.sqrt(dk)
    s = s.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
    ctx = (torch.softmax(s, -1) @ v).permute(1, 0, 2).reshape(T, D)
    r = x + ctx @ t["w_o"].T + t["b_o"]
    o = m["outputs"][0]
    logits = r[-1] @ torch.tensor(np.asarray(o["unembed"])).T + torch.tensor(np.asarray(o["bias"]))
    return torch.softmax(logits / temperature, -1).numpy()


def likeliest(p, n):
    order = sorted((j for j in range(1, len(p))), key=lambda j: (-p[j], j))
    return order[:n]


def pick(m, ids, temperature, top_k, g):
    if temperature == 0:
        p = probs(m, ids, 1.0)
        first, second = likeliest(p, 2)
        assert p[first] - p[second] > 1e-3, "greedy choice near a tie"
        return first
    p = probs(m, ids, temperature)
    kept = likeliest(p, top_k) if 0 < top_k < len(p) else list(range(1, len(p)))
    total = sum(p[j] for j in kept)
    u = g.next() * total
    run = 0.0
    for j in kept[:-1]:
        run += p[j]
        assert abs(run - u) > 1e-4, "draw near a boundary"
        if u < run:
            return j
    return kept[-1]


def write(m, tokens, temperature, top_k, seed, n):
    start = [VOCAB.index(w) for w in tokens.split()] if tokens else [m["sample"][0]]
    g = Mulberry32(seed)
    lines = []
    for _ in range(n):
        ids = list(start)
        while len(ids) < CONTEXT:
            ids.append(pick(m, ids, temperature, top_k, g))
            if set(VOCAB[ids[-1]]) <= set(".!?"):
                break
        lines.append(" ".join(VOCAB[i] for i in ids))
    return lines


def main():
    m = draw_model()
    cases = []
    for tokens, temperature, top_k, seed, n in [
            ("the cat", 0, 0, 42, 2), (None, 0, 0, 42, 1), ("a big dog", 0, 0, 42, 1),
            ("the cat", 1.0, 0, 42, 6), ("the cat", 1.0, 0, 7, 6), ("the owl", 0.5, 3, 42, 5),
            ("the owl", 2.0, 0, 9, 5), ("a", 1.0, 1, 3, 2)]:
        cases.append({"tokens": tokens, "temperature": temperature, "top_k": top_k,
                      "seed": seed, "n": n, "lines": write(m, tokens, temperature, top_k, seed, n)})
    os.makedirs(OUT, exist_ok=True)
    model = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in m.items()}
    model["outputs"] = [{k: (v.tolist() if isinstance(v, np.ndarray) else v)
                         for k, v in o.items()} for o in m["outputs"]]
    with open(os.path.join(OUT, "lm.model.json"), "w") as f:
        json.dump(model, f)
        f.write("\n")
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({"generator": "tests/reference/generate_writing.py",
                   "torch": torch.__version__, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
