#!/usr/bin/env bash
# follow_state.sh - a class follows the teacher's state, not only the keys:
# the teacher at 100x30 walks lesson 7 with Space (which on a smaller
# terminal scrolls a step that does not fit instead of moving on),
# answers its checkpoint, sets a head count, turns on presenter mode and
# autoplay; followers at 80x24, 120x40 and 70x22 (one through a pipe) show
# the teacher's lesson step and stage after every key; a replay of the
# recording at 70x22 ends on the teacher's last step.  A follower's own
# lesson progress is neither read nor written while following (its file is
# a FIFO whose writer would finish if it were opened), and is read once
# that follower explores on their own.
. "$(dirname "$0")/lib.sh"
cd "$WORK/cwd"
. "$SRC_ROOT/tests/screen/follow_lib.sh"

# the lesson's "step N/M"
lstep() { cap "$1" | grep -oP 'step \K[0-9]+/[0-9]+' | head -1; }
# same_step NAME...: every follower on the teacher's step within 3 s
same_step() {
    local want name i
    want=$(lstep teach)
    [ -n "$want" ] || fail "the teacher shows no lesson step"
    for name in "$@"; do
        i=0
        while [ "$(lstep "$name")" != "$want" ] && [ $i -lt 60 ]; do
            sleep 0.05
            i=$((i + 1))
        done
        [ "$(lstep "$name")" = "$want" ] || {
            cap "$name"
            fail "$name is on step $(lstep "$name"), the teacher on $want"
        }
        pass
    done
}

EXEQ=$(printf '%q' "$EXE")
mkdir -p "$WORK/astate/mha-explorer"
mkfifo "$WORK/astate/mha-explorer/progress.json"
timeout 120 sh -c 'exec 3>"$1" && echo opened >"$1.opened"' _ "$WORK/astate/mha-explorer/progress.json" </dev/null >/dev/null 2>&1 &
opener=$!
session teach 100 30 "$EXEQ --record class.rec --lesson 7 --step 1"
wait_in teach "step 1/$(lesson_steps 7)"
session a 80 24 "XDG_STATE_HOME=$(printf %q "$WORK/astate") $EXEQ --follow class.rec"
session b 120 40 "$EXEQ --follow class.rec"
session c 70 22 "tail -c +1 -f class.rec | $EXEQ --follow -"
for s in a b c; do wait_in "$s" "following the teacher"; done
same_step a b c

# Space to the checkpoint of step 3, comparing after every key
n=0
until [ "$(lstep teach)" = "3/7" ] || [ $n -ge 12 ]; do
    T send-keys -t teach Space
    sleep 0.3
    same_step a b c
    same_stage a b c
    n=$((n + 1))
done
# the teacher's answer shows on every follower's checkpoint
T send-keys -t teach 2
wait_in teach "Right: tok 1." 3
for s in a b c; do wait_in "$s" "Right: tok 1." 3; done
same_step a b c

# a setting of the teacher's, then on to step 5
T send-keys -t teach +
sleep 0.3
same_stage a b c
for s in a b c; do wait_in "$s" "3 heads of d_k = 6 / 3" 3; done
until [ "$(lstep teach)" = "5/7" ] || [ $n -ge 30 ]; do
    T send-keys -t teach Space
    sleep 0.3
    same_step a b c
    same_stage a b c
    n=$((n + 1))
done

# presenter mode, then autoplay every second: the moves arrive as state
T send-keys -t teach P
sleep 0.5
same_step a b c
T send-keys -t teach : a u t o p l a y Space 1 Enter
sleep 3
T send-keys -t teach a # any key pauses it
sleep 0.5
same_step a b c
T send-keys -t teach P
sleep 0.3
same_step a b c
same_stage a b c
last=$(lstep teach)
# :quit ends the session with the lesson open (q would leave the lesson
# first, and the class with it)
T send-keys -t teach : q u i t Enter
wait_in teach EXPLORER-EXITED 5
for s in a b; do wait_in "$s" "the teacher's session ended" 3; done
for s in a b c; do
    [ "$(lstep "$s")" = "$last" ] || fail "$s ended on step $(lstep "$s"), the teacher on $last"
    pass
done
# a's progress was not touched while following; exploring alone reads it
[ ! -e "$WORK/astate/mha-explorer/progress.json.opened" ] || fail "the follower opened its progress file"
pass
[ "$(ls -A "$WORK/astate/mha-explorer")" = progress.json ] ||
    fail "the follower wrote beside its progress: $(ls -A "$WORK/astate/mha-explorer")"
pass
T send-keys -t a Backspace
wait_in a "exploring on your own" 3
for i in $(seq 1 40); do [ -e "$WORK/astate/mha-explorer/progress.json.opened" ] && break; sleep 0.05; done
[ -e "$WORK/astate/mha-explorer/progress.json.opened" ] || fail "a follower on their own did not read their progress"
pass
kill "$opener" 2>/dev/null

# replayed at another size: it ends on the teacher's last step
T kill-server 2>/dev/null
session r 70 22 "$EXEQ --replay class.rec --speed 10"
wait_in r "The replay finished" 20
[ "$(lstep r)" = "$last" ] || fail "the replay at 70x22 ended on step $(lstep r), the teacher on $last"
pass
