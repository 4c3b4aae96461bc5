#!/bin/bash
# Lessons in the explorer: --lesson opens one; Space reads on and each step's
# scene sets the screen (the stage in the pipeline bar, the sizes in the
# status line); a checkpoint asks first and marks a wrong and a right answer;
# a stage key changes the screen and the next step puts the scene back;
# Backspace replays the scenes; Esc leaves.  After a restart the L list shows
# the progress, and Enter opens a lesson where it was left.
. "$(dirname "$0")/lib.sh"

start 120 40 -- --lesson 2
wait_for "Lesson 2 · The pipeline at a glance"
wait_for "step 1/$(lesson_steps 2)"
wait_for "0 · Input"
wait_bar "0 Input"
wait_for "d_model 6 │ heads 2 │ d_k 3"

space_until "step 2/$(lesson_steps 2)"
wait_bar "1 Projection"
wait_for "1 · Projection"
space_until "step 3/$(lesson_steps 2)"
wait_bar "2 Split"
space_until "step 4/$(lesson_steps 2)"
wait_bar "3 Transpose"

# step 5 asks how many weight tables with 3 heads: predict first (a wrong
# number, one more try, another wrong one)
space_until "step 5/$(lesson_steps 2)"
wait_bar "4 Attention"
wait_for "Checkpoint: predict, then check"
wait_for "Your answer:"
keys Space
wait_for "Predict first"
type_text "2"
wait_for "Your answer: 2"
keys Enter
wait_for "✗ Not quite (you said 2). One more try."
type_text "4"
keys Enter
wait_for "✗ Not quite: the answer is 3 (you said 2,"

# a number typed after the answer stays with the checkpoint; ← moves the
# stage inside the lesson, and the next step resets it
keys 0
wait_for "The checkpoint is answered (3)"
wait_bar "4 Attention"
keys Escape # the step's cell cursor goes; ← moves the stage
sleep 0.2
keys Left
wait_for "3 · Transpose"
wait_bar "3 Transpose"
space_until "step 6/$(lesson_steps 2)"
wait_bar "5 Merge"
wait_for "5 · Merge"

# step 7: a choice asked on the merge, answered right; the output shows then
space_until "step 7/$(lesson_steps 2)"
wait_bar "5 Merge"
wait_for "(2, 4, 3)"
keys 1
wait_for "✓ Right: the input's"
wait_bar "6 Output"
wait_for "End of the lesson"

# back: the scenes are replayed from the start
keys BSpace
wait_for "step 6/$(lesson_steps 2)"
wait_bar "5 Merge"
keys BSpace
wait_for "step 5/$(lesson_steps 2)"
wait_bar "4 Attention"
wait_for "You answered this before: not quite."
keys Escape # leaves the cell cursor if the step put it somewhere, else the lesson
sleep 0.2
screen | grep -qF "Left the lesson" || keys Escape
wait_for "Left the lesson"
wait_gone "step 5/$(lesson_steps 2)"
keys q
wait_exit 0
T kill-server
sleep 0.2

# another lesson, from step 3: it asks about 3 heads while 2 are on screen,
# and its reveal makes 3 once answered; the next step has 1
start 120 40 -- --lesson 5 --step 3
wait_for "Lesson 5 · Splitting into heads"
wait_for "step 3/$(lesson_steps 5)"
wait_for "heads 2 │ d_k 3"
wait_bar "2 Split"
wait_for "With d_model 6 and 3 heads, how many columns"
type_text "2"
keys Enter
wait_for "✓ Right: 2."
wait_for "heads 3 │ d_k 2"
space_until "step 4/$(lesson_steps 5)"
wait_for "heads 1 │ d_k 6"
quit_lesson
T kill-server
sleep 0.2

# a restart keeps the progress: the list shows it, Enter resumes
start 120 40
wait_for "0 · Input"
keys L
wait_for "Lessons"
wait_for "The pipeline at a glance"
# (each lesson's count of steps from --list-lessons, not written here)
n2=$(lesson_steps 2)
check "lesson 2 is done with one of two checkpoints right at the first try" \
    bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE 'The pipeline at a glance +$n2/$n2 ✓ +1/2'"
check "lesson 5 shows 2 of its steps seen" \
    bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE 'Splitting into heads +2/$(lesson_steps 5) +1/2'"
check "an unread lesson shows 0 steps seen" \
    bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE 'Why one head is not enough +0/$(lesson_steps 1) '"
keys Down
keys Enter
wait_for "Lesson 2 · The pipeline at a glance"
wait_for "step 5/$(lesson_steps 2)"
wait_bar "4 Attention"
# while its checkpoint waits for a number, a letter is typed into the
# answer and reaches none of the explorer's keys (L would open the list)
keys L
wait_for "Your answer: L"
screen | grep -qF "↑ ↓ choose · Enter opens" && fail "L opened the lesson list at a checkpoint"
pass
keys Enter
wait_for '"L" is not a number'
keys BSpace
type_text "3"
keys Enter
wait_for "✓ Right: 3."
keys L
wait_for "↑ ↓ choose · Enter opens"
keys NPage # the last entry, below the lessons however many they are
wait_for "Leave the lesson"
keys Enter
wait_for "Left the lesson"
keys q
wait_exit 0
T kill-server
sleep 0.2

# --reset-progress forgets it all: the list shows 0 steps seen again
XDG_STATE_HOME="$WORK/state" "$EXE" --reset-progress 2>"$WORK/reset.err" ||
    fail "--reset-progress failed: $(cat "$WORK/reset.err")"
check "--reset-progress says what it did" grep -q "forgot the progress of every lesson" "$WORK/reset.err"
start 120 40
wait_for "0 · Input"
keys L
wait_for "Lessons"
check "lesson 2 is unread again" \
    bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE 'The pipeline at a glance +0/$(lesson_steps 2) '"
keys q
keys q
wait_exit 0
