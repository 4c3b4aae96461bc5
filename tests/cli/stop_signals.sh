#!/bin/bash
# stop_signals.sh EXPLORER - every signal that ends a headless training run
# ends it the same way: SIGINT, SIGTERM, SIGHUP and SIGQUIT each stop the run
# after the step under way, --save writes the model reached, stderr says so,
# and the exit status is 128 + the signal's number.  Run without a terminal
# (stdin from /dev/null, its own session: no terminal to send it anything).
EXE=$(realpath "${1:?usage: $0 path/to/mha-explorer}")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mha-stop-signals-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}

for sig in INT TERM HUP QUIT; do
    num=$(kill -l "$sig")
    rm -f "$WORK/m.json" "$WORK/err.txt"
    # a run far longer than the test: 200000 steps of batches of 1024
    # (env puts back the signals' default actions that bash takes from a
    # job it starts in the background)
    setsid env --default-signal=INT,QUIT "$EXE" --train majority --batch 1024 --steps 200000 --save "$WORK/m.json" \
        --dump summary </dev/null >"$WORK/out.txt" 2>"$WORK/err.txt" &
    pid=$!
    # until it trains (a first progress line is not written without a
    # terminal: wait for the process to have used some processor time)
    sleep 1.5
    kill -s "$sig" "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" -eq $((128 + num)) ] || fail "SIG$sig: exit $rc, not $((128 + num)) ($(head -c 300 "$WORK/err.txt"))"
    grep -q "stopped at step [0-9]* of 200000; saved $WORK/m.json" "$WORK/err.txt" ||
        fail "SIG$sig: stderr does not say the model was saved: $(head -c 300 "$WORK/err.txt")"
    grep -q '"embedding"' "$WORK/m.json" 2>/dev/null || fail "SIG$sig: no model saved"
    left=$(ls -A "$WORK" | grep -v -e '^m.json$' -e '^err.txt$' -e '^out.txt$')
    [ -z "$left" ] || fail "SIG$sig: left $left"
done

# nohup's SIGHUP stays ignored: the run goes on, and SIGTERM then ends it
setsid env --default-signal=INT,QUIT nohup "$EXE" --train majority --batch 1024 --steps 200000 \
    --save "$WORK/m.json" --dump summary </dev/null >"$WORK/out.txt" 2>"$WORK/err.txt" &
pid=$!
sleep 1.5
kill -s HUP "$pid"
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "nohup: SIGHUP ended the run"
kill -s TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "nohup: exit $rc after SIGTERM, not 143"

[ "$failed" -eq 0 ] && echo "ok: SIGINT, SIGTERM, SIGHUP and SIGQUIT each save and say so"
exit "$failed"
