#!/bin/bash
# The training screen: --train opens it on an 80x24 terminal, the model
# trains and stops by itself saying why, with one head on the first token
# and one on the previous; Space pauses (the step stays), n steps once, the
# arrows scrub back through checkpoints to step 0 and End comes back; the
# stage keys show the trained model and t returns; r and - train again;
# presenter mode titles it, :link gives the options, :export svg draws it;
# :heads and the other commands of the stages' numbers leave the run alone.
. "$(dirname "$0")/lib.sh"

# the step the header shows ("step 340 of 1500")
shown_step() { screen | grep -oP 'step \K[0-9]+(?= of)' | head -1; }

# 400 steps: the heads find their jobs by about step 250 (seed 1), and the
# test stays short where a step is slow (sanitizer builds)
start 80 24 -- --train first-prev --steps 400
wait_for "Training"
wait_for "first-prev · step"
wait_for "At every position after the first"
wait_for "120 steps/s"
keys Space
wait_for "Paused: n steps once"
wait_for "· paused"
s1=$(shown_step)
sleep 0.5
check "a paused run stays at its step" [ "$(shown_step)" = "$s1" ]
keys n
wait_for "step $((s1 + 1)) of"
keys n
wait_for "step $((s1 + 2)) of"
keys Space
wait_for "Training on."
faster
wait_for "Stopped at" 60
wait_for "· stopped"
# two heads found two jobs
wait_for "head 0 first"
wait_for "head 1 prev"
check "the first output is learned" bash -c "tmux -L $SOCK capture-pane -p | grep -qP '^first .*(99\.[0-9]|100\.0)%'"
check "the prev output is learned" bash -c "tmux -L $SOCK capture-pane -p | grep -qP '^prev .*(99\.[0-9]|100\.0)%'"
# scrub back through the checkpoints, to step 0, and back to now
keys Left
wait_for "Checkpoint at step"
wait_for "· checkpoint"
keys g
wait_for "Checkpoint at step 0 "
wait_for "step 0 of 400"
wait_gone "head 1 prev"
keys G
wait_for "The model as it is now"
wait_for "head 1 prev"
# the trained model's stages, and back
keys 4
wait_for "4 · Attention"
wait_for "The first-prev model at step"
# the heads view compares the learned weights with step 0
keys v v v
wait_for "Each head at step 0 and now"
wait_for "against step 0"
keys j # the note under the table, below the marker's line at 80x24
wait_for "Measured on the learned weights"
keys t
wait_for "Training   first-prev"
# train again: the next seed, then fewer heads
keys r
wait_for "Training again from step 0 with seed 2."
keys -
wait_for "Training again with 1 head, seed 2."
wait_for "heads 1"
keys q
wait_exit 0

# presenter mode, :link and the picture of the training state
start 100 30 -- --train first-prev --present --seed 3 --steps 400
wait_for "Training · first-prev"
wait_for "2 heads · d_model 8 · step"
keys :
type_text "link"
keys Enter
wait_for "mha-explorer --train first-prev --heads 2 --d-model 8 --seed 3 --steps 400 --present"
keys Escape # the pop-up with the command line closes
keys :
type_text "export svg $WORK/train.svg"
keys Enter
wait_for "Wrote $WORK/train.svg (the training at step"
check "the picture is an SVG with the loss curve and both heads" \
    bash -c "head -c 5 '$WORK/train.svg' | grep -q '<svg' && grep -q '>loss<' '$WORK/train.svg' && grep -q '>head 1' '$WORK/train.svg'"
keys :
type_text "export csv"
keys Enter
wait_for "The training screen is written as svg or html"
keys q # leaves the presenter's layout
wait_for "Training   first-prev"
keys q
wait_exit 0

# a bad task or head count is refused before the terminal is touched
start 80 24 -- --train first-prev --compare 1,3
wait_for "--compare 3: 3 heads do not divide d_model 8"
wait_exit 2

# option errors, without a terminal: exit status 2 and what was wrong
refused() { # WANT ARGS...: exit status 2 and WANT on stderr
    local want=$1
    shift
    local err status
    err=$("$EXE" "$@" 2>&1 >/dev/null </dev/null)
    status=$?
    [ $status -eq 2 ] && grep -qF -- "$want" <<<"$err"
}
check "--compare alone" refused "--compare needs --train TASK|FILE" --compare 1,2
check "--compare with --heads" refused "--heads: --compare gives the head counts" \
    --train first-prev --compare 1,2 --heads 2
check "--compare 1,,2" refused "--compare: expected head counts separated by commas" \
    --train first-prev --compare 1,,2
check "--compare 1,2,4,8,8" refused "--compare: at most 4 runs side by side" \
    --train first-prev --compare 1,2,4,8,8
check "--compare 1,2," refused "ends with a comma" --train first-prev --compare 1,2,
check "--train with --view" refused "--view cannot be combined with --train" \
    --train first-prev --view heads
check "--train without a terminal" refused "To train without a screen add --dump summary" \
    --train first-prev

# r trains again in the memory the run has: forty presses leave the
# program's resident size within 1 MB of where it was after the first
rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
start 100 30 -- --train first-prev
wait_for "first-prev · step"
pid=$(explorer_pid)
[ -n "$pid" ] || fail "no program to measure"
keys r
sleep 0.3
before=$(rss "$pid")
for i in $(seq 1 40); do
    keys r
    sleep 0.05
done
wait_for "seed 42"
after=$(rss "$pid")
check "retraining 40 times grows the program by $((after - before)) kB (< 1024)" \
    test $((after - before)) -lt 1024
keys q
wait_exit 0

# the commands that change the stages' numbers say so on the training
# screen, which keeps describing the model training (:heads 4 changed the
# status line to 4 heads under a screen of 2); one given on the stages
# (or + there) leaves the status line the run's again when t comes back
start 80 24 -- --train induction --layers 2 --steps 100
wait_for "100 of 100 · stopped" 120
for c in "heads 4" "d_model 16" "tokens a b c" "seed 9" "causal off" "scale off"; do
    keys : "$c" Enter
    wait_for ":${c%% *} changes the numbers on the stages, not the model training"
    wait_for "│ d_model 32 │ heads 2 │ layer 1 of 0–1 │ d_k 16 │"
    keys Escape
done
keys 4
wait_for "The induction model at step 100"
keys +
wait_for "│ heads 4 │"
keys t
wait_for "Training   induction"
wait_for "│ d_model 32 │ heads 2 │ layer 1 of 0–1 │ d_k 16 │"
keys q
wait_exit 0
