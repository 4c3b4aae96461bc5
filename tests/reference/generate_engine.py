#!/usr/bin/python3
"""Reference numbers for the engine's tests, from an implementation that shares
no code with it.

Run with Debian's interpreter (it has python3-torch and python3-numpy):

    /usr/bin/python3 tests/reference/generate_engine.py

It writes tests/data/engine_cases.json next to this folder.  Every case is
computed twice:

  * by torch.nn.MultiheadAttention (batch_first=True, need_weights=True,
    average_attn_weights=False), which gives the output and the per-head
    attention weights;
  * by the stage-by-stage code below (numpy, float32), which gives every
    intermediate the engine keeps: q, k, v; qh, kh, vh as (H, L, d_k); raw
    scores; scaled scores; weights; context; merged; output.

The script asserts that the two agree before it writes anything, and also
that the float32 stages agree with the same code run in float64, so the
stored numbers are known to be float32-accurate.

Two cases are outside what nn.MultiheadAttention can say directly:

  * "fully_masked_row": a query row whose every key is masked.  torch's
    softmax of a row of -inf gives NaN there.  The engine's rule is that such
    a row gets weights 0, hence context 0, merged 0 and output = b_o; the
    stored numbers come from the numpy path with that rule, and torch is
    compared only on the rows that have at least one key.
  * "unscaled": scores not divided by sqrt(d_k).  torch always divides, so
    the stored numbers come from the numpy path, and torch is run with W_q
    and b_q multiplied by sqrt(d_k), which cancels its division.

Numbers are written as the shortest decimal that reads back as the same
float32 (checked for every number).  Masked entries of "scaled" (which are
-inf) are written as null.
"""

import json
import math
import os
import sys

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                   "engine_cases.json")

F32 = np.float32


# ---------------------------------------------------------------- mulberry32

class Mulberry32:
    """The 32-bit mulberry32 generator, written out with Python integers."""

    M32 = 0xFFFFFFFF

    def __init__(self, seed):
        self.state = seed & self.M32

    @classmethod
    def _mul(cls, a, b):
        return (a * b) & cls.M32

    def next(self):
        """Next number in [0, 1) as a double (exactly n / 2^32)."""
        self.state = (self.state + 0x6D2B79F5) & self.M32
        s = self.state
        t = self._mul(s ^ (s >> 15), s | 1)
        mixed = (t + self._mul(t ^ (t >> 7), t | 61)) & self.M32
        t = mixed ^ t
        t ^= t >> 14
        return t / 4294967296.0

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.next()

    def matrix(self, rows, cols, lo, hi):
        """rows x cols draws, row by row, each rounded from double to float32."""
        out = np.empty((rows, cols), dtype=F32)
        for r in range(rows):
            for c in range(cols):
                out[r, c] = F32(self.uniform(lo, hi))
        return out


def mulberry_first(seed, n):
    g = Mulberry32(seed)
    return [g.next() for _ in range(n)]


# ------------------------------------------------------- stage-by-stage path

def softmax_rows(x, keep):
    """Softmax over the last axis of x where keep is True; masked entries and
    rows with nothing kept come out as exact zeros."""
    neg = np.where(keep, x, -np.inf)
    top = neg.max(axis=-1, keepdims=True)
    empty = ~keep.any(axis=-1, keepdims=True)
    top = np.where(empty, 0, top)
    e = np.where(keep, np.exp(neg - top), 0).astype(x.dtype)
    total = e.sum(axis=-1, keepdims=True)
    total = np.where(empty, 1, total)
    return (e / total).astype(x.dtype)


def stages(c, dtype):
    """Every stage of the forward pass of case c, computed in dtype."""
    lq, lk, d, h = c["lq"], c["lk"], c["d_model"], c["heads"]
    dk = d // h

    def a(name):
        return np.asarray(c[name], dtype=dtype)

    q = a("query") @ a("w_q").T + a("b_q")
    k = a("key") @ a("w_k").T + a("b_k")
    v = a("value") @ a("w_v").T + a("b_v")
    qh = q.reshape(lq, h, dk).transpose(1, 0, 2)
    kh = k.reshape(lk, h, dk).transpose(1, 0, 2)
    vh = v.reshape(lk, h, dk).transpose(1, 0, 2)
    scores = qh @ kh.transpose(0, 2, 1)
    factor = dtype(1.0 / math.sqrt(dk)) if c["scaled"] else dtype(1.0)
    scaled = scores * factor
    keep = np.broadcast_to(keep_matrix(c), scores.shape)
    weights = softmax_rows(scaled, keep)
    context = weights @ vh
    merged = context.transpose(1, 0, 2).reshape(lq, d)
    output = merged @ a("w_o").T + a("b_o")
    scaled_masked = np.where(keep, scaled, np.nan)
    return {
        "q": q, "k": k, "v": v, "qh": qh, "kh": kh, "vh": vh,
        "scores": scores, "scaled": scaled_masked, "weights": weights,
        "context": context, "merged": merged, "output": output,
    }


def keep_matrix(c):
    """(lq, lk) bool: True where query i may look at key j."""
    lq, lk = c["lq"], c["lk"]
    keep = np.ones((lq, lk), dtype=bool)
    if c["mask"] is not None:
        keep &= np.asarray(c["mask"]) != 0
    if c["causal"]:
        keep &= ~np.triu(np.ones((lq, lk), dtype=bool), k=1)
    return keep


# ---------------------------------------------------------- torch cross-check

def torch_mha(c):
    """Output (lq, d) and weights (H, lq, lk) from nn.MultiheadAttention."""
    d, h = c["d_model"], c["heads"]
    dk = d // h
    has_bias = any(np.any(np.asarray(c[b]) != 0) for b in ("b_q", "b_k", "b_v", "b_o"))
    mha = torch.nn.MultiheadAttention(d, h, bias=has_bias, batch_first=True)
    mha.eval()
    w_q = torch.tensor(np.asarray(c["w_q"], dtype=F32))
    b_q = torch.tensor(np.asarray(c["b_q"], dtype=F32))
    if not c["scaled"]:
        # torch divides q by sqrt(d_k); multiplying W_q and b_q first undoes it
        w_q = w_q * math.sqrt(dk)
        b_q = b_q * math.sqrt(dk)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([
            w_q,
            torch.tensor(np.asarray(c["w_k"], dtype=F32)),
            torch.tensor(np.asarray(c["w_v"], dtype=F32)),
        ]))
        mha.out_proj.weight.copy_(torch.tensor(np.asarray(c["w_o"], dtype=F32)))
        if has_bias:
            mha.in_proj_bias.copy_(torch.cat([
                b_q,
                torch.tensor(np.asarray(c["b_k"], dtype=F32)),
                torch.tensor(np.asarray(c["b_v"], dtype=F32)),
            ]))
            mha.out_proj.bias.copy_(torch.tensor(np.asarray(c["b_o"], dtype=F32)))
        masked = ~keep_matrix(c)
        attn_mask = torch.tensor(masked) if masked.any() else None
        out, weights = mha(
            torch.tensor(np.asarray(c["query"], dtype=F32)).unsqueeze(0),
            torch.tensor(np.asarray(c["key"], dtype=F32)).unsqueeze(0),
            torch.tensor(np.asarray(c["value"], dtype=F32)).unsqueeze(0),
            attn_mask=attn_mask, need_weights=True, average_attn_weights=False)
    return out[0].numpy(), weights[0].numpy()


def check_case(c, exp):
    """Assert that the stage path agrees with torch and with float64."""
    out_t, w_t = torch_mha(c)
    rows = keep_matrix(c).any(axis=1)  # rows torch can answer (no NaN)
    np.testing.assert_allclose(exp["output"][rows], out_t[rows], rtol=1e-4, atol=1e-4,
                               err_msg=c["name"] + ": output vs nn.MultiheadAttention")
    np.testing.assert_allclose(exp["weights"][:, rows], w_t[:, rows], rtol=1e-4, atol=1e-5,
                               err_msg=c["name"] + ": weights vs nn.MultiheadAttention")
    if not rows.all():
        assert np.isnan(w_t[:, ~rows]).all(), "torch was expected to give NaN"
    exact = stages(c, np.float64)
    for name, got in exp.items():
        ref = exact[name]
        scale = max(1.0, float(np.nanmax(np.abs(ref))))
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=2e-6 * scale, equal_nan=True,
                                   err_msg=c["name"] + ": " + name + " float32 vs float64")
    # the properties the engine's tests lean on
    w = exp["weights"]
    assert np.isfinite(w).all()
    assert (w[:, ~keep_matrix(c)] == 0).all()
    sums = w.sum(axis=-1)
    np.testing.assert_allclose(sums[:, rows], 1.0, atol=1e-5)
    assert (sums[:, ~rows] == 0).all()


# ------------------------------------------------------------------ the cases

def init_module(d, h, bias, seed):
    """Weights as torch initialises them (xavier for the in-projection,
    kaiming-uniform for the output), biases drawn uniform in [-0.5, 0.5)
    since torch starts them at zero."""
    torch.manual_seed(seed)
    mha = torch.nn.MultiheadAttention(d, h, bias=bias, batch_first=True)
    w = mha.in_proj_weight.detach().numpy().astype(F32)
    params = {
        "w_q": w[:d], "w_k": w[d:2 * d], "w_v": w[2 * d:],
        "w_o": mha.out_proj.weight.detach().numpy().astype(F32),
    }
    for b in ("b_q", "b_k", "b_v", "b_o"):
        params[b] = ((torch.rand(d) - 0.5).numpy().astype(F32) if bias
                     else np.zeros(d, dtype=F32))
    return params


def make_case(name, what, lq, lk, d, h, params, query, key, value, causal=False,
              scaled=True, cross=False, mask=None):
    c = {
        "name": name, "what": what, "lq": lq, "lk": lk, "d_model": d, "heads": h,
        "causal": causal, "scaled": scaled, "cross": cross,
        "query": query.astype(F32), "key": key.astype(F32), "value": value.astype(F32),
        "mask": None if mask is None else np.asarray(mask, dtype=np.int64),
    }
    c.update(params)
    return c


def randn(shape, scale=1.0):
    return (torch.randn(*shape) * scale).numpy().astype(F32)


def case_default():
    g = Mulberry32(42)
    n, d, h = 4, 6, 2
    query = g.matrix(n, d, -2.0, 2.0)
    key = g.matrix(n, d, -2.0, 2.0)
    value = g.matrix(n, d, -2.0, 2.0)
    params = {w: g.matrix(d, d, -1.0, 1.0) for w in ("w_q", "w_k", "w_v", "w_o")}
    for b in ("b_q", "b_k", "b_v", "b_o"):
        params[b] = np.zeros(d, dtype=F32)
    return make_case("default", "the step-by-step page: mulberry32 seed 42, separate "
                     "query/key/value draws, no biases, no mask", n, n, d, h, params,
                     query, key, value)


def generated(name, what, lq, lk, d, h, seed, cross=False, scaled=True):
    """An example the program draws from a seed (mha_example_generate): the
    page's example (self-attention, 4 tokens, d_model 6, seed 42, any number
    of heads) draws its weights from [-1, 1) as the page does; every other
    one draws them as nn.Linear initialises its weight, uniform in
    [-1/sqrt(d_model), 1/sqrt(d_model)).  Same draw order for both: query,
    key, value (uniform [-2, 2)), then W_q, W_k, W_v, W_o, row by row."""
    page = not cross and lq == 4 and lk == 4 and d == 6 and seed == 42
    bound = 1.0 if page else 1.0 / math.sqrt(d)
    g = Mulberry32(seed)
    query = g.matrix(lq, d, -2.0, 2.0)
    key = g.matrix(lk, d, -2.0, 2.0)
    value = g.matrix(lk, d, -2.0, 2.0)
    params = {w: g.matrix(d, d, -bound, bound) for w in ("w_q", "w_k", "w_v", "w_o")}
    for b in ("b_q", "b_k", "b_v", "b_o"):
        params[b] = np.zeros(d, dtype=F32)
    c = make_case(name, what, lq, lk, d, h, params, query, key, value, scaled=scaled,
                  cross=cross)
    c["generated"] = {"seed": seed, "bound": bound}
    return c


def case_generated():
    return [
        generated("page_heads3", "the page's numbers split into 3 heads (heads do not "
                  "change the draw)", 4, 4, 6, 3, 42),
        generated("generated_d12", "4 tokens, d_model 12, 2 heads, seed 42: nn.Linear "
                  "weights (lesson 7's wider heads)", 4, 4, 12, 2, 42),
        generated("generated_d12_unscaled", "the same, scores not divided by sqrt(d_k)",
                  4, 4, 12, 2, 42, scaled=False),
        generated("generated_d24", "4 tokens, d_model 24, 4 heads, seed 42: nn.Linear "
                  "weights", 4, 4, 24, 4, 42),
        generated("generated_5tok", "5 tokens at the page's width: not the page, so "
                  "nn.Linear weights", 5, 5, 6, 2, 42),
        generated("generated_cross", "cross-attention drawn from seed 7, 3 queries over "
                  "5 keys", 3, 5, 6, 3, 7, cross=True),
    ]


def case_self_bias():
    n, d, h = 5, 8, 2
    params = init_module(d, h, True, 101)
    x = randn((n, d))
    return make_case("self_bias", "self-attention (query = key = value) with biases",
                     n, n, d, h, params, x, x, x)


def case_cross():
    lq, lk, d, h = 3, 7, 12, 3
    params = init_module(d, h, True, 102)
    query = randn((lq, d))
    key = randn((lk, d))
    value = randn((lk, d))
    return make_case("cross", "cross-attention, 3 queries over 7 keys, own key and value "
                     "inputs, biases", lq, lk, d, h, params, query, key, value, cross=True)


def case_causal():
    n, d, h = 6, 8, 4
    params = init_module(d, h, True, 103)
    x = randn((n, d))
    return make_case("causal", "causal self-attention: key j > query i masked",
                     n, n, d, h, params, x, x, x, causal=True)


def case_mask():
    lq, lk, d, h = 4, 5, 6, 3
    params = init_module(d, h, True, 104)
    mask = [[1, 1, 0, 1, 1],
            [0, 1, 1, 1, 0],
            [1, 1, 1, 1, 1],
            [1, 0, 0, 0, 1]]
    return make_case("mask", "explicit 0/1 mask (cross, 4 x 5), zeros in three rows",
                     lq, lk, d, h, params, randn((lq, d)), randn((lk, d)), randn((lk, d)),
                     cross=True, mask=mask)


def case_causal_and_mask():
    n, d, h = 5, 6, 2
    params = init_module(d, h, True, 105)
    mask = [[1, 1, 1, 1, 1],
            [1, 1, 1, 1, 1],
            [0, 1, 1, 0, 1],
            [1, 1, 1, 1, 1],
            [1, 0, 1, 0, 1]]
    x = randn((n, d))
    return make_case("causal_and_mask", "causal and an explicit mask together (masked "
                     "where either says so)", n, n, d, h, params, x, x, x, causal=True,
                     mask=mask)


def case_fully_masked_row():
    lq, lk, d, h = 4, 6, 6, 2
    params = init_module(d, h, True, 106)
    mask = [[1, 1, 1, 0, 1, 1],
            [1, 0, 1, 1, 1, 0],
            [0, 0, 0, 0, 0, 0],
            [1, 1, 1, 1, 1, 1]]
    return make_case("fully_masked_row", "row 2 has every key masked: weights and context "
                     "0 there, output = b_o (torch gives NaN; numpy path stored)",
                     lq, lk, d, h, params, randn((lq, d)), randn((lk, d)), randn((lk, d)),
                     cross=True, mask=mask)


def case_one_head():
    n, d, h = 4, 6, 1
    params = init_module(d, h, True, 107)
    x = randn((n, d))
    return make_case("one_head", "a single head (d_k = d_model)", n, n, d, h, params, x, x, x)


def case_heads_eq_d():
    n, d, h = 3, 4, 4
    params = init_module(d, h, True, 108)
    x = randn((n, d))
    return make_case("heads_eq_d", "heads = d_model (d_k = 1)", n, n, d, h, params, x, x, x)


def case_huge():
    n, d, h = 5, 8, 2
    params = init_module(d, h, False, 109)
    torch.manual_seed(209)
    size = 30.0 + 20.0 * torch.rand(n, d)
    sign = torch.where(torch.rand(n, d) < 0.5, -1.0, 1.0)
    x = (size * sign).numpy().astype(F32)
    return make_case("huge_scores", "inputs of size 30-50: raw scores in the thousands, "
                     "softmax must stay finite", n, n, d, h, params, x, x, x)


def case_unscaled():
    n, d, h = 4, 8, 2
    params = init_module(d, h, True, 110)
    x = randn((n, d))
    return make_case("unscaled", "scores not divided by sqrt(d_k) (scaled = false)",
                     n, n, d, h, params, x, x, x, scaled=False)


def case_large():
    n, d, h = 33, 64, 8
    params = init_module(d, h, True, 111)
    x = randn((n, d))
    return make_case("large", "33 tokens, d_model 64, 8 heads, causal, biases",
                     n, n, d, h, params, x, x, x, causal=True)


def case_rows_edge():
    """64 keys, the most a head takes a row at a time in vector registers;
    a mask with holes and one row with no key at all."""
    lq, lk, d, h = 10, 64, 24, 2
    params = init_module(d, h, True, 112)
    gen = np.random.default_rng(112)
    mask = (gen.random((lq, lk)) > 0.3).astype(np.int64)
    mask[0, :] = 1
    mask[7, :] = 0
    return make_case("rows_edge", "10 queries over 64 keys (d_k 12), holes in the mask and "
                     "a row with every key masked", lq, lk, d, h, params, randn((lq, d)),
                     randn((lk, d)), randn((lk, d)), cross=True, mask=mask.tolist())


def case_past_rows():
    """65 keys: one more than the row kernels take, so the products go
    through the matrix multiply."""
    lq, lk, d, h = 9, 65, 16, 2
    params = init_module(d, h, True, 113)
    return make_case("past_rows", "9 queries over 65 keys, one past the row kernels' limit",
                     lq, lk, d, h, params, randn((lq, d)), randn((lk, d)), randn((lk, d)),
                     cross=True)


def case_blocks():
    """1024 keys: a head's query rows are taken in blocks of 32 (the scores,
    scaled scores and weights of a block stay in cache); 40 queries make a
    whole block and a part one, and a row with every key masked sits in the
    part one."""
    lq, lk, d, h = 40, 1024, 8, 1
    params = init_module(d, h, True, 115)
    gen = np.random.default_rng(115)
    mask = (gen.random((lq, lk)) > 0.2).astype(np.int64)
    mask[35, :] = 0
    return make_case("blocks", "40 queries over 1024 keys, one head: a block of 32 query "
                     "rows and one of 8, holes in the mask and a row with every key masked",
                     lq, lk, d, h, params, randn((lq, d)), randn((lk, d)), randn((lk, d)),
                     cross=True, mask=mask.tolist())


def case_odd_head():
    """d_k 3 and 19 keys: partial registers on both axes, rows in groups."""
    n, d, h = 19, 15, 5
    params = init_module(d, h, True, 114)
    x = randn((n, d))
    return make_case("odd_head", "19 tokens, d_model 15, 5 heads of d_k 3, causal",
                     n, n, d, h, params, x, x, x, causal=True)


# --------------------------------------------------------------------- output

def short32(x):
    """The shortest decimal that reads back (as a double, then float32) as the
    same float32; returned as the Python float that prints as that decimal."""
    f = F32(x)
    text = np.format_float_positional(f, unique=True, trim="-") \
        if 1e-4 <= abs(f) < 1e6 or f == 0 else np.format_float_scientific(f, unique=True)
    back = float(text)
    assert F32(back) == f, (text, f)
    return back


def to_json(a):
    a = np.asarray(a)
    if a.ndim == 0:
        return None if np.isnan(a) else short32(a)
    return [to_json(x) for x in a]


def record(c, exp):
    out = {key: c[key] for key in ("name", "what", "lq", "lk", "d_model", "heads",
                                    "causal", "scaled", "cross")}
    for key in ("query", "key", "value", "w_q", "w_k", "w_v", "w_o",
                "b_q", "b_k", "b_v", "b_o"):
        out[key] = to_json(c[key])
    out["mask"] = None if c["mask"] is None else [[int(v) for v in row] for row in c["mask"]]
    if "generated" in c:
        out["generated"] = c["generated"]
    out["expected"] = {key: to_json(val) for key, val in exp.items()}
    return out


def main():
    torch.set_num_threads(1)
    cases = [case_default(), case_self_bias(), case_cross(), case_causal(), case_mask(),
             case_causal_and_mask(), case_fully_masked_row(), case_one_head(),
             case_heads_eq_d(), case_huge(), case_unscaled(), case_large()] + case_generated() + \
        [case_rows_edge(), case_past_rows(), case_odd_head(), case_blocks()]
    doc = {
        "generator": "tests/reference/generate_engine.py",
        "torch": torch.__version__,
        "numpy": np.__version__,
        "rng": {"42": mulberry_first(42, 10), "7": mulberry_first(7, 10)},
        "cases": [],
    }
    for c in cases:
        exp = stages(c, F32)
        check_case(c, exp)
        if c["name"] == "huge_scores":
            assert np.abs(exp["scores"]).max() > 1000, "huge case is not huge"
        doc["cases"].append(record(c, exp))
    text = json.dumps(doc, separators=(",", ":"))
    with open(OUT, "w", encoding="ascii") as f:
        f.write(text)
        f.write("\n")
    print("wrote %s: %d cases, %d bytes" % (os.path.normpath(OUT), len(cases), len(text)),
          file=sys.stderr)


if __name__ == "__main__":
    main()
