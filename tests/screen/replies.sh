#!/bin/bash
# A terminal's replies are never keys.  The strings a terminal sends back to
# a query, or that a pasted or cat-ed file can make it send (OSC, DCS, APC,
# PM and SOS, ended by BEL or ESC \, in 7-bit and 8-bit form), and escape
# sequences curses does not decode, each with key letters inside (] raises
# d_model, h, m, s, c, e writes an SVG), change nothing on the status line and
# write no file.  A bracketed paste of any length is text for the ':' line
# or nothing: past 65536 characters (or what the line holds) its Enter and
# ']' are not keys.
. "$(dirname "$0")/lib.sh"

start 100 30
wait_for "d_model 6 │ heads 2"
wait_bar "0 Input"
STATUS=$(screen | tail -1)
unchanged() {
    local what=$1
    sleep 0.6
    check "$what: the status line did not change" test "$(screen | tail -1)" = "$STATUS"
    check "$what: no file was written" test -z "$(ls -A "$WORK/cwd")"
    wait_bar "0 Input"
}

type_text $'\e]0;]]]hmcse\a'
unchanged "OSC ended by BEL"
type_text $'\e]52;c;]]]hmcse\e\\'
unchanged "OSC ended by ESC \\"
type_text $'\eP1$r]]]hmcse\e\\'
unchanged "DCS"
type_text $'\e_G]]]hmcse\e\\'
unchanged "APC"
type_text $'\e^]]]hmcse\e\\'
unchanged "PM"
type_text $'\eX]]]hmcse\e\\'
unchanged "SOS"
# the same strings in 8-bit form (U+009D OSC, U+0090 DCS, U+009C ST)
type_text $'\u009d0;]]]hmcse\a\u0090]]]hmcse\u009c'
unchanged "8-bit OSC and DCS"
# a string cut off by a pause swallows what came with it, no more
type_text $'\e]0;]]]hmcse'
unchanged "an OSC with no end"
# sequences curses does not decode: nF (ESC ( B, ESC SP F), SS2, other C1
type_text $'\e(B\e F\eN]\eZ\e\\\eM'
unchanged "nF, SS2 and C1 controls"
# a reply split where a read may end still goes whole
T send-keys -H 1b 5d 31 30 3b 72 67 62 3a 66 66 2f 66 66 2f 66 66 1b 5c 1b 50 31 2b 72 5d 5d 5d
T send-keys -l $'hmcse\e\\'
unchanged "replies in two writes"

# a paste longer than 65536 characters, with no line open: nothing
{
    head -c 70000 /dev/zero | tr '\0' 'x'
    printf ']]]]hmcse\r]]]]\n:seed 7\r'
} >"$WORK/paste.txt"
T load-buffer "$WORK/paste.txt"
T paste-buffer -p
wait_for "A paste goes into the : line only"
check "the long paste changed nothing" bash -c "tmux -L $SOCK capture-pane -p | grep -qF 'd_model 6 │ heads 2 │ d_k 3 │ mask off │ scaling ÷√3 │ seed 42'"
check "the long paste wrote no file" test -z "$(ls -A "$WORK/cwd")"
# into the ':' line: what the line holds, and no Enter
keys :
wait_for ":"
T paste-buffer -p
wait_for ":xxxxxxxxxx"
sleep 1
check "the ':' line is still open" bash -c "tmux -L $SOCK capture-pane -p | tail -2 | grep -q '^:xxxx'"
keys Escape
sleep 0.5
check "the long paste ran no command" bash -c "tmux -L $SOCK capture-pane -p | grep -qF 'd_model 6 │ heads 2 │ d_k 3 │ mask off │ scaling ÷√3 │ seed 42'"
check "the long paste wrote no file" test -z "$(ls -A "$WORK/cwd")"

# and a key is still a key
keys ']'
wait_for "d_model 7"
keys q
wait_exit 0
