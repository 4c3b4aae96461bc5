#!/bin/bash
# Checkpoints ask before they tell: the row a checkpoint asks about shows
# "?" until it is answered, and Enter on it explains nothing; a first wrong
# answer gets one more try (a choice tried once cannot be picked again);
# the step's reveal (scaling off) is applied only once it is answered.
. "$(dirname "$0")/lib.sh"

# lesson 7 step 3: which key does row tok 1 of head 0 favour? its weights hide
start 120 40 -- --lesson 7 --step 3
wait_for "step 3/$(lesson_steps 7)"
wait_for "In head 0, which key does row tok 1 attend"
check "head 0's weights row tok 1 is hidden" \
    bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE '^tok 1 +\? +\? +\? +\? +tok 1'"
keys 3
wait_for "One more try"
keys 3
wait_for "already: pick another one"
keys 2
wait_for "✓ Right: tok 1."
check "the weights show once answered" \
    bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE '^tok 1 +0\.17 +0\.44 +0\.03 +0\.36'"
quit_lesson
T kill-server
sleep 0.2

# lesson 7 step 5: asked with the scaling on; the reveal switches it off
start 120 40 -- --lesson 7 --step 5
wait_for "step 5/$(lesson_steps 7)"
wait_for "scaling ÷√3"
keys 1
wait_for "✓ Right: it goes up, towards 1."
wait_for "scaling off"
# the next step starts from the revealed setting
space_until "step 6/$(lesson_steps 7)"
wait_for "scaling off"
wait_for "d_model 12"
quit_lesson
T kill-server
sleep 0.2

# lesson 1 step 1: every weight is hidden while it asks for their sum
start 120 40 -- --lesson 1 --step 1
wait_for "What do the weights in one row of one head"
check "no weight is shown" \
    bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE '^tok 0 +\? +\? +\? +\?'"
type_text "1"
keys Enter
wait_for "✓ Right: 1."
wait_gone "?     ?"
quit_lesson
T kill-server
sleep 0.2

# at 80x24 the checkpoint's answer line is below the fold: the pane scrolls
# to it while it waits
start 80 24 -- --lesson 7 --step 5
wait_for "step 5/$(lesson_steps 7)"
wait_for "Press 1-3 to answer."
quit_lesson

# a word typed at a checkpoint that asks for a number is the answer, not the
# explorer's keys: "three" neither re-draws nor exports (e wrote two SVGs
# into the working folder), h does not leave the stage, Enter asks for digits
start 80 24 -- --lesson 2 --step 5
wait_for "Your answer:"
type_text "three"
wait_for "Your answer: three"
keys Enter
wait_for '"three" is not a number'
check "nothing was written into the working folder" test -z "$(ls -A "$WORK/cwd")"
keys BSpace BSpace BSpace BSpace BSpace
type_text "3"
keys Enter
wait_for "✓ Right: 3."
quit_lesson
