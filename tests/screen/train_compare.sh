#!/bin/bash
# --compare 1,2 at 80x24: two panes titled "1 head" and "2 heads" train the
# same task side by side; the two-head run learns both outputs, the one-head
# run stops with the previous-token output far behind.  Without colour
# (NO_COLOR) the heatmaps fall back to shade glyphs and nothing is coloured.
# On a text, where the screen has room, each pane lists its accuracy per job.
. "$(dirname "$0")/lib.sh"

start 80 24 NO_COLOR=1 -- --train first-prev --compare 1,2 --steps 300
wait_for "1 head "
wait_for "2 heads"
faster
wait_for "Every run stopped" 60
check "no colour under NO_COLOR" bash -c "! (tmux -L $SOCK capture-pane -p -e | grep -qP '\e\[[0-9;]*(3[0-7]|4[0-7]|38;5|48;5)[;m]')"
check "shade glyphs stand in for colour" bash -c "tmux -L $SOCK capture-pane -p | grep -q '█'"
# the 2-head pane (right half) learned prev; the 1-head pane (left half) did not
line=$(screen | grep -P '^prev ' | head -1)
left_prev=$(echo "$line" | grep -oP '[0-9.]+(?=%)' | sed -n 1p)
right_prev=$(echo "$line" | grep -oP '[0-9.]+(?=%)' | sed -n 2p)
check "two heads learn prev ($right_prev%)" awk "BEGIN { exit !($right_prev >= 99) }"
check "one head stays well below ($left_prev%)" awk "BEGIN { exit !($left_prev <= 90) }"
keys q
wait_exit 0
T kill-server
sleep 0.2

# a text at 120x40: each pane lists its held-out accuracy per job under the
# next word's, the same figures --dump summary gives for that head count
mkdir -p "$WORK/jobs"
for h in 1 2; do
    (cd "$WORK/jobs" && "$EXE" --train sentences --heads $h --steps 300 --dump summary --format json \
        >"s$h.json" 2>/dev/null) || fail "--train sentences --heads $h --dump summary failed"
done
start 120 40 -- --train sentences --compare 1,2 --steps 300
faster
wait_for "Every run stopped" 240
for job in long local agree content; do
    got=$(screen | grep -oP "  $job +\K[0-9.]+(?=%)" | tr '\n' ' ')
    want=$(python3 -c 'import json, sys
print(" ".join("%.1f" % (100 * json.load(open(f))["jobs"][sys.argv[1]]["next"])
               for f in sys.argv[2:]))' "$job" "$WORK/jobs/s1.json" "$WORK/jobs/s2.json")
    check "$job per pane as --dump summary has it ($got / $want)" test "${got% }" = "$want"
done
keys q
wait_exit 0
