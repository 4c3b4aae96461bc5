#!/usr/bin/python3
"""Reference losses and gradients for the attention block's variants
(--variant), from PyTorch autograd on models written here from their own
parameters (no code shared with the engine):

    shared-qk      q = x W^T + b,  k = x W^T + b         one W and b for both
    low-rank-qk:R  q = (x B_q^T) A_q^T + b_q, k likewise  A (d, R), B (R, d)
    no-wo          a = concat_h(heads)                    no output projection
    low-rank-wo:R  a = (concat_h(heads) B_o^T) A_o^T + b_o
    mqa, gqa:G     k = x W_k^T + b_k with W_k (G d_k, d): G heads of keys (and
                   values), each repeated H/G times (repeat_interleave), so
                   head h reads group h // (H/G); mqa is G = 1

and otherwise the block of generate_train.py: softmax(q_h k_h^T / sqrt(d_k),
causal mask if causal), the residual stream, one read-out per output.

Run with Debian's interpreter (python3-torch, python3-numpy):

    /usr/bin/python3 tests/reference/generate_variants.py

For every case it writes tests/data/train/<case>.model.json (a model file:
the full w_q .. w_o holding what the variant means, "variant" and the
factors), <case>.batch.json and <case>.grad.json ({"loss", "grad"}).  The
gradient of each free parameter is written where the engine keeps it: a
shared W in w_q (w_k's zero), a group's keys and values in the rows of its
first head (the other heads' zero), the factors beside their product
(whose own gradient is zero), w_o's and b_o's zero under no-wo.
Parameters are drawn with numpy, rounded to float32; the loss and
gradients are computed in float64.
"""

import json
import math
import os

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "train")

VARIANTS = ["shared-qk", "low-rank-qk:3", "no-wo", "low-rank-wo:2", "mqa", "gqa:2"]
# d_model, heads, vocab, context, T, B, outputs (name, classes, bias), drop
SIZES = (8, 4, 7, 6, 6, 3, [("a", 7, True), ("b", 4, False)], 0.2)


def f32(a):
    return np.asarray(a, dtype=np.float32)


def case_name(variant, layers, causal):
    return "variant_%s_layers%d_%s" % (variant.replace(":", ""), layers,
                                       "causal" if causal else "plain")


def draw_layer(rng, variant, d, h, bias):
    """The layer's free parameters by name."""
    kind, _, n = variant.partition(":")
    dk = d // h
    p = {}
    u = lambda shape, s=0.8: f32(rng.uniform(-s, s, shape))
    if kind == "shared-qk":
        p["w_qk"] = u((d, d))
    elif kind == "low-rank-qk":
        r = int(n)
        for w in ("q", "k"):
            p["w_%s_left" % w] = u((d, r))
            p["w_%s_right" % w] = u((r, d))
    else:
        p["w_q"] = u((d, d))
    groups = {"mqa": 1, "gqa": int(n) if kind == "gqa" else 0}.get(kind, h)
    if kind in ("mqa", "gqa"):
        p["w_k"] = u((groups * dk, d))
        p["w_v"] = u((groups * dk, d))
    else:
        if kind not in ("shared-qk", "low-rank-qk"):
            p["w_k"] = u((d, d))
        p["w_v"] = u((d, d))
    if kind == "low-rank-wo":
        r = int(n)
        p["w_o_left"] = u((d, r))
        p["w_o_right"] = u((r, d))
    elif kind != "no-wo":
        p["w_o"] = u((d, d))
    if bias:
        p["b_q"] = u(d, 0.3)
        if kind == "shared-qk":
            p["b_qk"] = p.pop("b_q")
        else:
            p["b_k"] = u(groups * dk if kind in ("mqa", "gqa") else d, 0.3)
        p["b_v"] = u(groups * dk if kind in ("mqa", "gqa") else d, 0.3)
        if kind != "no-wo":
            p["b_o"] = u(d, 0.3)
    return p, groups


def full_layer(variant, p, d, h, groups, bias):
    """The full w_q .. b_o (float32) a model file holds for free parameters p,
    and the factors by their file names."""
    kind = variant.partition(":")[0]
    dk = d // h
    per = h // groups
    out = {}
    prod = lambda a, b: f32(a.astype(np.float64) @ b.astype(np.float64))
    if kind == "shared-qk":
        out["w_q"] = out["w_k"] = p["w_qk"]
    elif kind == "low-rank-qk":
        out["w_q"] = prod(p["w_q_left"], p["w_q_right"])
        out["w_k"] = prod(p["w_k_left"], p["w_k_right"])
    else:
        out["w_q"] = p["w_q"]
    if kind in ("mqa", "gqa"):
        rows = [hh // per for hh in range(h)]
        out["w_k"] = f32(np.concatenate([p["w_k"][g * dk:(g + 1) * dk] for g in rows]))
        out["w_v"] = f32(np.concatenate([p["w_v"][g * dk:(g + 1) * dk] for g in rows]))
    else:
        if "w_k" not in out:
            out["w_k"] = p["w_k"]
        out["w_v"] = p["w_v"]
    if kind == "no-wo":
        out["w_o"] = np.eye(d, dtype=np.float32)
    elif kind == "low-rank-wo":
        out["w_o"] = prod(p["w_o_left"], p["w_o_right"])
    else:
        out["w_o"] = p["w_o"]
    if bias:
        if kind == "shared-qk":
            out["b_q"] = out["b_k"] = p["b_qk"]
        else:
            out["b_q"] = p["b_q"]
        if kind in ("mqa", "gqa"):
            rows = [hh // per for hh in range(h)]
            out["b_k"] = f32(np.concatenate([p["b_k"][g * dk:(g + 1) * dk] for g in rows]))
            out["b_v"] = f32(np.concatenate([p["b_v"][g * dk:(g + 1) * dk] for g in rows]))
        else:
            if "b_k" not in out:
                out["b_k"] = p["b_k"]
            out["b_v"] = p["b_v"]
        out["b_o"] = np.zeros(d, dtype=np.float32) if kind == "no-wo" else p["b_o"]
    for key in p:
        if key.endswith("_left") or key.endswith("_right"):
            out[key] = p[key]
    return out


def forward(variant, layers, emb, pos, outputs, d, h, causal, tokens, targets):
    """The loss and the torch leaves (by name) it was computed from."""
    kind = variant.partition(":")[0]
    dk = d // h
    B, T = tokens.shape
    leaf = {}

    def param(name, value):
        t = torch.tensor(np.asarray(value, dtype=np.float64), requires_grad=True)
        leaf[name] = t
        return t

    x = param("embedding", emb)[torch.tensor(tokens)] + param("positions", pos)[:T]

    def heads(y, n):
        return y.reshape(B, T, n, dk).permute(0, 2, 1, 3)

    zero = torch.zeros(d, dtype=torch.float64)
    for l, (p, groups) in enumerate(layers):
        w = {n: param("%d.%s" % (l, n), v) for n, v in p.items()}
        if kind == "shared-qk":
            q = x @ w["w_qk"].T + w.get("b_qk", zero)
            k = x @ w["w_qk"].T + w.get("b_qk", zero)
        elif kind == "low-rank-qk":
            q = (x @ w["w_q_right"].T) @ w["w_q_left"].T + w.get("b_q", zero)
            k = (x @ w["w_k_right"].T) @ w["w_k_left"].T + w.get("b_k", zero)
        else:
            q = x @ w["w_q"].T + w.get("b_q", zero)
            k = x @ w["w_k"].T + w.get("b_k", torch.zeros(w["w_k"].shape[0], dtype=torch.float64))
        v = x @ w["w_v"].T + w.get("b_v", torch.zeros(w["w_v"].shape[0], dtype=torch.float64))
        q = heads(q, h)
        if kind in ("mqa", "gqa"):
            k = heads(k, groups).repeat_interleave(h // groups, dim=1)
            v = heads(v, groups).repeat_interleave(h // groups, dim=1)
        else:
            k, v = heads(k, h), heads(v, h)
        s = q @ k.transpose(-1, -2) / math.sqrt(dk)
        if causal:
            future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
            s = s.masked_fill(future, float("-inf"))
        ctx = (torch.softmax(s, dim=-1) @ v).permute(0, 2, 1, 3).reshape(B, T, d)
        if kind == "no-wo":
            a = ctx
        elif kind == "low-rank-wo":
            a = (ctx @ w["w_o_right"].T) @ w["w_o_left"].T + w.get("b_o", zero)
        else:
            a = ctx @ w["w_o"].T + w.get("b_o", zero)
        x = x + a
    loss = torch.zeros((), dtype=torch.float64)
    for i, o in enumerate(outputs):
        logits = x @ param("out%d.unembed" % i, o["unembed"]).T
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


def layer_grads(variant, l, p, groups, leaf, d, h, bias):
    """The gradients of layer l where the engine keeps them (see above)."""
    kind = variant.partition(":")[0]
    dk = d // h
    per = h // groups

    def g(n):
        t = leaf["%d.%s" % (l, n)]
        return t.grad.numpy() if t.grad is not None else np.zeros(t.shape)

    z2, z1 = np.zeros((d, d)), np.zeros(d)
    out = {}
    if kind == "shared-qk":
        out["w_q"], out["w_k"] = g("w_qk"), z2
    elif kind == "low-rank-qk":
        out["w_q"], out["w_k"] = z2, z2
    else:
        out["w_q"] = g("w_q")
    if kind in ("mqa", "gqa"):
        for n in ("w_k", "w_v"):
            full = np.zeros((d, d))
            for grp in range(groups):
                first = grp * per * dk
                full[first:first + dk] = g(n)[grp * dk:(grp + 1) * dk]
            out[n] = full
    else:
        if "w_k" not in out:
            out["w_k"] = g("w_k") if "w_k" in p else z2
        out["w_v"] = g("w_v")
    out["w_o"] = g("w_o") if "w_o" in p else z2
    if bias:
        if kind == "shared-qk":
            out["b_q"], out["b_k"] = g("b_qk"), z1
        else:
            out["b_q"] = g("b_q")
        if kind in ("mqa", "gqa"):
            for n in ("b_k", "b_v"):
                full = np.zeros(d)
                for grp in range(groups):
                    first = grp * per * dk
                    full[first:first + dk] = g(n)[grp * dk:(grp + 1) * dk]
                out[n] = full
        else:
            if "b_k" not in out:
                out["b_k"] = g("b_k")
            out["b_v"] = g("b_v")
        out["b_o"] = g("b_o") if "b_o" in p else z1
    for key in p:
        if key.endswith("_left") or key.endswith("_right"):
            out[key] = g(key)
    return {k: tolist(v) for k, v in out.items()}


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(20261207)
    d, h, vocab, ctx, T, B, outputs, drop = SIZES
    for variant in VARIANTS:
        for n_layers in (1, 2):
            for causal in (True, False):
                name = case_name(variant, n_layers, causal)
                bias = causal or n_layers == 1
                emb = f32(rng.normal(0, 1, (vocab, d)))
                pos = f32(rng.normal(0, 1, (ctx, d)))
                layers = [draw_layer(rng, variant, d, h, bias) for _ in range(n_layers)]
                outs = []
                for oname, classes, has_bias in outputs:
                    o = {"name": oname, "classes": classes,
                         "unembed": f32(rng.uniform(-0.6, 0.6, (classes, d)))}
                    if has_bias:
                        o["bias"] = f32(rng.uniform(-0.3, 0.3, classes))
                    outs.append(o)
                tokens = rng.integers(0, vocab, (B, T))
                targets = []
                for _, classes, _ in outputs:
                    t = rng.integers(0, classes, (B, T))
                    t[rng.random((B, T)) < drop] = -1
                    targets.append(t)
                loss, leaf = forward(variant, layers, emb, pos, outs, d, h, causal, tokens,
                                     targets)
                loss.backward()
                full = [full_layer(variant, p, d, h, g, bias) for p, g in layers]
                model = {"vocab": ["tok%d" % i for i in range(vocab)], "d_model": d,
                         "num_heads": h, "context": ctx, "causal": causal, "scaled": True,
                         "variant": variant, "embedding": tolist(emb), "positions": tolist(pos)}
                grads = [layer_grads(variant, l, p, g, leaf, d, h, bias)
                         for l, (p, g) in enumerate(layers)]
                gleaf = lambda n: tolist(leaf[n].grad)
                grad = {"embedding": gleaf("embedding"), "positions": gleaf("positions")}
                if n_layers == 1:
                    model.update({k: tolist(v) for k, v in full[0].items()})
                    grad.update(grads[0])
                else:
                    model["layers"] = [{k: tolist(v) for k, v in f.items()} for f in full]
                    grad["layers"] = grads
                model["outputs"] = [{k: (tolist(v) if isinstance(v, np.ndarray) else v)
                                     for k, v in o.items()} for o in outs]
                grad["outputs"] = []
                for i, o in enumerate(outs):
                    e = {"unembed": gleaf("out%d.unembed" % i)}
                    if "bias" in o:
                        e["bias"] = gleaf("out%d.bias" % i)
                    grad["outputs"].append(e)
                files = {
                    "model": model,
                    "batch": {"tokens": tokens.tolist(),
                              "targets": [t.tolist() for t in targets]},
                    "grad": {"loss": float(loss), "grad": grad},
                }
                for kind, obj in files.items():
                    with open(os.path.join(OUT, "%s.%s.json" % (name, kind)), "w") as f:
                        json.dump(obj, f, indent=1)
                        f.write("\n")
                print("%s: loss %.6f" % (name, float(loss)))


if __name__ == "__main__":
    main()
