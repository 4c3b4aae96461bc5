#!/bin/bash
# The mouse, where the terminal reports it: a click on a stage in the
# pipeline bar goes there, a click on a number explains it, the wheel does
# what the arrow keys do, a click on a lesson in the list opens it, and the
# help scrolls with the wheel.  --no-mouse leaves the mouse to the terminal.
# Clicks are sent as the terminal sends them (SGR mouse reports, 1-based).
. "$(dirname "$0")/lib.sh"

click() { T send-keys -l $'\e[<0;'"$2;$1M"; T send-keys -l $'\e[<0;'"$2;$1m"; }  # click ROW COL
wheel_down() { T send-keys -l $'\e[<65;'"$2;$1M"; }
wheel_up() { T send-keys -l $'\e[<64;'"$2;$1M"; }
# col_of TEXT LINE: the 1-based column where TEXT starts on screen line LINE
col_of() { screen | sed -n "${2}p" | awk -v t="$1" '{ print index($0, t) }'; }
# line_of TEXT: the 1-based screen line TEXT is first on
line_of() { screen | grep -nF -- "$1" | head -1 | cut -d: -f1; }

start 100 30
wait_for "0 · Input"
check "the explorer asked for mouse reports" test "$(T display -p '#{mouse_any_flag}')" = 1
# a stage in the bar
x=$(col_of "4 Attention" 1)
click 1 $((x + 2))
wait_for "4 · Attention"
x=$(col_of "2 Split" 1)
click 1 $((x + 1))
wait_for "2 · Split"
keys 0
wait_for "0 · Input"
# a number: the cursor goes there and the explain panel says what it is
y=$(line_of "tok 1  -0.91")
click "$y" 21
wait_for "Explain this number"
wait_for "query[1, 2]: dimension 2 of token \"tok 1\""
keys Escape Escape
wait_gone "Explain this number"
# the wheel with the cell cursor: three rows down, as three ↓ would
keys Tab g
wheel_down 10 10
keys Enter
wait_for "query[3, 0]"
keys Escape Escape
T kill-server

# the wheel scrolls as j and k do
start 100 30
wait_for "0 · Input"
before=$(screen -e)
wheel_down 10 10
settle "$before"
after_wheel=$(screen | sed -n 2p)
T kill-server
start 100 30
wait_for "0 · Input"
keys j j j
i=0
while [ "$(screen | sed -n 2p)" != "$after_wheel" ] && [ $i -lt 200 ]; do
    sleep 0.05
    i=$((i + 1))
done
check "the wheel does what three j do" test "$(screen | sed -n 2p)" = "$after_wheel"
# the help scrolls with the wheel
keys ?
wait_for "Browsing the stages"
wheel_down 10 10
wheel_down 10 10
wait_gone "Browsing the stages"
wheel_up 10 10
wheel_up 10 10
wait_for "Browsing the stages"
keys q
# a lesson in the list
keys L
wait_for "Queries, keys and values"
y=$(line_of "Queries, keys and values")
click "$y" 20
wait_for "Lesson 3"
quit_lesson
T kill-server

# over the lesson text the wheel scrolls the lesson, as J does
start 80 24 -- --lesson 2 --step 1
wait_for "Lesson 2 · The pipeline at a glance · step 1/$(lesson_steps 2)"
check "the lesson text starts at its top" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -qF 'K scroll back'"
y=$(line_of "Lesson 2 · The pipeline at a glance")
wheel_down $((y + 2)) 6 # two notches reach the end of the step's text
wheel_down $((y + 2)) 6
wait_for "↑ PgUp K scroll back"
wheel_up $((y + 2)) 6
wheel_up $((y + 2)) 6
wait_gone "↑ PgUp K scroll back"
quit_lesson
T kill-server

# --no-mouse: the terminal keeps its mouse (selecting text works as usual)
start 100 30 -- --no-mouse
wait_for "0 · Input"
check "no mouse reports asked for" test "$(T display -p '#{mouse_any_flag}')" = 0
keys q
wait_exit 0
