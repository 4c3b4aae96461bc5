#!/usr/bin/env bash
# bench/train_keys.sh - how long Space takes to pause the training screen at
# a large d_model: the explorer in tmux (its own socket), first-prev with
# 4 heads at a learning rate slow enough that it does not stop early; three
# presses, each timed from send-keys to "paused" on the screen, with the
# pace the header shows after.
#   bench/train_keys.sh build/src/mha-explorer 256
set -u
exe=$(realpath "${1:?usage: $0 path/to/mha-explorer [d_model]}")
d=${2:-256}
sock=mha-train-keys-$$
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null' EXIT
T new-session -d -x 120 -y 40 \
    "TERM=xterm-256color '$exe' --train first-prev --d-model $d --heads 4 --lr 0.0003; sleep 60"
sleep 2
for _ in 1 2 3; do
    start=$(date +%s.%N)
    T send-keys Space
    n=0
    while ! T capture-pane -p | grep -q "paused" && [ $n -lt 2000 ]; do
        sleep 0.005
        n=$((n + 1))
    done
    end=$(date +%s.%N)
    printf 'Space to "paused": %d ms; ' "$(python3 -c "print(round(($end - $start) * 1000))")"
    T send-keys Space
    sleep 1
    T capture-pane -p | sed -n 2p | grep -o 'step [0-9]* of [0-9]* · [^ ]* [^ ]*[^ ]*' | head -1
done
