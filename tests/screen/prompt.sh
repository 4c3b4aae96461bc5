#!/bin/bash
# The ':' line as a user types on it: any UTF-8 kept, Up/Down through the
# lines run before, Tab completing commands and their arguments, the
# closest command on a typo; :examples and :load by name or with ~; /word
# and n putting the cell cursor on a token's row.
. "$(dirname "$0")/lib.sh"

start 100 30
wait_for "0 · Input"
# characters far above U+00FF reach the command
keys :
type_text "tokens 猫 が 座った"
wait_for ":tokens 猫 が 座った"
keys Enter
wait_for "3 tokens; numbers drawn from seed 42."
check "the tokens label the rows" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE '^猫 +-?[0-9]'"
check "and the last one" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE '^座った +-?[0-9]'"
# Backspace takes a whole character
keys :
type_text "tokens 猫が"
wait_for ":tokens 猫が"
keys BSpace
check "Backspace took が whole" bash -c "sleep 0.3; tmux -L '$SOCK' capture-pane -p | grep -qx ':tokens 猫 *'"
keys Escape
# history: Up brings the last line back, Down goes back to what was typed
keys :
type_text "heads 3"
keys Enter
wait_for "3 heads of d_k = 6 / 3 = 2"
keys :
type_text "d_m"
keys Up
wait_for ":heads 3"
keys Up
wait_for ":tokens 猫 が 座った"
keys Down Down
wait_for ":d_m"
# Tab: the command, then its argument
keys Tab
wait_for ":d_model"
keys C-u
type_text "sta"
keys Tab
wait_for ":stage"
type_text "att"
keys Tab
wait_for ":stage attention"
keys Enter
wait_for "4 · Attention"
keys :
type_text "view "
keys Tab
# every view of the table and none, in order, two spaces apart
wait_for "$({ view_names; echo none; } | LC_ALL=C sort | paste -sd'|' | sed 's/|/  /g')"
type_text "cos"
keys Tab
wait_for ":view cost"
keys Escape
wait_gone ":view cost"
# a typo gets the closest command
keys :
type_text "haeds 2"
keys Enter
wait_for "Unknown command :haeds. Did you mean :heads?"
keys q
wait_exit 0
T kill-server

# the bundled examples by name, a file under ~, /word and n
mkdir -p "$WORK/home"
cp "$(dirname "$EXE")/../../assets/examples/translate.json" "$WORK/home/mine.json" 2>/dev/null ||
    cp "$SRC_ROOT/assets/examples/translate.json" "$WORK/home/mine.json"
start 100 30 HOME="$WORK/home"
wait_for "0 · Input"
keys :
type_text "examples"
keys Enter
wait_for "The bundled examples: cat-sat, translate."
keys :
type_text "load cat"
keys Tab
wait_for ":load cat-sat"
keys Enter
wait_for "Loaded"
wait_for "cat-sat.json"
keys /
type_text "the"
keys Enter
wait_for "\"the\": row 0 of query input (n: next match)"
keys n
wait_for "\"the\": row 4 of query input"
keys /
type_text "dog"
keys Enter
wait_for "No token \"dog\" in query input."
keys :
type_text "load ~/mi"
keys Tab
wait_for ":load ~/mine.json"
keys Enter
wait_for "mine.json"
keys :
type_text "load no-such-thing"
keys Enter
wait_for "no such file and no bundled example of that name; the examples are"
keys q
wait_exit 0
T kill-server

# on a long example, /word scrolls the token's row into sight
words=$(seq -f 'w%g' 0 59 | tr '\n' ' ')
start 80 24 -- --tokens "$words"
wait_for "0 · Input"
check "w47 is below the fold at first" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -qE '^w47 '"
keys /
type_text "w47"
keys Enter
wait_for "\"w47\": row 47 of query input"
check "w47's row is on the screen" bash -c "tmux -L '$SOCK' capture-pane -p | grep -qE '^w47 +-?[0-9]'"
keys q
wait_exit 0
