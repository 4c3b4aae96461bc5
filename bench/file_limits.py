#!/usr/bin/env python3
"""file_limits.py - what reading a file of each kind costs: the largest legal
file and a file over its limits, each read by mha-read-bench under
/usr/bin/time -v (peak memory, wall time, the first line it printed).

    python3 bench/file_limits.py BUILD/bench/mha-read-bench [KIND...]

The files are made in a temporary folder, which is removed at the end.  The
table it prints is the one in doc/files.md.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

# The program's documented maxima (src/engine/mha.h, src/train/train.h).
MAX_TOKENS, MAX_D_MODEL = 1024, 2048
VOCAB, D, CONTEXT, OUTPUTS, BATCH = 512, 256, 64, 4, 4096
TASK_IDS = 1 << 21  # token ids and targets in a task file, in all

rng = random.Random(1)


def number():
    return "%.9g" % rng.uniform(-1, 1)


def matrix(rows, cols, f):
    """rows x cols numbers as a JSON array, one row a line, written to f."""
    f.write("[")
    for i in range(rows):
        f.write(("\n  [" if i == 0 else ",\n  [") + ", ".join(number() for _ in range(cols)) + "]")
    f.write("]")


def ids(rows, cols, hi, f, lo=0):
    f.write("[")
    for i in range(rows):
        row = ", ".join(str(rng.randint(lo, hi)) for _ in range(cols))
        f.write(("[" if i == 0 else ",\n [") + row + "]")
    f.write("]")


def empty_rows(path, head, field, size):
    """{head "field": [[],[],...]} of about size bytes."""
    with open(path, "w") as f:
        f.write("{" + head + '"%s": [' % field)
        f.write("[]," * (size // 3))
        f.write("[]]}\n")


def example_max(path):
    d = MAX_D_MODEL
    with open(path, "w") as f:
        toks = ", ".join('"t%d"' % i for i in range(MAX_TOKENS))
        f.write('{"tokens": [%s], "key_tokens": [%s], "d_model": %d, "num_heads": 32,\n'
                % (toks, toks, d))
        for name in ("query", "key", "value"):
            f.write('"%s": ' % name)
            matrix(MAX_TOKENS, d, f)
            f.write(",\n")
        for name in ("w_q", "w_k", "w_v", "w_o"):
            f.write('"%s": ' % name)
            matrix(d, d, f)
            f.write(",\n")
        for name in ("b_q", "b_k", "b_v", "b_o"):
            f.write('"%s": [%s],\n' % (name, ", ".join(number() for _ in range(d))))
        f.write('"mask": ')
        ids(MAX_TOKENS, MAX_TOKENS, 1, f)
        f.write("}\n")


def model_max(path, d=D):
    with open(path, "w") as f:
        f.write('{"vocab": [%s], "d_model": %d, "num_heads": %d, "context": %d, "causal": true,\n'
                % (", ".join('"v%d"' % i for i in range(VOCAB)), d, min(d, 8), CONTEXT))
        f.write('"embedding": ')
        matrix(VOCAB, d, f)
        f.write(',\n"positions": ')
        matrix(CONTEXT, d, f)
        for name in ("w_q", "w_k", "w_v", "w_o"):
            f.write(',\n"%s": ' % name)
            matrix(d, d, f)
        for name in ("b_q", "b_k", "b_v", "b_o"):
            f.write(',\n"%s": [%s]' % (name, ", ".join(number() for _ in range(d))))
        f.write(',\n"outputs": [')
        for k in range(OUTPUTS):
            f.write('%s{"name": "out%d", "classes": %d, "unembed": ' % (", " if k else "", k, VOCAB))
            matrix(VOCAB, d, f)
            f.write(', "bias": [%s]}' % ", ".join(number() for _ in range(VOCAB)))
        f.write("]}\n")


def batch_max(path, rows=BATCH):
    with open(path, "w") as f:
        f.write('{"tokens": ')
        ids(rows, CONTEXT, VOCAB - 1, f)
        f.write(',\n"targets": [')
        for k in range(OUTPUTS):
            f.write(", " if k else "")
            ids(rows, CONTEXT, VOCAB - 1, f, lo=-1)
        f.write("]}\n")


def task_max(path):
    rows = TASK_IDS // (CONTEXT * (1 + OUTPUTS))
    with open(path, "w") as f:
        f.write('{"vocab": [%s], "outputs": [%s],\n'
                % (", ".join('"v%d"' % i for i in range(VOCAB)),
                   ", ".join('"out%d"' % k for k in range(OUTPUTS))))
    with open(path, "a") as f:
        f.write('"tokens": ')
        ids(rows, CONTEXT, VOCAB - 1, f)
        f.write(',\n"targets": [')
        for k in range(OUTPUTS):
            f.write(", " if k else "")
            ids(rows, CONTEXT, VOCAB - 1, f, lo=-1)
        f.write("]}\n")


def lesson_max(path):
    """Just under 1 MiB of lesson: pages of prose, lists and scenes."""
    page = ("# A page\n\nText about attention, with `code` and *emphasis*.\n\n"
            "- one\n- two\n  - nested\n\n> a quote\n\n```mha\ntokens: a b c\nstage: attention\n```\n\n---\n\n")
    with open(path, "w") as f:
        f.write("# Big lesson\n\n")
        f.write(page * ((1 << 20) // len(page) - 1))


def lesson_lists(path):
    """Just under 1 MiB of one-character list items, the costliest markdown."""
    with open(path, "w") as f:
        f.write("# Lists\n\n" + "-\n" * (((1 << 20) - 10) // 2))


def recording_max(path):
    with open(path, "w") as f:
        f.write("mha-explorer-recording 2\nsize 80x24\n")
        t = 0.0
        for i in range(100000):
            t += 0.01
            f.write("%.3f right\n" % t)


def recording_over(path):
    with open(path, "w") as f:
        f.write("mha-explorer-recording 2\nsize 80x24\n")
        line = "1.000 right\n"
        f.write(line * ((100 << 20) // len(line)))


def progress_max(path):
    """Just under 4 MiB of lessons with seen steps."""
    with open(path, "w") as f:
        f.write('{"version": 2, "lessons": {')
        n, size = 0, 0
        while size < (4 << 20) - 4096:
            s = '%s"lesson-%d": {"seen": [%s], "last": 3}' % (", " if n else "", n,
                                                             ", ".join(str(i) for i in range(60)))
            f.write(s)
            size += len(s)
            n += 1
        f.write("}}\n")


def progress_over(path):
    empty_rows(path, '"version": 2, "lessons": {}, ', "junk", (4 << 20) - 64)


def run(bench, args):
    p = subprocess.run(["/usr/bin/time", "-v", bench] + args, capture_output=True, text=True)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", p.stderr).group(1)
    parts = [float(x) for x in wall.split(":")]
    secs = sum(x * 60 ** i for i, x in enumerate(reversed(parts)))
    said = (p.stdout.strip().splitlines() or ["(nothing)"])[0]
    return p.returncode, rss / 1024.0, secs, said


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    bench = os.path.abspath(sys.argv[1])
    only = set(sys.argv[2:])
    tmp = tempfile.mkdtemp(prefix="mha-file-limits-")
    try:
        model = os.path.join(tmp, "model-max.json")
        model_max(model)
        # the batch is read for a model of the largest vocabulary, context
        # and outputs but d_model 8, which costs little to load
        small = os.path.join(tmp, "model-small.json")
        model_max(small, d=8)
        task_head = '"vocab": ["a", "b"], "outputs": ["x"], '
        cases = [
            ("example", "largest legal (1024 tokens, d_model 2048, all given)", example_max, []),
            ("example", "99 MB of empty rows in \"query\"",
             lambda p: empty_rows(p, '"tokens": ["a"], "num_heads": 1, ', "query", 99 << 20), []),
            ("model", "largest legal (vocab 512, d_model 256, context 64, 4 outputs)", None, []),
            ("model", "54 MB vocabulary", lambda p: open(p, "w").write(
                '{"vocab": [' + '"a", ' * ((54 << 20) // 5) + '"a"]}\n'), []),
            ("model", "28 MB vocabulary (under the size cap)", lambda p: open(p, "w").write(
                '{"vocab": [' + '"a", ' * ((27 << 20) // 5) + '"a"]}\n'), []),
            ("batch", "model of d_model 8 alone (read before each batch)", None, [small]),
            ("batch", "largest legal (4096 x 64, 4 outputs)", batch_max, [small]),
            ("batch", "99 MB of empty rows", lambda p: empty_rows(p, "", "tokens", 99 << 20),
             [small]),
            ("batch", "40 MB of empty rows (under the size cap)",
             lambda p: empty_rows(p, "", "tokens", 40 << 20), [small]),
            ("task", "largest legal (2^21 ids: 6553 x 64, 4 outputs)", task_max, []),
            ("task", "99 MB of empty rows", lambda p: empty_rows(p, task_head, "tokens", 99 << 20),
             []),
            ("task", "85 MB of empty rows (under the size cap)",
             lambda p: empty_rows(p, task_head, "tokens", 85 << 20), []),
            ("lesson", "largest legal (1 MiB of pages)", lesson_max, []),
            ("lesson", "1 MiB of one-character list items", lesson_lists, []),
            ("recording", "largest legal (100000 keys)", recording_max, []),
            ("recording", "100 MB of keys", recording_over, []),
            ("progress", "largest legal (4 MiB of lessons)", progress_max, []),
            ("progress", "4 MiB of empty rows", progress_over, []),
        ]
        print("| file | what | size | exit | peak memory | time | says |")
        print("|---|---|---:|---:|---:|---:|---|")
        for i, (kind, what, make, extra) in enumerate(cases):
            if only and kind not in only:
                continue
            path = model if make is None else os.path.join(tmp, "%s-%d.json" % (kind, i))
            if make is not None:
                make(path)
            size = os.path.getsize(path)
            args = [kind, path] + extra
            if make is None and extra:  # the model the batches are read for
                args, size = ["model", extra[0]], os.path.getsize(extra[0])
            rc, mb, secs, said = run(bench, args)
            said = said.replace(tmp + "/", "").replace("|", "\\|")
            if len(said) > 90:
                said = said[:87] + "..."
            print("| %s | %s | %.1f MB | %d | %.0f MB | %.2f s | %s |"
                  % (kind, what, size / 1e6, rc, mb, secs, said), flush=True)
            if make is not None:
                os.unlink(path)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
