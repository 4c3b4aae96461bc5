#!/bin/bash
# --compare: the stage keys and the heads view show the focused pane's
# model.  The first pane is focused at first (its title marked ▶); Tab
# focuses the next, a click on a pane focuses it; the stages then carry that
# pane's head count, and the heads view lists that many heads.
. "$(dirname "$0")/lib.sh"
click() { T send-keys -l $'\e[<0;'"$2;$1M"; T send-keys -l $'\e[<0;'"$2;$1m"; }  # click ROW COL

start 100 30 -- --train first-prev --compare 1,2 --steps 200
wait_for "▶ 1 head"
wait_for "Every run stopped" 60
# the first pane's model: one head
keys 4
wait_for "The first-prev 1 head model at step"
wait_for "heads 1"
keys t
wait_for "▶ 1 head"
# Tab: the 2-head pane
keys Tab
wait_for "▶ 2 heads"
wait_for "The 2 heads pane: the stage keys and the heads view show its model"
check "only one pane is marked" [ "$(screen | grep -c '▶')" = 1 ]
keys 4
wait_for "The first-prev 2 heads model at step"
wait_for "heads 2"
wait_for "(H, Lq, Lk) = (2, 8, 8)"
# the heads view compares that model's two heads with step 0
keys v v v
wait_for "Each head at step 0 and now"
wait_for "first-prev, 2 heads, step"
keys t
wait_for "▶ 2 heads"
# Shift-Tab goes back; a click on the right half focuses the 2-head pane again
keys BTab
wait_for "▶ 1 head"
click 15 80
wait_for "▶ 2 heads"
keys 1
wait_for "The first-prev 2 heads model at step"
wait_for "heads 2"
keys t
# a click on the left half: the 1-head pane
click 15 10
wait_for "▶ 1 head"
keys q
wait_exit 0
