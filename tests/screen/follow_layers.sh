#!/usr/bin/env bash
# follow_layers.sh - a class follows the layer the teacher shows: the
# teacher trains two layers of the induction task while recording and
# shows layer 0 with y mid-run; a follower of the same size (the file) and
# one at 120x40 (a pipe) show layer 0 too, and the first titles its heads as
# the teacher's screen does (the snapshots say which layer their heads'
# figures are of); a replay ends on the teacher's layer with the same
# titles (and one at 80x24 says the layer on its status line).  Then a loaded model of two layers: the teacher's y moves the
# followers' layer, and :layer 1 back.  Last, --compare layers=1,2: the
# recording's header gives the same form and a follower and a replay show
# the panes "1 layer" and "2 layers".  (The followers of the training run
# show two layers because the header's --layers 2 is taken.)
. "$(dirname "$0")/lib.sh"
cd "$WORK/cwd"
. "$SRC_ROOT/tests/screen/follow_lib.sh"

# the status line's layer ("1 of 0–1"), and the heads' titles of the training screen
layer_of() { cap "$1" | grep -oP '│ layer \K[0-9]+ of 0–[0-9]+(?= │)' | head -1; }
titles() { cap "$1" | grep -m1 -oP 'head 0 .*' | tr -s ' '; }
# same NAME FUNCTION...: NAME shows what the teacher shows (or showed as it
# quit: $was_layer_of, $was_titles) within 5 s
same() {
    local name=$1 what want i was
    shift
    for what in "$@"; do
        was=was_$what
        want=${!was:-$($what teach)}
        [ -n "$want" ] || fail "the teacher shows no $what"
        i=0
        while [ "$($what "$name")" != "$want" ] && [ $i -lt 100 ]; do
            sleep 0.05
            i=$((i + 1))
        done
        [ "$($what "$name")" = "$want" ] || {
            cap "$name"
            fail "$name's $what is \"$($what "$name")\", the teacher's \"$want\""
        }
        pass
    done
}

EXEQ=$(printf '%q' "$EXE")
session teach 100 30 "$EXEQ --train induction --layers 2 --seed 3 --steps 600 --record class.rec"
wait_in teach "induction · step"
T send-keys -t teach Space # paused while the class joins
wait_in teach "· paused"
session a 100 30 "$EXEQ --follow class.rec"
session b 120 40 "tail -c +1 -f class.rec | $EXEQ --follow -"
for s in a b; do wait_in "$s" "following the teacher"; done
wait_in teach "layer 1 of 0–1"
same a layer_of
same b layer_of
# at 80x24 the status line gives the sizes in brief beside the follower's
# words, and the layer whole (a server of its own: a new session of
# another size resizes tmux's latest window)
N() { tmux -L "$SOCK-narrow" -f /dev/null "$@"; }
trap 'N kill-server >/dev/null 2>&1; cleanup' EXIT
N new-session -d -s n -x 80 -y 24 "cd '$WORK/cwd' && TERM=xterm-256color LANG=C.UTF-8 \
    LC_ALL=C.UTF-8 XDG_STATE_HOME='$WORK/state' $EXEQ --follow class.rec; sleep 600"
i=0
until N capture-pane -p -t n | grep -qF "│ layer 1 of 0–1" || [ $i -ge 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
N capture-pane -p -t n | tail -1 | grep -qP '│ layer 1 of 0–1 .*following the teacher' ||
    { N capture-pane -p -t n; fail "at 80x24 the follower's status line cuts the layer"; }
pass
N kill-server
T send-keys -t teach y
wait_in teach "layer 0 of 0–1"
same a layer_of
same b layer_of
T send-keys -t teach Space # trains on, showing layer 0
wait_in teach "stopped" 120
same a layer_of titles
same b layer_of
cap a | grep -q "The teacher's run shows the teacher's layer" && fail "the teacher's y was refused on a follower"
pass
was_layer_of=$(layer_of teach)
was_titles=$(titles teach)
T send-keys -t teach q
wait_in teach "Stop recording and quit?" 3
T send-keys -t teach q
wait_in teach "EXPLORER-EXITED"
session r 100 30 "$EXEQ --replay class.rec"
wait_in r "The replay finished" 120
same r layer_of titles
T kill-session -t a
T kill-session -t b
T kill-session -t r

# a loaded model of two layers, on the main screen
"$EXE" --train induction --layers 2 --seed 3 --steps 100 --dump summary --save two.json >/dev/null
session teach2 100 30 "$EXEQ --load two.json --stage 4 --record model.rec"
wait_in teach2 "layer 1 of 0–1"
session c 120 40 "$EXEQ --load two.json --follow model.rec"
wait_in c "following the teacher"
wait_in c "layer 1 of 0–1"
T send-keys -t teach2 y
wait_in teach2 "layer 0 of 0–1"
wait_in c "│ layer 0 of 0–1 │"
T send-keys -t teach2 : "layer 1" Enter
wait_in teach2 "│ layer 1 of 0–1 │"
wait_in c "│ layer 1 of 0–1 │"
T kill-session -t c

# --compare layers=1,2 recorded: the header carries the same form, and a
# follower and a replay show the same panes, "1 layer" and "2 layers",
# with no option of the start left out
session teach3 120 40 "$EXEQ --train induction --compare layers=1,2 --seed 35 --steps 200 --record cmp.rec"
wait_in teach3 "2 layers"
session d 120 40 "$EXEQ --follow cmp.rec"
wait_in d "following the teacher"
wait_in d "▶ 1 layer"
wait_in d "2 layers"
check "the header says --compare layers=1,2" test "$(grep -A1 -x 'arg --compare' cmp.rec | tail -1)" = "arg layers=1,2"
cap d | grep -q "not opened here" && { cap d; fail "the follower left an option of the start out"; }
pass
wait_in teach3 "Every run stopped" 120
T send-keys -t teach3 q
wait_in teach3 "Stop recording and quit?" 3
T send-keys -t teach3 q
wait_in teach3 "EXPLORER-EXITED"
session r3 120 40 "$EXEQ --replay cmp.rec"
wait_in r3 "▶ 1 layer"
wait_in r3 "2 layers"
wait_in r3 "The replay finished" 120
cap r3 | grep -q "not opened here" && { cap r3; fail "the replay left an option of the start out"; }
pass
