"""export_torch: --export-torch FILE.py writes a PyTorch script whose numbers
are the explorer's.  For the bundled language model, the script's ten next
words and their probabilities equal --dump output's "next_word" within 1e-5;
for a letter task of one, two and four layers, each output's prediction
equals the one worked out here from the explorer's own input and output
stages of the last layer (r = input + output, logits = r U^T + bias).  Skipped, with a message, where PyTorch is not installed
(scripts/test does not install it; Debian's python3-torch has it).

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
    import torch  # noqa: F401  (the exported script needs it)
except ImportError:
    print("SKIP: PyTorch is not installed for %s (apt-get install python3-torch)" %
          sys.executable)
    sys.exit(77)

EXE, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
LM = os.path.join(ROOT, "assets", "models", "sentences.json")
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


def language_model(tmp):
    r = run([EXE, "--load", LM, "--export-torch", "lm.py"], tmp)
    check(r.returncode == 0 and os.path.exists(os.path.join(tmp, "lm.py")),
          "--export-torch lm.py: %d %s" % (r.returncode, r.stderr))
    for sentence in ("the cat sat on the", "the cats by the cow copied the dogs and now",
                     "the animal didn't cross the street because it was", "the"):
        want = explorer_json(["--load", LM, "--tokens", sentence, "--dump", "output"],
                             tmp)["output"]["next_word"]
        r = run_script("lm.py", sentence.split(), tmp)
        check(r.returncode == 0, "lm.py %s: %s" % (sentence, r.stderr))
        if r.returncode:
            continue
        got = json.loads(r.stdout)
        check([g["word"] for g in got] == [w["word"] for w in want],
              "%s: words %s, explorer %s" % (sentence, got, want))
        worst = max(abs(g["p"] - w["p"]) for g, w in zip(got, want))
        check(worst <= 1e-5, "%s: probabilities differ by %g" % (sentence, worst))
    r = run_script("lm.py", ["the", "zebra"], tmp)
    check(r.returncode != 0 and "zebra" in r.stderr, "an unknown word: %s" % r.stderr)


def softmax_best(logits):
    top = max(logits)
    e = [math.exp(z - top) for z in logits]
    best = max(range(len(e)), key=lambda j: (e[j], -j))
    return best, e[best] / sum(e)


def letter_task(tmp, layers):
    """A first-prev model of layers layers: the explorer shows the last layer,
    its input the residual stream after the layers below, so input + output
    is what the read-outs read whatever the layers."""
    r = run([EXE, "--train", "first-prev", "--steps", "60", "--seed", "3", "--layers",
             str(layers), "--dump", "summary", "--save", "fp.json"], tmp)
    assert r.returncode == 0, r.stderr
    model = json.load(open(os.path.join(tmp, "fp.json")))
    r = run([EXE, "--load", "fp.json", "--export-torch", "fp.py"], tmp)
    check(r.returncode == 0, "--export-torch fp.py: %s" % r.stderr)
    for words in ([], ["A", "B", "C", "D"], ["P", "O", "N", "M", "L", "K", "J", "I"]):
        args = ["--load", "fp.json"] + (["--tokens", " ".join(words)] if words else [])
        x = explorer_json(args + ["--dump", "input"], tmp)["input"]["query"]
        out = explorer_json(args + ["--dump", "output"], tmp)["output"]
        r_last = [a + b for a, b in zip(x[-1], out[-1])]
        want = {}
        for o in model["outputs"]:
            bias = o.get("bias", [0.0] * o["classes"])
            logits = [sum(r * u for r, u in zip(r_last, row)) + b
                      for row, b in zip(o["unembed"], bias)]
            best, p = softmax_best(logits)
            want[o["name"]] = [model["vocab"][best], p]
        r = run_script("fp.py", words, tmp)
        check(r.returncode == 0, "fp.py %s: %s" % (words, r.stderr))
        if r.returncode:
            continue
        got = json.loads(r.stdout)
        for name, (label, p) in want.items():
            check(got.get(name, [None])[0] == label and abs(got[name][1] - p) <= 1e-5,
                  "%d layers, %s %s: script %s, explorer %s" % (layers, words, name,
                                                               got.get(name), [label, p]))


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


def written_message(tmp):
    """The message names the file as a shell would run it, and never
    passes a control character of its name to the terminal."""
    for name, command in (("-x y.py", "python3 './-x y.py' WORD"),
                          ("\x1b[31mred.py", "python3 '<U+001B>[31mred.py' WORD")):
        r = run([EXE, "--load", LM, "--export-torch", name], tmp)
        check(r.returncode == 0 and command in r.stderr and "\x1b" not in r.stderr,
              "--export-torch %r: status %d, %r" % (name, r.returncode, r.stderr))
        check(os.path.isfile(os.path.join(tmp, name)), "%r was not written" % name)
        if os.path.exists(os.path.join(tmp, name)):
            os.remove(os.path.join(tmp, name))


with tempfile.TemporaryDirectory() as tmp:
    language_model(tmp)
    letter_task(tmp, 1)
    letter_task(tmp, 2)
    letter_task(tmp, 4)
    refusals(tmp)
    written_message(tmp)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
