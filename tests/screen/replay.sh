#!/bin/bash
# Record and replay: --record writes the keys of a session with their times
# (not the q that ends it); --replay --speed 10 plays them back to the same
# screen and leaves the explorer open saying the replay finished; a real key
# pauses a replay and another plays on; a malformed recording is refused
# with its file:line before anything plays; a recording that cannot be
# written is refused before the terminal is touched.
. "$(dirname "$0")/lib.sh"

REC="$WORK/demo.rec"
# the top of the screen, and where the highlighted cells are (bar, cursor)
top() {
    screen | head -14
    screen -e | grep -noP '\e\[48;5;214m\K[^\e]+'
}

start 120 40 -- --record "$REC"
wait_for "0 · Input"
keys Right
wait_for "1 · Projection"
keys Right
wait_for "2 · Split"
keys +
wait_for "3 heads of d_k = 6 / 3 = 2"
keys c
wait_for "Causal mask on"
before=$(screen -e)
keys Tab Down Right
settle "$before"
top >"$WORK/recorded"
status_line=$(screen | tail -1)
check "the cursor is on a cell" test "$(grep -c '^[0-9]*:' "$WORK/recorded")" -ge 2
quit_recording
wait_exit 0
T kill-server
check "the recording starts with its header" bash -c "head -1 '$REC' | grep -qx 'mha-explorer-recording 2'"
check "seven keys recorded, the q left out" test "$(grep -cE '^[0-9]+\.[0-9]{3} ' "$REC")" -eq 7
check "keys by name" grep -qE '^[0-9.]+ right$' "$REC"
check "times never go back" bash -c "grep -E '^[0-9]' '$REC' | cut -d' ' -f1 | sort -c -n"

start 120 40 -- --replay "$REC" --speed 10
wait_for "The replay finished: 7 keys from $REC"
wait_for "mask causal"
check "the same status line" test "$(screen | tail -1)" = "$status_line"
top >"$WORK/replayed"
check "the same screen, cursor and all" cmp -s "$WORK/recorded" "$WORK/replayed"
keys 1 # the explorer is open and ours
wait_for "1 · Projection"
keys q
wait_exit 0
T kill-server

# a real key pauses the replay; another plays on
printf 'mha-explorer-recording 1\n0.3 right\n1.0 right\n1.2 right\n' >"$WORK/slow.rec"
start 120 40 -- --replay "$WORK/slow.rec"
wait_for "1 · Projection"
keys x
wait_for "replay paused"
sleep 1.2
check "nothing plays while paused" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qF '1 · Projection'"
keys x
wait_for "The replay finished"
wait_for "3 · Transpose"
keys q
wait_exit 0
T kill-server

# a malformed recording: its file and line, exit 2, nothing played
printf 'mha-explorer-recording 1\n0.5 right\n0.2 left\n' >"$WORK/bad.rec"
"$EXE" --replay "$WORK/bad.rec" 2>"$WORK/err" </dev/null
status=$?
check "a malformed recording exits 2" test "$status" -eq 2
check "with its file and line" grep -qF "$WORK/bad.rec:3: time 0.2 goes backwards" "$WORK/err"
printf 'mha-explorer-recording 1\n1.0 nosuchkey\n' >"$WORK/bad2.rec"
start 100 30 -- --replay "$WORK/bad2.rec"
wait_for "bad2.rec:2: unknown key \"nosuchkey\""
wait_exit 2

# a recording that cannot be written: refused before the terminal is touched
start 100 30 -- --record /nonexistent/folder/demo.rec
wait_for "--record: /nonexistent/folder/demo.rec: cannot write in /nonexistent/folder"
wait_exit 2
