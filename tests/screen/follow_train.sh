#!/usr/bin/env bash
# follow_train.sh - a class watches the teacher's training, not re-running
# it: the teacher at 100x30 trains first-prev while recording; followers at
# 80x24 and 120x40 (the file) and 70x22 (a pipe, as over ssh) show the
# teacher's training step when the teacher pauses, steps once, scrubs to a
# checkpoint and back, and when the run stops, and say why it stopped; a
# follower who detaches at the pause trains on from there; a replay at 70x22
# ends on the teacher's last step.  Then the teacher trains sentences and a
# follower's explorer spends a small part of the teacher's CPU time (it
# trains nothing: the snapshots in the stream bring the run), whatever the
# build's speed (no key is sent while it trains, so a teacher that cannot
# keep the pace only spends more).
. "$(dirname "$0")/lib.sh"
cd "$WORK/cwd"
. "$SRC_ROOT/tests/screen/follow_lib.sh"

# the training screen's "step N of M" (N), and whether it says checkpoint
tstep() { cap "$1" | grep -oP 'step \K[0-9]+(?= of)' | head -1; }
header() { cap "$1" | grep -m1 -oP 'step [0-9]+ of [0-9]+ · \w+'; }
# same_header NAME...: every follower's header (step, and paused, checkpoint
# or stopped) is the teacher's within 3 s
same_header() {
    local want name i
    want=$(header teach)
    [ -n "$want" ] || fail "the teacher shows no training step"
    for name in "$@"; do
        i=0
        while [ "$(header "$name")" != "$want" ] && [ $i -lt 60 ]; do
            sleep 0.05
            i=$((i + 1))
        done
        [ "$(header "$name")" = "$want" ] || {
            cap "$name"
            fail "$name shows \"$(header "$name")\", the teacher \"$want\""
        }
        pass
    done
}
# the explorer of a session, and its CPU time so far (clock ticks)
pid_of() { pgrep -P "$(T list-panes -t "$1" -F '#{pane_pid}')" -x mha-explorer; }
cpu_of() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

EXEQ=$(printf '%q' "$EXE")
session teach 100 30 "$EXEQ --train first-prev --record class.rec"
wait_in teach "first-prev · step"
T send-keys -t teach Space # paused while the class joins
wait_in teach "· paused"
session a 80 24 "$EXEQ --follow class.rec"
session b 70 22 "tail -c +1 -f class.rec | $EXEQ --follow -"
session w 120 40 "$EXEQ --follow class.rec"
for s in a b w; do wait_in "$s" "following the teacher"; done
same_header a b w

T send-keys -t teach Space # trains on
sleep 1
T send-keys -t teach Space # a pause mid-run: the same step everywhere
wait_in teach "· paused"
same_header a b w
T send-keys -t teach n
sleep 0.3
same_header a b w
T send-keys -t teach Left # a checkpoint: the same one everywhere
wait_in teach "· checkpoint"
same_header a b w
wait_in a "Checkpoint at step $(tstep teach)" 3
T send-keys -t teach G
wait_in teach "The model as it is now"
same_header a b w

# a student who goes their own way at the pause trains on from there
session c 80 24 "$EXEQ --follow class.rec"
wait_in c "following the teacher"
same_header c
paused_at=$(tstep teach)
T send-keys -t c Space
wait_in c "exploring on your own"
i=0
while [ "$(tstep c)" = "$paused_at" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ "$(tstep c)" != "$paused_at" ] || fail "a student on their own did not train on from step $paused_at"
pass
[ "$(tstep teach)" = "$paused_at" ] || fail "the teacher moved from $paused_at"
pass
T kill-session -t c

T send-keys -t teach Space # to its end
wait_in teach "· stopped" 60
same_header a b w
# and says why, as the teacher's does: the step shown is the model kept,
# its best held-out evaluation's
wait_in a "$(cap teach | grep -m1 -oP 'Stopped at step [0-9]+')" 3
kept="keeping step $(tstep teach)'s model"
says_kept() { [[ "$(cap a | tr '\n' ' ' | tr -s ' ')" == *"$kept"* ]]; }
i=0
until says_kept || [ $i -ge 60 ]; do
    sleep 0.05
    i=$((i + 1))
done
says_kept || { cap a; fail "a does not say: $kept"; }
pass
last=$(header teach)

T send-keys -t teach q
wait_in teach "Stop recording and quit?" 3
T send-keys -t teach q
wait_in teach EXPLORER-EXITED
for s in a b w; do wait_in "$s" "the teacher's session ended" 3; done
[ "$(header a)" = "$last" ] || fail "a shows \"$(header a)\" after the end, not \"$last\""
pass

# a replay at another size ends on the teacher's last step
session r 70 22 "$EXEQ --replay class.rec --speed 4"
wait_in r "The replay finished" 60
[ "$(header r)" = "$last" ] || { cap r; fail "the replay ends on \"$(header r)\", not \"$last\""; }
pass
T kill-session -t r
for s in a b w; do T kill-session -t "$s"; done

# the teacher trains sentences: a follower spends a small part of its CPU
rm -f class.rec
session teach2 100 30 "$EXEQ --train sentences --steps 100000 --record class.rec"
wait_in teach2 "sentences · step" 30
session s2 80 24 "$EXEQ --follow class.rec"
wait_in s2 "following the teacher"
tp=$(pid_of teach2)
sp=$(pid_of s2)
[ -n "$tp" ] && [ -n "$sp" ] || fail "no explorer in the teacher's or the student's terminal"
t0=$(cpu_of "$tp")
s0=$(cpu_of "$sp")
sleep 2
t1=$(cpu_of "$tp")
s1=$(cpu_of "$sp")
cap teach2 | grep -q "· stopped" && fail "the run stopped within the measure: nothing to compare"
pass
# a follower that trained would spend about what the teacher spends
echo "CPU ticks over 2 s of training: teacher $((t1 - t0)), a follower $((s1 - s0))"
[ $((t1 - t0)) -ge 20 ] || fail "the teacher spent $((t1 - t0)) ticks: too few to compare"
pass
[ $(((s1 - s0) * 4)) -lt $((t1 - t0)) ] ||
    fail "a follower spent $((s1 - s0)) ticks while the teacher spent $((t1 - t0)): it trains"
pass
