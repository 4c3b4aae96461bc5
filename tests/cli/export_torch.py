"""export_torch: --export-torch FILE.py writes a short PyTorch script and its
weights beside it (FILE.safetensors), whose numbers are the explorer's.  For
the bundled language model, the script's ten next words and their
probabilities equal --dump output's "next_word" within 1e-5, and so do the
module's on a batch of sentences (padded, with a mask) and on a batch of
two without padding; for a letter task of one, two and four layers, each
output's prediction equals the one worked out here from the explorer's own
input and output stages of the last layer (r = input + output, logits =
r U^T + bias), run alone and as a batch.  The script holds no weights, and
neither file is written over one that is there.  Skipped, with a message,
where PyTorch is not installed (scripts/test does not install it; Debian's
python3-torch has it).

usage: python3 export_torch.py path/to/mha-explorer path/to/source/root
"""
import json
import math
import os
import runpy
import subprocess
import sys
import tempfile
import traceback

try:
    import torch
except ImportError:
    print("SKIP: PyTorch is not installed for %s (apt-get install python3-torch)" %
          sys.executable)
    sys.exit(77)

EXE, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
LM = os.path.join(ROOT, "assets", "models", "sentences.json")
SENTENCES = ("the cat sat on the", "the cats by the cow copied the dogs and now",
             "the animal didn't cross the street because it was", "the")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def run(args, cwd):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120)


def run_script(script, args, cwd):
    """The exported script run as "python3 SCRIPT ARGS..." in cwd would run
    it, in a child forked from this process, which has imported torch once
    already (an interpreter of its own would import it again, a second each
    time): the script runs as __main__ with its own argv, its output and
    exit status collected."""
    sys.stdout.flush()
    sys.stderr.flush()
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.chdir(cwd)
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            sys.argv = [script] + list(args)
            sys.path[0] = cwd
            try:
                runpy.run_path(script, run_name="__main__")
                code = 0
            except SystemExit as e:
                if e.code is None or isinstance(e.code, int):
                    code = e.code or 0
                else:
                    print(e.code, file=sys.stderr)
            except BaseException:
                traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    out.seek(0)
    err.seek(0)
    return subprocess.CompletedProcess([sys.executable, script] + list(args),
                                       os.waitstatus_to_exitcode(status),
                                       out.read().decode(), err.read().decode())


def explorer_json(args, cwd):
    r = run([EXE] + args + ["--format", "json"], cwd)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def module(tmp, script):
    """The exported script's globals, as "import" would give them (its
    main() not run)."""
    return runpy.run_path(os.path.join(tmp, script))


def batch(ids):
    """Sequences of token ids as a right-padded (B, T) batch and its mask."""
    T = max(len(s) for s in ids)
    tokens = torch.tensor([s + [0] * (T - len(s)) for s in ids])
    mask = torch.tensor([[t < len(s) for t in range(T)] for s in ids])
    return tokens, mask


def next_words(p, vocab):
    order = sorted(range(len(p)), key=lambda j: (-p[j], j))
    return [{"word": vocab[j], "p": p[j]} for j in order[:10]]


def same_words(got, want, what):
    check([g["word"] for g in got] == [w["word"] for w in want],
          "%s: words %s, explorer %s" % (what, got, want))
    worst = max(abs(g["p"] - w["p"]) for g, w in zip(got, want))
    check(worst <= 1e-5, "%s: probabilities differ by %g" % (what, worst))


def language_model(tmp):
    r = run([EXE, "--load", LM, "--export-torch", "lm.py"], tmp)
    check(r.returncode == 0 and os.path.exists(os.path.join(tmp, "lm.py")) and
          os.path.exists(os.path.join(tmp, "lm.safetensors")),
          "--export-torch lm.py: %d %s" % (r.returncode, r.stderr))
    size = os.path.getsize(os.path.join(tmp, "lm.py"))
    check(size < 12000, "lm.py holds %d bytes: weights inline?" % size)
    wants = {}
    for sentence in SENTENCES + ("the cats by the cow",):
        wants[sentence] = explorer_json(["--load", LM, "--tokens", sentence, "--dump", "output"],
                                        tmp)["output"]["next_word"]
    for sentence in SENTENCES:
        r = run_script("lm.py", sentence.split(), tmp)
        check(r.returncode == 0, "lm.py %s: %s" % (sentence, r.stderr))
        if r.returncode == 0:
            same_words(json.loads(r.stdout), wants[sentence], sentence)
    r = run_script("lm.py", ["the", "zebra"], tmp)
    check(r.returncode != 0 and "zebra" in r.stderr, "an unknown word: %s" % r.stderr)
    # the module on batches: of the sentences, padded after the shorter
    # ones; of two sentences of one length, with no mask
    g = module(tmp, "lm.py")
    model = g["Transformer"].from_safetensors(os.path.join(tmp, "lm.safetensors"))
    vocab = model.cfg["vocab"]
    for sentences, masked in ((SENTENCES, True), (("the cat sat on the", "the cats by the cow"),
                                                  False)):
        ids = [g["token_ids"](model.cfg, s.split()) for s in sentences]
        tokens, mask = batch(ids)
        with torch.no_grad():
            logits = model(tokens, mask if masked else None)["next"]
        check(logits.shape == (len(ids), tokens.shape[1], len(vocab)),
              "a batch's logits are %s" % (tuple(logits.shape),))
        for b, s in enumerate(sentences):
            p = torch.softmax(logits[b, len(ids[b]) - 1].double(), dim=-1).tolist()
            same_words(next_words(p, vocab), wants[s], "batch, %s" % s)
    # a state_dict of the same names loads into a new module
    other = g["Transformer"](model.cfg)
    other.load_state_dict(model.state_dict())
    tokens = torch.tensor(ids[0])
    with torch.no_grad():
        check(torch.equal(other(tokens)["next"], model(tokens)["next"]),
              "a module from the state_dict differs")


def softmax_best(logits):
    top = max(logits)
    e = [math.exp(z - top) for z in logits]
    best = max(range(len(e)), key=lambda j: (e[j], -j))
    return best, e[best] / sum(e)


def letter_task(tmp, layers):
    """A first-prev model of layers layers: the explorer shows the last layer,
    its input the residual stream after the layers below, so input + output
    is what the read-outs read whatever the layers."""
    name = "fp%d" % layers
    r = run([EXE, "--train", "first-prev", "--steps", "60", "--seed", "3", "--layers",
             str(layers), "--dump", "summary", "--save", name + ".json"], tmp)
    assert r.returncode == 0, r.stderr
    model = json.load(open(os.path.join(tmp, name + ".json")))
    r = run([EXE, "--load", name + ".json", "--export-torch", name + ".py"], tmp)
    check(r.returncode == 0, "--export-torch %s.py: %s" % (name, r.stderr))
    g = module(tmp, name + ".py")
    torch_model = g["Transformer"].from_safetensors(os.path.join(tmp, name + ".safetensors"))
    cases = ([], ["A", "B", "C", "D"], ["P", "O", "N", "M", "L", "K", "J", "I"])
    ids = [g["token_ids"](torch_model.cfg, words) for words in cases]
    tokens, mask = batch(ids)
    with torch.no_grad():
        logits = torch_model(tokens, mask)
    for b, words in enumerate(cases):
        args = ["--load", name + ".json"] + (["--tokens", " ".join(words)] if words else [])
        x = explorer_json(args + ["--dump", "input"], tmp)["input"]["query"]
        out = explorer_json(args + ["--dump", "output"], tmp)["output"]
        r_last = [a + b for a, b in zip(x[-1], out[-1])]
        want = {}
        for o in model["outputs"]:
            bias = o.get("bias", [0.0] * o["classes"])
            logits_o = [sum(r * u for r, u in zip(r_last, row)) + b
                        for row, b in zip(o["unembed"], bias)]
            best, p = softmax_best(logits_o)
            want[o["name"]] = [model["vocab"][best], p]
        r = run_script(name + ".py", words, tmp)
        check(r.returncode == 0, "%s.py %s: %s" % (name, words, r.stderr))
        if r.returncode:
            continue
        got = json.loads(r.stdout)
        for o, (label, p) in want.items():
            check(got.get(o, [None])[0] == label and abs(got[o][1] - p) <= 1e-5,
                  "%d layers, %s %s: script %s, explorer %s" % (layers, words, o,
                                                               got.get(o), [label, p]))
            q = torch.softmax(logits[o][b, len(ids[b]) - 1].double(), dim=-1).tolist()
            best = max(range(len(q)), key=lambda j: (q[j], -j))
            check(model["vocab"][best] == label and abs(q[best] - p) <= 1e-5,
                  "%d layers, batch, %s %s: %s %g, explorer %s" % (
                      layers, words, o, model["vocab"][best], q[best], [label, p]))


def refusals(tmp):
    for args, message in (
            (["--export-torch", "x.py"], "give --load MODEL"),
            (["--load", os.path.join(ROOT, "assets", "examples", "translate.json"),
              "--export-torch", "x.py"], "give --load MODEL"),
            (["--load", LM, "--export-torch", ""], "an empty file name"),
            (["--load", tmp, "--export-torch", "x.py"], "is a directory, not a file"),
            (["--load", LM, "--export-torch", os.path.join(tmp, "no", "x.py")], "no such folder"),
            (["--load", LM, "--export-torch", "x.py", "--seed", "2"], "--seed cannot be"),
            (["--load", LM, "--export-torch", "x.py", "--format", "json"], "--format cannot be"),
            (["--load", LM, "--export-torch", "x.py", "--temperature", "2"],
             "--temperature cannot be"),
            (["--load", LM, "--export-torch", "x.py", "--top-k", "3"], "--top-k cannot be"),
            (["--load", LM, "--export-torch", "x.py", "--tokens", "the zebra"], "zebra"),
            (["--load", LM, "--export-torch", tmp], "is a directory")):
        r = run([EXE] + args, tmp)
        check(r.returncode == 2 and message in r.stderr and not r.stdout,
              "%s: status %d, %s" % (args, r.returncode, r.stderr))
    check(not os.path.exists(os.path.join(tmp, "x.py")), "a refused export wrote x.py")
    check(not os.path.exists(os.path.join(tmp, "x.safetensors")),
          "a refused export wrote x.safetensors")
    # neither file is written over one that is there, and neither is
    # written when the other is there
    for there in ("old.py", "old.safetensors"):
        with open(os.path.join(tmp, there), "w") as f:
            f.write("the user's own\n")
        r = run([EXE, "--load", LM, "--export-torch", "old.py"], tmp)
        check(r.returncode == 2 and there + " exists" in r.stderr and not r.stdout,
              "--export-torch old.py over %s: status %d, %s" % (there, r.returncode, r.stderr))
        check(sorted(f for f in os.listdir(tmp) if f.startswith("old")) == [there],
              "--export-torch old.py over %s wrote %s" % (there, os.listdir(tmp)))
        with open(os.path.join(tmp, there)) as f:
            check(f.read() == "the user's own\n", "%s was changed" % there)
        os.remove(os.path.join(tmp, there))


def written_message(tmp):
    """The message names the file as a shell would run it, and never
    passes a control character of its name to the terminal."""
    for name, command in (("-x y.py", "python3 './-x y.py' WORD"),
                          ("\x1b[31mred.py", "python3 '<U+001B>[31mred.py' WORD")):
        r = run([EXE, "--load", LM, "--export-torch", name], tmp)
        check(r.returncode == 0 and command in r.stderr and "\x1b" not in r.stderr,
              "--export-torch %r: status %d, %r" % (name, r.returncode, r.stderr))
        weights = name[:-3] + ".safetensors"
        check(os.path.isfile(os.path.join(tmp, name)) and
              os.path.isfile(os.path.join(tmp, weights)), "%r was not written" % name)
        for f in (name, weights):
            if os.path.exists(os.path.join(tmp, f)):
                os.remove(os.path.join(tmp, f))


with tempfile.TemporaryDirectory() as tmp:
    language_model(tmp)
    letter_task(tmp, 1)
    letter_task(tmp, 2)
    letter_task(tmp, 4)
    refusals(tmp)
    written_message(tmp)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
