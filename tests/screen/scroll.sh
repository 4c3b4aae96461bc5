#!/bin/bash
# At 80x24 nothing of a stage or view is out of reach: the arrows, j k,
# PgUp PgDn and Space scroll the numbers (and the scroll stays put while
# other keys are pressed), a marker says where they are cut, and J K scroll
# the text pane when its text is cut.
. "$(dirname "$0")/lib.sh"

# press_until KEY TEXT: press KEY (up to 12 times) until TEXT shows.
press_until() {
    local n=0
    while [ $n -lt 12 ]; do
        keys "$1"
        local i=0
        while [ $i -lt 10 ]; do
            screen | grep -qF -- "$2" && pass && return 0
            sleep 0.05
            i=$((i + 1))
        done
        n=$((n + 1))
    done
    fail "\"$2\" did not appear after pressing $1"
}

# press_until_gone KEY TEXT: press KEY (up to 12 times) until TEXT is gone.
press_until_gone() {
    local n=0
    while [ $n -lt 12 ]; do
        keys "$1"
        local i=0
        while [ $i -lt 10 ]; do
            screen | grep -qF -- "$2" || { pass; return 0; }
            sleep 0.05
            i=$((i + 1))
        done
        n=$((n + 1))
    done
    fail "\"$2\" still on the screen after pressing $1"
}

start 80 24
wait_for "query input 4×6"
wait_for "more below"
check "W_v is below the fold at first" bash -c "! tmux -L $SOCK capture-pane -p | grep -qF 'W_v (out × in) 6×6'"
# the input stage: W_v and W_o, line by line and by pages
press_until j "value input 4×6"
wait_for "more above"
press_until NPage "W_v (out × in) 6×6"
wait_for "W_o (out × in) 6×6"
press_until_gone NPage "more below · j" # the canvas (the text pane may be cut too)
# a key that changes nothing on the canvas leaves the scroll where it was
keys r
wait_for "seed 43"
wait_for "W_o (out × in) 6×6"
press_until PPage "query input 4×6"
wait_gone "more above"
press_until Down "key input 4×6"
press_until Up "query input 4×6"

# split and transpose: V
keys 2
wait_for "Q split into heads"
press_until Space "V split into heads"
keys 3
wait_for "Q head 0"
press_until Space "V head 1"
# attention: head 1
keys 4
wait_for "head 0: Q·Kᵀ"
press_until j "head 1: Q·Kᵀ"
press_until_gone NPage "more below · j"
# the text pane: J and K when the stage's text is cut
wait_for "more below · J scrolls"
check "the end of the stage text is cut at first" \
    bash -c "! tmux -L $SOCK capture-pane -p | grep -qF 'the weight to one key.'"
press_until J "the weight to one key."
wait_for "more above · K scrolls back"
press_until K "weights = softmax(Q_h"

# the views: the end of the shapes and cost tables
keys v
wait_for "Shapes in PyTorch code"
press_until Space "can join the heads back"
keys v
wait_for "One attention block"
press_until Space "grows with the heads"
press_until_gone Space "more below"

keys q
wait_exit 0

# without UTF-8 (LANG=C) the first screen at 80x24 says how much is below in
# words, with no arrow that would fold to a key's letter ("v 27 more below"
# would read as the views key), and names the arrow keys by name
T kill-server >/dev/null 2>&1
start 80 24 LANG=C LC_ALL=C
wait_for "more below"
marker=$(screen | grep -F "more below")
check "the marker reads as a count, not a key: $marker" \
    grep -qE '(^| )[0-9]+ more below' <<<"$marker"
check "no key's letter before the count: $marker" \
    bash -c '! grep -qE "(^| )[A-Za-z] [0-9]+ more" <<<"$1"' _ "$marker"
check "the scroll keys by name: $marker" grep -qF "Down j" <<<"$marker"
keys q
wait_exit 0
