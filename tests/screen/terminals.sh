#!/bin/bash
# One rule for the terminals the explorer cannot draw on: TERM=dumb (Emacs'
# shell, editors' consoles), TERM unset, a TERM with no terminfo entry, and
# no terminal at all each refuse with the same exit status and a message
# that points to --dump and --print-lesson, leaving nothing on the screen.
. "$(dirname "$0")/lib.sh"

# the status with no terminal (standard input /dev/null): the rule's
"$EXE" </dev/null >/dev/null 2>"$WORK/err"
want=$?
check "no terminal: exit status 2, got $want" [ "$want" -eq 2 ]
check "no terminal: names --dump" grep -qF -- "--dump" "$WORK/err"
check "no terminal: names --print-lesson" grep -qF -- "--print-lesson" "$WORK/err"

for term in dumb "" mha-no-such-terminal; do
    start 80 24 "TERM=$term"
    wait_for "cannot draw here"
    wait_for "--dump STAGE"
    wait_for "--print-lesson N"
    wait_exit "$want"
    T kill-server >/dev/null 2>&1
done
# and the same on the training screen's way in: --dump summary
start 80 24 "TERM=dumb" -- --train first-prev
wait_for "cannot draw here"
wait_for "--dump summary"
wait_exit "$want"
T kill-server >/dev/null 2>&1
# a terminal that can: the explorer opens
start 80 24 -- --stage attention
wait_for "? help"
keys q
wait_exit 0
