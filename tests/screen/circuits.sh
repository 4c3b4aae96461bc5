#!/bin/bash
# The circuits view at 80x24: a trained letter model (16 letters) gets each
# head's QK and OV circuits as heatmaps labelled with its letters, coloured
# cells alone where numbers do not fit (signs without colour), and the table
# of each head's strongest pairs below; the bundled language model (195
# words) gets the table alone, in words; a lesson's scene shows it; numbers
# that are no model say how to get one; the model that is training shows
# what each head was measured to do under its number.
. "$(dirname "$0")/lib.sh"

cd "$WORK" || exit 1
"$EXE" --train first-prev --seed 1 --save fp.json --dump summary >/dev/null ||
    fail "first-prev did not train"

start 80 24 -- --load fp.json --view circuits
wait_for "Circuits view   fp.json: 16 words, d_model 8, 2 heads, causal"
wait_for "head 0 QK: query → key 16×16"
wait_for "head 0 OV → first 16×16"
check "the columns are labelled with the letters, one a cell" \
    grep -q "^  A B C D E F G H I J K L M N O P" <<<"$(screen)"
check "the rows are labelled with the letters" grep -q "^B " <<<"$(screen)"
check "the legend gives the signed scale" grep -q "−max .* +max (each matrix its own max)" <<<"$(screen)"
space_until "What each head does: its strongest pairs, from the weights alone"
wait_for "head    by position"
wait_for "first: word →"
wait_for "head 0  the first (7 of 7)"
keys q
wait_exit 0
T kill-server
sleep 0.2

# without colour the cells are signs
start 80 24 NO_COLOR=1 -- --load fp.json --view circuits
wait_for "head 0 QK: query → key"
check "signs in place of colours" grep -qP "^[A-P] ( [-+.]){8}" <<<"$(screen)"
keys q
wait_exit 0
T kill-server
sleep 0.2

# the bundled language model: too many words for heatmaps, its pairs in words
start 80 24 -- --load "$SRC_ROOT/assets/models/sentences.json" --view circuits
wait_for "Circuits view   sentences.json: "
wait_for "words, d_model 32, 2 heads, causal"
wait_for "What each head does: its strongest pairs"
wait_for "copied → and"
check "no heatmap for 195 words" bash -c '! grep -q "QK: query → key" <<<"$0"' "$(screen)"
keys :
type_text "load translate"
keys Enter
wait_for "reads a trained model, and these numbers are not one"
keys q
wait_exit 0
T kill-server
sleep 0.2

# the model that is training: under each head's number, what the training
# measured it doing on held-out sequences, beside what its weights say: the
# head measured on the first token looks at the first position by its
# weights, the one measured on the previous token one back
start 100 50 -- --train first-prev --steps 400
faster
wait_for "stopped" 90
keys 4
wait_for "4 · Attention"
keys :
type_text "view circuits"
keys Enter
wait_for "Circuits view   first-prev, step"
space_until "Under a head's"
check "the head measured on the first token looks at the first position" python3 -c '
import re, sys
lines = sys.argv[1].splitlines()
pairs = [(lines[i], lines[i + 1]) for i in range(len(lines) - 1) if re.match(r"head \d ", lines[i])]
first = [a for a, b in pairs if b.startswith("first ")]
prev = [a for a, b in pairs if b.startswith("prev ")]
ok = first and prev and "the first" in first[0] and "1 back" in prev[0]
sys.exit(0 if ok else 1)' "$(screen)"
check "the first head raises, for the first output, the letter it attends to" python3 -c '
import re, sys
lines = sys.argv[1].splitlines()
at = [i for i in range(len(lines) - 1) if re.match(r"head \d ", lines[i]) and lines[i + 1].startswith("first ")][0]
same = 0
for line in lines[at:at + 6]:
    pairs = re.findall(r"([A-P]) → ([A-P])", line)
    same += len(pairs) >= 2 and pairs[1][0] == pairs[1][1]
sys.exit(0 if same >= 4 else 1)' "$(screen)"
keys q
wait_exit 0
