#!/bin/bash
# A trained language model in the explorer: the output stage opens with its
# next words after the last word, with their probabilities as bars; < and >
# change the temperature (sharper, flatter, the order kept); :tokens
# runs the model on a new sentence (not numbers drawn from a seed) and an
# unknown word is named as having no embedding, with the words nearest in
# the model's embedding to what it expects there, the model kept.
. "$(dirname "$0")/lib.sh"

cd "$WORK/cwd" || exit 1
"$EXE" --train sentences --dump summary --save lm.json >/dev/null 2>&1 ||
    fail "--train sentences --save lm.json failed"
pass

start 100 30 -- --load lm.json --tokens "the cat sat on the" --stage output
wait_for "6 · Output"
wait_for 'next word after "the" (position 4, temperature 1)'
check "mat comes first, with its bar" bash -c \
    "tmux -L $SOCK capture-pane -p | grep -qP '^mat +0\.[0-9]{4}  █'"
check "ten words under the header" test "$(screen | grep -cP '^\S+ +0\.[0-9]{4}  [█░]+$')" = 10
# the stage's text says what the table is, and the input stage whose numbers they are
# text_has TEXT: the screen's lines, joined, hold TEXT (the pane wraps it)
text_has() { screen | sed 's/^ *//; s/ *$//' | tr '\n' ' ' | grep -qF -- "$1"; }
check "the output stage explains the next-word table" text_has \
    'The next-word table is the model'"'"'s guess at the word after "the" (row 4)'
keys 0
wait_for "0 · Input"
check "the input stage speaks of the trained embeddings" text_has \
    "here they are the trained model's (lm.json): each input row is the embedding it learned for the word"
check "no example file in a model's input stage" bash -c "! tmux -L $SOCK capture-pane -p | grep -q \"example file's\""
keys 6
wait_for "6 · Output"

# the temperature: < sharpens the next words, > flattens them; the order stays
p_of_mat() { screen | grep -oP '^mat +\K0\.[0-9]{4}' | head -1; }
p1=$(p_of_mat)
keys '<'
wait_for 'temperature 0.75)'
wait_for 'Temperature 0.75: softmax(logits / 0.75), sharper'
p075=$(p_of_mat)
check "at 0.75 mat's probability rises ($p1 -> $p075)" awk "BEGIN { exit !($p075 > $p1) }"
keys '>'
keys '>'
wait_for 'temperature 1.5)'
p15=$(p_of_mat)
check "at 1.5 it falls ($p1 -> $p15), mat still first" bash -c \
    "awk 'BEGIN { exit !($p15 < $p1) }' && tmux -L $SOCK capture-pane -p | grep -qP '^mat +0\.[0-9]{4}  '"
keys '<'
wait_for 'temperature 1)'

# :tokens runs the model on the new words
keys ':'
type_text "tokens the dog sat on the"
keys Enter
wait_for 'words through the model; after "the" it says "rug"'
check "the model's file is still named" bash -c "tmux -L $SOCK capture-pane -p | grep -q 'lm.json'"
check "no numbers drawn from a seed" bash -c "! tmux -L $SOCK capture-pane -p | grep -q 'seed 42'"
# an unknown word: named, with the words nearest to what is expected after "the", the sentence kept
keys ':'
type_text "tokens the dgo sat"
keys Enter
wait_for '"dgo" has no embedding, and after'
check "the words nearest to what it expects after \"the\", not by spelling" bash -c "tmux -L $SOCK capture-pane -p | grep -q 'the model expects a word nearest'"
check "the sentence before is kept" bash -c "tmux -L $SOCK capture-pane -p | grep -q '5 tokens'"
keys q
wait_exit 0

# < on an example that is no language model says what it is for
start 80 24
wait_for "0 · Input"
keys '<'
wait_for "change a language model's temperature"
keys q
wait_exit 0
