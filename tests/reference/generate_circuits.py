#!/usr/bin/python3
"""Reference QK and OV circuits of the training cases' model files, with
numpy in float64 from the circuits' definitions (no code shared with the
engine).  Head h of a model of d_model d and H heads owns rows h*dk..(h+1)*dk
of W_q, W_k, W_v ([out][in]) and the same columns of W_o:

    QK_h[i][j]     = (E_i W_q,h^T + b_q,h) . (E_j W_k,h^T) / s     (V, V)
    QK_pos,h[a][b] = (P_a W_q,h^T) . (P_b W_k,h^T) / s             (T, T)
    OV_h,k[j][o]   = U_k,o . W_o,h W_v,h E_j                       (V, C_k)
    direct_k[j][o] = U_k,o . E_j                                   (V, C_k)

s = sqrt(dk) when the model is scaled.  The readable tops: the 6 largest
QK_h[i][j] minus the mean of row i; the 6 words j whose largest OV[j][o]
minus the row's mean is largest, each with its 3 largest (o, value above the
mean); the position offset a - b of the best key b <= a (every b when not
causal) that wins for the most query positions a >= 1, and how many of those
positions' best key is position 0.  The reading of a head: each QK top's
z-score over its row ((value - mean) / standard deviation, over every key
word), the first OV raise's z over its attended word's row, how many query
words give their own word the highest score (the first of equal maxima), and
per output with a class per word how many attended words raise themselves
most.

Run with Debian's interpreter (python3-numpy), from the repository's top:

    /usr/bin/python3 tests/reference/generate_circuits.py

It reads tests/data/train/<case>.model.json and writes
tests/data/train/circuits.json.  Small vocabularies are stored whole; a
vocabulary past 64 words keeps the first 4 rows of each matrix.
"""

import json
import os

import numpy as np

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "train")
CASES = ["causal_2heads_two_outputs", "plain_1head_unscaled_nobias",
         "causal_4heads_short_three_outputs", "text_next_word_vocab300"]
WHOLE_MAX = 64
TOP, RAISES = 6, 3


def arr(x):
    return np.asarray(x, dtype=np.float64)


def z(row, at):
    sd = row.std()
    return float((row[at] - row.mean()) / sd) if sd > 0 else 0.0


def top_qk(qk):
    centred = qk - qk.mean(axis=1, keepdims=True)
    flat = [(-centred[i, j], i, j) for i in range(qk.shape[0]) for j in range(qk.shape[1])]
    flat.sort()
    return [[i, j, -v, z(qk[i], j)] for v, i, j in flat[:TOP]]


def reading(qk, ovs, V):
    same = sum(int(np.argmax(qk[i])) == i for i in range(V))
    copies = []
    for ov in ovs:
        copies.append(sum(int(np.argmax(ov[j])) == j for j in range(V)) if ov.shape[1] == V
                      else -1)
    raise_z = []
    for ov in ovs:
        j = top_ov(ov)[0][0]
        o = top_ov(ov)[0][1][0][0]
        raise_z.append(z(ov[j], o))
    return {"same": same, "copies": copies, "raise_z": raise_z}


def top_ov(ov):
    centred = ov - ov.mean(axis=1, keepdims=True)
    best = sorted(range(ov.shape[0]), key=lambda j: (-centred[j].max(), j))[:TOP]
    out = []
    for j in best:
        order = sorted(range(ov.shape[1]), key=lambda o: (-centred[j, o], o))[:RAISES]
        out.append([j, [[o, centred[j, o]] for o in order]])
    return out


def offset(pos, causal):
    T = pos.shape[0]
    wins, first = {}, 0
    for a in range(1, T):
        last = a if causal else T - 1
        row = pos[a, :last + 1]
        b = int(np.argmax(row))  # the first of equal maxima
        wins[a - b] = wins.get(a - b, 0) + 1
        first += b == 0
    if not wins:
        return [0, 0, 0, 0]
    best = sorted(wins, key=lambda off: (-wins[off], abs(off), -off))[0]
    return [best, wins[best], T - 1, first]


def rows(m):
    return m.tolist() if m.shape[0] <= WHOLE_MAX and m.shape[1] <= WHOLE_MAX else m[:4].tolist()


def case(name):
    with open(os.path.join(DATA, name + ".model.json")) as f:
        mj = json.load(f)
    d, H = mj["d_model"], mj["num_heads"]
    dk = d // H
    E, P = arr(mj["embedding"]), arr(mj["positions"])
    Wq, Wk, Wv, Wo = (arr(mj[k]) for k in ("w_q", "w_k", "w_v", "w_o"))
    bq = arr(mj["b_q"]) if mj.get("b_q") is not None else np.zeros(d)
    s = np.sqrt(dk) if mj.get("scaled", True) else 1.0
    outs = mj["outputs"]
    heads = []
    for h in range(H):
        sl = slice(h * dk, (h + 1) * dk)
        qk = (E @ Wq[sl].T + bq[sl]) @ (E @ Wk[sl].T).T / s
        pos = (P @ Wq[sl].T) @ (P @ Wk[sl].T).T / s
        writes, ovs = [], []
        for o in outs:
            ov = E @ Wv[sl].T @ Wo[:, sl].T @ arr(o["unembed"]).T
            ovs.append(ov)
            writes.append({"ov": rows(ov), "top": top_ov(ov)})
        heads.append({"qk": rows(qk), "qk_position": pos.tolist(), "top": top_qk(qk),
                      "offset": offset(pos, mj["causal"]), "writes": writes,
                      "reading": reading(qk, ovs, len(mj["vocab"]))})
    direct = []
    for o in outs:
        dr = E @ arr(o["unembed"]).T
        direct.append({"ov": rows(dr), "top": top_ov(dr)})
    return {"name": name, "vocab": len(mj["vocab"]), "heads": heads, "direct": direct}


def main():
    out = {"generator": "tests/reference/generate_circuits.py", "numpy": np.__version__,
           "cases": [case(n) for n in CASES]}
    with open(os.path.join(DATA, "circuits.json"), "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
