#!/bin/bash
# w on the training screen: what each head does, read off its weights, in
# place of the heatmaps: its reading in words, then what it raises with the
# z-score over the row.  With --compare 1,2 on first-prev the two-head
# pane's heads say by position what their labels say from the attention
# (the head labelled first looks at the first position, the one labelled
# prev one back) and the prev head raises, for the prev output, the token it
# attends to; w brings the heatmaps back.  A language model's heads are
# titled with the jobs they do and list words; a terminal without UTF-8 gets
# ASCII arrows.
. "$(dirname "$0")/lib.sh"

start 80 24 -- --train first-prev --compare 1,2 --steps 600
wait_for "2 heads"
faster
wait_for "Every run stopped" 90
keys w
wait_for "What each head writes, from its weights"
wait_for "w: the heatmaps again"
# the right-hand pane (two heads): characters 37 on
right=$(screen | python3 -c 'import sys; [print(l.rstrip("\n")[36:]) for l in sys.stdin]')
first_head=$(grep -oP '^head \d(?= first 1\.00)' <<<"$right" | head -1)
prev_head=$(grep -oP '^head \d(?= prev [.0-9]+)' <<<"$right" | head -1)
check "the two-head pane labels a first head and a prev head ($first_head, $prev_head)" \
    test -n "$first_head" -a -n "$prev_head"
# each head's reading, on the line under its title
reading_of() { awk -v h="$1" '$0 ~ "^"h" " {getline; print; exit}' <<<"$right"; }
check "the first head looks at the first position by its weights ($(reading_of "$first_head"))" \
    grep -qP "^  by position it favours the first \([0-9] of 7" <<<"$(reading_of "$first_head")"
check "the prev head looks one back by its weights ($(reading_of "$prev_head"))" \
    grep -qP "^  by position it favours 1 back \([0-9] of 7" <<<"$(reading_of "$prev_head")"
# the prev head's writes into the prev output: the token it attends to
prev_writes=$(awk -v h="$prev_head" '$0 ~ "^"h" " {on=1; next} /^head / {on=0} on && /^ +prev:/ {print; exit}' <<<"$right")
check "the prev head raises the token it attends to ($prev_writes)" \
    grep -qP '^ +prev: ([A-P])→\1 ' <<<"$prev_writes"
keys w
wait_gone "What each head writes"
wait_for "w: what each head writes"
keys q
wait_exit 0

# a reading of four lines shows whole where the heads leave the room (at
# 80x24 seed 2's first head of layer 1 reads four lines, its last was cut
# to "attend…" with five lines blank below)
start 80 24 -- --train induction --layers 2 --steps 300 --seed 2
wait_for "300 of 300 · stopped" 120
keys w
wait_for "What each head writes, from its weigh"
right=$(screen | python3 -c 'import sys; [print(l.rstrip("\n")[41:]) for l in sys.stdin]')
uncut() { ! grep -P '^  (?! *next:).*…$' <<<"$right"; }
check "every reading whole: none ends in \"…\"" uncut
check "both heads' readings end with what they raise" \
    test "$(grep -cP '\(\d+ of 24\)$' <<<"$right")" = 2
# the weights' colour legend goes with the heatmaps (w, o) and comes back
check "no weights' legend over the circuits" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -q '^weight 0 '"
keys o
wait_for "it writes (temperature 1)"
check "no weights' legend over the samples" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -q '^weight 0 '"
keys o
wait_for "weight 0 "
keys q
wait_exit 0

# short of room for the whole readings, each shows as many lines as fit:
# two in each pane of --compare layers=1,2 at 80x24 (it was one)
start 80 24 -- --train induction --compare layers=1,2 --steps 300 --seed 2
# (the header gives the step of the first pane's model, the one layer kept
# at its best evaluation, step 250)
wait_for "250 of 300 · stopped" 120
keys w
wait_for "What each head writes, from its weigh"
left=$(screen | cut -c1-40)
check "two lines of each head's reading" test "$(grep -cP '^  (?!next:)\S' <<<"$left")" = 4
keys q
wait_exit 0

# a language model: each head titled with the corpus's jobs it does, measured
# by knocking it out alone (seed 4: head 0 the long job, agreement and
# content, head 1 the long job and content, as doc/training-figures.md has
# it), and its writes in words
start 80 24 -- --train sentences --seed 4
faster
wait_for " · stopped" 300
wait_for "head 0 long+agree+co"
wait_for "head 1 long"
# the rows are labelled with whole words where the heads leave room
check "whole words as row labels" bash -c "tmux -L $SOCK capture-pane -p | grep -qE '(^| )because +[·]'"
keys w
wait_for "head 0 long+agree"
wait_for "  next:"
# each head's reading ends in what knocking it out alone did
check "the readings say what the knock-outs did" bash -c "tmux -L $SOCK capture-pane -p | tr '\n' ' ' | tr -s ' ' | grep -qP 'knocked out alone, (long|agree|content) falls from [0-9.]+ to'"
check "words with arrows and z-scores" bash -c "tmux -L $SOCK capture-pane -p | grep -qP ' next: \S+→\S+ z [0-9]'"
keys q
wait_exit 0

# no UTF-8: ASCII arrows
start 80 24 LANG=C LC_ALL=C -- --train prev --steps 50
wait_for "50 of 50 . stopped" 90
keys w
wait_for "What each head writes, from its weights: attended word -> "
check "ASCII arrows" bash -c "tmux -L $SOCK capture-pane -p | grep -qP '^  prev: \S+->\S+ '"
keys q
wait_exit 0
