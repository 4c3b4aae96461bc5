#!/bin/bash
# Every step of every bundled lesson at 80x24 (and at 120x40, and in the
# presenter's layout at 80x24): what the step names is on screen.  mha-ui-driver --lesson-walk shows each step off screen,
# reads the screen back and prints a line for each thing missing: the
# focus's matrix title and row above the marker, a show's line with every
# head, a waiting checkpoint's step title, question and answer line.
# Usage: walk.sh path/to/mha-ui-driver SOURCE_ROOT
set -u
DRIVER=${1:?usage: walk.sh mha-ui-driver source-root}
ROOT=${2:?usage: walk.sh mha-ui-driver source-root}
STATE=$(mktemp -d)
trap 'rm -rf "$STATE"' EXIT
export XDG_STATE_HOME=$STATE LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color
failed=0 steps=0
for size in "24 80" "40 120" "24 80 --present"; do
    set -- $size
    for f in "$ROOT"/lessons/[0-9]*.md; do
        out=$("$DRIVER" --lesson-walk "$f" --lessons-dir "$ROOT/lessons" \
            --assets-dir "$ROOT/assets" --rows "$1" --cols "$2" ${3:-}) || failed=1
        echo "$out" | grep -v ' 0 failed$'
        n=$(echo "$out" | sed -n 's/.*: \([0-9]*\) steps at .*/\1/p')
        [ -n "$n" ] || { echo "$f: the walk printed no summary"; failed=1; n=0; }
        steps=$((steps + n))
    done
done
echo "walked $steps steps"
exit $failed
