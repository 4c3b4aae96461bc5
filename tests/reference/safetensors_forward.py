#!/usr/bin/python3
"""The bundled language model's next-word probabilities from its
safetensors file alone: the file (--export-safetensors) is read here with
numpy (8-byte length, JSON header, little-endian float32 data), and the
forward pass is TransformerLens's HookedTransformer (attn_only, no
normalisation, standard positions) written out in its names and shapes:

    resid  = W_E[tokens] + W_pos[:T]
    for each block L:
        q[h] = resid @ W_Q[h] + b_Q[h]     (likewise k, v)
        pattern[h] = softmax(q[h] k[h]^T / sqrt(d_head)), later keys masked
        resid = resid + sum_h (pattern[h] v[h]) @ W_O[h] + b_O
    p      = softmax(resid[-1] @ W_U + b_U)

in float64.  Nothing is shared with the program but the file.

    /usr/bin/python3 tests/reference/safetensors_forward.py write build/src/mha-explorer

writes tests/data/safetensors/sentences_next.json: for each sentence, the
ten likeliest next words and their probabilities, and the metadata's vocab.

    /usr/bin/python3 tests/reference/safetensors_forward.py check EXE ROOT

(the safetensors_reference test) holds the program to it: --dump output of
the model file and of the exported file give the committed words and
probabilities within 1e-5, the exported metadata's vocab is the model file's,
and, where numpy is installed (scripts/test installs python3-numpy), the
pass above on a file exported now gives the program's numbers within 1e-5.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "safetensors", "sentences_next.json")
SENTENCES = [
    "the cat sat on the",
    "the dog",
    None,  # the model's own sample
    "the horse couldn't cross the road because it was too wide . the old dog was",
]
TOL = 1e-5


def read_safetensors(path):
    """{name: float32 array}, {metadata key: value}, from the file alone."""
    import numpy as np

    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = {k: json.loads(v) for k, v in header.pop("__metadata__").items()}
    data = raw[8 + n:]
    tensors = {}
    for name, e in header.items():
        assert e["dtype"] == "F32", name
        b, end = e["data_offsets"]
        tensors[name] = np.frombuffer(data[b:end], dtype="<f4").reshape(e["shape"])
    return tensors, meta


def next_words(tensors, meta, words):
    """The ten likeliest next words after words (a list of vocab entries)."""
    import numpy as np

    vocab = meta["vocab"]
    ids = [vocab.index(w) for w in words]
    t = {k: v.astype(np.float64) for k, v in tensors.items()}
    T = len(ids)
    resid = t["embed.W_E"][ids] + t["pos_embed.W_pos"][:T]
    later = np.triu(np.ones((T, T), dtype=bool), k=1)
    for layer in range(meta["n_layers"]):
        a = "blocks.%d.attn." % layer
        q = np.einsum("td,hde->hte", resid, t[a + "W_Q"]) + t[a + "b_Q"][:, None, :]
        k = np.einsum("td,hde->hte", resid, t[a + "W_K"]) + t[a + "b_K"][:, None, :]
        v = np.einsum("td,hde->hte", resid, t[a + "W_V"]) + t[a + "b_V"][:, None, :]
        scores = q @ k.transpose(0, 2, 1)
        if meta.get("use_attn_scale", True):
            scores = scores / np.sqrt(meta["d_head"])
        if meta.get("attention_dir", "causal") == "causal":
            scores = np.where(later, -np.inf, scores)
        scores = scores - scores.max(axis=-1, keepdims=True)
        pattern = np.exp(scores)
        pattern /= pattern.sum(axis=-1, keepdims=True)
        z = pattern @ v
        resid = resid + np.einsum("hte,hed->td", z, t[a + "W_O"]) + t[a + "b_O"]
    logits = resid[-1] @ t["unembed.W_U"] + t["unembed.b_U"]
    p = np.exp(logits - logits.max())
    p /= p.sum()
    order = sorted(range(len(p)), key=lambda j: (-p[j], j))[:10]
    return [{"word": vocab[j], "p": float(p[j])} for j in order]


def sentence_words(meta, sentence):
    if sentence is None:
        return [meta["vocab"][i] for i in meta["sample"]]
    return sentence.lower().split() if meta.get("words") == "lower" else sentence.split()


def export(exe, model, folder):
    path = os.path.join(folder, "sentences.safetensors")
    subprocess.run([exe, "--load", model, "--export-safetensors", path], check=True,
                   capture_output=True)
    return path


def program_next(exe, model, sentence):
    args = [exe, "--load", model, "--dump", "output", "--format", "json"]
    if sentence is not None:
        args += ["--tokens", sentence]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["output"]["next_word"]


def same(a, b, what, problems):
    """Two lists of {word, p}: the same words with p within TOL (two words
    whose p are within TOL may come in either order)."""
    pa = {e["word"]: e["p"] for e in a}
    pb = {e["word"]: e["p"] for e in b}
    for w in set(pa) | set(pb):
        if w in pa and w in pb:
            if abs(pa[w] - pb[w]) > TOL:
                problems.append("%s: %r: %.9g against %.9g" % (what, w, pa[w], pb[w]))
        elif max(pa.get(w, 0), pb.get(w, 0)) > min(min(pa.values()), min(pb.values())) + TOL:
            problems.append("%s: %r is in only one of the lists" % (what, w))


def write(exe):
    root = os.path.join(HERE, "..", "..")
    model = os.path.join(root, "assets", "models", "sentences.json")
    with tempfile.TemporaryDirectory() as folder:
        tensors, meta = read_safetensors(export(exe, model, folder))
    cases = [{"tokens": s, "next_word": next_words(tensors, meta, sentence_words(meta, s))}
             for s in SENTENCES]
    os.makedirs(os.path.dirname(DATA), exist_ok=True)
    with open(DATA, "w") as f:
        json.dump({"generator": "tests/reference/safetensors_forward.py",
                   "model": "assets/models/sentences.json", "vocab": meta["vocab"],
                   "cases": cases}, f, indent=1)
        f.write("\n")


def check(exe, root):
    model = os.path.join(root, "assets", "models", "sentences.json")
    with open(DATA) as f:
        ref = json.load(f)
    with open(model) as f:
        vocab = json.load(f)["vocab"]
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        path = export(exe, model, folder)
        with open(path, "rb") as f:
            raw = f.read()
        (n,) = struct.unpack("<Q", raw[:8])
        meta = json.loads(raw[8:8 + n])["__metadata__"]
        if json.loads(meta["vocab"]) != vocab or ref["vocab"] != vocab:
            problems.append("the metadata's vocab is not the model file's")
        try:
            import numpy  # noqa: F401
            tensors, meta = read_safetensors(path)
        except ImportError:
            print("numpy is not installed for %s: only the committed numbers are compared"
                  % sys.executable)
            tensors = None
        for case in ref["cases"]:
            s = case["tokens"]
            from_json = program_next(exe, model, s)
            from_file = program_next(exe, path, s)
            if from_json != from_file:
                problems.append("%r: the exported file's output differs from the model's" % s)
            same(from_json, case["next_word"], "%r, committed" % s, problems)
            if tensors is not None:
                same(from_json, next_words(tensors, meta, sentence_words(meta, s)),
                     "%r, numpy now" % s, problems)
    for p in problems:
        print("FAIL:", p)
    print("safetensors reference: %d sentences, %d problems" % (len(ref["cases"]), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(os.path.abspath(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])))
    else:
        sys.exit(__doc__)
