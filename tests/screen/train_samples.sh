#!/bin/bash
# o on the training screen of a text, at 80x24: the lines the model writes,
# in the heatmaps' place, each from the sample's first word and every word
# a word of the corpus; they change as the model learns (written anew at an
# evaluation while it trains, step 0's at Home, the live model's again at
# End), and o brings the heatmaps back.  A task of letters shows nothing
# new and says the lines are a text's.
. "$(dirname "$0")/lib.sh"

corpus_words=$(tr ' ' '\n' <"$SRC_ROOT/assets/corpus/sentences.txt" | tr 'A-Z' 'a-z' | sort -u)
# lines: the lines written, as the screen shows their first lines
lines() { screen | grep -oP '  › \K.*' | sed 's/ *$//'; }
# shown_step: the step of the model that wrote them, while it trains
shown_step() { screen | grep -oP 'At step \K[0-9]+(?= it writes)'; }
# all_known START: every line starts with START and every word is the corpus's
all_known() {
    local l w
    [ -n "$(lines)" ] || return 1
    while read -r l; do
        [ "${l%% *}" = "$1" ] || { echo "\"$l\" does not start with $1"; return 1; }
        for w in $l; do
            grep -qxF -- "$w" <<<"$corpus_words" || { echo "\"$w\" is no word of the corpus"; return 1; }
        done
    done <<<"$(lines)"
}

start 80 24 -- --train sentences --seed 3
wait_for "sentences · step"
keys '<' '<' '<' '<' # 25 steps a second: an evaluation every 2 seconds
wait_for "25 steps a second."
keys o
wait_for "it writes (temperature 1):"
first=$(screen | grep -oP 'Written from "\K[^"]+(?=" at temperature 1, anew at each evaluation\. o: the heatmaps\.)')
check "the message says where the lines start and how they are drawn ($first)" test -n "$first"
check "no heatmap beside the lines" bash -c "! tmux -L $SOCK capture-pane -p | grep -q 'head 0'"
check "the lines are the corpus's words, from \"$first\"" all_known "$first"
s1=$(shown_step)
l1=$(lines)
i=0
while { [ "$(shown_step)" = "$s1" ] || [ -z "$(shown_step)" ]; } && [ $i -lt 300 ]; do
    sleep 0.1
    i=$((i + 1))
done
s2=$(shown_step)
l2=$(lines)
check "written anew as it trains (step $s1 -> $s2)" test -n "$s2" -a "$s2" != "$s1"
check "other lines at step $s2 than at step $s1" test "$l1" != "$l2"
check "still the corpus's words" all_known "$first"

keys Home
wait_for "Checkpoint at step 0 (temperature 1):"
l0=$(lines)
check "step 0's lines are the corpus's words too" all_known "$first"
keys End
wait_for "it writes (temperature 1):"
check "the live model's lines are not step 0's" test "$(lines)" != "$l0"
keys Home
wait_for "Checkpoint at step 0 (temperature 1):"
check "step 0 writes the same lines again" test "$(lines)" = "$l0"

keys o
wait_gone "writes (temperature"
wait_for "o: lines the model writes."
wait_for "head 0"
keys q
wait_exit 0

# a task of letters: nothing new, a sentence saying why
start 80 24 -- --train first-prev
wait_for "first-prev · step"
keys o
wait_for "o: a task of letters writes no lines; a text's model does (--train sentences)."
check "the heatmaps stay" bash -c "tmux -L $SOCK capture-pane -p | grep -q 'head 0'"
keys q
wait_exit 0
