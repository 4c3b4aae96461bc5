#!/bin/bash
# A loaded model of two layers: the status line says its last layer is
# shown; y shows layer 0 (another attention on the same words), :layer 1
# the last again, :layer 2 is refused naming the layers there are, and a
# one-layer model says it has one layer and changes nothing.  The
# composition view gives the Q, K and V scores --dump summary gave for the
# model it saved, and on the training screen's model each head knocked out;
# :link gives the layers (and --layer L opens on that layer).  The circuits
# view reads the layer shown.  --stage and --focus open on the layer
# --layer names, and e and :export title the file with it; --train TASK
# --layer L opens the training screen on layer L, and + - (other heads) and
# r keep the layer shown.
. "$(dirname "$0")/lib.sh"

cd "$WORK"
"$EXE" --train induction --layers 2 --seed 3 --steps 300 --dump summary --save two.json >summary.txt
"$EXE" --train induction --seed 3 --steps 50 --dump summary --save one.json >/dev/null

start 80 24 -- --load two.json --stage 4
wait_for "│ layer 1 of 0–1 │"
# the first row of head 0's scores, as the layer shows it
row() { screen | grep -m1 -E '^[A-Z] +-?[0-9]'; }
last=$(row)
keys y
wait_for "│ layer 0 of 0–1 │"
wait_for "Layer 0 of 0–1: its heads read the embeddings"
check "layer 0's scores are not layer 1's" test "$(row)" != "$last"
layer0=$(row)
keys : "link" Enter
wait_for "--layer 0"
keys Escape
wait_gone "The command line that reopens this screen"
keys : "layer 1" Enter
wait_for "│ layer 1 of 0–1 │"
check "layer 1's scores again" test "$(row)" = "$last"
keys : "layer 2" Enter
wait_for "this model has layers 0 to 1"
keys : "view composition" Enter
wait_for "Composition view"
wait_for "K: layer 1 reads layer 0"
# head 1.0 reading head 0.1, as the summary said it
want=$(grep -oP 'layer 1 head 0 reads layer 0 head 1: +\K.*' summary.txt | tr -s ' ' | sed 's/[QKV] //g')
# (below the table's header, or with it scrolled away, below the K heatmap)
pair() { screen | awk '/^(head +reads|Each head)/ { t = 1 } t && /^1\.0/ { on = 1; next } on && $1 == "0.1" { print $2, $3, $4; exit }'; }
got=
for i in $(seq 15); do
    got=$(pair)
    [ -n "$got" ] && break
    keys j
    sleep 0.1
done
check "Q K V of 1.0 reading 0.1 on screen ($got) are the summary's ($want)" test -n "$got" -a "$got" = "$want"
for i in $(seq 6); do keys j; done
wait_for "The scores are read off the"
# the circuits view reads the layer shown, along its direct path
keys : "view circuits" Enter
wait_for "Layer 1 of a model of 2 layers"
keys y
wait_for "Layer 0 of a model of 2 layers"
keys q
wait_exit 0

start 80 24 -- --train induction --layers 2 --seed 3 --steps 300
faster
wait_for "stopped" 60
# :view on the training screen shows that view of the model training
keys : "view composition" Enter
wait_for "Composition view   induction, step 300"
# the K scores' rows and columns name the heads whole: 80 columns hold
# them (they were cut to "1.0 induc…" and "0.1 p…")
check "the composition's labels whole" bash -c "tmux -L '$SOCK' capture-pane -p | grep -A3 '^K: layer 1 reads layer 0' | grep -qE '^1\.0 [a-z]+ +[0-9]' && ! tmux -L '$SOCK' capture-pane -p | grep -A3 '^K: layer 1 reads layer 0' | grep -q '…'"
keys t
wait_for "Training   induction"
keys :
type_text "link"
keys Enter
wait_for "--train induction --heads 2 --layers 2 --d-model 32 --seed"
keys Escape
wait_gone "The command line that reopens this screen"
keys 4
keys : "view composition" Enter
wait_for "knocked out"
check "each head has its knock-out" bash -c "[ \$(tmux -L '$SOCK' capture-pane -p | grep -cE '^[01]\.[01] .*next [01]\.[0-9][0-9]') -ge 3 ]"
# one knock-out, one number: the view's are --dump summary's for the same
# run, measured on the same held-out sequences
want=$("$EXE" --train induction --layers 2 --seed 3 --steps 300 --dump summary --format json |
    python3 -c 'import json, sys
s = json.load(sys.stdin)
assert s["layers_held_out"]["sequences"] == 256
for l, layer in enumerate(s["layers_heads"]):
    for h, x in enumerate(layer):
        print("%d.%d %.2f" % (l, h, x["knocked"]["next"]))')
got=$(tmux -L "$SOCK" capture-pane -p | grep -oE '^[01]\.[01] .*next [01]\.[0-9][0-9]' |
    sed -E 's/^([01]\.[01]) .*next ([01]\.[0-9][0-9])$/\1 \2/')
check "the view's knock-outs are the summary's (view: $got; summary: $want)" python3 -c '
import sys
want = dict(l.split() for l in sys.argv[1].splitlines())
got = [l.split() for l in sys.argv[2].splitlines()]
sys.exit(0 if len(got) >= 3 and all(want.get(k) == v for k, v in got) else 1)' "$want" "$got"
keys q
wait_exit 0

# --layer opens the explorer on that layer
start 80 24 -- --load two.json --layer 0 --stage 4
wait_for "│ layer 0 of 0–1 │"
check "layer 0's scores, as y showed them" test "$(row)" = "$layer0"
keys q
wait_exit 0

# --stage and --focus with --layer: the cursor on that layer's cell; e
# writes that layer's stage, titled with its layer as --dump gives it
start 80 24 -- --load two.json --layer 0 --stage attention --focus "weights, head 1, row 2, col 1"
wait_for "│ layer 0 of 0–1 │"
wait_for "head 1: softmax → weights"
want=$("$EXE" --load two.json --layer 0 --dump attention --format json |
    python3 -c 'import json, sys; print("%.4f" % json.load(sys.stdin)["attention"]["weights"][1][2][1])')
keys Enter
wait_for "$want"
keys Escape
keys Escape
keys e
wait_for "mha-attention-1.svg"
title=$(grep -o '<title>[^<]*</title>' mha-attention-1.svg)
check "the picture's title names layer 0 ($title)" grep -q '<title>Multi-head attention, layer 0 of 0–1, stage 4: Attention</title>' mha-attention-1.svg
check "the picture's title is --dump's" test "$title" = "$("$EXE" --load two.json --layer 0 --dump attention --format svg | grep -o '<title>[^<]*</title>')"
keys : "export md" Enter
wait_for "mha-attention-1.md"
check "the markdown's heading names layer 0" grep -q '^### Stage 4 · attention · layer 0 of 0–1$' mha-attention-1.md
keys q
wait_exit 0

# --train TASK --layers 2 --layer 0 opens the training screen on layer 0
start 100 30 -- --train induction --layers 2 --seed 3 --steps 300 --layer 0
wait_for "│ layer 0 of 0–1 │"
faster
wait_for "stopped" 60
keys y
wait_for "│ layer 1 of 0–1 │"
# + and - train new models with other heads on the layer shown (they
# opened on their last), as r does with another seed
keys y
wait_for "│ layer 0 of 0–1 │"
keys +
wait_for "Training again with 4 heads"
wait_for "│ heads 4 │ layer 0 of 0–1 │"
keys -
wait_for "Training again with 2 heads"
wait_for "│ heads 2 │ layer 0 of 0–1 │"
keys r
wait_for "Training again from step 0"
wait_for "│ heads 2 │ layer 0 of 0–1 │"
keys q
wait_exit 0

start 80 24 -- --load one.json
wait_for "heads 2"
check "no layer on the status line of a one-layer model" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -q 'layer . of'"
keys y
wait_for "This model has one layer"
keys : "view composition" Enter
wait_for "one.json: 1 layer of 2 heads"
keys q
wait_exit 0
