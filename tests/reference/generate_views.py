#!/usr/bin/python3
"""Reference numbers for the views (heads analysis, cost), computed with
numpy on its own: no code shared with the engine.

    /usr/bin/python3 tests/reference/generate_views.py

writes tests/data/views_cases.json.  For each case it stores the weights
W_q and W_k ([out][in], d_model x d_model) and the head count, and expects:

  * sv[h]: singular values of A_h = W_q,h^T W_k,h (W_q,h: the d_k rows of
    W_q that belong to head h), largest first, from numpy.linalg.svd of the
    full d_model x d_model matrix, cut to the first d_k (A_h has rank <= d_k);
  * rank[h] = exp(entropy of sv[h] / sum(sv[h])), terms with p <= 1e-10 left out;
  * similarity[i][j]: cosine of A_i and A_j flattened (Frobenius).

Cost cases restate the counting formulas for a few sizes with Python integers.
"""

import json
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                   "views_cases.json")


def head_analysis(w_q, w_k, heads):
    d = w_q.shape[0]
    dk = d // heads
    mats = []
    for h in range(heads):
        wq = w_q[h * dk:(h + 1) * dk, :].astype(np.float64)
        wk = w_k[h * dk:(h + 1) * dk, :].astype(np.float64)
        mats.append(wq.T @ wk)
    sv, rank = [], []
    for a in mats:
        s = np.linalg.svd(a, compute_uv=False)[:dk]
        sv.append(s.tolist())
        p = s / s.sum()
        p = p[p > 1e-10]
        rank.append(float(np.exp(-(p * np.log(p)).sum())))
    sim = np.zeros((heads, heads))
    for i in range(heads):
        for j in range(heads):
            ai, aj = mats[i].ravel(), mats[j].ravel()
            sim[i, j] = ai @ aj / (np.linalg.norm(ai) * np.linalg.norm(aj))
    return sv, rank, sim.tolist()


def main():
    rng = np.random.default_rng(2024)
    cases = []
    for name, d, heads, kind in [("random_6_2", 6, 2, "random"),
                                 ("random_12_3", 12, 3, "random"),
                                 ("random_32_4", 32, 4, "random"),
                                 ("low_rank_8_2", 8, 2, "low_rank"),
                                 ("shared_8_2", 8, 2, "shared"),
                                 ("one_head_5", 5, 1, "random")]:
        w_q = rng.uniform(-1, 1, (d, d)).astype(np.float32)
        w_k = rng.uniform(-1, 1, (d, d)).astype(np.float32)
        dk = d // heads
        if kind == "low_rank":
            # head 0 scores along one direction only: rank-1 rows
            u = rng.uniform(-1, 1, d).astype(np.float32)
            for r in range(dk):
                w_q[r, :] = u * (r + 1)
        if kind == "shared":
            # both heads use the same projections: similarity 1
            w_q[dk:, :] = w_q[:dk, :]
            w_k[dk:, :] = w_k[:dk, :]
        sv, rank, sim = head_analysis(w_q, w_k, heads)
        cases.append({"name": name, "d_model": d, "heads": heads,
                      "w_q": w_q.tolist(), "w_k": w_k.tolist(),
                      "sv": sv, "rank": rank, "similarity": sim})
    cost = []
    for lq, lk, d, h, bias in [(4, 4, 6, 2, False), (10, 10, 512, 8, True),
                               (1024, 1024, 768, 12, True), (3, 7, 12, 3, False)]:
        dk = d // h
        cost.append({"seq_q": lq, "seq_k": lk, "d_model": d, "heads": h, "bias": bias,
                     "params_weights": 4 * d * d, "params_bias": 4 * d if bias else 0,
                     "macs_projection": (lq + 2 * lk) * d * d,
                     "macs_scores": h * lq * lk * dk,
                     "macs_context": h * lq * lk * dk,
                     "macs_output": lq * d * d,
                     "exps_softmax": h * lq * lk})
    with open(OUT, "w") as f:
        json.dump({"heads": cases, "cost": cost}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
