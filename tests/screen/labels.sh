#!/bin/bash
# Labels as the lessons and exports write them: weights say which axis is
# out and which is in, split and transposed columns are h<head>.<j>, Q·Kᵀ
# and the scaled scores show the same decimals, the output stage shows W_o
# beside the merged matrix, and heads count from 0 in the formulas too.
# The numbers are those of the default case in tests/data/engine_cases.json
# (PyTorch): scores[0][3][0] 8.120827, scaled[0][3][0] 4.6885614.
. "$(dirname "$0")/lib.sh"

start 240 60
wait_for "W_q (out × in) 6×6"
wait_for "W_o (out × in) 6×6"
keys 1
wait_for "W_qᵀ (in × out) 6×6"
keys 2
wait_for "h0.0  h0.1  h0.2  h1.0  h1.1  h1.2"
keys 3
wait_for "Q head 1"
wait_for "h1.0  h1.1  h1.2"
keys 4
wait_for "head 0: Q·Kᵀ"
check "Q·Kᵀ and ÷√3 with two decimals each" \
    bash -c "tmux -L $SOCK capture-pane -p | grep -qP '^tok 3 +8\.12 .* tok 3 +4\.69 '"
keys 6
wait_for "W_oᵀ (in × out) 6×6"
wait_for "MHA = Concat(head_0, head_1) · W_oᵀ"
keys +
wait_for "heads 3"
wait_for "MHA = Concat(head_0, head_1, head_2) · W_oᵀ"
keys q
wait_exit 0
T kill-server

# narrow: the output stage still shows merged and W_oᵀ, below the result
start 80 24 -- --stage output
wait_for "output = merged · W_oᵀ 4×6"
press=0
while ! tmux -L "$SOCK" capture-pane -p | grep -qF "W_oᵀ (in × out) 6×6" && [ $press -lt 12 ]; do
    keys j
    sleep 0.1
    press=$((press + 1))
done
wait_for "W_oᵀ (in × out) 6×6"
wait_for "merged 4×6"
keys q
wait_exit 0
