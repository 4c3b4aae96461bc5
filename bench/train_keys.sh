#!/usr/bin/env bash
# bench/train_keys.sh - how long the training screen takes to answer a key:
# the explorer in tmux (its own socket), TASK (default first-prev) at a
# learning rate slow enough that it does not stop early, PRESSES presses
# (default 3) of each key, each timed from send-keys to the screen's
# header changing:
#   Space    training to "paused" (the pace the header showed after too);
#   ← →      one checkpoint back, paused (its heads are measured anew), and
#            on again to the model as it is;
#   r        the run started again with a new seed.
# The same probe on `cat` first: the time tmux and this script take to see
# a key on the screen at all (the floor under every figure after it).
#   bench/train_keys.sh build/src/mha-explorer [D_MODEL [HEADS [VOCAB [CONTEXT [PRESSES]]]]]
#   bench/train_keys.sh build/src/mha-explorer 256 8 512 64     # the largest model
#   TASK=sentences bench/train_keys.sh build/src/mha-explorer 256 8 512 64
set -u
exe=$(realpath "${1:?usage: $0 path/to/mha-explorer [d_model [heads [vocab [context [presses]]]]]}")
d=${2:-256}
heads=${3:-4}
vocab=${4:-16}
context=${5:-8}
presses=${6:-3}
task=${TASK:-first-prev}
sock=mha-train-keys-$$
TMUX_TMPDIR=$(mktemp -d) # the sockets, gone with the folder at the end
export TMUX_TMPDIR
T() { tmux -L "$sock" -f /dev/null "$@"; }
F() { tmux -L "$sock-floor" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; F kill-server 2>/dev/null; rm -rf "$TMUX_TMPDIR"' EXIT
now() { date +%s%N; }
# ms from $1 (ns) to now
since() { echo $((($(now) - $1) / 1000000)); }
# wait (up to 10 s) for text on the screen of server $1 (T or F)
wait_for() {
    local n=0
    while ! "$1" capture-pane -p | grep -q "$2" && [ $n -lt 2000 ]; do
        sleep 0.005
        n=$((n + 1))
    done
}

F new-session -d -x 120 -y 40 "cat"
sleep 1
printf 'floor (a key echoed by cat):'
for i in $(seq "$presses"); do
    start=$(now)
    F send-keys "k$i"
    wait_for F "k$i"
    printf ' %d ms' "$(since "$start")"
done
echo
F kill-server 2>/dev/null

T new-session -d -x 120 -y 40 \
    "TERM=xterm-256color '$exe' --train $task --d-model $d --heads $heads --vocab $vocab \
     --context $context --lr 0.0003; sleep 60"
sleep 2
echo "$task, d_model $d, $heads heads, vocab $vocab, context $context:"
header() { T capture-pane -p | sed -n 2p; }
# ms from now until the header is no longer $1
changed_after() {
    local start n=0
    start=$(now)
    T send-keys "$2"
    while [ "$(header)" = "$1" ] && [ $n -lt 2000 ]; do
        sleep 0.005
        n=$((n + 1))
    done
    since "$start"
}
for _ in $(seq "$presses"); do
    start=$(now)
    T send-keys Space
    wait_for T "paused"
    printf 'Space to "paused": %d ms; ' "$(since "$start")"
    T send-keys Space
    sleep 1
    header | grep -o 'step [0-9]* of [0-9]* · [^ ]* [^ ]*[^ ]*' | head -1
done
T send-keys Space
sleep 0.5
printf '← a checkpoint back, → on again:'
for _ in $(seq "$presses"); do
    printf ' %d ms,' "$(changed_after "$(header)" Left)"
    sleep 0.5
    printf ' %d ms;' "$(changed_after "$(header)" Right)"
    sleep 0.5
done
echo
printf 'r, a new seed:'
T send-keys Space # training again (r leaves it training)
for _ in $(seq "$presses"); do
    sleep 2
    printf ' %d ms' "$(changed_after "$(header)" r)"
done
echo
