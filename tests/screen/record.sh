#!/bin/bash
# What --record must not lose and what a recording carries: an existing file
# is refused without --force, and with it stays whole until the session
# ends (a temporary file is renamed over it); a recording made with
# --lesson 7 --theme mono replays into lesson 7 at the step it started on
# (not where the reader's progress now is) in the mono theme, and says when
# the terminal is not the size it was recorded in; a recording that cannot
# be written (the file size limit standing in for a full disk) says so on
# the screen and on exit, exits 1, and keeps the keys written before, which
# replay.
. "$(dirname "$0")/lib.sh"

# ---- an existing file is refused, and kept
printf 'notes for the class\n' >"$WORK/notes.rec"
start 200 30 -- --record "$WORK/notes.rec"
wait_for "notes.rec exists; a recording never replaces a file unless given --force"
wait_exit 2
T kill-server
check "the notes are untouched" grep -qx 'notes for the class' "$WORK/notes.rec"

# ---- with --force it is replaced once the explorer is up (its start lines
# are written whole in a temporary file first), and grows there key by key,
# so a class can follow it
start 100 30 -- --record "$WORK/notes.rec" --force
wait_for "0 · Input"
check "replaced by the recording's start" bash -c "head -1 '$WORK/notes.rec' | grep -qx 'mha-explorer-recording 2'"
check "its start lines whole" grep -qx '# at 0.000' "$WORK/notes.rec"
check "no temporary file beside it" bash -c "! ls '$WORK' | grep -q 'part-'"
keys Right
wait_for "1 · Projection"
check "each key written as it comes" bash -c "grep -q ' right$' '$WORK/notes.rec'"
quit_recording
wait_exit 0
T kill-server
check "the end written last" bash -c "tail -1 '$WORK/notes.rec' | grep -qx '# end'"
check "no temporary file left" bash -c "! ls '$WORK' | grep -q 'part-'"

# ---- the start is recorded and restored
REC="$WORK/lesson.rec"
start 120 40 -- --lesson 7 --theme mono --record "$REC"
wait_for "Lesson 7"
wait_for "step 1/"
# the first key a while after the start: at --speed 0.5 below the replay's
# note on the size stays in sight for seconds, even where the explorer's
# first frame comes late on a busy machine
sleep 1.5
space_until "step 2/"
sleep 1 # a key a second later keeps the replays below going for a while: their notes stay in sight
keys J
sleep 0.2
keys K
keys C-c # ends it with the lesson open (a q would leave the lesson, and be recorded)
wait_exit 130
T kill-server
check "the size is recorded" grep -qx 'size 120x40' "$REC"
check "the lesson is recorded" bash -c "grep -A1 -x 'arg --lesson' '$REC' | grep -qx 'arg 7'"
check "the step it opened on is recorded" bash -c "grep -A1 -x 'arg --step' '$REC' | grep -qx 'arg 1'"
check "the theme is recorded" bash -c "grep -A1 -x 'arg --theme' '$REC' | grep -qx 'arg mono'"
# the reader's progress now says step 2: the replay still starts on step 1
start 120 40 -- --replay "$REC" --speed 5
wait_for "The replay finished"
wait_for "Lesson 7"
wait_for "step 2/"
check "in the recorded theme (no colour)" bash -c "! tmux -L '$SOCK' capture-pane -p -e | grep -qP '\e\[[0-9;]*(38;5|48;5)'"
check "no note about the size" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -qF 'Recorded in a'"
quit_lesson
T kill-server
# options given with --replay win over the recorded ones
start 100 30 -- --replay "$REC" --speed 0.5 --theme dark
wait_for "Recorded in a 120x40 terminal, replayed in 100x30"
wait_for "Lesson 7"
check "the theme given now wins" has_colour
wait_for "The replay finished"
quit_lesson
T kill-server

# ---- a recording that cannot be written all the way
FULL="$WORK/full.rec"
cat >"$WORK/limited.sh" <<EOF
export TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_STATE_HOME='$WORK/state'
unset NO_COLOR
trap '' XFSZ
( ulimit -f 1; exec '$EXE' --record '$FULL' )
echo \$? > '$WORK/status'
echo EXPLORER-EXITED
sleep 600
EOF
rm -f "$WORK/status"
new_session 120 40 "bash '$WORK/limited.sh'"
wait_for "0 · Input"
# far more than the 1 KB the file may hold
for i in $(seq 1 25); do type_text "0123456"; sleep 0.02; done
wait_for "recording stopped" # in the status line, for good
keys q
wait_exit 1
check "the end says the recording is incomplete" bash -c "tmux -L '$SOCK' capture-pane -p -J | grep -qF 'full.rec is incomplete'"
T kill-server
# (each stage key is followed by the state line it led to: about 25 bytes a key)
check "the keys before the failure are kept" test "$(grep -cE '^[0-9.]+ [0-6]$' "$FULL")" -gt 25
start 120 40 -- --replay "$FULL" --speed 1000
wait_for "The replay finished"
if [ "$(tail -c 1 "$FULL" | od -An -c | tr -d ' ')" != '\n' ]; then
    wait_for "its last line was cut short and left out"
fi
keys q
wait_exit 0
