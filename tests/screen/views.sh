#!/bin/bash
# The views beyond the stages: v goes from the stage through every view of
# the view table in its order and back to the stage (circuits and
# composition on numbers that are no model say how to get one), :view opens
# one by name (heads shows each head's effective rank), a stage key goes
# back, --view opens on one, and the heads view explains itself instead of
# computing when d_model is too large.
. "$(dirname "$0")/lib.sh"

names=$(view_names)
[ -n "$names" ] || fail "no views in the refusal of --view '?'"
start 120 40
wait_for "0 · Input"
for name in $names; do
    keys v
    wait_for "${name^} view"
    case $name in # what some of them show
    shapes)
        wait_for "q.transpose(1, 2)"
        wait_for "(2, 2, 4, 3)"
        wait_for "shapes view"
        ;;
    cost)
        wait_for "parameters W_q W_k W_v W_o"
        wait_for "2 heads, d_k 3"
        ;;
    heads) wait_for "Effective rank of each head" ;;
    circuits) wait_for "reads a trained model, and these numbers are not one" ;;
    composition) wait_for "reads a trained model of two or more layers" ;;
    esac
done
keys v
wait_for "0 · Input"
wait_gone "${name^} view"

keys :
type_text "view heads"
keys Enter
wait_for "similarity of the heads 2×2"
wait_for "head 0  2.42"
wait_for "head 1  2.50"
keys +
wait_for "similarity of the heads 3×3"
keys 4
wait_for "4 · Attention"
wait_gone "Heads view"
keys :
type_text "view sideways"
keys Enter
wait_for "No view \"sideways\""
keys q
wait_exit 0
T kill-server
sleep 0.2

start 120 40 -- --view cost --d-model 512 --heads 8
wait_for "Cost view"
wait_for "1,048,576"
keys v
wait_for "Heads view"
wait_for "head 7"
keys :
type_text "d_model 520"
keys Enter
wait_for "analyses d_model up to 512"
keys q
wait_exit 0
