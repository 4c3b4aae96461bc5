"""first-prev trained in PyTorch, for comparing the program's training figures
(doc/training-figures.md) with an independent implementation.

The model is the program's: x = embedding[tokens] + positions (N(0,1)),
causal multi-head attention with biases (weights uniform in ±1/sqrt(d)),
r = x + attention, one read-out per output, loss = the sum of the two mean
cross-entropies, Adam (lr 0.01), batches of 64 fresh sequences of 8 tokens from
a vocabulary of 16.  Accuracy is measured on 1024 sequences drawn apart from
training.  Runs a fixed number of steps (the program's step limit, 1500), so
it shows what the model can reach rather than when it stops.

    python3 tests/reference/torch_first_prev.py --d-model 16 --heads 1 --seeds 20-40

prints one line a seed and the medians; nothing is written.
"""

import argparse
import math
import statistics

import torch

VOCAB, CONTEXT, BATCH, LR = 16, 8, 64, 0.01


def batch(gen, n):
    tokens = torch.randint(0, VOCAB, (n, CONTEXT), generator=gen)
    first = tokens[:, :1].expand(n, CONTEXT).clone()
    first[:, 0] = -1
    prev = torch.roll(tokens, 1, dims=1)
    prev[:, 0] = -1
    return tokens, first, prev


def train(seed, d, h, steps):
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(1000 + seed)
    dk = d // h
    bound = d ** -0.5

    def uni(*shape):
        return torch.empty(*shape).uniform_(-bound, bound)

    p = {"emb": torch.randn(VOCAB, d), "pos": torch.randn(CONTEXT, d),
         "w_q": uni(d, d), "w_k": uni(d, d), "w_v": uni(d, d), "w_o": uni(d, d),
         "b_q": torch.zeros(d), "b_k": torch.zeros(d), "b_v": torch.zeros(d),
         "b_o": torch.zeros(d),
         "u_first": uni(VOCAB, d), "c_first": torch.zeros(VOCAB),
         "u_prev": uni(VOCAB, d), "c_prev": torch.zeros(VOCAB)}
    for x in p.values():
        x.requires_grad_()
    opt = torch.optim.Adam(p.values(), lr=LR)
    future = torch.triu(torch.ones(CONTEXT, CONTEXT, dtype=torch.bool), diagonal=1)

    def forward(tokens):
        b = tokens.shape[0]
        x = p["emb"][tokens] + p["pos"]

        def heads(y):
            return y.view(b, CONTEXT, h, dk).transpose(1, 2)

        q = heads(x @ p["w_q"].T + p["b_q"])
        k = heads(x @ p["w_k"].T + p["b_k"])
        v = heads(x @ p["w_v"].T + p["b_v"])
        w = ((q @ k.transpose(-1, -2)) / math.sqrt(dk)).masked_fill(future, float("-inf"))
        a = (w.softmax(-1) @ v).transpose(1, 2).reshape(b, CONTEXT, d) @ p["w_o"].T + p["b_o"]
        r = x + a
        return r @ p["u_first"].T + p["c_first"], r @ p["u_prev"].T + p["c_prev"]

    ce = torch.nn.functional.cross_entropy
    for _ in range(steps):
        tokens, first, prev = batch(gen, BATCH)
        lf, lp = forward(tokens)
        loss = (ce(lf.reshape(-1, VOCAB), first.reshape(-1), ignore_index=-1)
                + ce(lp.reshape(-1, VOCAB), prev.reshape(-1), ignore_index=-1))
        opt.zero_grad()
        loss.backward()
        opt.step()

    with torch.no_grad():
        tokens, first, prev = batch(torch.Generator().manual_seed(99), 1024)
        lf, lp = forward(tokens)
        asked = first >= 0
        acc_f = float((lf.argmax(-1) == first)[asked].float().mean())
        acc_p = float((lp.argmax(-1) == prev)[asked].float().mean())
    return acc_f, acc_p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--d-model", type=int, default=8)
    ap.add_argument("--heads", type=int, default=1)
    ap.add_argument("--seeds", default="20-40")
    ap.add_argument("--steps", type=int, default=1500)
    a = ap.parse_args()
    lo, hi = (int(s) for s in a.seeds.split("-"))
    torch.set_num_threads(1)
    firsts, prevs, both = [], [], 0
    for seed in range(lo, hi + 1):
        f, pr = train(seed, a.d_model, a.heads, a.steps)
        firsts.append(f)
        prevs.append(pr)
        both += min(f, pr) >= 0.99
        print(f"seed {seed}: first {f:.3f} prev {pr:.3f}")
    n = hi - lo + 1
    print(f"d_model {a.d_model}, {a.heads} head(s): both >= 0.99 in {both} of {n}; "
          f"median first {statistics.median(firsts):.3f}, prev {statistics.median(prevs):.3f}")


if __name__ == "__main__":
    main()
