#!/usr/bin/env bash
# follow_rejoin.sh - F and the notices of a class: a student who left the
# teacher for the presenter's layout, the help screen or the lesson list
# comes back with F from there; the help lists F; a teacher who starts again
# (a new recording put over the old) is followed from the new start after
# F; a teacher killed without an end is said within 12 s though nothing
# else changes on the student's screen.
. "$(dirname "$0")/lib.sh"
cd "$WORK/cwd"
. "$SRC_ROOT/tests/screen/follow_lib.sh"

EXEQ=$(printf '%q' "$EXE")
session teach 100 30 "$EXEQ --record class.rec"
wait_in teach "? help"
session a 80 24 "$EXEQ --follow class.rec"
wait_in a "following the teacher"
T send-keys -t teach Right Right
wait_in a "following the teacher · 2 keys" 3
same_stage a

# F from each screen a student may have opened on their own
for k in P '?' L; do
    T send-keys -t a "$k"
    case $k in
    P) wait_in a "F rejoins the teacher" 3 ;;
    '?') wait_in a "keys and commands" 3 ;;
    L) wait_in a "Lessons" 3 ;;
    esac
    T send-keys -t a F
    wait_in a "following the teacher · 2 keys" 3
    same_stage a
done
# and the help says so
T send-keys -t a '?'
for i in $(seq 1 40); do T send-keys -t a PageDown; done
for i in $(seq 1 60); do
    cap a | grep -qF "Following a teacher (--follow)" && break
    T send-keys -t a PageUp
done
wait_in a "rejoin the teacher from any screen (or a new file)" 2
T send-keys -t a F
wait_in a "following the teacher · 2 keys" 3

# the teacher leaves and starts again over the same file
T send-keys -t teach q
wait_in teach "Stop recording and quit?" 3
T send-keys -t teach q
wait_in a "the teacher's session ended" 5
T kill-session -t teach
session teach2 100 30 "$EXEQ --record class.rec --force --stage merge"
wait_in teach2 "5 · Merge"
wait_in a "a new recording is at class.rec (F follows it from its start)" 5
[ "$(stage_of a)" = "2 · Split" ] || fail "the student left the old session's screen: $(stage_of a)"
pass
T send-keys -t a F
wait_in a "5 · Merge" 5 # where the new session started (its state)
T send-keys -t teach2 Left
wait_in a "following the teacher · 1 key" 3
wait_in a "4 · Attention" 3

# killed without an end: said within ten quiet seconds and two polls
kill -9 "$(T list-panes -t teach2 -F '#{pane_pid}' | xargs pgrep -P | head -1)"
t0=$(date +%s.%N)
wait_in a "nothing from the teacher for" 14
took=$(python3 -c "import time; print(round(time.time() - $t0, 1))")
python3 -c "import sys; sys.exit(0 if $took <= 12.0 else 1)" ||
    fail "the quiet teacher was said after ${took}s, not within 12s"
pass
