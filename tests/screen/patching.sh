#!/bin/bash
# A two-layer induction model, trained in the test's folder: the patching
# view (--corrupt) names A and B and gives d_clean and d_corrupt and each
# head's share as --dump patching's json does; without a corrupted sentence,
# or with one of another length, it says what to give (:corrupt), and :link
# gives the command line with --corrupt; the output
# stage gives the logit lens, each layer by name, its words as --dump
# lens's, at 80x24 too, and a model of one layer none.
. "$(dirname "$0")/lib.sh"

cd "$WORK/cwd" || exit 1
"$EXE" --train induction --layers 2 --save ind.json --dump summary >/dev/null 2>&1 ||
    fail "--train induction --layers 2 --save ind.json failed"
pass
clean="S K D R L M N T K D"
corrupt="S K D Q L M N T K D"
"$EXE" --load ind.json --tokens "$clean" --corrupt "$corrupt" --dump patching --format json \
    >patching.json || fail "--dump patching failed"
"$EXE" --load ind.json --tokens "$clean" --dump lens --format json >lens.json ||
    fail "--dump lens failed"
pass
# the headline and a line "layer L head H  SHARE  D_PATCHED" per head, as the view writes them
headline=$(python3 -c '
import json, sys
p = json.load(open("patching.json"))["patching"]
print("A \"%s\", B \"%s\": d_clean %.4f, d_corrupt %.4f" % (p["answer"][0], p["answer"][1],
      p["d_clean"], p["d_corrupt"]))')
mapfile -t heads < <(python3 -c '
import json
p = json.load(open("patching.json"))["patching"]
for h in p["heads"]:
    print("layer %d head %d +%.3f +%.4f" % (h["layer"], h["head"], h["score"], h["d_patched"]))')
# "layer 0  E 0.2674, K 0.2065, ..." per layer: the dump's words, as the screen begins them
mapfile -t lens < <(python3 -c '
import json
o = json.load(open("lens.json"))["lens"]["outputs"][0]["by_layer"]
for l in o:
    print("%s  %s" % (l["name"], ", ".join("%s %.4f" % (w["word"], w["p"]) for w in l["next"])))')
check "the dump has four heads and two layers" test "${#heads[@]}:${#lens[@]}" = 4:2

start 100 40 -- --load ind.json --tokens "$clean" --corrupt "$corrupt"
wait_for "Patching view"
wait_for "$headline"
for h in "${heads[@]}"; do
    check "the view's row: $h" bash -c "tmux -L $SOCK capture-pane -p | grep -qP '^${h// /\\s}\$'"
done
wait_for "restored at one position: layer.head by position"
wait_for "R/Q"
keys 6
wait_for "6 · Output"
wait_for 'the logit lens: read after each layer at "D" (position 9, temperature 1)'
for l in "${lens[@]}"; do
    check "the lens's line begins as the dump's: $l" bash -c \
        "tmux -L $SOCK capture-pane -p | grep -qF -- '$l'"
done
# no corrupted sentence: the view says how to give one
keys : && type_text "corrupt" && keys Enter
wait_for "Give it with :corrupt WORDS"
# another length: said, with the clean sentence's
keys : && type_text "corrupt S K D" && keys Enter
wait_for "The corrupted sentence has 3 tokens and the clean one"
keys : && type_text "corrupt $corrupt" && keys Enter
wait_for "$headline"
# :link's command line reopens the view on the same two sentences
keys : && type_text "link" && keys Enter
wait_for "--corrupt '$corrupt'"
keys Escape
wait_gone "--corrupt '$corrupt'"
keys q
wait_exit 0
T kill-server

# 80x24: the output stage shows both layers' lines without scrolling,
# fewer words than at 100 columns where they do not fit
start 80 24 -- --load ind.json --tokens "$clean" --stage output
wait_for "the logit lens"
for l in "${lens[@]}"; do
    first=${l%%, *}
    check "at 80x24 the lens's line of ${l%%  *} is on screen" bash -c \
        "tmux -L $SOCK capture-pane -p | grep -qF -- '$first'"
done
check "no line wider than 80 columns" bash -c "tmux -L $SOCK capture-pane -p |
    python3 -c 'import sys; sys.exit(any(len(l.rstrip(\"\\n\")) > 80 for l in sys.stdin))'"
keys q
wait_exit 0
T kill-server

# a model of one layer: its next words, and no lens
start 100 40 -- --load "$SRC_ROOT/assets/models/sentences.json" --stage output
wait_for "next word after"
check "a model of one layer has no lens" bash -c "! tmux -L $SOCK capture-pane -p | grep -q 'logit lens'"
keys q
wait_exit 0
T kill-server
