#!/usr/bin/env bash
# class_walk.sh - a class is on the teacher's screen at every moment.  The
# teacher, at 100x30 in presenter mode, lets autoplay walk lesson 7 (its
# checkpoint too), then opens lesson 21 from the list: Spaces that only
# scroll the teacher's text (they would turn the page on a larger screen),
# a training scene started with p, paused, stepped with n, scrubbed back
# and brought live, its checkpoint, two layers and y; then, without the
# lesson, settings, a stage, a view and autoplay over the stages.  Followers at 70x22, 80x24 and 120x40, and one
# at 80x24 over a pipe, are compared with the teacher after every action:
# the lesson's step, the stage, the view's title, the heads, d_model, the
# training's step while it is paused, and the layer, as each screen shows
# them (a field one of the two screens has no room for is not compared).
# A student at 80x24 pages on alone and presses F: back on the teacher's
# step.  Last, the recording replayed at 80x24 and 120x40 ends where the
# teacher ended, and a copy of it taken mid-class where the teacher was.  The last lines count the comparisons and the drifts: none.
. "$(dirname "$0")/lib.sh"
cd "$WORK/cwd"
. "$SRC_ROOT/tests/screen/follow_lib.sh"

FOLLOWERS=(s70 s80 s120 pipe)
COMPARED=0
DRIFTS=0

# where NAME: what NAME's screen says of where it is, a field a line
where() {
    local s
    s=$(cap "$1")
    echo "step $(grep -oP 'step \K[0-9]+/[0-9]+' <<<"$s" | head -1)"
    # the training's step, compared only while the teacher's run is paused
    if grep -q '· paused' <<<"$s"; then
        echo "train $(grep -oP 'step \K[0-9]+(?= of [0-9]+)' <<<"$s" | head -1)"
    fi
    echo "layer $(grep -oP 'layer \K[0-9]+(?= of 0)' <<<"$s" | head -1)"
    echo "stage $(sed -n 2p <<<"$s" | grep -oP '^\s*\K[0-9] · \w+')"
    echo "view $(grep -oP '^\s*\K(Shapes|Cost|Heads|Circuits|Composition)(?= view)' <<<"$s" | head -1)"
    # the sizes as the status line gives them (a message may name others)
    local status
    status=$(tail -1 <<<"$s")
    echo "heads $(grep -oP '[0-9]+(?= heads? ·)|heads \K[0-9]+|│ h \K[0-9]+' <<<"$status" | tail -1)"
    echo "d_model $(grep -oP 'd_model \K[0-9]+|│ d \K[0-9]+' <<<"$status" | tail -1)"
}

# differs TEACHER FOLLOWER: the fields both screens show that differ
differs() {
    local name value other
    while read -r name value; do
        [ -n "$value" ] || continue
        other=$(grep -oP "^$name \K.*" <<<"$2")
        # the lesson's step shows on every screen that has a lesson
        if [ -z "$other" ] && [ "$name" != step ]; then continue; fi
        [ "$value" = "$other" ] || echo "$name: teacher $value, follower ${other:-none}"
    done <<<"$1"
}

# compare WHAT: every follower where the teacher is within 2 s (the
# teacher read again each time: autoplay moves on meanwhile)
compare() {
    local what=$1 name i d
    sleep 0.15
    for name in "${FOLLOWERS[@]}"; do
        i=0
        d=$(differs "$(where teach)" "$(where "$name")")
        while [ -n "$d" ] && [ $i -lt 40 ]; do
            sleep 0.05
            d=$(differs "$(where teach)" "$(where "$name")")
            i=$((i + 1))
        done
        COMPARED=$((COMPARED + 1))
        if [ -n "$d" ]; then
            DRIFTS=$((DRIFTS + 1))
            echo "---- after $what, $name drifted: $d"
            cap "$name"
        fi
    done
}

# key WHAT KEYS...: the teacher's keys, then the class compared
key() {
    local what=$1
    shift
    T send-keys -t teach "$@"
    compare "$what"
}

# pause_run: p again half a second into the teacher's run; a run that
# stopped by itself first (a fast machine) is compared as it stands
pause_run() {
    local i=0
    sleep 0.5
    T send-keys -t teach p
    until cap teach | grep -qE '· (paused|stopped)' || [ $i -ge 200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    cap teach | grep -qE '· (paused|stopped)' || fail "the teacher's run neither paused nor stopped"
    pass
}

EXEQ=$(printf '%q' "$EXE")
L7=$(lesson_steps 7)
L21=$(lesson_steps 21)
session teach 100 30 "$EXEQ --record class.rec --lesson 7 --step 1 --present"
wait_in teach "step 1/$L7"
session s70 70 22 "$EXEQ --follow class.rec"
session s80 80 24 "$EXEQ --follow class.rec"
session s120 120 40 "$EXEQ --follow class.rec"
session pipe 80 24 "tail -c +1 -f class.rec | $EXEQ --follow -"
for s in "${FOLLOWERS[@]}"; do wait_in "$s" "following the teacher"; done
compare "joining"

# autoplay through lesson 7: moves that no key makes, its checkpoint's
# answer shown by autoplay on the way
T send-keys -t teach : a u t o p l a y Space 1 Enter
for i in $(seq 1 12); do
    sleep 0.7
    compare "autoplay's move $i"
    cap teach | grep -q "step $L7/$L7" && break
done
wait_in teach "step $L7/$L7" 15
compare "autoplay at the lesson's end"

# lesson 21 from the lesson list (twenty rows below the first)
T send-keys -t teach L
wait_in teach "Lessons"
T send-keys -t teach Home
for i in $(seq 1 20); do T send-keys -t teach Down; done
wait_in teach "Copying from the prompt"
T send-keys -t teach Enter
wait_in teach "step 1/$L21"
wait_in teach "Space reads on"
compare "lesson 21"

# Spaces that only scroll the teacher's step: every follower stays on it
for i in 1 2 3 4; do
    T send-keys -t teach Space
    sleep 0.2
    [ "$(cap teach | grep -oP 'step \K[0-9]+/[0-9]+' | head -1)" = "1/$L21" ] ||
        fail "the teacher's Space $i turned the page at 100x30"
    pass
    compare "Space $i"
done

# a student pages on alone, then F: back on the teacher's step
mid=$(where teach)
cp class.rec mid.rec
T send-keys -t s80 Space
wait_in s80 "exploring on your own" 3
T send-keys -t s80 Space
T send-keys -t s80 F
wait_in s80 "following the teacher" 5
compare "a student's Spaces and F"

# the training scene: p, a pause, two steps, a checkpoint back, live again
key "p" p
pause_run
compare "the pause"
key "n" n
key "n again" n
key "a checkpoint back" Left
key "another back" Left
key "live again" G

# on to the checkpoint, answered
n=0
until [ "$(cap teach | grep -oP 'step \K[0-9]+/[0-9]+' | head -1)" = "2/$L21" ] || [ $n -ge 12 ]; do
    key "Space to step 2" Space
    n=$((n + 1))
done
key "the checkpoint's answer" 2
for s in "${FOLLOWERS[@]}"; do wait_in "$s" "Right" 3; done

# two layers: trained, paused, each layer shown
until [ "$(cap teach | grep -oP 'step \K[0-9]+/[0-9]+' | head -1)" = "3/$L21" ] || [ $n -ge 30 ]; do
    key "Space to step 3" Space
    n=$((n + 1))
done
key "p (two layers)" p
pause_run
compare "the pause of two layers"
key "y" y
key "y again" y

# without the lesson: presenter mode off, settings, a stage, a view
key "presenter off" P
# q leaves the training screen, then the lesson
n=0
while cap teach | grep -qP "step [0-9]+/$L21" && [ $n -lt 3 ]; do
    key "q" q
    n=$((n + 1))
done
cap teach | grep -qP "step [0-9]+/$L21" && fail "q did not leave the lesson"
pass
key "+ (a head more)" +
key "] (d_model up)" ]
key "stage 3" 3
key ":view shapes" : v i e w Space s h a p e s Enter
key ":view none" : v i e w Space n o n e Enter
T send-keys -t teach : a u t o p l a y Space 1 Enter
for i in 1 2 3 4; do
    sleep 0.9
    compare "autoplay over the stages $i"
done
key "a (autoplay stops)" a
last=$(where teach)

T send-keys -t teach : q u i t Enter
wait_in teach EXPLORER-EXITED 5

# replayed at two sizes: the whole recording ends where the teacher
# ended, the one copied mid-class where the teacher was then
T kill-server 2>/dev/null
for run in "class 80 24" "class 120 40" "mid 80 24" "mid 120 40"; do
    set -- $run
    session "r$1$2" "$2" "$3" "$EXEQ --replay $1.rec --speed 4"
    wait_in "r$1$2" "The replay finished" 60
    COMPARED=$((COMPARED + 1))
    if [ "$1" = class ]; then want=$last; else want=$mid; fi
    d=$(differs "$want" "$(where "r$1$2")")
    if [ -n "$d" ]; then
        DRIFTS=$((DRIFTS + 1))
        echo "---- the replay of $1.rec at $2x$3 drifted: $d"
        cap "r$1$2"
    fi
done

echo "the teacher ended on: $(tr '\n' ' ' <<<"$last")"
echo "class walk: $COMPARED comparisons, $DRIFTS drifts"
[ "$COMPARED" -ge 150 ] || fail "only $COMPARED comparisons were made"
pass
[ "$DRIFTS" -eq 0 ] || fail "$DRIFTS of $COMPARED comparisons drifted"
pass
