#!/bin/bash
# A recording reproduces its start wherever it is replayed: --load, lesson
# and task file paths are written absolute (named by the replay, which opens
# them when given again on its command line, from any folder), the options
# of --train and --compare are written (a replay with
# nothing but --replay trains the same run), and clicks are recorded with
# where they happened and replayed: a click that focused a --compare pane
# focuses it again.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd) # the source tree, before any cd below
click() { T send-keys -l $'\e[<0;'"$2;$1M"; T send-keys -l $'\e[<0;'"$2;$1m"; }  # click ROW COL

mkdir -p "$WORK/made" "$WORK/elsewhere"

# ---- a model opened by a relative path
( cd "$WORK/made" && "$EXE" --train prev --steps 100 --save model.json --dump summary >/dev/null )
check "a model to open" test -s "$WORK/made/model.json"
REC1="$WORK/load.rec"
cd "$WORK/made"
start 100 30 -- --load model.json --record "$REC1"
wait_for "0 · Input"
keys Right
wait_for "1 · Projection"
quit_recording
wait_exit 0
T kill-server
check "the path is recorded absolute" grep -qx "arg $WORK/made/model.json" "$REC1"
cd "$WORK/elsewhere"
start 100 30 -- --replay "$REC1" --speed 4
wait_for "The replay finished" 30
check "the replay names the model it did not open" \
    bash -c "tmux -L '$SOCK' capture-pane -p | tr -d '\n' | grep -qF 'Not opened here: --load $WORK/made/model.json'"
wait_for "1 · Projection"
keys q
wait_exit 0
T kill-server
start 100 30 -- --replay "$REC1" --speed 4 --load "$WORK/made/model.json"
wait_for "The replay finished" 30
check "the model given again is not said to be left unopened" \
    bash -c "! tmux -L '$SOCK' capture-pane -p | tr -d '\n' | grep -qF 'Not opened here'"
wait_for "1 · Projection"
keys q
wait_exit 0
T kill-server

# ---- a lesson file and a teacher's task file, by relative paths
cp "$SRC/lessons/01-why-heads.md" "$WORK/made/mine.md"
printf '{"vocab": ["a", "b", "c"], "outputs": ["next"], "tokens": [[0, 1, 2], [1, 2, 0], [2, 0, 1]], "targets": [[[1, 2, -1], [2, 0, -1], [0, 1, -1]]]}\n' >"$WORK/made/task.json"
cd "$WORK/made"
start 100 30 -- --lesson mine.md --record "$WORK/lesson.rec"
wait_for "step 1/"
keys q
wait_for "Left the lesson"
quit_recording
wait_exit 0
T kill-server
check "the lesson file is recorded absolute" grep -qx "arg $WORK/made/mine.md" "$WORK/lesson.rec"
start 100 30 -- --train task.json --steps 50 --record "$WORK/task.rec"
wait_for "Training"
quit_recording
wait_exit 0
T kill-server
check "the task file is recorded absolute" grep -qx "arg $WORK/made/task.json" "$WORK/task.rec"
start 100 30 -- --train sentences --keep-case --steps 20 --record "$WORK/case.rec"
wait_for "Training"
quit_recording
wait_exit 0
T kill-server
check "the recording carries --keep-case" grep -qx -- "arg --keep-case" "$WORK/case.rec"
cd "$WORK/elsewhere"
start 100 30 -- --replay "$WORK/task.rec" --train "$WORK/made/task.json"
wait_for "The replay finished" 30
wait_for "task · step"
keys q
wait_exit 0
T kill-server

# ---- a training run with its options, a key and a click
REC2="$WORK/train.rec"
start 100 30 -- --train first-prev --compare 1,2 --steps 200 --seed 3 --record "$REC2"
wait_for "▶ 1 head"
wait_for "Every run stopped" 60
keys Tab
wait_for "▶ 2 heads"
click 15 10
wait_for "▶ 1 head"
wait_for "The 1 head pane"
quit_recording
wait_exit 0
T kill-server
for arg in --train first-prev --compare 1,2 --steps 200 --seed 3; do
    check "the recording carries $arg" grep -qx -- "arg $arg" "$REC2"
done
# tmux counts from 1, the recording from 0
check "the click is recorded with its place" grep -qP '^[0-9]+\.[0-9]{3} click 14 9$' "$REC2"

# replayed with nothing but --replay: the same run, and the click lands
start 100 30 -- --replay "$REC2" --speed 2
wait_for "The replay finished" 60
wait_for "▶ 1 head"
check "the replay trained the recorded run" bash -c "tmux -L $SOCK capture-pane -p | grep -q 'first-prev · step 200 of 200'"
keys q
wait_exit 0
T kill-server
# the pane in focus is part of the recorded state (a click that chose it
# lands elsewhere at another size): after a Tab to the second pane, a state
# line naming the first one wins
{
    printf 'mha-explorer-recording 2\nsize 100x30\n'
    printf 'arg %s\n' --train first-prev --compare 1,2 --steps 50
    printf '# at 0\n0.200 tab\n# state pane=0\n'
} >"$WORK/pane.rec"
start 80 24 -- --replay "$WORK/pane.rec"
wait_for "The replay finished" 30
wait_for "▶ 1 head"
keys q
wait_exit 0
