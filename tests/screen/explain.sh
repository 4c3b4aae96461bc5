#!/bin/bash
# Tab puts a cursor on the numbers, Enter explains the one under it with its
# arithmetic, the arrows move it, Esc closes; Ctrl-C quits and restores the
# terminal.
. "$(dirname "$0")/lib.sh"

start 120 40 -- --stage projection
wait_for "1 · Projection"
keys Tab
keys Enter
wait_for "Q[0, 0] = row 0 of query"
wait_for "sum of 6 terms"
keys Right
wait_for "Q[0, 1] = row 0 of query"
keys 4
keys Tab
keys Tab
keys Enter
wait_for "exp(s_0 − max)"
keys Escape
wait_for "4 · Attention: who looks at whom"
keys C-c
wait_exit 130
