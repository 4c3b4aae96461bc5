#!/usr/bin/python3
"""Build assets/examples/cat-sat.json: two heads that want different things.

Sentence: "The cat sat on the mat because it was soft" (10 tokens), self-attention
(only "query" is written, so key = value = query), d_model 8, 2 heads, d_k 4.

  head 0: "sat" attends to "cat" and "cat" attends to "sat"   (who did what)
  head 1: "it" attends to "mat", and so does "soft"           (what "it" means)

The embeddings are fixed random numbers (with "The" and "the" close to each
other, as two spellings of one word would be).  W_v and W_o are plain random
numbers.  Only W_q and W_k are designed: for each head, its 4 rows of W_q and
of W_k are fitted by gradient descent (numpy, Adam) so that the head's softmax
rows match a target pattern.  Rows the pattern says nothing about are pulled
gently towards an even spread, so the designed links stand out.

Everything is rounded to 4 decimals before the check, and the check uses the
rounded numbers, so what the file says is what the explorer shows.

Run:  /usr/bin/python3 assets/examples/make_cat_sat.py
Then: ./build/src/mha-explorer --load assets/examples/cat-sat.json \
          --dump attention --format json
"""
import numpy as np

from example_json import r4, softmax, write_example

TOKENS = ["The", "cat", "sat", "on", "the", "mat", "because", "it", "was", "soft"]
D_MODEL = 8
HEADS = 2
D_K = D_MODEL // HEADS
IDX = {t: i for i, t in enumerate(TOKENS)}  # "The" and "the" are different labels

# (head, query row, key col, target weight) for the links the heads should make.
LINKS = [
    (0, "sat", "cat", 0.80),
    (0, "cat", "sat", 0.80),
    (1, "it", "mat", 0.85),
    (1, "soft", "mat", 0.65),
]
OTHER_ROW_WEIGHT = 0.15  # how hard other rows are pulled towards an even spread
L2 = 1e-3                # keeps the weights small and readable
STEPS = 6000
LR = 0.02




def targets():
    """Per head: target rows (L, L) and per-row loss weights (L,)."""
    L = len(TOKENS)
    T = np.full((HEADS, L, L), 1.0 / L)
    w = np.full((HEADS, L), OTHER_ROW_WEIGHT)
    for h, row, col, p in LINKS:
        i, j = IDX[row], IDX[col]
        T[h, i, :] = (1.0 - p) / (L - 1)
        T[h, i, j] = p
        w[h, i] = 1.0
    return T, w


def fit_head(X, T, w, rng):
    """Fit A (d_k, d) and B (d_k, d) so softmax((X A^T)(X B^T)^T / sqrt(d_k)) ~ T."""
    A = rng.uniform(-0.5, 0.5, (D_K, D_MODEL))
    B = rng.uniform(-0.5, 0.5, (D_K, D_MODEL))
    s = np.sqrt(D_K)
    m = [np.zeros_like(A), np.zeros_like(B)]
    v = [np.zeros_like(A), np.zeros_like(B)]
    b1, b2, eps = 0.9, 0.999, 1e-8
    for t in range(1, STEPS + 1):
        Q, K = X @ A.T, X @ B.T
        P = softmax(Q @ K.T / s)
        dS = w[:, None] * (P - T) / s       # d(cross-entropy)/d(scores)
        dQ, dK = dS @ K, dS.T @ Q
        grads = [dQ.T @ X + 2 * L2 * A, dK.T @ X + 2 * L2 * B]
        for k, (p, g) in enumerate(zip((A, B), grads)):
            m[k] = b1 * m[k] + (1 - b1) * g
            v[k] = b2 * v[k] + (1 - b2) * g * g
            mh, vh = m[k] / (1 - b1 ** t), v[k] / (1 - b2 ** t)
            p -= LR * mh / (np.sqrt(vh) + eps)
    return A, B


def attention(X, Wq, Wk):
    """The engine's computation (no biases): weights per head, (H, L, L)."""
    Q, K = X @ Wq.T, X @ Wk.T
    out = []
    for h in range(HEADS):
        sl = slice(h * D_K, (h + 1) * D_K)
        out.append(softmax(Q[:, sl] @ K[:, sl].T / np.sqrt(D_K)))
    return np.stack(out)


def main():
    rng = np.random.default_rng(20240607)
    X = rng.uniform(-1.5, 1.5, (len(TOKENS), D_MODEL))
    X[IDX["the"]] = X[IDX["The"]] + rng.uniform(-0.2, 0.2, D_MODEL)  # two spellings, one word
    X = r4(X)

    T, w = targets()
    Wq = np.zeros((D_MODEL, D_MODEL))
    Wk = np.zeros((D_MODEL, D_MODEL))
    for h in range(HEADS):
        A, B = fit_head(X, T[h], w[h], rng)
        Wq[h * D_K:(h + 1) * D_K] = A
        Wk[h * D_K:(h + 1) * D_K] = B
    Wq, Wk = r4(Wq), r4(Wk)
    Wv = r4(rng.uniform(-1, 1, (D_MODEL, D_MODEL)))
    Wo = r4(rng.uniform(-1, 1, (D_MODEL, D_MODEL)))

    W = attention(X, Wq, Wk)
    for h, row, col, _ in LINKS:
        r = W[h, IDX[row]]
        order = np.argsort(r)[::-1]
        print(f"head {h}  row {row:5s} -> {TOKENS[order[0]]:5s} {r[order[0]]:.4f}"
              f"  (next: {TOKENS[order[1]]} {r[order[1]]:.4f})")
        assert TOKENS[order[0]] == col and r[order[0]] > 0.5 and r[order[1]] < 0.25

    doc = {
        "description": (
            "The cat sat on the mat because it was soft: self-attention, d_model 8, 2 heads "
            "of d_k 4. W_q and W_k were fitted so that head 0 links sat and cat (each attends "
            "most to the other) and head 1 links it (and soft) to mat. The embeddings, W_v and "
            "W_o are plain random numbers. Rebuild with assets/examples/make_cat_sat.py."),
        "tokens": TOKENS,
        "d_model": D_MODEL,
        "num_heads": HEADS,
        "causal": False,
        "scaled": True,
        "query": X.tolist(),
        "w_q": Wq.tolist(),
        "w_k": Wk.tolist(),
        "w_v": Wv.tolist(),
        "w_o": Wo.tolist(),
    }
    write_example(doc, "cat-sat.json")


if __name__ == "__main__":
    main()
