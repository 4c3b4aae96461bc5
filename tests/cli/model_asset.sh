#!/bin/bash
# The bundled language model (assets/models/sentences.json, lessons 18, 19) is
# what the README's one command trains: trained again here and compared byte
# for byte.  Then the figures lesson 18 states about it, from the model
# itself: the documents' sentences, agreement, the ambiguous "too", and
# what its heads write.
EXE=$(realpath "${1:?usage: $0 path/to/mha-explorer}")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MODEL=$HERE/../../assets/models/sentences.json
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
passed=0
failed=0
check() {
    local what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

"$EXE" --train sentences --seed 1 --save sentences.json --dump summary --format json \
    >summary.json 2>err.txt
check "the README's command trains (exit $?: $(head -c 200 err.txt))" test -s sentences.json
check "the bundled model is what the command trains, byte for byte" cmp -s sentences.json "$MODEL"

# next_word SENTENCE N: "word p" lines, the N likeliest first
next_word() {
    "$EXE" --load "$MODEL" --tokens "$1" --dump output --format json |
        python3 -c 'import json, sys
for w in json.load(sys.stdin)["output"]["next_word"][:int(sys.argv[1])]:
    print(w["word"], w["p"])' "$2"
}
check "the cat sat on the -> mat" test "$(next_word "the cat sat on the" 1 | cut -d' ' -f1)" = mat
check "the dog sat on the -> rug" test "$(next_word "the dog sat on the" 1 | cut -d' ' -f1)" = rug
check "the keys to the cabinet -> are" test "$(next_word "the keys to the cabinet" 1 | cut -d' ' -f1)" = are
check "the key to the cabinets -> is" test "$(next_word "the key to the cabinets" 1 | cut -d' ' -f1)" = is
# the ambiguous ending (lesson 18): wide 0.91, tired 0.08, in that order
too=$(next_word "the animal didn't cross the street because it was too" 2)
check "the animal ... too: wide 0.91, tired 0.08 ($too)" python3 -c '
import sys
words = [l.split() for l in sys.argv[1].splitlines()]
got = [(w, "%.2f" % float(p)) for w, p in words]
sys.exit(0 if got == [("wide", "0.91"), ("tired", "0.08")] else 1)' "$too"
# two words at once (lesson 18): the dogs' sound in the cats' number
check "the cats by the cow copied the dogs and now -> bark" \
    test "$(next_word "the cats by the cow copied the dogs and now" 1 | cut -d' ' -f1)" = bark
check "the owl sat on the -> roof" test "$(next_word "the owl sat on the" 1 | cut -d' ' -f1)" = roof
# head 1's six strongest writes (lessons 18 and 19): in -> morning, an -> moo
# by 13.5, copied -> buzz, cats -> purr, on -> floor, cat -> purr; head 0's
# first four (lesson 19): copied -> and, rain -> gardens, day -> cabinets,
# heavy -> teacher
"$EXE" --load "$MODEL" --dump circuits --format json >c.json
check "head 1 writes animal sounds: an -> moo (13.5), copied -> buzz, cats -> purr, cat -> purr" python3 -c '
import json, sys
heads = json.load(open("c.json"))["circuits"]["heads"]
rows = heads[1]["writes"][0]["raises"]
want = [("in", "morning"), ("an", "moo"), ("copied", "buzz"), ("cats", "purr"),
        ("on", "floor"), ("cat", "purr")]
ok = [(r["attended"], r["words"][0]["word"]) for r in rows] == want
ok = ok and "%.1f" % rows[1]["words"][0]["logit"] == "13.5"
rows = heads[0]["writes"][0]["raises"]
ok = ok and [(r["attended"], r["words"][0]["word"]) for r in rows[:4]] == [
    ("copied", "and"), ("rain", "gardens"), ("day", "cabinets"), ("heavy", "teacher")]
sys.exit(0 if ok else 1)'
# lessons 1 and 13: at the last "the" of "the cat sat on the" head 0 looks at
# cat (0.9998) and head 1 at on (0.8419); with "big" in front, still cat and
# on; at "it" of the long sentence head 0 looks at "cat" (0.90) and head 1 at
# "on" (0.86), and mat gets 0.09 and 0.0000
weights() {
    "$EXE" --load "$MODEL" --tokens "$1" --dump attention --format json |
        python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["attention"]["weights"]))'
}
weights "the cat sat on the" >w1.json
weights "the big cat sat on the" >w2.json
weights "the cat sat on the mat because it was soft" >w3.json
check "lesson 13's weights: cat and on, wherever the cat stands; it does not look at mat" python3 -c '
import json, sys
w1, w2, w3 = (json.load(open(f)) for f in ("w1.json", "w2.json", "w3.json"))
ok = "%.4f" % w1[0][4][1] == "0.9998" and "%.4f" % w1[1][4][3] == "0.8419"
ok = ok and max(range(6), key=lambda j: w2[0][5][j]) == 2 and max(range(6), key=lambda j: w2[1][5][j]) == 4
it, cat, on, mat = 7, 1, 3, 5
ok = ok and max(range(10), key=lambda j: w3[0][it][j]) == cat and max(range(10), key=lambda j: w3[1][it][j]) == on
ok = ok and "%.2f" % w3[0][it][cat] == "0.90" and "%.2f" % w3[1][it][on] == "0.86"
ok = ok and "%.2f" % w3[0][it][mat] == "0.09" and "%.4f" % w3[1][it][mat] == "0.0000"
sys.exit(0 if ok else 1)'
# the cat example (assets/examples/cat-sat.json, the same model on "the cat
# sat on the mat because it was soft"): lesson 8's row sat (head 1: itself,
# 0.9982), lesson 14's raw scores (head 0: the second "the" to cat 32.41,
# cat to it 45.36)
"$EXE" --load "$HERE/../../assets/examples/cat-sat.json" --dump attention --format json >cs.json
check "cat-sat runs the bundled model on its sentence (the same rows as lesson 13's)" python3 -c '
import json, sys
a = json.load(open("cs.json"))["attention"]
w1 = json.load(open("w3.json"))
ok = a["weights"] == w1
ok = ok and "%.4f" % a["weights"][1][2][2] == "0.9982"
ok = ok and "%.2f" % a["scores"][0][4][1] == "32.41" and "%.2f" % a["scores"][0][1][4] == "45.36"
sys.exit(0 if ok else 1)'
# lesson 14's heads view of it: the similarity and the ranks it quotes, and
# the random example of the same size beside them
"$EXE" --print-lesson 14 >l14.txt
check "lesson 14's heads-view figures are on its screens" python3 -c '
import sys
t = open("l14.txt").read()
for fig in ("0.0030", "8.94", "9.32", "13.46", "14.00"):
    if t.count(fig) < 2:  # in the words and on the screen
        sys.exit("%s: %d" % (fig, t.count(fig)))'
# the text dump has it as doc/training.md quotes it
"$EXE" --load "$MODEL" --dump circuits >c.txt
check "the circuits dump's first write of head 0, as doc/training.md quotes it" \
    grep -qE "^ +copied +-> and \+15\.40, flower \+8\.22, \. \+8\.08$" c.txt
check "doc/training.md quotes the circuits dump's first write of head 0" \
    grep -qF '`copied -> and +15.40, flower +8.22, . +8.08`' "$HERE/../../doc/training.md"
# the circuits view of lesson 19 lists the same: an raises moos, copied and
"$EXE" --print-lesson 19 >l19.txt
check "lesson 19's circuits view: an -> moo, copied -> and" python3 -c '
import re, sys
t = open("l19.txt").read()
v = t[t.index("Circuits view"):]
ok = re.search(r"an → moo\b", v) and re.search(r"copied → and", v)
sys.exit(0 if ok else 1)'
# knocked out (lesson 19): head 0 leaves 0.04 of content and 0.42 of the long
# job; head 1 leaves 0.59 of content and 0.06 of the long job; with both,
# content is 0.97 (78 of 80) and long 1.00
check "the knock-outs lesson 19 quotes" python3 -c '
import json, sys
s = json.load(open("summary.json"))
k = s["knocked_out"]
got = ["%.2f" % x for x in (s["jobs"]["content"]["next"], s["jobs"]["long"]["next"],
                            k[0]["jobs"]["content"], k[1]["jobs"]["content"],
                            k[0]["jobs"]["long"], k[1]["jobs"]["long"])]
ok = got == ["0.97", "1.00", "0.04", "0.59", "0.42", "0.06"]
sys.exit(0 if ok else 1)'

# Every figure the lessons' prose, README's picture and doc/files.md's example
# files quote from the bundled model, computed here from the dumps above and
# looked for in the text that quotes it: a model trained again cannot leave a
# lesson saying old numbers.
"$EXE" --load "$MODEL" --tokens "the cats by the cow copied the dogs and now" \
    --dump attention --format json >now.json
"$EXE" --load "$MODEL" --tokens "the animal didn't cross the street because it was too" \
    --dump output --format json >too.json
"$EXE" --load "$MODEL" --tokens "the cat sat on the" --dump output --format json >mat.json
check "the lessons and README quote the model's own figures" python3 - "$HERE/../.." <<'PY'
import json, sys
root = sys.argv[1]
w1 = json.load(open("w1.json"))
cs = json.load(open("cs.json"))["attention"]
w3, sc = cs["weights"], cs["scores"]
now = json.load(open("now.json"))["attention"]["weights"]
too = json.load(open("too.json"))["output"]["next_word"]
mat = json.load(open("mat.json"))["output"]["next_word"][0]
s = json.load(open("summary.json"))
k = s["knocked_out"]
heads = json.load(open("c.json"))["circuits"]["heads"]
words = "the cat sat on the mat because it was soft".split()
row = lambda w, h, r: max(range(r + 1), key=lambda j: w[h][r][j])
now_words = "the cats by the cow copied the dogs and now".split()
who = {"cats": "the subject", "dogs": "the animal copied"}
an = [r for r in heads[1]["writes"][0]["raises"] if r["attended"] == "an"][0]["words"][0]
quotes = [
    ("lessons/01-why-heads.md", "head 0 looks at *%s* and head 1 at *%s*" % (
        words[row(w3, 0, 4)], words[row(w3, 1, 4)])),
    ("lessons/01-why-heads.md", 'head 0 spends %.4f of its own on "cat" and head 1 %.4f of its own '
     'on "on"' % (w1[0][4][1], w1[1][4][3])),
    ("lessons/08-causal-mask.md", '"sat" itself, with %.4f of the weight' % w3[1][2][2]),
    ("lessons/13-specialised-heads.md", '"cat", with a weight of %.4f' % w1[0][4][1]),
    ("lessons/13-specialised-heads.md", '"on", the word just before, with %.4f of the weight'
     % w1[1][4][3]),
    ("lessons/13-specialised-heads.md", "head 0 looks back at *%s* (%.2f of its weight) and head 1 "
     "at *%s* (%.2f); *mat* gets %.2f in head 0 and %.4f in head 1" % (
         words[row(w3, 0, 7)], max(w3[0][7]), words[row(w3, 1, 7)], max(w3[1][7]), w3[0][7][5],
         w3[1][7][5])),
    ("lessons/14-design-choices.md", "*cat* is %.2f; from *cat* to that *the* it is %.2f" % (
        sc[0][4][1], sc[0][1][4])),
    ("lessons/18-a-language-model.md", "*%s* %.2f and *%s* %.2f" % (
        too[0]["word"], too[0]["p"], too[1]["word"], too[1]["p"])),
    ("lessons/18-a-language-model.md", "head 0 takes %s, head 1 %s" % (
        who[now_words[row(now, 0, 9)]], who[now_words[row(now, 1, 9)]])),
    ("lessons/19-what-the-heads-do.md", '"%s" by %.1f (a logit above that row\'s mean) when head 1 '
     'attends to "an"' % (an["word"], an["logit"])),
    ("lessons/19-what-the-heads-do.md", "%.2f of it: without head 0" % k[0]["jobs"]["content"]),
    ("lessons/19-what-the-heads-do.md", "the long job falls to %.2f" % k[0]["jobs"]["long"]),
    ("lessons/19-what-the-heads-do.md", "leaves %.2f of content and %.2f of the long job" % (
        k[1]["jobs"]["content"], k[1]["jobs"]["long"])),
    ("README.md", 'from the second "the", head 0 looks at "%s" and head 1 at "%s"' % (
        words[row(w3, 0, 4)], words[row(w3, 1, 4)])),
    ("doc/training.md", 'python3 lm.py the cat sat on the # [{"word": "%s", "p": %.4f...}' % (
        mat["word"], mat["p"])),
    ("doc/files.md", 'From the second "the", one head looks at *%s* and the other at *%s*' % (
        words[row(w3, 1, 4)], words[row(w3, 0, 4)])),
]
bad = 0
for path, want in quotes:
    text = " ".join(open("%s/%s" % (root, path), encoding="utf-8").read().split())
    if want not in text:
        print("%s does not say: %s" % (path, want))
        bad += 1
sys.exit(1 if bad else 0)
PY
# README's picture is the program's own export of the cat example, as it is now
"$EXE" --load "$HERE/../../assets/examples/cat-sat.json" --dump attention --format svg >cat.svg
check "doc/attention-cat-sat.svg is what --dump attention --format svg draws" \
    cmp -s cat.svg "$HERE/../../doc/attention-cat-sat.svg"

echo "model_asset: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
