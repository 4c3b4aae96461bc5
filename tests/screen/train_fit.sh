#!/bin/bash
# The lessons that train keep every head's whole heatmap on screen (title,
# column numbers, one labelled row per position) while training and after it
# stops, in the default 80x24 terminal, in the presenter's layout there, and
# at 160x48, where the cells grow: lesson 16 (one model of 2 heads, its
# prediction answered first), lesson 17 (1 head against 2 at d_model 8 and
# 16, and 2 against 4).
. "$(dirname "$0")/lib.sh"

CHECK="$(dirname "$0")/heads_whole.py"

# whole HEADS WHAT [SECONDS]: the screen shows every head of each pane
# whole (within SECONDS, default 0: at once).
whole() {
    local out i=0
    while ! out=$(screen | python3 "$CHECK" "$1" 8); do
        [ $i -ge $((${3:-0} * 10)) ] && fail "$2: $out"
        sleep 0.1
        i=$((i + 1))
    done
    pass
}

# lesson W H STEP HEADS [args]: a lesson's training step, checked while it
# trains and once every run has stopped (the screen says so).
lesson() {
    local w=$1 h=$2 lesson=$3 step=$4 heads=$5
    shift 5
    start "$w" "$h" -- --lesson "$lesson" --step "$step" "$@"
    wait_for "The training waits"
    answer_checkpoint # a step's prediction comes before its run
    keys p
    wait_for "first-prev · step"
    whole "$heads" "lesson $lesson step $step at ${w}x$h, while training" 10
    faster
    wait_for "stopped" 90
    if [[ $heads == *,* ]]; then
        wait_for "Every run stopped" 90
    fi
    whole "$heads" "lesson $lesson step $step at ${w}x$h, stopped"
    if [ "${1:-}" = --present ]; then # q leaves the presenter's layout first
        keys q
        wait_for "Presenter mode off"
    fi
    quit_lesson
}

lesson 80 24 16 2 2
lesson 80 24 17 2 1,2
lesson 80 24 17 3 1,2
lesson 80 24 17 4 2,4
lesson 80 24 16 2 2 --present
lesson 160 48 16 2 2
lesson 160 48 17 4 2,4

# at 160x48 the cells are wider than at 80x24 (column numbers 4 or more apart)
start 160 48 -- --lesson 16 --step 1
wait_for "head 1"
screen | grep -qP '^ *0 {3,}1 {3,}2 {3,}3' || fail "the cells did not grow at 160x48"
pass
quit_lesson

# words that match the screen: in a lesson the hint names p (Space reads
# on); ? opens the help at the training screen's keys; a checkpoint's
# `inline code` is drawn as code, never with its backticks
mkdir "$WORK/fresh" # a reader who has not answered lesson 16's checkpoint yet
start 80 24 XDG_STATE_HOME="$WORK/fresh" -- --lesson 16 --step 1
wait_for "The training waits for you: p starts it"
keys p # the next step's prediction first: the run waits for it
wait_for "Predict first: read on to the next step's checkpoint"
check "the run waits for the prediction" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qF 'step 0 of 1500 · paused'"
space_until "step 2/$(lesson_steps 16)"
keys n
wait_for "Predict first: answer the checkpoint"
keys 1
wait_for "Right: one question each"
keys n
wait_for "p trains on · n step"
keys p
wait_for "Training on."
keys p
wait_for "Paused: n steps once, p trains on."
quit_lesson
start 80 24 -- --lesson 17 --step 2
keys 2
wait_for "Right: prev"
screen | grep -q '`' && fail "a backtick shows on screen"
pass
keys '?'
wait_for "On the training screen"
screen | sed -n 2p | grep -q "On the training screen" || fail "the help did not open at the training keys"
pass
keys q
quit_lesson
