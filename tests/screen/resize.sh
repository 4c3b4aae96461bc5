#!/bin/bash
# Resizing: below the minimum a notice says how large to make the terminal
# (wrapped on a tiny one);
# back to a good size, the explorer is there again and still answers keys.
. "$(dirname "$0")/lib.sh"

start 100 30
wait_for "0 · Input"
keys 4
wait_for "4 · Attention"
T resize-window -x 40 -y 10
wait_for "Enlarge the terminal to 64×18"
wait_for "The terminal is 40×10"
# a tiny terminal: the notice wraps instead of being cut
T resize-window -x 20 -y 5
wait_for "Enlarge the"
wait_for "terminal to 64×18"
wait_for "q quits"
T resize-window -x 80 -y 24
wait_for "4 · Attention"
wait_gone "Enlarge the terminal"
T resize-window -x 200 -y 60
wait_for "4 · Attention: who looks at whom"
keys Right
wait_for "5 · Merge"
T resize-window -x 64 -y 18
wait_for "5 · Merge"
keys q
wait_exit 0
