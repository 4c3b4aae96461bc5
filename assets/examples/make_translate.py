#!/usr/bin/python3
"""Build assets/examples/translate.json: cross-attention with an alignment.

Queries come from the French "le chat noir", keys and values from the English
"the black cat" (key = value; both are written to the file).  d_model 8,
2 heads of d_k 4.

  head 0 aligns by meaning:     le -> the,  chat -> cat,    noir -> black
  head 1 follows word order:   le -> the,  chat -> black,  noir -> cat

French puts the adjective after the noun and English before it, so the two
heads agree on the first word and cross over on the other two.  Head 1 shows
the pattern a head that matched places would give, but it gets there from
the words alone: the example has no positional information, so its fitted
W_q and W_k tie "chat" to "black" and "noir" to "cat" wherever they stand.

The embeddings, W_v and W_o are fixed random numbers; W_q and W_k are fitted
per head with numpy (Adam) so each head's softmax rows match its target.
Everything is rounded to 4 decimals and checked with the rounded numbers.

Run:  /usr/bin/python3 assets/examples/make_translate.py
Then: ./build/src/mha-explorer --load assets/examples/translate.json \
          --dump attention --format text
"""
import numpy as np

from example_json import r4, softmax, write_example

Q_TOKENS = ["le", "chat", "noir"]
K_TOKENS = ["the", "black", "cat"]
D_MODEL = 8
HEADS = 2
D_K = D_MODEL // HEADS
ALIGN = [  # per head: query token -> key token
    {"le": "the", "chat": "cat", "noir": "black"},
    {"le": "the", "chat": "black", "noir": "cat"},
]
TARGET = 0.85  # weight the aligned key should get
L2 = 1e-3
STEPS = 6000
LR = 0.02




def fit_head(Xq, Xk, T, rng):
    A = rng.uniform(-0.5, 0.5, (D_K, D_MODEL))
    B = rng.uniform(-0.5, 0.5, (D_K, D_MODEL))
    s = np.sqrt(D_K)
    m = [np.zeros_like(A), np.zeros_like(B)]
    v = [np.zeros_like(A), np.zeros_like(B)]
    b1, b2, eps = 0.9, 0.999, 1e-8
    for t in range(1, STEPS + 1):
        Q, K = Xq @ A.T, Xk @ B.T
        P = softmax(Q @ K.T / s)
        dS = (P - T) / s
        dQ, dK = dS @ K, dS.T @ Q
        grads = [dQ.T @ Xq + 2 * L2 * A, dK.T @ Xk + 2 * L2 * B]
        for k, (p, g) in enumerate(zip((A, B), grads)):
            m[k] = b1 * m[k] + (1 - b1) * g
            v[k] = b2 * v[k] + (1 - b2) * g * g
            mh, vh = m[k] / (1 - b1 ** t), v[k] / (1 - b2 ** t)
            p -= LR * mh / (np.sqrt(vh) + eps)
    return A, B


def main():
    rng = np.random.default_rng(7)
    Xq = r4(rng.uniform(-1.5, 1.5, (len(Q_TOKENS), D_MODEL)))
    Xk = r4(rng.uniform(-1.5, 1.5, (len(K_TOKENS), D_MODEL)))
    Wq = np.zeros((D_MODEL, D_MODEL))
    Wk = np.zeros((D_MODEL, D_MODEL))
    lq, lk = len(Q_TOKENS), len(K_TOKENS)
    for h in range(HEADS):
        T = np.full((lq, lk), (1 - TARGET) / (lk - 1))
        for q, k in ALIGN[h].items():
            T[Q_TOKENS.index(q), K_TOKENS.index(k)] = TARGET
        A, B = fit_head(Xq, Xk, T, rng)
        Wq[h * D_K:(h + 1) * D_K] = A
        Wk[h * D_K:(h + 1) * D_K] = B
    Wq, Wk = r4(Wq), r4(Wk)
    Wv = r4(rng.uniform(-1, 1, (D_MODEL, D_MODEL)))
    Wo = r4(rng.uniform(-1, 1, (D_MODEL, D_MODEL)))

    Q, K = Xq @ Wq.T, Xk @ Wk.T
    for h in range(HEADS):
        sl = slice(h * D_K, (h + 1) * D_K)
        W = softmax(Q[:, sl] @ K[:, sl].T / np.sqrt(D_K))
        for i, q in enumerate(Q_TOKENS):
            j = int(np.argmax(W[i]))
            second = np.sort(W[i])[-2]
            print(f"head {h}  row {q:4s} -> {K_TOKENS[j]:5s} {W[i, j]:.4f}  (next {second:.4f})")
            assert K_TOKENS[j] == ALIGN[h][q] and W[i, j] > 0.6 and second < 0.25

    doc = {
        "description": (
            "Cross-attention: queries from the French 'le chat noir' look at keys and values "
            "from the English 'the black cat'. d_model 8, 2 heads of d_k 4. Head 0 aligns by "
            "meaning (chat -> cat, noir -> black). Head 1 was fitted to the pattern of word "
            "order (chat -> black, noir -> cat) from the words alone: there is no positional "
            "information, so it ties those words together wherever they stand. Rebuild with "
            "assets/examples/make_translate.py."),
        "tokens": Q_TOKENS,
        "key_tokens": K_TOKENS,
        "d_model": D_MODEL,
        "num_heads": HEADS,
        "causal": False,
        "scaled": True,
        "query": Xq.tolist(),
        "key": Xk.tolist(),
        "value": Xk.tolist(),
        "w_q": Wq.tolist(),
        "w_k": Wk.tolist(),
        "w_v": Wv.tolist(),
        "w_o": Wo.tolist(),
    }
    write_example(doc, "translate.json")


if __name__ == "__main__":
    main()
