#!/bin/bash
# Generated numbers say where they come from: the input stage's text gives
# the page's [-1, 1) for the page's example and nn.Linear's +-1/sqrt(d_model)
# for every other generated example (here d_model 24), and none for a file.
. "$(dirname "$0")/lib.sh"

start 160 50 -- --d-model 24 --heads 4
wait_for "0 · Input"
wait_for "±1/√24 = ±0.204"
wait_for "as nn.Linear starts them"
keys q
wait_exit 0

start 160 50
wait_for "0 · Input"
wait_for "Drawn from seed 42 as on the"
wait_for "weights in [-1, 1)."
keys q
wait_exit 0

start 160 50 -- --load "$SRC_ROOT/assets/examples/cat-sat.json"
wait_for "0 · Input"
check "a file's weights are not called drawn" bash -c "! tmux -L $SOCK capture-pane -p | grep -q 'nn.Linear starts'"
keys q
wait_exit 0

# the shapes and cost views have their own sizes: the status line says them,
# not the example's 4 tokens
start 120 40 -- --lesson 11 --step 1
wait_for "seq L = 10 │ d_model d = 512"
check "no example sizes under the shapes view" \
    bash -c "! tmux -L $SOCK capture-pane -p | tail -1 | grep -q '4 tokens'"
quit_lesson
start 120 40 -- --lesson 12 --step 4
wait_for "Transformer base │ d_model 512 │ 8 heads of d_k 64 │ 10 tokens"
# the step's checkpoint waits for a number: q leaves the lesson, a second quits
quit_lesson
