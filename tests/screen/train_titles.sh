#!/bin/bash
# A head's title keeps its shares where the screen is narrow: lesson 17 at
# 80x24 trains one head beside two (seed 1 splits the one head's weight
# between the first and the previous token), and the one-head pane shortens
# "first .53 / prev .44" to first letters and hundredths, as the lesson says,
# not to the places alone.
. "$(dirname "$0")/lib.sh"

start 80 24 -- --lesson 17 --step 2
wait_for "p starts it"
answer_checkpoint
keys p
faster
wait_for "limit at" 120
check "the split title keeps its shares" grep -qE "h0 f[0-9]{2}/p[0-9]{2}" <(screen)
check "no title is cut to its places" bash -c "! tmux -L $SOCK capture-pane -p | grep -q 'first/…'"
quit_lesson
