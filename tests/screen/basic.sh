#!/bin/bash
# The explorer opens on the default example, steps through every stage
# with the arrows and the digits, shows its help, and quits with status 0,
# leaving the terminal as it was.
. "$(dirname "$0")/lib.sh"

start 100 30
wait_for "0 · Input"
wait_for "query input 4×6"
for part in "4 tokens" "d_model 6" "heads 2" "d_k 3" "mask off" "scaling ÷√3" "? help"; do
    wait_for "$part"
done
mapfile -t titles < <(stage_titles)
last=$((${#titles[@]} - 1))
[ "$last" -gt 3 ] || fail "no stage titles from option_tables"
for ((i = 1; i <= last; i++)); do
    keys Right
    wait_for "$i · ${titles[i]}"
done
keys Right # past the last stage: stays
# keys are handled in order: once the help that ? opens shows, Right has
# been handled too, so "still on the last stage" is checked after it
keys '?'
wait_for "keys and commands"
keys Escape
wait_gone "keys and commands"
wait_for "$last · ${titles[last]}"
wait_bar "$last ${titles[last]}"
keys 3
wait_for "3 · Transpose"
wait_for "Q head 1"
keys h
wait_for "2 · Split"
keys 0
wait_for "0 · Input"
keys '?'
wait_for "keys and commands"
wait_for "jump to a stage"
keys Escape
wait_for "query input 4×6"
keys q
wait_exit 0
