#!/usr/bin/python3
"""Reference losses and gradients for the training engine, from PyTorch
autograd on a model written here from its equations (no code shared with the
engine):

    x        = embedding[tokens] + positions[:T]
    for each layer (one, or "layers" of the file in order):
      q, k, v  = x W_q^T + b_q, x W_k^T + b_k, x W_v^T + b_v   split into H heads
      weights  = softmax(q_h k_h^T / sqrt(d_k), causal mask if causal)
      a        = concat_h(weights_h v_h) W_o^T + b_o
      x        = x + a
    r        = x
    logits_k = r U_k^T + bias_k
    loss     = sum_k mean over targets != -1 of cross_entropy(logits_k)

Run with Debian's interpreter (python3-torch, python3-numpy):

    /usr/bin/python3 tests/reference/generate_train.py [CASE ...]

Named cases only are written when any are given (every case is still drawn,
in order, so the others' numbers stay what they are).  For every case it
writes tests/data/train/<case>.model.json (a model file),
<case>.batch.json (a batch file) and <case>.grad.json ({"loss", "grad"} in
the layout --grad prints).  Parameters are drawn with numpy, rounded to
float32; the loss and gradients are computed in float64.
"""

import json
import math
import os
import sys

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "train")

# name, d_model, heads, vocab, context, T, B, causal, scaled, attention biases,
# outputs as (name, classes, bias), fraction of targets set to -1
CASES = [
    ("causal_2heads_two_outputs", 8, 2, 16, 8, 8, 5, True, True, True,
     [("first", 16, True), ("prev", 16, True)], 0.2),
    ("plain_1head_unscaled_nobias", 6, 1, 5, 6, 6, 3, False, False, False,
     [("out", 5, False)], 0.0),
    ("causal_4heads_short_three_outputs", 8, 4, 7, 10, 6, 4, True, True, True,
     [("a", 7, True), ("b", 3, False), ("c", 10, True)], 0.3),
    ("plain_2heads_nobias_half_targets", 4, 2, 9, 5, 5, 6, False, True, False,
     [("x", 9, True), ("y", 4, True)], 0.5),
    ("causal_2heads_empty_output", 6, 2, 6, 4, 4, 3, True, True, True,
     [("seen", 6, True), ("never", 6, True)], 0.0),
    # longer sequences: keys over several vector registers, rows in groups
    ("causal_3heads_20tokens", 12, 3, 11, 20, 20, 3, True, True, True,
     [("a", 11, True)], 0.2),
    ("plain_1head_64tokens", 16, 1, 6, 64, 64, 2, False, True, True,
     [("b", 6, True)], 0.1),
    ("causal_4heads_dk3_9tokens", 12, 4, 9, 12, 9, 3, True, True, False,
     [("c", 9, True), ("d", 5, False)], 0.2),
    # a language model as --train FILE.txt builds it: one output "next" with a
    # class per word, its targets the next token, rows padded with id 0
    # (<unk>) where they have no target; a vocabulary past 256
    ("text_next_word_vocab300", 16, 2, 300, 16, 16, 5, True, True, True,
     [("next", 300, True)], 0.0),
]

# Logits in the thousands: the read-out's weights (and biases) scaled up so
# that most targets' probabilities underflow float32 (e^-104 and below) and
# the cross-entropy has to come from log-sum-exp.  name, d_model, heads,
# vocab, context, T, B, causal, outputs as (name, classes, bias), fraction
# of targets set to -1, scale of the read-out.
LARGE_CASES = [
    ("large_logits_2heads_two_outputs", 8, 2, 6, 6, 6, 4, True,
     [("big", 6, True), ("wide", 19, True)], 0.2, 400.0),
    ("large_logits_1head_plain", 4, 1, 5, 5, 5, 3, False,
     [("huge", 5, False)], 0.0, 1500.0),
]


# Two to four layers, each adding its attention to the residual stream (a
# model file's "layers"), from a third generator so the cases above keep their
# numbers.  name, d_model, heads, vocab, context, T, B, causal, scaled,
# attention biases, outputs, fraction of targets set to -1, layers.
LAYER_CASES = [
    ("layers2_causal_2heads", 8, 2, 12, 8, 8, 4, True, True, True,
     [("next", 12, True)], 0.1, 2),
    ("layers3_plain_nobias", 6, 3, 7, 6, 6, 3, False, True, False,
     [("a", 7, True), ("b", 4, False)], 0.2, 3),
    ("layers4_causal_4heads_unscaled", 8, 4, 9, 10, 7, 3, True, False, True,
     [("c", 9, True)], 0.0, 4),
    ("layers2_causal_20tokens", 12, 3, 10, 20, 20, 2, True, True, True,
     [("d", 10, True)], 0.2, 2),
]


def f32(a):
    return np.asarray(a, dtype=np.float32)


def draw_model(rng, d, h, vocab, ctx, causal, scaled, bias, outputs, scale=1.0, layers=1):
    m = {
        "vocab": ["tok%d" % i for i in range(vocab)],
        "d_model": d,
        "num_heads": h,
        "context": ctx,
        "causal": causal,
        "scaled": scaled,
        "embedding": f32(rng.normal(0, 1, (vocab, d))),
        "positions": f32(rng.normal(0, 1, (ctx, d))),
    }
    layer_dicts = []
    for _ in range(layers):
        a = {}
        for w in ("w_q", "w_k", "w_v", "w_o"):
            a[w] = f32(rng.uniform(-0.8, 0.8, (d, d)))
        if bias:
            for b in ("b_q", "b_k", "b_v", "b_o"):
                a[b] = f32(rng.uniform(-0.3, 0.3, d))
        layer_dicts.append(a)
    if layers == 1:
        m.update(layer_dicts[0])
    else:
        m["layers"] = layer_dicts
    m["outputs"] = []
    for name, classes, has_bias in outputs:
        o = {"name": name, "classes": classes,
             "unembed": f32(scale * rng.uniform(-0.6, 0.6, (classes, d)))}
        if has_bias:
            o["bias"] = f32(scale * rng.uniform(-0.3, 0.3, classes))
        m["outputs"].append(o)
    return m


def layer_list(m):
    """(leaf name prefix, the layer's weights) for each layer: the model's top
    level for one layer, "layers.L." for each of "layers"."""
    if "layers" in m:
        return [("layers.%d." % i, a) for i, a in enumerate(m["layers"])]
    return [("", m)]


def forward(m, tokens, targets):
    """The loss, and the torch leaves it was computed from (by name)."""
    d, h = m["d_model"], m["num_heads"]
    dk = d // h
    B, T = tokens.shape
    leaf = {}

    def param(name, value):
        t = torch.tensor(np.asarray(value, dtype=np.float64), requires_grad=True)
        leaf[name] = t
        return t

    emb = param("embedding", m["embedding"])
    pos = param("positions", m["positions"])
    x = emb[torch.tensor(tokens)] + pos[:T]

    def heads(y):
        return y.reshape(B, T, h, dk).permute(0, 2, 1, 3)

    for prefix, a in layer_list(m):
        w = {n: param(prefix + n, a[n]) for n in ("w_q", "w_k", "w_v", "w_o")}
        b = {n: (param(prefix + n, a[n]) if n in a else torch.zeros(d, dtype=torch.float64))
             for n in ("b_q", "b_k", "b_v", "b_o")}
        q = heads(x @ w["w_q"].T + b["b_q"])
        k = heads(x @ w["w_k"].T + b["b_k"])
        v = heads(x @ w["w_v"].T + b["b_v"])
        s = q @ k.transpose(-1, -2)
        if m["scaled"]:
            s = s / math.sqrt(dk)
        if m["causal"]:
            future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
            s = s.masked_fill(future, float("-inf"))
        att = torch.softmax(s, dim=-1)
        ctx = (att @ v).permute(0, 2, 1, 3).reshape(B, T, d)
        x = x + ctx @ w["w_o"].T + b["b_o"]
    r = x
    loss = torch.zeros((), dtype=torch.float64)
    for i, o in enumerate(m["outputs"]):
        u = param("out%d.unembed" % i, o["unembed"])
        logits = r @ u.T
        if "bias" in o:
            logits = logits + param("out%d.bias" % i, o["bias"])
        tg = torch.tensor(targets[i]).reshape(-1)
        keep = tg != -1
        if keep.any():
            logp = torch.log_softmax(logits.reshape(-1, o["classes"]), dim=-1)
            loss = loss - logp[keep, tg[keep]].mean()
    return loss, leaf


def tolist(a):
    return np.asarray(a, dtype=np.float64).tolist()


def model_json(m):
    out = {}
    for key, value in m.items():
        if key in ("outputs", "layers"):
            out[key] = [{k: (tolist(v) if isinstance(v, np.ndarray) else v)
                         for k, v in o.items()} for o in value]
        elif isinstance(value, np.ndarray):
            out[key] = tolist(value)
        else:
            out[key] = value
    return out


def all_cases():
    """Every case as (name, rng, model, T, B, outputs, drop): CASES from one
    generator in order, LARGE_CASES from another."""
    rng = np.random.default_rng(20261123)
    for (name, d, h, vocab, ctx, T, B, causal, scaled, bias, outputs, drop) in CASES:
        m = draw_model(rng, d, h, vocab, ctx, causal, scaled, bias, outputs)
        yield name, rng, m, vocab, T, B, outputs, drop
    rng = np.random.default_rng(20270611)
    for (name, d, h, vocab, ctx, T, B, causal, outputs, drop, scale) in LARGE_CASES:
        m = draw_model(rng, d, h, vocab, ctx, causal, True, True, outputs, scale)
        yield name, rng, m, vocab, T, B, outputs, drop
    rng = np.random.default_rng(20261127)
    for (name, d, h, vocab, ctx, T, B, causal, scaled, bias, outputs, drop,
         layers) in LAYER_CASES:
        m = draw_model(rng, d, h, vocab, ctx, causal, scaled, bias, outputs, layers=layers)
        yield name, rng, m, vocab, T, B, outputs, drop


def main():
    os.makedirs(OUT, exist_ok=True)
    wanted = set(sys.argv[1:])
    known = {c[0] for c in CASES + LARGE_CASES + LAYER_CASES}
    if wanted - known:
        sys.exit("unknown case(s): %s" % ", ".join(sorted(wanted - known)))
    for name, rng, m, vocab, T, B, outputs, drop in all_cases():
        bias = "b_q" in layer_list(m)[0][1]
        tokens = rng.integers(0, vocab, (B, T))
        targets = []
        for i, (oname, classes, _) in enumerate(outputs):
            if oname == "next":
                t = np.full((B, T), -1)
                for s in range(B):
                    n = int(rng.integers(2, T + 1))
                    tokens[s, n:] = 0
                    t[s, :n - 1] = tokens[s, 1:n]
                targets.append(t)
                continue
            t = rng.integers(0, classes, (B, T))
            t[rng.random((B, T)) < drop] = -1
            if oname == "never":
                t[:] = -1
            targets.append(t)
        loss, leaf = forward(m, tokens, targets)
        loss.backward()

        def g(n):
            t = leaf[n]
            return tolist(t.grad if t.grad is not None else torch.zeros_like(t))

        grad = {"embedding": g("embedding"), "positions": g("positions")}
        layer_grads = []
        for prefix, _ in layer_list(m):
            lg = {n: g(prefix + n) for n in ("w_q", "w_k", "w_v", "w_o")}
            if bias:
                lg.update({n: g(prefix + n) for n in ("b_q", "b_k", "b_v", "b_o")})
            layer_grads.append(lg)
        if "layers" in m:
            grad["layers"] = layer_grads
        else:
            grad.update(layer_grads[0])
        grad["outputs"] = []
        for i, o in enumerate(m["outputs"]):
            e = {"unembed": g("out%d.unembed" % i)}
            if "bias" in o:
                e["bias"] = g("out%d.bias" % i)
            grad["outputs"].append(e)
        files = {
            "model": model_json(m),
            "batch": {"tokens": tokens.tolist(), "targets": [t.tolist() for t in targets]},
            "grad": {"loss": float(loss), "grad": grad},
        }
        if wanted and name not in wanted:
            continue
        for kind, obj in files.items():
            with open(os.path.join(OUT, "%s.%s.json" % (name, kind)), "w") as f:
                json.dump(obj, f, indent=1)
                f.write("\n")
        print("%s: loss %.6f" % (name, float(loss)))


if __name__ == "__main__":
    main()
