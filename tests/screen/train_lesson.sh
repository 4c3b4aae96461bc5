#!/bin/bash
# Lessons that train: lesson 16's first step waits for the reader, paused at
# step 0 and saying so; p starts it, and it trains on screen beside the
# lesson text and stops where --print-lesson says it stops (the same run,
# headless and on screen); p pauses there, Space reads on; the step with a
# stage shows the trained model's stages, and t comes back from its numbers
# (Tab, Enter, t as the step says); lesson 17 trains one head against two
# side by side, once p starts them; at 80x24 Space reads lesson 20 on two
# lines a key, and one run's heads sit beside the lesson, every row whole;
# at 100x30 two runs take the width, every head shown, the lesson below.
. "$(dirname "$0")/lib.sh"

printed=$("$EXE" --print-lesson 16 | grep -m1 -oP 'Stopped at step [0-9]+')
check "the printed lesson says where the training stops ($printed)" test -n "$printed"

start 120 40 -- --lesson 16
wait_for "Lesson 16 · Two heads learn two"
wait_for "Training   first-prev · step 0 of 1500 · paused"
wait_for "The training waits for you: p starts it"
sleep 1
check "it waits" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qF 'step 0 of 1500 · paused'"
space_until "step 2/$(lesson_steps 16)" # the prediction, then the run
wait_for "Training   first-prev" # the same training, still at step 0
answer_checkpoint
keys p
wait_for "Training on."
faster
wait_for "$printed" 90
wait_for "head 1 prev"
space_until "step 3/$(lesson_steps 16)"
space_until "step 4/$(lesson_steps 16)"
wait_for "4 · Attention"
wait_for "first-prev, step"
keys Tab Enter # a number explained, then t: the training again
sleep 0.3
keys t
wait_for "Training   first-prev"
space_until "step 5/$(lesson_steps 16)"
wait_for "Training   first-prev"
quit_lesson

start 120 40 -- --lesson 17
wait_for "1 head "
wait_for "2 heads"
wait_for "The training waits for you"
space_until "step 2/$(lesson_steps 17)"
answer_checkpoint
keys p
wait_for "Training on."
keys p
wait_for "Paused: n steps once, p trains on."
quit_lesson

# at 80x24 two runs side by side give each heatmap two rows to a line, so
# that all four heads show every one of their 16 rows and the lesson keeps
# three lines of text; Space reads on a whole pane of it, not a line
start 80 24 -- --lesson 20
wait_for "The training waits for you"
# lines holding four maps of 16 half cells, each labelled with two tokens
halves() { screen | grep -cP '^(\S\S[▀▄·]{16} +){3}\S\S[▀▄·]{16}$'; }
check "at 80x24 two runs show every row of four heads, two to a line ($(halves) lines)" \
    test "$(halves)" -eq 8
more() { screen | grep -oP '↓ \K[0-9]+(?= more line)' | head -1; }
before=$(more)
keys Space
for i in $(seq 1 60); do # the pane redrawn after the key
    [ -n "$(more)" ] && [ "$(more)" -le $((before - 3)) ] && break
    sleep 0.05
done
check "Space reads on a whole pane of text at 80x24 ($before, then $(more) more lines)" \
    test "$(more)" -le $((before - 3))
quit_lesson

# and so with the step's checkpoint waiting under them
start 80 24 -- --lesson 20 --step 2
wait_for "Press 1-3 to answer"
check "at 80x24 the checkpoint leaves every row of four heads ($(halves) lines)" \
    test "$(halves)" -eq 8
quit_lesson

# without colour two rows cannot share a line: the rows are cut at the foot
start 80 24 NO_COLOR=1 -- --lesson 20
wait_for "The training waits for you"
check "without colour a row to a line, cut" bash -c \
    "! tmux -L '$SOCK' capture-pane -p | grep -q '▀' &&
     tmux -L '$SOCK' capture-pane -p | grep -qE '^S [^ ]'"
quit_lesson

# at 80x24 one run's heads take the left and the lesson the right, so that
# the heads show every one of their 16 rows (below them, they lost half)
# and the step's text and checkpoint are whole beside them
start 80 24 -- --lesson 20 --step 3
wait_for "In which layer is the head titled"
# the heads' rows: the lines under their column numbers that start with a token
rows() { screen | sed -n '/0123456789012345/,$p' | sed 1d | grep -cE '^[^ ]{1,3}  '; }
check "at 80x24 the heads show all 16 rows beside the lesson ($(rows))" test "$(rows)" -eq 16
check "the lesson's checkpoint beside the heads" bash -c \
    "tmux -L '$SOCK' capture-pane -p | grep -qE '^[^ ]{1,3}  .*▌ Press 1-3 to answer'"
quit_lesson

# a checkpoint's long choice wraps under its first word, never cut
start 80 24 -- --lesson 21 --step 3
wait_for "Press 1-3 to answer"
check "lesson 21's choices whole at 80x24" bash -c \
    "tmux -L '$SOCK' capture-pane -p | grep -qE '▌ +1 +about a third, as with one\$' &&
     tmux -L '$SOCK' capture-pane -p | grep -qE '▌ +layer\$' &&
     ! tmux -L '$SOCK' capture-pane -p | grep -oE '▌ +[1-3] .*' | grep -q '…'"
quit_lesson

# at 100x30 the lesson sits beside the numbers, but there two runs side by
# side would each lose a head: the heads take the width, the lesson goes below
start 100 30 -- --lesson 20 --step 1
wait_for "A task one layer cannot do"
wait_for "2 layers"
check "at 100x30 both runs show both heads" bash -c \
    "test \$(tmux -L '$SOCK' capture-pane -p | grep -o 'head 1' | wc -l) -eq 2 &&
     ! tmux -L '$SOCK' capture-pane -p | grep -q 'not shown'"
quit_lesson
