#!/bin/bash
# Autoplay: --autoplay moves on by itself (the stages, round and round;
# the steps of a lesson), the status line says so; a key pauses it (nothing
# moves for several intervals and the status says "paused"), a plays on.
. "$(dirname "$0")/lib.sh"

title() { screen | sed -n 2p | grep -oE '^[0-9]+ · [A-Za-z]+'; }

start 100 30 -- --autoplay 0.5
wait_for "autoplay 0.5s"
wait_for "1 · Projection" 3
wait_for "2 · Split" 3
wait_for "3 · Transpose" 3
keys j # any key pauses
wait_for "paused"
wait_gone "autoplay 0.5s"
before=$(title)
sleep 1.6 # more than three intervals
check "nothing moves while paused ($before)" test "$(title)" = "$before"
keys a
wait_for "autoplay 0.5s"
wait_gone "$before" 3
keys a
wait_for "Autoplay off."
wait_gone "autoplay 0.5s"
keys q
wait_exit 0
T kill-server

# a lesson: the next steps by themselves; a checkpoint shows its answer
start 120 40 -- --lesson 2 --step 4 --autoplay 0.5
wait_for "step 4/$(lesson_steps 2)"
wait_for "step 5/$(lesson_steps 2)" 4
wait_for "The answer: 3." 4
wait_for "step 6/$(lesson_steps 2)" 4
keys Escape # pauses (and leaves the cell cursor if a step put it somewhere)
wait_for "paused"
quit_lesson

# a step that trains is watched to its end: autoplay moves on only once
# every run has stopped
start 100 30 -- --lesson 16 --autoplay 0.3
wait_for "step 1/$(lesson_steps 16)"
wait_for "first-prev · step"
sleep 1.5 # five intervals: still training, still step 1
screen | grep -qF "· stopped" || {
    screen | grep -qF "step 1/$(lesson_steps 16)" || fail "autoplay left a step that was still training"
}
pass
wait_for "· stopped" 60
wait_for "step 2/$(lesson_steps 16)" 30
quit_lesson
