#!/bin/bash
# Hints name the keys of the mode in front, and every key a hint names does
# what the hint says, at 80x24: the matrices' marker (scroll, next matrix),
# the lesson pane's marker and fold line (reads on, scroll back, shows them)
# and the message line's hint, in a lesson, in a checkpoint with choices and
# in one that takes a typed number, on a lesson's training screen (and the
# training screen of a model of layers, whose hint names y) and with
# the explain panel open.  A checkpoint that takes letters is never
# given a letter to press.  q in a lesson leaves the lesson and asks nothing;
# a second q quits.  A wrong first answer keeps a two-choice checkpoint open,
# and a number typed after the answer never reaches the stages.
. "$(dirname "$0")/lib.sh"
export LC_ALL=C.UTF-8

# tkey NAME: tmux's name for a key as the hints write it
tkey() {
    case $1 in
    "↓") echo Down ;;
    "↑") echo Up ;;
    PgDn) echo NPage ;;
    PgUp) echo PPage ;;
    S-Tab) echo BTab ;;
    Backspace) echo BSpace ;;
    Esc) echo Escape ;;
    *) echo "$1" ;;
    esac
}

# named_before WORDS: the keys a hint on the screen names just before WORDS
# ("… · ↓ j scroll" gives "↓ j")
named_before() {
    screen | grep -oP "(^ *|· )\K[^·]*?(?= $1( |$))" | head -1 | sed 's/^ *//'
}

# above: how far the matrices are scrolled, as their marker says
above() { screen | grep -oP '↑ \d+ more above' | head -1; }
# pane_below: how much of the lesson text is below, as its marker says
pane_below() { screen | grep -oP '↓ \d+ more lines?' | head -1; }

# no_letters KEYS: none is a letter (a checkpoint would take it as typed)
no_letters() {
    local k
    for k in $1; do [[ $k =~ ^[[:alpha:]]$ ]] && return 1; done
    return 0
}

# ---- a checkpoint with choices (lesson 18 step 7)
start 80 24 -- --lesson 18 --step 7
wait_for "Press 1-4 to answer."
# the matrices' marker: every key it names scrolls them, none is a letter
named=$(named_before "scroll")
check "the matrices' marker names a key" test -n "$named"
check "no letter the checkpoint takes ($named)" no_letters "$named"
for k in $named; do
    before=$(above)
    keys "$(tkey "$k")"
    i=0
    while [ "$(above)" = "$before" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    check "$k scrolls the matrices" test "$(above)" != "$before"
done
check "the answer line is still there" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qF 'Press 1-4 to answer.'"
# the fold line: the keys it names show the folded lines
named=$(named_before "shows them")
check "the fold line names a key" test -n "$named"
set -- $named
keys "$(tkey "$1")"
wait_gone "folded"
# the message line: Space reads on (the rest of the text, then asks to
# predict first, then skips), ? helps, q leaves
named=$(named_before "read on")
check "the hint names the key that reads on ($named)" test "$named" = "Space"
named=$(named_before "help")
keys "$(tkey "$named")"
wait_for "Browsing the stages"
keys q
wait_gone "Browsing the stages"
named=$(named_before "read on")
for i in 1 2 3 4; do
    keys "$(tkey "$named")"
    sleep 0.2
    screen | grep -qF "Predict first" && break
done
wait_for "Predict first"
keys "$(tkey "$named")"
wait_for "step 8/$(lesson_steps 18)"
named=$(named_before "back")
check "the lesson hint names the key that goes back ($named)" test "$named" = "Backspace"
keys "$(tkey "$named")"
wait_for "step 7/$(lesson_steps 18)"
named=$(named_before "leave")
keys "$(tkey "$named")"
wait_for "Left the lesson"
check "one q left the lesson, not the program" test ! -s "$WORK/status"
keys q
wait_exit 0
T kill-server
sleep 0.2

# ---- a checkpoint that takes a typed number (lesson 2 step 5, a cursor on)
start 80 24 -- --lesson 2 --step 5
wait_for "Your answer:"
named=$(named_before "next matrix")
check "the matrices' marker names a key" test -n "$named"
check "no letter the checkpoint would type ($named)" no_letters "$named"
for k in $named; do
    before=$(screen -e | sed -n 3,11p)
    keys "$(tkey "$k")"
    i=0
    while [ "$(screen -e | sed -n 3,11p)" = "$before" ] && [ $i -lt 100 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    check "$k goes to another matrix" test "$(screen -e | sed -n 3,11p)" != "$before"
done
check "nothing was typed" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE 'Your answer: .?$'"
named=$(named_before "shows them")
check "no letter in the fold line ($named)" no_letters "$named"
named=$(named_before "leave")
keys "$(tkey "$named")"
wait_for "Left the lesson"
check "q left the lesson, not the program" test ! -s "$WORK/status"
keys q
wait_exit 0
T kill-server
sleep 0.2

# ---- a step without a checkpoint (lesson 1 step 2): the pane's marker and
# the lesson's hint
start 80 24 -- --lesson 1 --step 2
wait_for "step 2/$(lesson_steps 1)"
wait_for "more lines"
named=$(screen | grep -oP 'reads on · \K.*$' | head -1)
check "the pane's marker names the keys that scroll down" test -n "$named"
top=$(pane_below)
for k in $named; do
    keys K K K K K K K K # back to the top of the step's text
    wait_for "$top"
    before=$(pane_below)
    keys "$(tkey "$k")"
    i=0
    while [ "$(pane_below)" = "$before" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    check "$k scrolls the lesson text" test "$(pane_below)" != "$before"
done
keys J J J J J J J J # to the end of the step's text
wait_for "scroll back"
named=$(screen | grep -oP '↑ \K.*(?= scroll back)' | head -1)
check "at the end the pane's marker names the keys that scroll back" test -n "$named"
for k in $named; do
    before=$(pane_below)
    keys "$(tkey "$k")"
    i=0
    while [ "$(pane_below)" = "$before" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    check "$k scrolls the lesson text back" test "$(pane_below)" != "$before"
    keys J J J J J J J J
    wait_for "scroll back"
done
named=$(named_before "lessons")
keys "$(tkey "$named")"
wait_for "Enter opens where you left it"
keys Escape
wait_gone "Enter opens where you left it"
named=$(named_before "read on")
keys "$(tkey "$named")"
wait_for "step 3/$(lesson_steps 1)"
quit_lesson
T kill-server
sleep 0.2

# ---- two choices: a wrong first answer keeps the checkpoint open, and a
# number typed after the answer stays with the checkpoint (lesson 18 step 5:
# the model agrees with "keys")
start 80 24 -- --lesson 18 --step 5
wait_for "Press 1-2 to answer."
keys 1
wait_for "One more try"
check "the answer is not shown" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -qF 'the answer is'"
keys 2
wait_for "✓ Right: are."
wait_bar "6 Output"
keys 3
wait_for "The checkpoint is answered"
sleep 0.2
wait_bar "6 Output"
quit_lesson
T kill-server
sleep 0.2

# ---- the explain panel over a lesson (lesson 1 step 2): its key closes it,
# and q no longer offers to leave the lesson while the panel is open
start 80 24 -- --lesson 1 --step 2
wait_for "step 2/$(lesson_steps 1)"
keys Enter
wait_for "Explain this number"
named=$(named_before "close")
check "the hint names the panel's key ($named)" test -n "$named"
check "q is not offered to leave while the panel is open" \
    bash -c "! tmux -L '$SOCK' capture-pane -p | grep -qF 'q leave'"
keys "$(tkey "$named")"
wait_gone "Explain this number"
wait_for "step 2/$(lesson_steps 1)"
check "the lesson is still open" test ! -s "$WORK/status"
quit_lesson
T kill-server
sleep 0.2

# ---- a lesson's training screen (lesson 16 step 2): it waits for the
# prediction; then the keys its hint names start it, step it, pause it and
# read on
start 80 24 -- --lesson 16 --step 2
wait_for "The training waits for you"
answer_checkpoint
keys n
wait_for "step 1 of 1500 · paused"
named=$(named_before "step")
check "the hint names the key that steps ($named)" test "$named" = "n"
keys "$(tkey "$named")"
wait_for "step 2 of 1500 · paused"
named=$(named_before "trains on")
check "the hint names the key that trains on ($named)" test -n "$named"
keys "$(tkey "$named")"
wait_for "Training on."
keys K # at the top of the text it scrolls nothing; the message gives way to the hint
wait_for "· n step"
named=$(named_before "pause")
check "the hint names the key that pauses ($named)" test -n "$named"
keys "$(tkey "$named")"
wait_for "Paused: n steps once, p trains on."
keys K
wait_for "p trains on · n step"
named=$(named_before "read on")
check "the hint names the key that reads on ($named)" test "$named" = "Space"
for i in 1 2 3 4 5 6; do
    keys "$(tkey "$named")"
    sleep 0.2
    screen | grep -qF "step 3/$(lesson_steps 16)" && break
done
wait_for "step 3/$(lesson_steps 16)"
quit_lesson
T kill-server
sleep 0.2

# ---- the training screen of a model of layers: its hint names the key
# that shows another layer, and that key shows it; a one-layer model's
# hint names none
start 80 24 -- --train induction --layers 2 --seed 3 --steps 3000
wait_for "│ layer 1 of 0–1 │"
wait_for "· y layer ·"
named=$(named_before "layer")
check "the hint names the key that shows another layer ($named)" test "$named" = "y"
keys "$(tkey "$named")"
wait_for "│ layer 0 of 0–1 │"
keys q
wait_exit 0
T kill-server
sleep 0.2
start 80 24 -- --train induction --seed 3 --steps 3000
wait_for "← → checkpoints"
check "a model of one layer hints no layer key" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -qF '· y layer'"
keys q
wait_exit 0
