"""The training-step half of bench/compare.py (`compare.py --train`): one step
of the first-prev model in PyTorch beside `mha-bench --train`, one thread each.

PyTorch's step is the same computation as the engine's: x = embedding[tokens]
+ positions, causal multi-head attention with biases (W stored [out][in],
x·Wᵀ + b, scores / sqrt(d_k)), r = x + attention, two outputs (first, prev)
with biases, loss = sum of the two mean cross-entropies over targets != -1,
backward, torch.optim.Adam (0.9, 0.999, 1e-8).  The batch is drawn once and
kept (as mha-bench keeps it), so both sides time the step alone.  Each step is
timed on its own with time.perf_counter; the figure is the median.
"""

import json
import math
import os
import statistics
import subprocess
import sys
import time

import torch

D_MODEL, HEADS, VOCAB, CONTEXT, BATCH = 8, 2, 16, 8, 64
GOAL, TARGET = 0.1, 0.03


def time_torch_step(warmup, repeat):
    torch.manual_seed(0)
    d, h, v, t, b = D_MODEL, HEADS, VOCAB, CONTEXT, BATCH
    dk = d // h
    p = {
        "emb": torch.randn(v, d), "pos": torch.randn(t, d),
        "w_q": torch.empty(d, d).uniform_(-d ** -0.5, d ** -0.5),
        "w_k": torch.empty(d, d).uniform_(-d ** -0.5, d ** -0.5),
        "w_v": torch.empty(d, d).uniform_(-d ** -0.5, d ** -0.5),
        "w_o": torch.empty(d, d).uniform_(-d ** -0.5, d ** -0.5),
        "b_q": torch.zeros(d), "b_k": torch.zeros(d), "b_v": torch.zeros(d),
        "b_o": torch.zeros(d),
        "u_first": torch.empty(v, d).uniform_(-d ** -0.5, d ** -0.5), "c_first": torch.zeros(v),
        "u_prev": torch.empty(v, d).uniform_(-d ** -0.5, d ** -0.5), "c_prev": torch.zeros(v),
    }
    for x in p.values():
        x.requires_grad_()
    opt = torch.optim.Adam(p.values(), lr=0.01, betas=(0.9, 0.999), eps=1e-8)
    future = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
    tokens = torch.randint(0, v, (b, t))
    first = tokens[:, :1].expand(b, t).clone()
    first[:, 0] = -1
    prev = torch.roll(tokens, 1, dims=1)
    prev[:, 0] = -1

    def step():
        x = p["emb"][tokens] + p["pos"][:t]

        def heads(y):
            return y.view(b, t, h, dk).transpose(1, 2)

        q = heads(x @ p["w_q"].T + p["b_q"])
        k = heads(x @ p["w_k"].T + p["b_k"])
        val = heads(x @ p["w_v"].T + p["b_v"])
        s = (q @ k.transpose(-1, -2)) / math.sqrt(dk)
        w = s.masked_fill(future, float("-inf")).softmax(-1)
        a = (w @ val).transpose(1, 2).reshape(b, t, d) @ p["w_o"].T + p["b_o"]
        r = x + a
        loss = (torch.nn.functional.cross_entropy((r @ p["u_first"].T + p["c_first"]).view(-1, v),
                                                  first.view(-1), ignore_index=-1)
                + torch.nn.functional.cross_entropy((r @ p["u_prev"].T + p["c_prev"]).view(-1, v),
                                                    prev.view(-1), ignore_index=-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return float(loss)

    times = []
    for i in range(warmup + repeat):
        start = time.perf_counter()
        step()
        elapsed = time.perf_counter() - start
        if i >= warmup:
            times.append(elapsed * 1e3)
    return statistics.median(times)


def run_bench_train(exe, backend, warmup, repeat):
    cmd = [exe, "--train", "--backend", backend, "--warmup", str(warmup),
           "--repeat", str(repeat)]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    if proc.returncode != 0:
        sys.exit(f"compare.py: {' '.join(cmd)} failed (status {proc.returncode}):\n"
                 f"{proc.stderr.strip()}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def compare_train(exe, as_json, warmup=100, repeat=2000):
    print(f"training step: {warmup} warm-up + {repeat} timed steps each ...", file=sys.stderr)
    cblas = run_bench_train(exe, "cblas", warmup, repeat)
    plain = run_bench_train(exe, "plain", warmup, repeat)
    torch_ms = time_torch_step(warmup, repeat)
    best = min(cblas["step_ms_median"], plain["step_ms_median"])
    row = {"d_model": D_MODEL, "heads": HEADS, "vocab": VOCAB, "context": CONTEXT,
           "batch": BATCH, "torch_ms": torch_ms, "cblas_ms": cblas["step_ms_median"],
           "plain_ms": plain["step_ms_median"], "backend_used": cblas["backend"],
           "ratio": best / torch_ms, "goal": GOAL, "target": TARGET,
           "met": best / torch_ms <= GOAL}
    if as_json:
        print(json.dumps({"torch": torch.__version__, "threads": 1, "train": row}, indent=2))
        return
    print(f"PyTorch {torch.__version__} and mha-bench --train, one thread each; "
          "median ms of one training step (forward, loss, backward, Adam).\n")
    print("| step (d_model, heads, vocab, context, batch) | PyTorch ms | mha-bench ms (cblas) "
          "| mha-bench ms (plain) | ratio best/PyTorch | goal | met |")
    print("|---|---:|---:|---:|---:|---:|:---:|")
    print(f"| ({D_MODEL}, {HEADS}, {VOCAB}, {CONTEXT}, {BATCH}) | {torch_ms:.4f} "
          f"| {row['cblas_ms']:.4f} | {row['plain_ms']:.4f} | {row['ratio']:.3f} "
          f"| ≤ {GOAL}× (target {TARGET}×) | {'yes' if row['met'] else 'no'} |")
