#!/bin/bash
# tmpdir_clean.sh EXPLORER SUITE... - tests and the program leave nothing
# behind: the suites given and a few commands that write files run with
# TMPDIR set to a new empty folder (and the program in an empty working
# folder), which must both be empty afterwards.
EXE=$(realpath "${1:?usage: $0 path/to/mha-explorer SUITE...}")
shift
CHECK=$(mktemp -d "${TMPDIR:-/tmp}/mha-tmpdir-XXXXXX")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mha-tmpdir-work-XXXXXX")
trap 'rm -rf "$CHECK" "$WORK"' EXIT
mkdir "$WORK/cwd" "$WORK/out"
export TMPDIR=$CHECK XDG_STATE_HOME=$WORK/state MHA_EXPLORER=$EXE
failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}

for suite in "$@"; do
    suite=$(realpath "$suite")
    name=$(basename "$suite")
    if ! (cd "$WORK/cwd" && "$suite" >"$WORK/log" 2>&1); then
        tail -5 "$WORK/log"
        fail "$name failed"
    fi
    left=$(ls -A "$CHECK")
    [ -z "$left" ] || fail "$name left in TMPDIR: $left"
    rm -rf "${CHECK:?}"/* "${CHECK:?}"/.[!.]* 2>/dev/null
done

# the program: a saved model, written again, a progress reset, a refused
# save, a dump
cd "$WORK/cwd" || exit 1
"$EXE" --train prev --steps 20 --save "$WORK/out/m.json" --dump summary >/dev/null ||
    fail "--train --save"
"$EXE" --train prev --steps 20 --save "$WORK/out/m.json" --dump summary >/dev/null ||
    fail "--train --save over the model"
"$EXE" --load "$WORK/out/m.json" --dump attention >/dev/null || fail "--load the model"
"$EXE" --reset-progress 2>/dev/null || fail "--reset-progress"
"$EXE" --train prev --steps 20 --save /dev/null --dump summary >/dev/null 2>&1
[ $? -eq 2 ] || fail "--save /dev/null is not refused with status 2"
"$EXE" --dump all --format html >/dev/null || fail "--dump all"

left=$(ls -A "$CHECK")
[ -z "$left" ] || fail "the program left in TMPDIR: $left"
left=$(ls -A "$WORK/cwd")
[ -z "$left" ] || fail "the program left in its working folder: $left"
left=$(ls -A "$WORK/out")
[ "$left" = m.json ] || fail "beside the model: $left"
[ $failed -eq 0 ] && echo "nothing left behind"
exit $failed
