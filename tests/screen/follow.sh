#!/usr/bin/env bash
# follow.sh - a class follows the teacher: the teacher records, three
# students of other sizes follow the file (one through a pipe, as over ssh)
# and show the teacher's stage and settings after each key; a late student
# catches up; a student's own key detaches and F rejoins; q asks first; a
# training run follows step for step; a torn, a hostile and a shrinking
# stream are survived; the end of the teacher's session is said.
. "$(dirname "$0")/lib.sh"
cd "$WORK/cwd"

. "$SRC_ROOT/tests/screen/follow_lib.sh"

EXEQ=$(printf '%q' "$EXE")
session teach 100 30 "$EXEQ --record class.rec"
wait_in teach "? help"
session a 80 24 "$EXEQ --follow class.rec"
session b 120 40 "$EXEQ --follow class.rec"
session c 70 22 "tail -c +1 -f class.rec | $EXEQ --follow -"
for s in a b c; do wait_in "$s" "following the teacher"; done

for k in Right Right + Right; do
    T send-keys -t teach "$k"
    sleep 0.2
    same_stage a b c
done
# the heads the teacher set, at every size
for s in a b c; do wait_in "$s" "(4, 3, 2) →" 3; done
wait_in a "following the teacher · 4 keys" 3

# a late student catches up at once
session d 90 26 "$EXEQ --follow class.rec"
wait_in d "following the teacher · 4 keys" 5
same_stage d
wait_in d "(4, 3, 2) →" 3

# a student explores and rejoins
T send-keys -t a Left
wait_in a "exploring on your own · F rejoins the teacher" 3
T send-keys -t teach Right
wait_in teach "4 · Attention" 3
same_stage b c d
[ "$(stage_of a)" != "$(stage_of teach)" ] || fail "a student exploring moved with the teacher"
pass
T send-keys -t a F
wait_in a "following the teacher · 5 keys" 5
same_stage a
# q asks before a student leaves
T send-keys -t b q
wait_in b "Leave the class? q again quits" 3
T send-keys -t b Escape
sleep 0.3
cap b | grep -qF EXPLORER-EXITED && fail "one q left the class"
pass

# the teacher leaves: the students keep the last screen and are told
last=$(stage_of teach)
T send-keys -t teach q
wait_in teach "Stop recording and quit?" 3
# the teacher's q reached the class as a key: no follower was asked
for s in a b d; do cap "$s" | grep -qF "Stop recording" && fail "$s was asked"; pass; done
T send-keys -t teach q
wait_in teach EXPLORER-EXITED
for s in a b d; do
    wait_in "$s" "the teacher's session ended" 3
    [ "$(stage_of "$s")" = "$last" ] || fail "$s shows $(stage_of "$s") after the end, not $last"
    pass
done
T kill-session -t c

# training follows step for step: the teacher pauses, the student stops on
# the same step
rm -f train.rec
session tt 100 30 "$EXEQ --train first-prev --record train.rec"
wait_in tt "step"
session ts 90 28 "$EXEQ --follow train.rec"
wait_in ts "following the teacher"
sleep 1.5
T send-keys -t tt Space
wait_in tt "paused"
wait_in ts "paused" 4
step_of() { cap "$1" | grep -oP 'step \K[0-9]+' | head -1; }
i=0
until [ -n "$(step_of tt)" ] && [ "$(step_of tt)" = "$(step_of ts)" ] || [ $i -ge 100 ]; do
    sleep 0.05
    i=$((i + 1))
done
[ -n "$(step_of tt)" ] && [ "$(step_of tt)" = "$(step_of ts)" ] ||
    fail "the teacher paused at step $(step_of tt), the student at $(step_of ts)"
pass
T send-keys -t tt q
wait_in tt "Stop recording and quit?" 3
T send-keys -t tt q
T kill-session -t ts

# streams that are not what a teacher writes
printf 'mha-explorer-recording 2\nsize 80x24\n# at 0\n0.1 right\n0.2 ri' >torn.rec
session e 80 24 "$EXEQ --follow torn.rec"
wait_in e "following the teacher · 1 key" 5
wait_in e "1 · Projection" 2
printf 'mha-explorer-recording 2\n# at 0\n0.1 right\n0.2 \033]0;owned\007\n' >hostile.rec
session f 80 24 "$EXEQ --follow hostile.rec"
wait_in f "following stopped" 5
wait_in f "unknown key" 1
wait_in f "1 · Projection" 1
T send-keys -t f Right
wait_in f "2 · Split" 3
printf 'mha-explorer-recording 2\n# at 0\n0.1 right\n' >shrink.rec
session g 80 24 "$EXEQ --follow shrink.rec"
wait_in g "1 · Projection" 5
: >shrink.rec
wait_in g "got shorter" 3
wait_in g "? help" 1

# refusals before the screen opens
out=$("$EXE" --follow /dev/null 2>&1)
[ $? -eq 2 ] && grep -q "character device" <<<"$out" || fail "--follow /dev/null: $out"
pass
out=$("$EXE" --follow class.rec --record x.rec 2>&1)
[ $? -eq 2 ] && grep -q "cannot be combined" <<<"$out" || fail "--follow with --record: $out"
pass
out=$(echo | "$EXE" --follow - 2>&1 </dev/null)
[ $? -eq 2 ] || fail "--follow - with an empty stream: $out"
pass
