#!/usr/bin/python3
"""Time mha-bench against torch.nn.MultiheadAttention, both on one thread.

Run with Debian's interpreter, which has python3-torch and python3-numpy:

    /usr/bin/python3 bench/compare.py [build/bench/mha-bench] [--json]

For each size (seq, d_model, heads) PyTorch gets the very numbers the engine
generates (mulberry32, seed 42, re-drawn here in numpy: inputs in ±2, weights
in ±1/sqrt(d_model), or ±1 for the page's example), runs with
need_weights=True and average_attn_weights=False (it returns the per-head
attention maps, as the engine keeps them) under torch.no_grad(), and every call
is timed on its own with time.perf_counter.  PyTorch is timed twice, each in a
process of its own: as installed, and "fair", with glibc told to keep its
large buffers (MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_ and
MALLOC_TOP_PAD_ raised: by default a machine like ours makes PyTorch fault in
its large temporaries on every call) and OpenBLAS told to use the kernels the
engine's OpenBLAS chose (OPENBLAS_CORETYPE: OpenBLAS 0.3.21 gives AMD's
AVX-512 processors its AVX2 kernels, and the engine asks for the AVX-512 ones
there, see src/engine/mat_blas.c).  Where the processor has AVX-512 and the
engine's OpenBLAS runs other kernels, PyTorch is timed a third time, fair and
with OpenBLAS's AVX-512 kernels, since the engine's own loops use AVX-512
there.  mha-bench runs as a separate process
with OPENBLAS_NUM_THREADS=1, once with the CBLAS backend and once with the
plain loops, with the same warm-up and repeat counts.  The output's sum must
agree with PyTorch's to float rounding, or the script stops: both sides
computed the same thing or nothing is reported.  The figures are medians of
the per-call times; the ratio and the goal are against the fair PyTorch.  Every
process runs on the same processor (--cpu, by default the first this script may
use): on a shared machine one core can be slower than the other for a while, and
a comparison across two cores measures the cores.  The
roof is OpenBLAS's sgemm alone on this core with those kernels (`mha-bench
--sgemm 1024`, one thread), or with its AVX-512 kernels where those are faster;
the peak is the core's own limit, fused multiply-adds on registers and nothing
else (`mha-bench --peak`), and each side's "% of peak" is the products'
floating-point operations per second as a share of it.  A Markdown table goes to stdout (or JSON with
--json); progress goes to stderr.
"""

import os

# One thread everywhere; these must be set before torch (and its BLAS) load.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["MKL_NUM_THREADS"] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

SEED = 42

# (seq, d_model, heads) -> (warm-up, repeat): enough calls for a steady median,
# few at the large sizes where one plain-loop call takes over a second.
SIZES = {
    (4, 6, 2): (200, 5000),
    (64, 64, 4): (50, 1000),
    (64, 128, 4): (20, 500),
    (256, 512, 8): (5, 50),
    (1024, 768, 12): (2, 10),
}

# The most mha-bench (CBLAS) may take, as a multiple of the fair PyTorch's time.
GOALS = {
    (4, 6, 2): 0.2,
    (64, 64, 4): 0.8,
    (256, 512, 8): 0.8,
    (1024, 768, 12): 0.8,
}

# glibc keeps its large buffers: the largest mmap threshold it takes (32 MiB on
# 64-bit), and memory given back or trimmed only in gigabytes.
FAIR_ENV = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(1 << 34),
            "MALLOC_TOP_PAD_": str(1 << 30)}


def mulberry32(seed, count):
    """The first count draws of the engine's generator, as doubles in [0, 1)."""
    step = np.arange(1, count + 1, dtype=np.uint64) * np.uint64(0x6D2B79F5)
    t = ((np.uint64(seed) + step) & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    t = (t ^ (t >> np.uint32(15))) * (t | np.uint32(1))
    t ^= t + (t ^ (t >> np.uint32(7))) * (t | np.uint32(61))
    t ^= t >> np.uint32(14)
    return t.astype(np.float64) / 4294967296.0


def weight_bound(seq, d_model, seed=SEED):
    """mha_generated_weight_bound: ±1 for the page's example (4 tokens, d_model 6,
    seed 42), else ±1/sqrt(d_model)."""
    return 1.0 if (seq, d_model, seed) == (4, 6, 42) else 1.0 / d_model ** 0.5


def generated_example(seq, d_model, seed=SEED):
    """query, key, value (seq, d) and W_q, W_k, W_v, W_o (d, d) as float32, drawn in
    the order and ranges of mha_example_generate."""
    n_in, n_w = seq * d_model, d_model * d_model
    u = mulberry32(seed, 3 * n_in + 4 * n_w)
    parts, at = [], 0
    b = weight_bound(seq, d_model, seed)
    for rows, lo, hi in [(seq, -2.0, 2.0)] * 3 + [(d_model, -b, b)] * 4:
        n = rows * d_model
        draws = lo + (hi - lo) * u[at:at + n]
        parts.append(draws.astype(np.float32).reshape(rows, d_model))
        at += n
    return parts


def time_torch(seq, d_model, heads, warmup, repeat, causal):
    """Median and all per-call times (ms) of nn.MultiheadAttention, and the sum
    of its output (to check it computed what the engine computes)."""
    query, key, value, w_q, w_k, w_v, w_o = generated_example(seq, d_model)
    mha = torch.nn.MultiheadAttention(d_model, heads, batch_first=True)
    mha.eval()
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.from_numpy(np.concatenate([w_q, w_k, w_v])))
        mha.in_proj_bias.zero_()
        mha.out_proj.weight.copy_(torch.from_numpy(w_o))
        mha.out_proj.bias.zero_()
    q, k, v = (torch.from_numpy(a).unsqueeze(0) for a in (query, key, value))
    mask = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1) if causal else None

    times = []
    with torch.no_grad():
        for i in range(warmup + repeat):
            start = time.perf_counter()
            out, _ = mha(q, k, v, need_weights=True, average_attn_weights=False,
                         attn_mask=mask)
            elapsed = time.perf_counter() - start
            if i >= warmup:
                times.append(elapsed * 1e3)
    return statistics.median(times), float(out.double().sum()), float(out.abs().double().sum())


def fair_env(core):
    """FAIR_ENV, and OpenBLAS told to use the kernels core names (the ones the
    engine's OpenBLAS chose, from measure_roof) where there is one."""
    return dict(FAIR_ENV, OPENBLAS_CORETYPE=core) if core else dict(FAIR_ENV)


def avx512_env(core):
    """fair_env with OpenBLAS on its AVX-512 kernels (SkylakeX), where the
    processor has AVX-512 and the engine's OpenBLAS runs other kernels (an
    environment that sets OPENBLAS_CORETYPE, or an OpenBLAS that does not
    know the processor); else None.  PyTorch timed so is the third column:
    the engine's own loops use AVX-512 where the processor has it, and this
    shows PyTorch with its products on the same footing."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line for line in f if line.startswith("flags")), "").split()
    except OSError:
        return None
    if "avx512f" not in flags or not core or core.lower() == "skylakex":
        return None
    return fair_env("SkylakeX")


def run_apart(cmd, fair, what):
    """The standard output of cmd, run in a process of its own: as installed
    when fair is None, else with that environment added (fair_env); the script
    stops when it fails."""
    env = dict(os.environ)
    for k in FAIR_ENV:
        env.pop(k, None)
    if fair is not None:
        env.update(fair)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"compare.py: PyTorch {what} failed:\n{proc.stderr.strip()}")
    return proc.stdout


def time_torch_apart(seq, d_model, heads, warmup, repeat, causal, fair):
    """time_torch in a process of its own (fair as in run_apart): its
    median ms, output sum and sum of magnitudes."""
    cmd = [sys.executable, os.path.abspath(__file__), "--torch-worker",
           f"{seq},{d_model},{heads}", "--warmup", str(warmup), "--repeat", str(repeat)]
    if causal:
        cmd.append("--causal")
    return tuple(json.loads(run_apart(cmd, fair, f"at {(seq, d_model, heads)}")))


def run_bench(exe, seq, d_model, heads, warmup, repeat, backend, causal):
    """The JSON line and the output checksum of one mha-bench run; None when this
    build has no such backend."""
    cmd = [exe, "--seq", str(seq), "--d-model", str(d_model), "--heads", str(heads),
           "--repeat", str(repeat), "--warmup", str(warmup), "--backend", backend]
    if causal:
        cmd.append("--causal")
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    if proc.returncode == 2 and "no CBLAS" in proc.stderr:
        return None
    if proc.returncode != 0:
        sys.exit(f"compare.py: {' '.join(cmd)} failed (status {proc.returncode}):\n"
                 f"{proc.stderr.strip()}")
    lines = proc.stdout.strip().splitlines()
    result = json.loads(lines[-1])
    for line in lines:
        if line.startswith("output checksum"):
            result["checksum"] = float(line.rsplit(":", 1)[1])
    return result


def measure_roof(exe, extra_env=None):
    """OpenBLAS's sgemm on 1024 x 1024 matrices, one thread (mha-bench --sgemm,
    in this environment or with extra_env added): the median GFLOP/s and the
    kernels OpenBLAS chose ("SkylakeX", "Haswell", ...), or (None, None) in a
    build without CBLAS."""
    proc = subprocess.run([exe, "--sgemm", "1024", "--repeat", "20"], capture_output=True,
                          text=True,
                          env=dict(os.environ, **(extra_env or {}), OPENBLAS_NUM_THREADS="1"))
    if proc.returncode != 0:
        return None, None
    line = json.loads(proc.stdout.strip().splitlines()[-1])
    return line["gflops_median"], line.get("core") or None


def measure_peak(exe):
    """The core's own FMA limit (mha-bench --peak: twelve independent fused
    multiply-adds on registers, the widest the processor has), best GFLOP/s of
    20 runs, or None where mha-bench cannot measure it."""
    proc = subprocess.run([exe, "--peak", "--repeat", "20"], capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])["peak_gflops"]


def peak_line(peak):
    if peak is None:
        return "No peak: mha-bench --peak could not measure this processor."
    return (f"Peak: {peak:.1f} GFLOP/s, this core's fused multiply-adds on registers and "
            "nothing else (mha-bench --peak, best of 20); \"% of peak\" is read against it.")


def forward_flop(seq, d_model):
    """Floating-point operations of one forward pass's products: the four
    projections (2·L·d² each) and, over the heads, the scores and the context
    (2·L²·d each)."""
    return 8 * seq * d_model ** 2 + 4 * seq ** 2 * d_model


def pct_of_roof(flop, ms, roof):
    """flop done in ms, as a share of roof GFLOP/s ("—" without one); the
    tables read it against the measured peak."""
    if roof is None or ms is None or ms <= 0:
        return "—"
    return f"{100.0 * flop / (ms * 1e6) / roof:.0f} %"


def measure_roofs(exe):
    """measure_roof as the engine runs, and again on OpenBLAS's AVX-512 kernels
    where avx512_env gives them: (roof, core, wide roof or None), OpenBLAS's
    own best, printed beside the peak."""
    roof, core = measure_roof(exe)
    wide = avx512_env(core)
    return roof, core, (measure_roof(exe, {"OPENBLAS_CORETYPE": "SkylakeX"})[0] if wide
                        else None)


def roof_line(roof, core, wide_roof=None):
    if roof is None:
        return "No roof: this mha-bench has no CBLAS (mha-bench --sgemm)."
    kernels = f", its {core} kernels" if core else ""
    fair = (f"; \"fair\" PyTorch has OPENBLAS_CORETYPE={core} too" if core else "")
    wide = (f"; with its AVX-512 kernels (OPENBLAS_CORETYPE=SkylakeX) {wide_roof:.1f} GFLOP/s, "
            "OpenBLAS's best here" if wide_roof else "")
    cpu = sorted(os.sched_getaffinity(0))
    where = f" Every process on processor {cpu[0]}." if len(cpu) == 1 else ""
    return (f"Roof: OpenBLAS's sgemm at 1024 x 1024, one thread{kernels}, {roof:.1f} GFLOP/s "
            f"(mha-bench --sgemm 1024, median of 20){fair}{wide}.{where}")


def fmt_ms(ms):
    if ms is None:
        return "n/a"
    return f"{ms:.3f}" if ms >= 1 else f"{ms:.4g}"


def fmt_ratio(x):
    return "n/a" if x is None else f"{x:.3f}"


def markdown(rows, roof):
    out = ["| size (seq, d_model, heads) | PyTorch ms (as installed) | PyTorch ms (fair) "
           "| PyTorch ms (fair, AVX-512 OpenBLAS) "
           "| mha-bench ms (cblas) | mha-bench ms (plain) | ratio to fair | goal | met "
           "| ratio to fair, AVX-512 OpenBLAS | PyTorch fair, % of peak | mha-bench, % of peak |",
           "|---|---:|---:|---:|---:|---:|---:|---:|:---:|---:|---:|---:|"]
    for r in rows:
        goal = "—" if r["goal"] is None else f"≤ {r['goal']}×"
        met = {None: "—", True: "yes", False: "no"}[r["met"]]
        flop = forward_flop(r["seq"], r["d_model"])
        out.append(f"| ({r['seq']}, {r['d_model']}, {r['heads']}) "
                   f"| {fmt_ms(r['torch_default_ms'])} | {fmt_ms(r['torch_ms'])} "
                   f"| {fmt_ms(r['torch_avx512_ms'])} "
                   f"| {fmt_ms(r['cblas_ms'])} | {fmt_ms(r['plain_ms'])} | {fmt_ratio(r['ratio'])} "
                   f"| {goal} | {met} | {fmt_ratio(r['ratio_avx512'])} "
                   f"| {pct_of_roof(flop, r['torch_ms'], roof)} "
                   f"| {pct_of_roof(flop, r['cblas_ms'], roof)} |")
    return "\n".join(out)


def parse_size(text):
    try:
        seq, d_model, heads = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': expected SEQ,D_MODEL,HEADS") from None
    if min(seq, d_model, heads) < 1 or d_model % heads:
        raise argparse.ArgumentTypeError(f"'{text}': sizes must be positive and heads must "
                                         "divide d_model")
    return seq, d_model, heads


def parse_train_size(text):
    try:
        size = tuple(int(x) for x in text.split(","))
    except ValueError:
        size = ()
    if len(size) != 5 or min(size) < 1 or size[0] % size[1]:
        raise argparse.ArgumentTypeError(f"'{text}': expected D_MODEL,HEADS,VOCAB,CONTEXT,BATCH "
                                         "(positive, heads dividing d_model)")
    return size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mha_bench", nargs="?", default="build/bench/mha-bench",
                    help="the built mha-bench (default: %(default)s)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument("--size", type=parse_size, action="append", metavar="SEQ,D,H",
                    help="only this size (repeatable; default: the four standard sizes)")
    ap.add_argument("--repeat", type=int, help="timed calls at every size")
    ap.add_argument("--warmup", type=int, help="untimed calls first at every size")
    ap.add_argument("--causal", action="store_true", help="causal mask on both sides")
    ap.add_argument("--train", action="store_true",
                    help="time one training step (mha-bench --train) against PyTorch's "
                         "instead (see bench/compare_train.py)")
    ap.add_argument("--train-size", type=parse_train_size, action="append",
                    metavar="D,H,V,T,B",
                    help="with --train: only this size (d_model, heads, vocab, context, batch; "
                         "repeatable; default: the seven standard sizes)")
    ap.add_argument("--layers", action="store_true",
                    help="time the induction model's training step at 1 to 4 layers against "
                         "PyTorch's, written out and with nn.MultiheadAttention "
                         "(bench/compare_train.py)")
    ap.add_argument("--cpu", type=int, metavar="N",
                    help="run every timed process on processor N (default: the first this "
                         "script may run on)")
    ap.add_argument("--no-plain", action="store_true",
                    help="skip the plain-loop backend (slow at the large sizes)")
    ap.add_argument("--torch-worker", type=parse_size, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.torch_worker:  # one PyTorch timing, in the environment it was started with
        torch.set_num_threads(1)
        print(json.dumps(time_torch(*args.torch_worker, args.warmup, args.repeat,
                                    args.causal)))
        return
    if not os.access(args.mha_bench, os.X_OK):
        sys.exit(f"compare.py: {args.mha_bench}: no such executable; build it with "
                 "`ninja -C build` or give its path")
    if (args.repeat is not None and args.repeat < 1) or (args.warmup is not None
                                                         and args.warmup < 0):
        sys.exit("compare.py: --repeat must be at least 1 and --warmup at least 0")

    allowed = sorted(os.sched_getaffinity(0))
    cpu = allowed[0] if args.cpu is None else args.cpu
    if cpu not in allowed:
        sys.exit(f"compare.py: --cpu {cpu}: this script may run on processors "
                 f"{', '.join(map(str, allowed))} only")
    os.sched_setaffinity(0, {cpu})  # the processes started from here inherit it
    print(f"every timed process on processor {cpu}", file=sys.stderr)

    torch.set_num_threads(1)
    if args.layers:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from compare_train import compare_layers  # noqa: E402
        compare_layers(args.mha_bench, args.json, args.warmup, args.repeat)
        return
    if args.train:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from compare_train import compare_train  # noqa: E402
        compare_train(args.mha_bench, args.json, args.warmup, args.repeat, args.train_size)
        return
    roof, core, wide_roof = measure_roofs(args.mha_bench)
    peak = measure_peak(args.mha_bench)
    rows = []
    for size in args.size or list(SIZES):
        seq, d_model, heads = size
        warmup, repeat = SIZES.get(size, (5, 50))
        warmup = warmup if args.warmup is None else args.warmup
        repeat = repeat if args.repeat is None else args.repeat
        print(f"size {size}: {warmup} warm-up + {repeat} timed calls ...", file=sys.stderr)

        # mha-bench first: it also checks the sizes against the engine's limits.
        cblas = run_bench(args.mha_bench, seq, d_model, heads, warmup, repeat, "cblas",
                          args.causal)
        plain = None if args.no_plain else run_bench(args.mha_bench, seq, d_model, heads,
                                                     warmup, repeat, "plain", args.causal)
        default_ms, torch_sum, torch_abs = time_torch_apart(seq, d_model, heads, warmup, repeat,
                                                            args.causal, None)
        torch_ms, _, _ = time_torch_apart(seq, d_model, heads, warmup, repeat, args.causal,
                                          fair_env(core))
        wide = avx512_env(core)
        avx512_ms = None if wide is None else time_torch_apart(seq, d_model, heads, warmup,
                                                               repeat, args.causal, wide)[0]
        engine = cblas or plain
        # Same numbers in, same numbers out: the output sums agree up to float rounding.
        if engine and abs(engine["checksum"] - torch_sum) > 1e-4 * max(torch_abs, 1.0):
            sys.exit(f"compare.py: the output sums differ at {size}: mha-bench "
                     f"{engine['checksum']:.6g}, PyTorch {torch_sum:.6g}; the two did not "
                     "compute the same thing, so nothing is timed")

        cblas_ms = cblas["forward_ms_median"] if cblas else None
        ratio = cblas_ms / torch_ms if cblas_ms is not None else None
        goal = GOALS.get(size)
        rows.append({
            "seq": seq, "d_model": d_model, "heads": heads, "causal": args.causal,
            "warmup": warmup, "repeat": repeat,
            "torch_default_ms": default_ms,
            "torch_ms": torch_ms,
            "torch_avx512_ms": avx512_ms,
            "cblas_ms": cblas_ms,
            "plain_ms": plain["forward_ms_median"] if plain else None,
            "ratio": ratio,
            "ratio_avx512": (cblas_ms / avx512_ms if cblas_ms is not None and avx512_ms
                             else None),
            "goal": goal,
            "met": None if goal is None or ratio is None else ratio <= goal,
            "trace_bytes": engine["trace_bytes"] if engine else None,
        })

    if args.json:
        print(json.dumps({"torch": torch.__version__, "threads": 1, "roof_gflops": roof,
                          "openblas_core": core, "avx512_roof_gflops": wide_roof,
                          "peak_gflops": peak, "rows": rows}, indent=2))
    else:
        print(f"PyTorch {torch.__version__} and mha-bench, one thread each; "
              "median ms of one forward pass.")
        print(roof_line(roof, core, wide_roof))
        print(peak_line(peak) + "\n")
        print(markdown(rows, peak))


if __name__ == "__main__":
    main()
