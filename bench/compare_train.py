"""The training-step half of bench/compare.py (`compare.py --train`): one step
of the first-prev model in PyTorch beside `mha-bench --train`, one thread each,
at each of a list of sizes (d_model, heads, vocab, context, batch).

PyTorch's step is the same computation as the engine's: x = embedding[tokens]
+ positions, causal multi-head attention with biases (W stored [out][in],
x·Wᵀ + b, scores / sqrt(d_k)), r = x + attention, two outputs (first, prev)
with biases, loss = sum of the two mean cross-entropies over targets != -1,
backward, torch.optim.Adam (0.9, 0.999, 1e-8).  The batch is drawn once and
kept (as mha-bench keeps it), so both sides time the step alone.  Each step is
timed on its own with time.perf_counter; the figure is the median (at the two
largest sizes, the median over rounds in which the sides take turns: COUNTS).
PyTorch is timed twice, each in a process of its own: as installed and with
glibc keeping its large buffers and OpenBLAS on the engine's kernels
(compare.py's fair_env), and a third time with OpenBLAS's AVX-512 kernels
where the processor has them; the ratio is to the fair one.
"""

import json
import math
import os
import statistics
import subprocess
import sys
import time

import torch

# (d_model, heads, vocab, context, batch) -> the most the engine may take, as a
# multiple of the fair PyTorch's step
SIZES = {
    (8, 2, 16, 8, 64): 0.1,
    (16, 4, 16, 8, 64): 0.1,
    (32, 4, 128, 16, 64): 0.3,
    (64, 4, 64, 16, 64): 0.5,
    (128, 4, 128, 16, 64): 0.5,
    (64, 4, 64, 64, 64): 0.5,
    (256, 8, 512, 64, 64): 0.5,  # the largest a model may be (d_model, vocab, context)
}

# Untimed and timed steps a size, each side, and rounds: enough for a steady
# median, few steps where a step takes a tenth of a second (--warmup and
# --repeat give others).  Where a side's process runs for a second or two, a
# busy moment of the machine can take most of it, so the sides there take
# turns, round after round, and each side's figure is its median over the
# rounds.
COUNTS = {(64, 4, 64, 64, 64): (10, 200, 3), (256, 8, 512, 64, 64): (3, 20, 5)}
COUNTS_DEFAULT = (100, 2000, 1)


def median_step_ms(step, warmup, repeat):
    """The median ms of step() over repeat calls, each timed on its own with
    time.perf_counter, after warmup untimed ones."""
    times = []
    for i in range(warmup + repeat):
        start = time.perf_counter()
        step()
        if i >= warmup:
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def time_torch_step(size, warmup, repeat):
    torch.manual_seed(0)
    d, h, v, t, b = size
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

    return median_step_ms(step, warmup, repeat)


# The induction lesson's model, (d_model, heads, vocab, context, batch), timed
# at each number of layers; the goal (a multiple of the fair PyTorch's step
# with nn.MultiheadAttention) is the two-layer one's.
LAYER_SIZE = (32, 2, 24, 16, 64)
LAYER_GOALS = {1: None, 2: 0.3, 3: None, 4: None}
LAYER_COUNTS = (50, 1000, 3)


def time_torch_layers(size, layers, module, warmup, repeat):
    """Median ms of one step of the induction model in PyTorch: x = embedding
    + positions, then layers times x = x + MHA(x) (causal, biases), one
    read-out, the mean cross-entropy over targets != -1 (the second copy of
    a repeated stretch: about half the positions), backward, Adam.  With
    module, each layer is an nn.MultiheadAttention (need_weights=False, its
    fastest path); else the same computation written out as the engine's."""
    torch.manual_seed(0)
    d, h, v, t, b = size
    dk = d // h
    bound = d ** -0.5
    emb, pos = torch.randn(v, d), torch.randn(t, d)
    u, c = torch.empty(v, d).uniform_(-bound, bound), torch.zeros(v)
    params = [emb, pos, u, c]
    mods, layer_w = [], []
    for _ in range(layers):
        if module:
            m = torch.nn.MultiheadAttention(d, h, bias=True, batch_first=True)
            mods.append(m)
            params += list(m.parameters())
        else:
            w = {n: torch.empty(d, d).uniform_(-bound, bound) for n in ("q", "k", "v", "o")}
            w.update({"b" + n: torch.zeros(d) for n in ("q", "k", "v", "o")})
            layer_w.append(w)
            params += list(w.values())
    for x in params:
        x.requires_grad_()
    opt = torch.optim.Adam(params, lr=0.005, betas=(0.9, 0.999), eps=1e-8)
    future = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
    tokens = torch.randint(0, v, (b, t))
    targets = torch.randint(0, v, (b, t))
    targets[:, : t // 2] = -1

    def attend(x, w):
        def heads(y):
            return y.view(b, t, h, dk).transpose(1, 2)
        q = heads(x @ w["q"].T + w["bq"])
        k = heads(x @ w["k"].T + w["bk"])
        val = heads(x @ w["v"].T + w["bv"])
        s = (q @ k.transpose(-1, -2)) / math.sqrt(dk)
        a = s.masked_fill(future, float("-inf")).softmax(-1)
        return (a @ val).transpose(1, 2).reshape(b, t, d) @ w["o"].T + w["bo"]

    def step():
        x = emb[tokens] + pos[:t]
        for i in range(layers):
            if module:
                x = x + mods[i](x, x, x, attn_mask=future, need_weights=False)[0]
            else:
                x = x + attend(x, layer_w[i])
        loss = torch.nn.functional.cross_entropy((x @ u.T + c).view(-1, v), targets.view(-1),
                                                 ignore_index=-1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return float(loss)

    return median_step_ms(step, warmup, repeat)


def time_torch_layers_apart(size, layers, module, warmup, repeat, fair):
    """time_torch_layers in a process of its own (fair as in compare.run_apart)."""
    from compare import run_apart  # noqa: E402
    cmd = [sys.executable, os.path.abspath(__file__), "--layer-worker",
           ",".join(map(str, size)), str(layers), "module" if module else "plain", str(warmup),
           str(repeat)]
    return float(run_apart(cmd, fair, f"{layers}-layer step at {size}"))


def time_torch_apart(size, warmup, repeat, fair):
    """time_torch_step in a process of its own (fair as in compare.run_apart)."""
    from compare import run_apart  # noqa: E402
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", ",".join(map(str, size)),
           str(warmup), str(repeat)]
    return float(run_apart(cmd, fair, f"step at {size}"))


def run_bench_train(exe, size, backend, warmup, repeat, layers=None):
    d, h, v, t, b = size
    cmd = [exe, "--train", "--backend", backend, "--warmup", str(warmup),
           "--repeat", str(repeat), "--d-model", str(d), "--heads", str(h), "--vocab", str(v),
           "--context", str(t), "--batch", str(b)]
    if layers is not None:
        cmd += ["--task", "induction", "--layers", str(layers)]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    if proc.returncode != 0:
        sys.exit(f"compare.py: {' '.join(cmd)} failed (status {proc.returncode}):\n"
                 f"{proc.stderr.strip()}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def step_flop(size):
    """Floating-point operations of one training step's products, the first-prev
    model: forward, the four attention projections (2·R·d² each, R = batch ·
    context rows), the two read-outs (2·R·d·vocab each) and, over the heads,
    scores and context (2·B·T²·d each); the backward pass twice the forward's."""
    d, _, v, t, b = size
    rows = b * t
    return 3 * (8 * rows * d * d + 4 * rows * d * v + 4 * b * t * t * d)


def layer_step_flop(size, layers):
    """Floating-point operations of one step of the induction model's
    products: per layer the four projections and the heads' scores and
    context, one read-out; the backward pass twice the forward's."""
    d, _, v, t, b = size
    rows = b * t
    return 3 * (layers * (8 * rows * d * d + 4 * b * t * t * d) + 2 * rows * d * v)


def compare_layers(exe, as_json, warmup=None, repeat=None):
    """The induction model's step at 1 to 4 layers: mha-bench --train --task
    induction --layers N beside PyTorch, written out and with
    nn.MultiheadAttention, fair (compare.fair_env), the sides taking turns."""
    from compare import fair_env, measure_peak, measure_roofs, peak_line, pct_of_roof  # noqa
    _, core, _ = measure_roofs(exe)
    top = measure_peak(exe)
    warmup = LAYER_COUNTS[0] if warmup is None else warmup
    repeat = LAYER_COUNTS[1] if repeat is None else repeat
    rows = []
    for layers in LAYER_GOALS:
        print(f"{layers}-layer step {LAYER_SIZE}: {warmup} warm-up + {repeat} timed steps "
              f"each, {LAYER_COUNTS[2]} rounds ...", file=sys.stderr)
        runs = {"engine": [], "plain": [], "module": []}
        for _ in range(LAYER_COUNTS[2]):
            runs["engine"].append(run_bench_train(exe, LAYER_SIZE, "cblas", warmup, repeat,
                                                  layers)["step_ms_median"])
            runs["plain"].append(time_torch_layers_apart(LAYER_SIZE, layers, False, warmup,
                                                         repeat, fair_env(core)))
            runs["module"].append(time_torch_layers_apart(LAYER_SIZE, layers, True, warmup,
                                                          repeat, fair_env(core)))
        ms = {k: statistics.median(x) for k, x in runs.items()}
        fastest = min(ms["plain"], ms["module"])
        goal = LAYER_GOALS[layers]
        rows.append({"layers": layers, "engine_ms": ms["engine"], "torch_ms": ms["plain"],
                     "torch_module_ms": ms["module"], "ratio": ms["engine"] / fastest,
                     "ratio_module": ms["engine"] / ms["module"], "goal": goal,
                     "met": None if goal is None else ms["engine"] / ms["module"] <= goal,
                     "steps_per_s": 1e3 / ms["engine"]})
    if as_json:
        print(json.dumps({"torch": torch.__version__, "size": LAYER_SIZE, "peak_gflops": top,
                          "layers": rows}, indent=2))
        return
    d, h, v, t, b = LAYER_SIZE
    print(f"The induction model (d_model {d}, {h} heads, vocabulary {v}, context {t}, batch "
          f"{b}): median ms of one training step, one thread each, PyTorch {torch.__version__} "
          "fair.")
    print(peak_line(top) + "\n")
    print("| layers | PyTorch ms (written out) | PyTorch ms (nn.MultiheadAttention) "
          "| mha-explorer ms | steps/s | ratio to nn.MultiheadAttention | goal | met "
          "| ratio to PyTorch's faster | PyTorch's faster, % of peak | mha-explorer, % of peak |")
    print("|---:|---:|---:|---:|---:|---:|---|:---:|---:|---:|---:|")
    for r in rows:
        flop = layer_step_flop(LAYER_SIZE, r["layers"])
        goal = "—" if r["goal"] is None else f"≤ {r['goal']}×"
        met = {None: "—", True: "yes", False: "no"}[r["met"]]
        print(f"| {r['layers']} | {r['torch_ms']:.3f} | {r['torch_module_ms']:.3f} "
              f"| {r['engine_ms']:.3f} | {r['steps_per_s']:.0f} | {r['ratio_module']:.3f} "
              f"| {goal} | {met} | {r['ratio']:.3f} "
              f"| {pct_of_roof(flop, min(r['torch_ms'], r['torch_module_ms']), top)} "
              f"| {pct_of_roof(flop, r['engine_ms'], top)} |")


def compare_train(exe, as_json, warmup=None, repeat=None, sizes=None):
    from compare import (avx512_env, fair_env, fmt_ratio, measure_peak,  # noqa: E402
                         measure_roofs, pct_of_roof, peak_line, roof_line)
    warmup_asked, repeat_asked = warmup, repeat
    roof, core, wide_roof = measure_roofs(exe)
    top = measure_peak(exe)
    rows = []
    for size in sizes or list(SIZES):
        counts = COUNTS.get(size, COUNTS_DEFAULT)
        warmup = counts[0] if warmup_asked is None else warmup_asked
        repeat = counts[1] if repeat_asked is None else repeat_asked
        rounds = counts[2]
        print(f"training step {size}: {warmup} warm-up + {repeat} timed steps each"
              + (f", {rounds} rounds" if rounds > 1 else "") + " ...", file=sys.stderr)
        wide = avx512_env(core)
        runs = {"cblas": [], "plain": [], "default": [], "fair": [], "avx512": []}
        for _ in range(rounds):  # each side in turn, every round
            runs["cblas"].append(run_bench_train(exe, size, "cblas", warmup,
                                                 repeat)["step_ms_median"])
            runs["plain"].append(run_bench_train(exe, size, "plain", warmup,
                                                 repeat)["step_ms_median"])
            runs["default"].append(time_torch_apart(size, warmup, repeat, None))
            runs["fair"].append(time_torch_apart(size, warmup, repeat, fair_env(core)))
            if wide is not None:
                runs["avx512"].append(time_torch_apart(size, warmup, repeat, wide))
        cblas_ms, plain_ms, default_ms, torch_ms = (
            statistics.median(runs[k]) for k in ("cblas", "plain", "default", "fair"))
        avx512_ms = statistics.median(runs["avx512"]) if runs["avx512"] else None
        goal = SIZES.get(size)
        ratio = cblas_ms / torch_ms
        d, h, v, t, b = size
        rows.append({"d_model": d, "heads": h, "vocab": v, "context": t, "batch": b,
                     "warmup": warmup, "repeat": repeat, "rounds": rounds,
                     "torch_default_ms": default_ms, "torch_ms": torch_ms,
                     "torch_avx512_ms": avx512_ms,
                     "ratio_avx512": cblas_ms / avx512_ms if avx512_ms else None,
                     "cblas_ms": cblas_ms, "plain_ms": plain_ms,
                     "ratio": ratio, "goal": goal,
                     "met": None if goal is None else ratio <= goal})
    if as_json:
        print(json.dumps({"torch": torch.__version__, "threads": 1, "roof_gflops": roof,
                          "openblas_core": core, "avx512_roof_gflops": wide_roof,
                          "peak_gflops": top, "train": rows}, indent=2))
        return
    print(f"PyTorch {torch.__version__} and mha-bench --train, one thread each; "
          "median ms of one training step (forward, loss, backward, Adam).")
    print(roof_line(roof, core, wide_roof))
    print(peak_line(top) + "\n")
    print("| step (d_model, heads, vocab, context, batch) | PyTorch ms (as installed) "
          "| PyTorch ms (fair) | PyTorch ms (fair, AVX-512 OpenBLAS) | mha-bench ms (cblas) "
          "| mha-bench ms (plain) | ratio to fair | goal | met "
          "| ratio to fair, AVX-512 OpenBLAS | PyTorch fair, % of peak | mha-bench, % of peak |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|:---:|---:|---:|---:|")
    for r in rows:
        goal = "—" if r["goal"] is None else f"≤ {r['goal']}×"
        met = {None: "—", True: "yes", False: "no"}[r["met"]]
        size = (r["d_model"], r["heads"], r["vocab"], r["context"], r["batch"])
        flop = step_flop(size)
        avx512 = "n/a" if r["torch_avx512_ms"] is None else f"{r['torch_avx512_ms']:.4f}"
        print(f"| ({r['d_model']}, {r['heads']}, {r['vocab']}, {r['context']}, {r['batch']}) "
              f"| {r['torch_default_ms']:.4f} | {r['torch_ms']:.4f} "
              f"| {avx512} "
              f"| {r['cblas_ms']:.4f} "
              f"| {r['plain_ms']:.4f} | {r['ratio']:.3f} | {goal} | {met} "
              f"| {fmt_ratio(r['ratio_avx512'])} "
              f"| {pct_of_roof(flop, r['torch_ms'], top)} "
              f"| {pct_of_roof(flop, r['cblas_ms'], top)} |")


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "--layer-worker":  # one layered timing
        torch.set_num_threads(1)
        print(time_torch_layers(tuple(int(x) for x in sys.argv[2].split(",")), int(sys.argv[3]),
                                sys.argv[4] == "module", int(sys.argv[5]), int(sys.argv[6])))
        sys.exit(0)
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":  # one PyTorch timing
        torch.set_num_threads(1)
        print(time_torch_step(tuple(int(x) for x in sys.argv[2].split(",")), int(sys.argv[3]),
                              int(sys.argv[4])))
