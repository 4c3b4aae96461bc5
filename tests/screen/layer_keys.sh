#!/bin/bash
# A loaded model of two layers: the status line says its last layer is
# shown; y shows layer 0 (another attention on the same words), :layer 1
# the last again, :layer 2 is refused naming the layers there are, and a
# one-layer model says it has one layer and changes nothing.
. "$(dirname "$0")/lib.sh"

cd "$WORK"
"$EXE" --train induction --layers 2 --seed 3 --steps 300 --dump summary --save two.json >/dev/null
"$EXE" --train induction --seed 3 --steps 50 --dump summary --save one.json >/dev/null

start 80 24 -- --load two.json --stage 4
wait_for "│ layer 1 of 0–1 │"
# the first row of head 0's scores, as the layer shows it
row() { screen | grep -m1 -E '^[A-Z] +-?[0-9]'; }
last=$(row)
keys y
wait_for "│ layer 0 of 0–1 │"
wait_for "Layer 0 of 0–1: its heads read the embeddings"
check "layer 0's scores are not layer 1's" test "$(row)" != "$last"
keys : "layer 1" Enter
wait_for "│ layer 1 of 0–1 │"
check "layer 1's scores again" test "$(row)" = "$last"
keys : "layer 2" Enter
wait_for "this model has layers 0 to 1"
keys q
wait_exit 0

start 80 24 -- --load one.json
wait_for "heads 2"
check "no layer on the status line of a one-layer model" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -q 'layer . of'"
keys y
wait_for "This model has one layer"
keys q
wait_exit 0
