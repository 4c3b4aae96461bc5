#!/bin/bash
# Presenter mode (--present, P): the stage's title in big letters and its
# formula at the top, no pipeline bar and no key hints, at 80x24 and at
# 200x60 (where the letters are larger); P goes back to the usual screen;
# a lesson keeps its text in the presenter's column.
. "$(dirname "$0")/lib.sh"

# big letters: lines of half and full blocks at the top of the screen
big_title_lines() { screen | head -"$1" | grep -cE '[▀▄█].*[▀▄█].*[▀▄█]'; }
no_hints() {
    ! screen | grep -qF "? help" && ! screen | grep -qF "← → stages" &&
        ! screen | grep -qF "› 1 Projection ›"
}

start 80 24 -- --present --stage attention
wait_for "Attention · stage 4 of 0-$(last_stage)"
wait_for "weights = softmax(Q_h · K_hᵀ / √d_k)"
check "three lines of big letters at 80x24" test "$(big_title_lines 3)" -eq 3
check "no pipeline bar, no key hints" no_hints
wait_for "4 tokens · d_model 6 · 2 heads · d_k 3"
keys Right
wait_for "Merge · stage 5 of 0-$(last_stage)"
wait_for "(H, L, d_k) = (2, 4, 3) → (L, H·d_k) = (4, 6)"
keys P
wait_for "Presenter mode off."
wait_for "0 Input › 1 Proj"
wait_for "? help"
keys P
wait_for "Presenter mode: P goes back"
wait_gone "? help"
# q leaves the presenter's layout first; on the usual screen it quits
keys q
wait_for "Presenter mode off (P brings it back)."
wait_for "? help"
keys q
wait_exit 0
T kill-server

start 200 60 -- --present --stage attention --theme projector
wait_for "Attention · stage 4 of 0-$(last_stage)"
wait_for "who looks at whom"
wait_for "context = weights · V_h"
check "five lines of big letters at 200x60" test "$(big_title_lines 5)" -eq 5
check "no pipeline bar, no key hints" no_hints
# roomy numbers: a blank line between the rows of a matrix
check "rows of numbers apart" bash -c "tmux -L '$SOCK' capture-pane -p |
    grep -A1 -E '^ +tok 0 +0\.67 ' | tail -1 | grep -qE '^ *$'"
keys Escape
wait_for "Presenter mode off"
keys q
wait_exit 0
T kill-server

# a lesson at 80x24: its text under the numbers, the title on one line
start 80 24 -- --present --lesson 2 --step 3
wait_for "Lesson 2 · The pipeline at a glance · step 3/$(lesson_steps 2)"
wait_for "S P L I T"
wait_for "Each row of 6 numbers is cut into 2 heads"
check "no key hints" no_hints
keys q # the presenter's layout first, then the lesson, then the program
wait_for "Presenter mode off"
quit_lesson
