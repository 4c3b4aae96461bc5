#!/bin/bash
# Keys are keys or nothing.  Inside tmux with TERM=xterm-256color (as every
# screen test runs) Home, End and others arrive as sequences the terminfo
# entry does not hold (Home is ESC [ 1 ~, not ESC O H): each is read whole
# and does what it clearly means (Home, End, PgUp, PgDn, the arrows) or
# nothing, never ESC, '[' (d_model down), '1' (a stage) and '~'.  A
# bracketed paste is text for the ':' line, a line break in it no Enter.
. "$(dirname "$0")/lib.sh"

settings() { screen | grep -F "d_model 6 │ heads 2" >/dev/null; }

start 100 30
wait_for "d_model 6 │ heads 2"
wait_bar "0 Input"
# F1 is the help (curses knows it); Esc alone still closes it
keys F1
wait_for "q, Esc or ? closes"
keys Escape
wait_gone "q, Esc or ? closes"
# Home, End, the other F-keys and the page keys as tmux sends them, then
# sequences with modifiers, focus events and an F-key with Shift, raw
keys Home End PPage NPage F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12 S-F5 C-Up M-Left
type_text $'\e[1;5H\e[I\e[O\e[15;2~\e[1;2P\e[3~\e[2~\e[9999;9999X'
sleep 1
check "the settings did not change" settings
wait_bar "0 Input"
check "no message says a key was unknown" bash -c "! tmux -L $SOCK capture-pane -p | grep -qi 'unknown'"
check "no help or mode opened" bash -c "! tmux -L $SOCK capture-pane -p | grep -qF 'q, Esc or ? closes'"

# a paste with no line open is dropped, said once
T set-buffer -- "[[[ 6"
T paste-buffer -p
wait_for "A paste goes into the : line only"
check "the paste changed nothing" settings
wait_bar "0 Input"
# into the ':' line it is text: the line break is a space, Enter runs it
keys :
wait_for ":"
T set-buffer -- $'tokens the cat\nsat'
T paste-buffer -p
wait_for ":tokens the cat sat"
keys Enter
wait_for "3 tokens │ d_model 6 │ heads 2"

# on the training screen Home is step 0 and End the model as it is
T kill-server
start 100 30 -- --train first-prev --steps 60
wait_for "Stopped at" 60
keys Home
wait_for "Checkpoint at step 0 "
keys End
# the model kept: its best held-out evaluation's (step 50 of the 60)
wait_for "The model as it is now, step 50."
keys q
wait_exit 0
