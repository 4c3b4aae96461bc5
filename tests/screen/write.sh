#!/bin/bash
# w: a loaded language model writes its next word and every stage follows
# (one token more each time, the output stage's table after the new last
# word); W takes the last word back; with the context full w says so; on
# an example that is no language model, w says what it needs; after + on
# the model, what brings its next words back.
. "$(dirname "$0")/lib.sh"
MODEL=$(cd "$(dirname "$0")/../.." && pwd)/assets/models/sentences.json

start 100 30 -- --load "$MODEL" --tokens "the cats by the cow" --stage output
wait_for "5 tokens"
keys w
wait_for "6 tokens"
wait_for "The model wrote"
keys w
wait_for "7 tokens"
keys W
wait_for "6 tokens"
wait_for "w writes again"
keys 0
wait_for "(6, 32)"
keys q
wait_exit 0

# one word left is one token on the status line
start 100 30 -- --load "$MODEL" --tokens "the cat"
wait_for "2 tokens"
keys W
wait_for "1 token │"
keys q
wait_exit 0

# a full context: w says so, as w, and what takes a word back
start 120 30 -- --load "$MODEL" --stage output \
    --tokens "the cat sat on the mat because it was too soft and the dog rain ."
wait_for "16 tokens"
keys w
wait_for "w: 17 words; sentences.json takes at most 16 (its context); W takes a word back."
keys q
wait_exit 0

start 100 30
wait_for "4 tokens"
keys w
wait_for "w writes with a language model"
wait_for "4 tokens"
keys q
wait_exit 0

# + on the loaded model splits its weights into other heads and its next
# words go: w and < say so and what brings them back (they said "load one"
# over a model loaded), and the :load they name does
start 120 30 -- --load "$MODEL" --tokens "the cat sat on the" --stage output
wait_for "next word after"
keys +
wait_for "│ heads 4 │"
wait_gone "next word after"
keys w
wait_for "w writes with the language model as loaded: its next words went"
check "w names the file that brings them back" bash -c "tmux -L '$SOCK' capture-pane -p -J | tr -d '\n' | grep -qF ':load $MODEL brings them back'"
keys Escape
keys '<'
wait_for "< > change the temperature of the language model as loaded"
keys Escape
keys : "load $MODEL" Enter
wait_for "│ heads 2 │"
keys w
wait_for "The model wrote"
keys q
wait_exit 0
