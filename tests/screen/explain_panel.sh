#!/bin/bash
# The explain panel at 80x24 and in a narrow pane: the result line is always
# on screen, every term of the sum is either listed or counted in the
# "… N more terms" line, J and K scroll the panel, and the term table stays
# a table (no row wrapped in two).  output[0, 0] of the default example is
# 0.30860108 in tests/data/engine_cases.json (PyTorch).
. "$(dirname "$0")/lib.sh"

start 80 24
wait_for "query input 4×6"
keys 6
wait_for "6 · Output"
keys Tab
keys Enter
wait_for "output[0, 0] = row 0 of merged"
wait_for "= 0.308601"
wait_for "more below · J"
# scroll the panel to its end; collect the rows listed and the hidden count
seen="$WORK/terms"
: >"$seen"
for _ in 1 2 3 4 5 6 7 8 9 10; do
    screen | grep -oP '^\s+m=\K[0-9]+' >>"$seen"
    screen | grep -oP '… \K[0-9]+(?= more terms? adds? up to)' | sed 's/^/hidden /' >>"$seen"
    screen | grep -qF "more below" || break
    keys J
    sleep 0.2
done
wait_for "more above · K"
wait_for "= 0.308601"
wait_for "sum of 6 terms"
rows=$(grep -v hidden "$seen" | sort -u | wc -l)
hidden=$(grep hidden "$seen" | sort -u | awk '{print $2}' | head -1)
check "6 terms accounted for (rows $rows, hidden ${hidden:-none})" \
    test "$((rows + ${hidden:-0}))" -eq 6
keys K
keys K
keys K
keys K
wait_for "output[0, 0] = row 0 of merged"
keys q q # the first q closes the panel, the second quits
wait_exit 0

# a narrow pane beside the numbers: each softmax term is one row
T kill-server
start 120 30 -- --stage attention
wait_for "4 · Attention"
keys Tab
keys Tab
keys Tab
keys Enter
wait_for "softmax of row 0"
wait_for "= 0.341293"
check "no softmax term row is wrapped" \
    bash -c "! tmux -L $SOCK capture-pane -p | grep -P 'tok [0-9] +exp\(' | grep -vqP '= [0-9.]+'"
check "the term rows are on screen" \
    bash -c "tmux -L $SOCK capture-pane -p | grep -qP '3 tok 3 +exp\(0\.2768 − 0\.3870\) = 0\.8956'"
keys q q
wait_exit 0
