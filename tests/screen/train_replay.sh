#!/bin/bash
# A training session replays to the same run: the ticks of the training
# follow the session's clock, so the keys of a recording (a pause while it
# trains, two single steps, a checkpoint scrubbed to) land on the same steps
# when it is played back, at twice the speed too, and the screen ends the
# same: the same step, loss curve, accuracies and heatmap roles.
. "$(dirname "$0")/lib.sh"

REC="$WORK/train.rec"
# what the run shows: the step, the accuracies, the heads' roles, the curve
body() {
    screen | grep -oP 'step [0-9]+ of [0-9]+'
    screen | grep -P '^(first|prev) ' 
    screen | grep -oP 'head [0-9] [a-z]+ [0-9.]+'
    screen | grep -P '^loss '
}

start 80 24 -- --train first-prev --record "$REC"
wait_for "first-prev · step"
sleep 1.3
keys Space
wait_for "· paused"
keys n
sleep 0.2
keys n
sleep 0.2
keys Left
wait_for "Checkpoint at step"
keys G
wait_for "The model as it is now"
sleep 0.3
body >"$WORK/recorded"
quit_recording
wait_exit 0
T kill-server
check "five keys recorded" test "$(grep -cE '^[0-9]+\.[0-9]{3} ' "$REC")" -eq 5

for speed in 1 2; do
    start 80 24 -- --train first-prev --replay "$REC" --speed $speed
    wait_for "The replay finished" 60
    body >"$WORK/replayed"
    if ! diff "$WORK/recorded" "$WORK/replayed"; then
        fail "the replay at speed $speed ended on another screen"
    fi
    pass
    keys q
    wait_exit 0
    T kill-server
done
