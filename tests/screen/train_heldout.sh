#!/bin/bash
# What the training screen says about held-out lines: the curve's legend
# names the training loss and the held-out loss at 80x24; a text too small
# to learn from says so on screen and in --dump summary; with --compare
# 1,2 on a text at 120x40, scrubbing back (Left) keeps each pane's job
# accuracies and the heads' job titles, and moves no pane, title, curve,
# accuracy line or head.
. "$(dirname "$0")/lib.sh"

start 80 24 -- --train first-prev --steps 300
wait_for "first-prev · step"
faster
wait_for "· stopped" 60
check "the curve's legend names both losses" bash -c "tmux -L $SOCK capture-pane -p | grep -qP '▆ train(ing)? +• held-out'"
keys q
wait_exit 0
T kill-server
sleep 0.2

# three lines: 32 words, nothing carries over to the held-out line
cd "$WORK/cwd"
printf '%s\n' "the cat sat on the mat and the dog sat on the rug" \
    "a bird sang in the tree by the old house today" \
    "the fish swam under the bridge all day" >tiny.txt
"$EXE" --train tiny.txt --steps 600 --dump summary >tiny.out 2>/dev/null || fail "--dump summary failed"
check "the summary says the text is too small" grep -q "^too small    32 words (a text needs 2000 or more)" tiny.out
check "... and that the held-out loss was lowest at step 0" grep -q "Held-out loss lowest at step 0" tiny.out
check "... and rises while the training loss falls" grep -q "learns its lines by heart" tiny.out
"$EXE" --train tiny.txt --steps 600 --dump summary --format json >tiny.json 2>/dev/null || fail "--format json failed"
check "JSON names the signs" python3 -c 'import json, sys
fit = json.load(open(sys.argv[1]))["fit"]
assert fit["too_small"] == ["few_words", "best_at_start", "rising"], fit
assert fit["lowest_step"] == 0 and fit["min_words"] == 2000, fit
assert fit["held_out_loss"] > fit["lowest"] > fit["training_loss"], fit' tiny.json
# the bundled corpus is large enough: no sign
"$EXE" --train sentences --steps 300 --dump summary --format json >big.json 2>/dev/null || fail "sentences failed"
check "the bundled corpus shows no sign" python3 -c 'import json, sys
assert json.load(open(sys.argv[1]))["fit"]["too_small"] == []' big.json
start 80 24 -- --train tiny.txt --steps 600
wait_for "Too small to learn from: 32 words (a text needs 2000 or more)."
wait_for "learns its lines by heart" 60
keys q
wait_exit 0
T kill-server
sleep 0.2

# where each thing is: line and column of every pane's title, curve
# legend, accuracy and job lines, and heads
layout() {
    screen | python3 -c 'import re, sys
for y, line in enumerate(sys.stdin.read().split("\n")):
    for m in re.finditer(r"(▶ )?[12] heads? |train(ing)? +• held-out|next +|  (long|local|agree|content) |head [01] ", line):
        print(y, m.start(), m.group(0).strip())'
}
start 120 40 -- --train sentences --compare 1,2 --steps 300
faster
wait_for "Every run stopped" 240
live=$(layout)
jobs_live=$(screen | grep -oP '  (long|local|agree|content) +[0-9.]+%' | wc -l)
check "each pane lists its jobs ($jobs_live lines)" test "$jobs_live" -eq 8
keys Left
wait_for "· checkpoint"
sleep 0.5
scrubbed=$(layout)
check "scrubbing moves nothing: $(diff <(echo "$live") <(echo "$scrubbed") | tr '\n' ' ')" test "$live" = "$scrubbed"
jobs_back=$(screen | grep -oP '  (long|local|agree|content) +[0-9.]+%' | wc -l)
check "a checkpoint keeps each pane's jobs ($jobs_back lines)" test "$jobs_back" -eq 8
check "... and the heads' job titles" bash -c "tmux -L $SOCK capture-pane -p | grep -qP 'head [01] [a-z]+(\+[a-z]+)*'"
keys q
wait_exit 0
