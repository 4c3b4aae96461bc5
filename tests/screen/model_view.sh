#!/bin/bash
# The model view: every head of a loaded model of two layers of four heads
# at once, at 120x40 all eight maps titled L0 H0 .. L1 H3 with the sequence's
# letters along their edges and no page keys; at 80x24 the maps that fit,
# the count of the rest and the keys that page, which page on and back, the
# titles on screen always the count the line gives.  Its export has each
# map's numbers, those --dump attention --layer L gives.  Without colour
# the cells are shade glyphs; the example shows its one layer.
. "$(dirname "$0")/lib.sh"

cd "$WORK" || exit 1
"$EXE" --train induction --layers 2 --heads 4 --seed 1 --steps 200 --save m.json \
    --dump summary >/dev/null || fail "induction did not train"

titles() { screen | grep -oE 'L[0-9] H[0-9]' | sort -u; }

start 120 40 -- --load m.json --view model
wait_for "Model view   m.json: 2 layers of 4 heads on 16 tokens, causal"
wait_for "L1 H3"
check "all eight heads at 120x40" test "$(titles | wc -l)" = 8
check "no page keys when every map shows" bash -c '! grep -q "more ·" <<<"$0"' "$(screen)"
# the sequence's letters over each map's columns, one a key
letters=$("$EXE" --load m.json --dump attention 2>/dev/null |
    awk '/weights = softmax/ {getline; gsub(/ /, ""); print; exit}')
check "the keys' letters along the top" grep -qF "$letters" <<<"$(screen)"
keys : "export text view.txt" Enter
wait_for "Wrote "
# layer 1 head 3's weights as --dump attention gives them
"$EXE" --load m.json --layer 1 --dump attention >dump.txt
want=$(awk '/^head 3 · weights/ {n = 18} n > 0 && n-- < 17' dump.txt)
got=$(awk '/^layer 1, head 3: / {n = 18} n > 0 && n-- < 17' view.txt)
check "the export's layer 1 head 3 is the dump's" test -n "$want" -a "$want" = "$got"
keys q
wait_exit 0
T kill-server
sleep 0.2

# 80x24: what fits, the rest counted with the keys
start 80 24 -- --load m.json --view model
wait_for "Model view   m.json"
wait_for " of 8, "
page() { screen | grep -oE 'maps [0-9]+–[0-9]+ of 8(, [0-9]+ more)?'; }
shown_right() { # the titles on screen are the maps the line counts
    local p first last
    p=$(page)
    first=$(sed -E 's/maps ([0-9]+)–.*/\1/' <<<"$p")
    last=$(sed -E 's/maps [0-9]+–([0-9]+).*/\1/' <<<"$p")
    [ "$(titles | wc -l)" -eq $((last - first + 1)) ] || return 1
    case $p in *", $((8 - last)) more"*) ;; *) [ "$last" = 8 ] || return 1 ;; esac
}
check "the count of the rest, and the keys" grep -qE "[0-9]+ more · PgDn Space next" <<<"$(screen)"
check "the maps shown are those counted" shown_right
check "the first page starts at L0 H0" grep -q "L0 H0" <<<"$(titles)"
first_page=$(page)
keys Space
wait_gone "$first_page"
check "the next page names the key back" grep -q "PgUp back" <<<"$(screen)"
check "the next page's maps are those counted" shown_right
check "L0 H0 is on the page before" bash -c '! grep -q "L0 H0" <<<"$0"' "$(titles)"
keys PPage
wait_for "$first_page"
check "back on the first page" grep -q "L0 H0" <<<"$(titles)"
keys q
wait_exit 0
T kill-server
sleep 0.2

# without colour: shade glyphs; the example's one layer
start 80 24 NO_COLOR=1 -- --view model
wait_for "Model view   one layer of 2 heads on 4 tokens"
wait_for "L0 H1"
check "shade glyphs for the weights" grep -qE "^ok 0 [ ░▒▓█]{8}" <<<"$(screen)"
keys q
wait_exit 0
