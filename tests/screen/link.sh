#!/bin/bash
# :link shows the command line that reopens the screen as it is: run
# through a shell again, it shows the same stage, sizes, tokens, mask,
# scaling and seed (the status line), the same cell under the cursor, the
# same theme and the presenter's layout.
. "$(dirname "$0")/lib.sh"

# status_is LINE: the status line (the screen's last) becomes LINE within
# ten seconds: the screen may still be drawing when its first text shows
status_is() {
    local i=0
    while [ $i -lt 200 ]; do
        [ "$(screen | tail -1)" = "$1" ] && return 0
        sleep 0.05
        i=$((i + 1))
    done
    return 1
}

# the link in its pop-up: the box's lines from "mha-explorer" to the first
# that does not end in " \", joined again (the pop-up breaks only between
# arguments)
popup_lines() {
    screen | LC_ALL=C.UTF-8 sed -n 's/^.│ \(.*[^ ]\) *│$/\1/p' |
        awk '/^mha-explorer /{on=1} on{print; if ($0 !~ / \\$/) exit}'
}
link_args() {
    popup_lines | sed 's/ \\$//' | tr '\n' ' ' | sed 's/ *$//; s/^mha-explorer//'
}
top() {
    screen | head -14
    screen -e | grep -noP '\e\[48;5;214m\K[^\e]+'
}

start 120 40
wait_for "0 · Input"
keys :
type_text "tokens l'été est \"là\" *"
keys Enter
wait_for "4 tokens; numbers drawn from seed 42."
keys + c s r 4
wait_for "seed 43"
before=$(screen -e)
keys Tab Down Down Right
settle "$before"
status_line=$(screen | tail -1)
top >"$WORK/before"
T set -g set-clipboard on # tmux keeps what OSC 52 sends as a paste buffer
keys :
type_text "link"
keys Enter
wait_for "The command line that reopens this screen"
wait_for "mha-explorer --tokens"
args=$(link_args)
echo "link:$args"
check "the pop-up breaks the line between arguments" test "$(popup_lines | wc -l)" -ge 2
check "OSC 52 put the link on the clipboard" test "$(T show-buffer)" = "mha-explorer$args"
keys q
wait_gone "The command line that reopens this screen"
# :link FILE writes it, and never over a file
keys :
type_text "link $WORK/link.txt"
keys Enter
wait_for "Wrote the command line to"
check ":link FILE holds the same command line" test "$(cat "$WORK/link.txt")" = "mha-explorer$args"
keys :
type_text "link $WORK/link.txt"
keys Enter
wait_for "exists (:link writes a new file, never over one)"
check "the file is as it was" test "$(cat "$WORK/link.txt")" = "mha-explorer$args"
keys q
wait_exit 0
T kill-server

eval "set -- $args"
start 120 40 -- "$@"
wait_for "4 · Attention"
check "the same status line" status_is "$status_line"
top >"$WORK/after"
check "the same screen and cell under the cursor" cmp -s "$WORK/before" "$WORK/after"
check "the cursor is on a cell" test "$(grep -c '^[0-9]*:' "$WORK/after")" -ge 2
keys q
wait_exit 0
T kill-server

# the presenter, a theme and a view come back too
start 100 30 -- --d-model 8 --heads 4
wait_for "d_model 8"
keys P T T v v
wait_for "the cost view"
keys :
type_text "link"
keys Enter
wait_for "The command line that reopens this screen"
args=$(link_args)
check "the presenter, theme and view in the link" \
    test "$args" = " --d-model 8 --heads 4 --view cost --theme projector --present"
keys Escape
wait_gone "The command line that reopens this screen"
status_line=$(screen | tail -1)
keys q q
wait_exit 0
T kill-server
eval "set -- $args"
start 100 30 -- "$@"
wait_for "the cost view"
check "the same status line" status_is "$status_line"
check "the projector's white" bash -c "tmux -L '$SOCK' capture-pane -p -e | grep -qF '48;5;231m'"
keys q q
wait_exit 0
