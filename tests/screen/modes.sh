#!/bin/bash
# q and Esc close what lies over the main screen or leave the mode (the
# help, the explain panel, the presenter's layout, the lesson list, :link's
# pop-up); only on the main screen does q quit.  A checkpoint waiting for a
# typed answer takes every character once typing began, q included.
. "$(dirname "$0")/lib.sh"

start 100 30
wait_for "0 · Input"
# the help: q closes it, as in less and man
keys ?
wait_for "mha-explorer: keys and commands"
wait_for "q, Esc or ? closes"
keys q
wait_gone "mha-explorer: keys and commands"
wait_for "0 · Input"
keys ?
wait_for "mha-explorer: keys and commands"
keys Escape
wait_gone "mha-explorer: keys and commands"
# the help lists every command of the table, the new ones too: from its end
# up a line at a time to the first of them, however long the help grows
keys ?
keys G
for _ in $(seq 60); do
    screen | grep -qF "examples" && break
    keys k
    sleep 0.05
done
wait_for "examples"
wait_for "find WORD"
wait_for "link [FILE]"
keys q
wait_gone "mha-explorer: keys and commands"
# at 80 columns no help line is cut short
T resize-window -x 80 -y 24
check "the terminal is 80 columns wide" test "$(T display -p '#{window_width}')" = 80
wait_for "0 · Input"
keys ?
wait_for "mha-explorer: keys and commands"
for page in 1 2 3 4 5 6; do
    check "help page $page has no line cut short" bash -c "! tmux -L '$SOCK' capture-pane -p | grep -qE '…\s*\$'"
    keys Space
    sleep 0.2
done
keys q
wait_gone "mha-explorer: keys and commands"
T resize-window -x 100 -y 30
# the explain panel: q closes it, the cursor stays on its number
keys Tab Enter
wait_for "Explain"
keys q
wait_gone "Explain"
wait_for "↑ ↓ ← → move · Enter explains the number"
keys Escape
wait_for "← → stages · Tab numbers"
# the presenter's layout: q goes back to the usual one
keys P
wait_for "Input · stage 0 of 0-$(last_stage)"
keys q
wait_for "Presenter mode off (P brings it back)."
wait_for "0 Input › 1 Projection"
# the lesson list: q closes it
keys L
wait_for "Why one head is not enough"
keys q
wait_gone "↑ ↓ choose · Enter opens"
# :link's pop-up: q closes it
keys :
type_text "link"
keys Enter
wait_for "The command line that reopens this screen"
keys q
wait_gone "The command line that reopens this screen"
check "still running after six q's" test ! -s "$WORK/status"
# on the main screen q quits
keys q
wait_exit 0
T kill-server

# a checkpoint that waits for a typed number
cat >"$WORK/typing.md" <<'LESSON'
# Typing an answer

## How many

Count the tokens.

```mha
tokens: a b c
```

```quiz
question: How many tokens are there?
answer: 3
explain: Three words, three tokens.
LESSON
printf '```\n' >>"$WORK/typing.md"
start 100 30 -- --lesson "$WORK/typing.md"
wait_for "How many tokens are there?"
wait_for "Type your answer, Enter checks it"
type_text "3q"
wait_for "Your answer: 3q"
check "q was typed, nothing quit" test ! -s "$WORK/status"
keys BSpace
wait_for "Your answer: 3"
keys Enter
wait_for "Right."
T kill-server

# with nothing typed, q leaves the lesson (never the program at once); a
# second q quits
start 100 30 -- --lesson "$WORK/typing.md"
wait_for "Type your answer, Enter checks it"
quit_lesson
