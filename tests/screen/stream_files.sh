#!/usr/bin/env bash
# stream_files.sh - a class's stream and a recording someone sent are data:
# followed and replayed, their keys that write, read or copy (e, :export,
# :link FILE, :link's clipboard, :load PATH) and the file options of their
# start (--load, --lesson FILE, --train FILE, --record, --save) neither
# create a file, nor open one, nor set the clipboard; the screen says what
# the teacher did; a bundled example by name still loads; the student's own
# keys still do it all.  A path opened for reading is seen as a FIFO whose
# writer finishes.
. "$(dirname "$0")/lib.sh"
cd "$WORK/cwd"
. "$SRC_ROOT/tests/screen/follow_lib.sh"
# one server for the whole test, which keeps what OSC 52 sends as a paste buffer
T new-session -d -s keep "sleep 600"
T set -g set-clipboard on

# FIFOs that tell when someone opens them to read
for f in model.json lesson.md task.txt typed.json; do mkfifo "$WORK/$f"; done
openers=()
for f in model.json lesson.md task.txt typed.json; do
    timeout 120 sh -c 'exec 3>"$1" && echo opened >"$1.opened"' _ "$WORK/$f" </dev/null >/dev/null 2>&1 &
    openers+=($!)
done

# typed TEXT: the recording's lines for TEXT typed a key at a time
ms=100
key() { printf '%d.%03d %s\n' $((ms / 1000)) $((ms % 1000)) "$1"; ms=$((ms + 20)); }
typed() {
    local s=$1 i c
    for ((i = 0; i < ${#s}; i++)); do
        c=${s:i:1}
        case $c in
        ' ') key space ;;
        '#') key hash ;;
        *) key "$c" ;;
        esac
    done
}
{
    echo "mha-explorer-recording 2"
    echo "size 100x30"
    echo "arg --stage"
    echo "arg split"
    echo "# at 0"
    key e
    key :; typed "export html $WORK/cwd/page.html"; key enter
    key :; typed "export svg"; key enter
    key :; typed "link $WORK/cwd/link.txt"; key enter
    key :; typed "link"; key enter
    key escape
    key :; typed "load $WORK/typed.json"; key enter
    key :; typed "load translate"; key enter
} >"$WORK/hostile.rec"
{
    echo "mha-explorer-recording 2"
    echo "size 100x30"
    for a in --load "$WORK/model.json" --lesson "$WORK/lesson.md" --record "$WORK/cwd/again.rec" \
        --save "$WORK/cwd/saved.json" --stage split; do
        printf 'arg %s\n' "$a"
    done
    echo "# at 0"
} >"$WORK/paths.rec"
{
    echo "mha-explorer-recording 2"
    echo "size 100x30"
    printf 'arg --train\narg %s\n' "$WORK/task.txt"
    echo "# at 0"
    echo "3.000 right"
} >"$WORK/train.rec"
before=$(ls -A "$WORK/cwd")
buffers() { T list-buffers 2>/dev/null | wc -l; }

EXEQ=$(printf '%q' "$EXE")
# followed: the teacher's e and :export are said, nothing is written
cp "$WORK/hostile.rec" class.rec
before=$(ls -A "$WORK/cwd")
session a 80 24 "$EXEQ --follow class.rec"
wait_in a "following the teacher" 5
wait_in a "translate" 5 # the bundled example by name loaded, the last key
T kill-session -t a
cp "$WORK/paths.rec" class.rec
# (wide: the note names four paths in full, and a build's temporary folder is long)
session a2 160 40 "$EXEQ --follow class.rec"
wait_in a2 "The teacher started with --load $WORK/model.json, --lesson" 5
cap a2 | tr -d '\n' | grep -qF "not opened here" || fail "a2 does not say the paths were not opened"
pass
for p in lesson.md cwd/again.rec cwd/saved.json; do
    cap a2 | tr -d '\n' | grep -qF "$p" || fail "the note does not name $p"
    pass
done
wait_in a2 "2 · Split" 2 # the start's other options hold
T kill-session -t a2
[ "$(ls -A "$WORK/cwd")" = "$before" ] || fail "following created $(ls -A "$WORK/cwd")"
pass
[ "$(buffers)" -eq 0 ] || fail "following set the clipboard: $(T list-buffers)"
pass

# the teacher's e alone: the status line says what the teacher did
{
    echo "mha-explorer-recording 2"
    echo "size 100x30"
    echo "# at 0"
    echo "0.100 e"
} >one.rec
session b 80 24 "$EXEQ --follow one.rec"
wait_in b "The teacher exported the stage; nothing is written" 5
T kill-session -t b
rm one.rec

# replayed: the same
session c 80 24 "$EXEQ --replay $(printf %q "$WORK/hostile.rec") --speed 4"
wait_in c "The replay finished" 10
wait_in c "3 queries, 3 keys" 1
T kill-session -t c
[ "$(ls -A "$WORK/cwd")" = "$before" ] || fail "replaying created $(ls -A "$WORK/cwd")"
pass
[ "$(buffers)" -eq 0 ] || fail "replaying set the clipboard: $(T list-buffers)"
pass
session d 80 24 "$EXEQ --replay $(printf %q "$WORK/train.rec")"
wait_in d "The recording started with --train $WORK/task.txt" 5
cap d | tr -d '\n' | grep -qF "not opened here" || fail "d does not say the task was not opened"
pass
T kill-session -t d

# a bundled corpus or task by name is no file of the stream's: it opens
printf 'mha-explorer-recording 2\nsize 100x30\narg --train\narg sentences\narg --steps\narg 20\n# at 0\n' >corpus.rec
session g 100 30 "$EXEQ --follow corpus.rec"
wait_in g "Training   sentences" 10
cap g | tr -d '\n' | grep -qF "not opened" && fail "the bundled corpus was taken for a file"
pass
T kill-session -t g
rm corpus.rec

# no file of the stream was opened to be read
sleep 0.2
for f in model.json lesson.md task.txt typed.json; do
    [ ! -e "$WORK/$f.opened" ] || fail "$f was opened"
    pass
done
kill "${openers[@]}" 2>/dev/null

# the student's own keys do what the teacher's did not
cp "$WORK/hostile.rec" class.rec
session e 80 24 "$EXEQ --follow class.rec"
wait_in e "translate" 5
T send-keys -t e e
wait_in e "mha-" 3
ls mha-*.svg >/dev/null 2>&1 || fail "the student's own e wrote nothing"
pass
T send-keys -t e : l i n k Enter
wait_in e "reopens this screen" 3
sleep 0.3
[ "$(buffers)" -ge 1 ] || fail "the student's own :link did not reach the clipboard"
pass

# a training snapshot with a NaN where a number must be: the follower stops
# at that line and says which, and the replay refuses the file there
{
    echo "mha-explorer-recording 2"
    echo "size 80x24"
    echo "# snap on"
    echo "# at 0.000"
    echo "0.100 right"
    echo "# snap begin t=0.5 pane=0 kind=live step=3 stop=0 pace=-1 params=0 loss=1 acc=0.5 losses=0 evals=1 jobs=0 roles=0"
    echo "# snap eval 3 1 1.5 nan"
    echo "# snap end"
} >nan.rec
session n 80 24 "$EXEQ --follow nan.rec"
wait_in n "nan.rec:7" 5
wait_in n "a training snapshot holds a number" 3
out=$("$EXE" --replay nan.rec 2>&1 </dev/null)
status=$?
[ "$status" -eq 2 ] || fail "--replay of a NaN snapshot exited $status"
pass
grep -qF "nan.rec:7: a training snapshot holds a number that is not finite" <<<"$out" ||
    fail "--replay did not name the line: $out"
pass
