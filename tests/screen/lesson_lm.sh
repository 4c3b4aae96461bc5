#!/bin/bash
# Lesson 18 on the bundled language model: the checkpoint asks for the next
# word on the attention stage (no next words on screen), the answer's reveal
# goes to the output stage, which opens with the next words; a later step
# changes the sentence and the same question has another answer; :tokens in
# the lesson runs the model too.  Lesson 19 asks what kind of word head 0
# writes before the output stage shows the model, and its circuits view
# lists it.  Lesson 13 asks where each head of the same model looks from
# the last "the" of "the cat sat on the", its rows hidden until answered.
. "$(dirname "$0")/lib.sh"

start 120 40 -- --lesson 18 --step 2
wait_for "step 2/$(lesson_steps 18)"
wait_for "Which word does the model put first after"
check "no next words on screen before the answer" \
    bash -c "! tmux -L '$SOCK' capture-pane -p | grep -q 'next word after'"
keys 1 # "the": wrong
wait_for "One more try"
keys 2 # "mat"
wait_for "✓ Right: mat."
wait_for "6 · Output"
wait_for 'next word after "the" (position 4, temperature 1)'
check "mat first" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qP '^mat +0\.[0-9]{4}  █'"
quit_lesson
T kill-server
sleep 0.2

# step 4: the dog; the answer is rug
start 120 40 -- --lesson 18 --step 4
wait_for "step 4/$(lesson_steps 18)"
wait_for '"the dog sat on the"?'
keys 2
wait_for "✓ Right: rug."
# :tokens runs the lesson's model on a new sentence
keys ':'
type_text "tokens the key to the cabinets"
keys Enter
wait_for 'after "cabinets" it says "is"'
quit_lesson
T kill-server
sleep 0.2

# lesson 19: what head 1 writes, asked with the circuits view on screen (what
# the question is about), before the output shows the model
start 120 40 -- --lesson 19 --step 2
wait_for "step 2/$(lesson_steps 19)"
wait_for "Four of head 1's six strongest entries"
wait_for "Circuits view   sentences.json: "
wait_for "an → moo,"
check "no next words on screen before the answer" \
    bash -c "! tmux -L '$SOCK' capture-pane -p | grep -q 'next word after'"
keys 2
wait_for "✓ Right: animal sounds."
wait_for 'next word after "the" (position 4, temperature 1)'
check "roof first" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qP '^roof +0\.[0-9]{4}  █'"
space_until "step 3/$(lesson_steps 19)"
# the circuits view again, for both heads' lists: head 1 raises moo for an
wait_for "Circuits view   sentences.json: "
wait_for "an → moo,"
space_until "step 4/$(lesson_steps 19)"
wait_for "Knock head 0 out"
keys 4
wait_for "✓ Right: almost none."
quit_lesson
T kill-server
sleep 0.2

# lesson 13 on the same model: at the last "the", head 0 looks at the animal
# (asked with the row hidden) and head 1 at the word just before
start 120 40 -- --lesson 13 --step 2
wait_for "step 2/$(lesson_steps 13)"
wait_for 'Which word does the last "the" attend to'
wait_for "most in head 0?"
keys 2
wait_for "✓ Right: cat."
space_until "step 3/$(lesson_steps 13)"
wait_for "most in head 1?"
keys 4
wait_for "✓ Right: on."
quit_lesson
T kill-server
sleep 0.2

# lesson 18 step 7 at 80x24: the last word's row of each head's weights is
# named over the numbers, and the checkpoint keeps the step's title in sight
start 80 24 -- --lesson 18 --step 7
wait_for "step 7/$(lesson_steps 18)"
wait_for "row now: head 0 → "
wait_for " · head 1 → "
wait_for "Two words at once"
wait_for "Which word does the model put first"
wait_for "Press 1-4 to answer."
