#!/bin/bash
# --compare layers=1,2 on the induction task: panes titled by their layers,
# the two-layer pane learns the stretch (its accuracy passes 90 %) while the
# one-layer pane stays under half; the stages of the two-layer pane are its
# last layer's, and the status line says which of its layers it shows; y
# shows the layer below, on the stages and on the training screen (and
# :link names it), and y on the one-layer pane says it has one.  Maps too
# tall for the terminal count the rows they leave out.
. "$(dirname "$0")/lib.sh"

start 120 40 -- --train induction --compare layers=1,2 --steps 400 --seed 35
wait_for "▶ 1 layer"
wait_for "2 layers"
faster
wait_for "Every run stopped" 120
# the accuracy line holds each pane's held-out accuracy, left pane first
acc=($(screen | grep '^next' | grep -oE '[0-9]+\.[0-9]+%' | tr -d %))
check "two panes' accuracies: ${acc[*]}" [ "${#acc[@]}" = 2 ]
check "the one-layer pane stays under half (${acc[0]} %)" awk -v a="${acc[0]}" 'BEGIN { exit !(a < 50) }'
check "the two-layer pane passes 90 % (${acc[1]} %)" awk -v a="${acc[1]}" 'BEGIN { exit !(a >= 90) }'
keys :
type_text "link"
keys Enter
wait_for "--train induction --compare layers=1,2 --heads 2 --d-model 32 --seed 35"
keys Escape
wait_gone "The command line that reopens this screen"
keys Tab
wait_for "▶ 2 layers"
keys 4
wait_for "layer 1 of 0–1"
# the trained model's stages: :link trains it again, as on the training screen
keys :
type_text "link"
keys Enter
wait_for "--train induction --compare layers=1,2 --heads 2 --d-model 32 --seed 35"
wait_for "it trains the model again on the training screen"
keys Escape
wait_gone "The command line that reopens this screen"
keys y
wait_for "Layer 0 of 0–1: its heads read the embeddings"
wait_for "│ layer 0 of 0–1 │"
keys t
wait_for "▶ 2 layers"
# the layer shown is in :link's command (every pane has a layer 0)
keys :
type_text "link"
keys Enter
wait_for "--compare layers=1,2 --heads 2 --layer 0 --d-model 32 --seed 35"
keys Escape
wait_gone "The command line that reopens this screen"
keys y
wait_for "│ layer 1 of 0–1 │"
keys Tab
wait_for "▶ 1 layer"
keys y
wait_for "This model has one layer"
keys q
wait_exit 0

# Without UTF-8 the heads' maps keep a row to a line: at 80x24 the panes'
# last rows do not fit, and the line that would show the next one counts
# them (they were cut without a word); with UTF-8 two rows go to a line
# and every row shows
start 80 24 LANG=C LC_ALL=C -- --train induction --compare layers=1,2 --steps 200
wait_for "Every run stopped" 120
check "the rows not shown counted in each pane" \
    test "$(screen | grep -oP '(^|  )\d+ more rows? of each head' | wc -l)" = 2
check "the count reads as no key's letter (v opens the views)" \
    test "$(screen | grep -cP '\bv \d+ more rows?')" = 0
keys q
wait_exit 0
start 80 24 -- --train induction --compare layers=1,2 --steps 200
wait_for "Every run stopped" 120
check "every row shown with two to a line" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -q 'more rows\? of each head'"
keys q
wait_exit 0
# a pane too narrow for the heads not shown and why: the count whole (it
# was cut to "+1 head not shown (a la…")
start 64 18 -- --train names --compare layers=1,2 --steps 100
wait_for "Every run stopped" 120
check "each pane counts its head not shown, whole" \
    test "$(screen | grep -oP '\+1 head not shown(?= |$)' | wc -l)" = 2
check "no count cut" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -q 'not shown (a la…'"
keys q
wait_exit 0
