#!/bin/bash
# --compare variants=standard,shared-qk,no-wo: three panes train the same
# task, d_model, heads and seed side by side, each titled by its attention
# block and the parameters it learns (the figures --dump summary gives);
# --save writes one file per pane, the variant in its name, each holding
# its variant and opening with --load.
. "$(dirname "$0")/lib.sh"
cd "$WORK/cwd" || exit 1

for v in standard shared-qk no-wo; do
    p=$("$EXE" --train first-prev --d-model 16 --heads 4 --variant $v --steps 50 --dump summary |
        grep -oP '^parameters +\K[0-9]+') || fail "--variant $v --dump summary failed"
    eval "params_${v//-/_}=$p"
done
start 120 40 -- --train first-prev --d-model 16 --heads 4 --steps 200 \
    --compare variants=standard,shared-qk,no-wo --save m.json
wait_for "standard, $params_standard parameters"
wait_for "shared-qk, $params_shared_qk parameters"
wait_for "no-wo, $params_no_wo parameters"
faster
wait_for "Every run stopped" 60
keys q
wait_exit 0
for v in standard shared-qk no-wo; do
    check "m-$v.json saved, its variant $v" grep -q "\"variant\": \"$v\"\\|^ \"vocab\"" "m-$v.json"
    check "m-$v.json opens with --load" "$EXE" --load "m-$v.json" --dump circuits
done
check "the standard pane's file names no variant" bash -c "! grep -q '\"variant\"' m-standard.json"
check "the shared-qk pane's file says so" grep -q '"variant": "shared-qk"' m-shared-qk.json
