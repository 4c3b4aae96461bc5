#!/bin/bash
# The training screen saves what it trained: with --save FILE the model the
# screen shows (a checkpoint after a scrub) is written when it is left, with
# no question; :save [FILE] writes it at any moment (the pane in focus with
# --compare, whose --save is one file per pane); a replay writes nothing.
# Each file written opens with --load.
. "$(dirname "$0")/lib.sh"
cd "$WORK/cwd" || exit 1

opens() { "$EXE" --load "$1" --dump attention >/dev/null 2>&1; }

# the step whose model a run of 60 steps keeps (its best held-out
# evaluation), as --dump summary trains it headless: the screen keeps and
# saves the same model
kept=$("$EXE" --train first-prev --steps 60 --save h.json --dump summary --format json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["stopped"]["kept_step"])')
check "a run of 60 steps keeps an earlier step's model (step $kept)" test "$kept" -lt 60

# --save: q leaves, and the model is there
start 100 30 -- --train first-prev --steps 60 --save m.json
wait_for "Stopped at" 60
wait_for "keeping step $kept's model"
keys q
wait_exit 0
wait_for "saved the model at step $kept to m.json"
check "--save wrote a model that --load opens" opens m.json
check "the screen saved the model --save saves headless, byte for byte" cmp -s m.json h.json

# a model file loaded is saved too; an example is no model
start 100 30 -- --load m.json
wait_for "d_model 8"
type_text ":save copy.json"
keys Enter
wait_for "Saved the model of m.json to copy.json."
check ":save of a loaded model wrote one --load opens" opens copy.json
type_text ":load translate"
keys Enter
wait_for "translate"
type_text ":save x.json"
keys Enter
wait_for ":save writes a trained model, and none is shown here"
keys q
wait_exit 0
check "nothing saved from an example" [ ! -e x.json ]

# a scrub to step 0 saves step 0; :save FILE saves at once, and :save alone
# (no --save) a new mha-model-1.json; a file that is there is replaced only by
# :save!
start 100 30 -- --train first-prev --steps 60
wait_for "Stopped at" 60
type_text ":save now.json"
keys Enter
wait_for "Saved the model at step $kept to now.json."
check ":save FILE wrote a model that --load opens" opens now.json
keys g
wait_for "Checkpoint at step 0 "
type_text ":save"
keys Enter
wait_for "Saved the model at step 0 to"
wait_for "mha-model-1.json"
check ":save wrote a new mha-model-1.json" opens mha-model-1.json
type_text ":save nofolder/x.json"
keys Enter
wait_for "Not saved: nofolder/x.json: cannot write in nofolder: no such folder"
# :save FILE never replaces a file that is there; :save! FILE does
printf 'my notes\n' >notes.txt
type_text ":save notes.txt"
keys Enter
wait_for "Not saved: notes.txt exists; :save! notes.txt replaces it."
check ":save left the file that was there" test "$(cat notes.txt)" = "my notes"
type_text ":save! notes.txt"
keys Enter
wait_for "Saved the model at step 0 to notes.txt."
check ":save! replaced it with a model" opens notes.txt
# :export and :link check the path typed the same way
type_text ":export svg nofolder/x.svg"
keys Enter
wait_for "Nothing written: nofolder/x.svg: cannot write in nofolder: no such folder"
type_text ":link nofolder/x.sh"
keys Enter
wait_for "Nothing written: nofolder/x.sh: cannot write in nofolder: no such folder"
keys q
wait_exit 0
check "nothing saved on leaving without --save" [ ! -e m-heads1.json ]

# --compare: one file per pane, the heads in its name; :save the pane in focus
start 120 40 -- --train first-prev --compare 1,2 --steps 40 --save c.json
wait_for "Every run stopped" 60
keys Tab
wait_for "The 2 heads pane"
type_text ":save"
keys Enter
wait_for "Saved the 2-head model at step 40 to c-heads2.json."
rm -f c-heads2.json
keys q
wait_exit 0
check "--compare --save wrote the 1-head pane's model" opens c-heads1.json
check "--compare --save wrote the 2-head pane's model" opens c-heads2.json

# --compare layers=...: the layers in each file's name, each file its own model
start 120 40 -- --train induction --compare layers=1,2 --steps 40 --save l.json
wait_for "Every run stopped" 60
keys Tab
wait_for "The 2 layers pane"
type_text ":save"
keys Enter
wait_for "Saved the 2-layer model at step 40 to l-layers2.json."
keys q
wait_exit 0
check "--compare layers= --save wrote the 1-layer model" bash -c \
    "'$EXE' --load l-layers1.json --dump attention >/dev/null && ! grep -q '\"layers\"' l-layers1.json"
check "--compare layers= --save wrote the 2-layer model" bash -c \
    "'$EXE' --load l-layers2.json --layer 0 --dump attention >/dev/null &&
     grep -q '\"layers\"' l-layers2.json"

# a recording's :save is not done again by its replay
start 100 30 -- --train first-prev --steps 40 --record s.rec
wait_for "Stopped at" 60
type_text ":save r.json"
keys Enter
wait_for "Saved the model at step 40 to r.json."
sleep 1.5 # the replay's message stays as long before the next key
keys Left
wait_for "Checkpoint at step"
quit_recording
wait_exit 0
rm -f r.json
start 100 30 -- --replay s.rec
wait_for ":save writes nothing while a recording replays." 60
wait_for "The replay finished"
check "the replay wrote no model" [ ! -e r.json ]
keys q
wait_exit 0

# a lesson's training is saved only with :save
start 120 40 -- --lesson 16
wait_for "Training   first-prev"
type_text ":save lesson.json"
keys Enter
wait_for "to lesson.json."
check ":save in a lesson wrote a model that --load opens" opens lesson.json
quit_lesson
