#!/bin/bash
# Colours appear in a 256-colour terminal; under NO_COLOR there are none and
# the heatmap uses shade glyphs; in a non-UTF-8 locale it uses ASCII.
. "$(dirname "$0")/lib.sh"

start 120 40
wait_for "0 · Input"
has_colour || fail "no colour on a 256-colour terminal"
screen -e | grep -qF '48;5;' || fail "no 256-colour backgrounds"
keys 4
wait_for "softmax → weights"
has_colour || fail "no colour in the attention stage"
keys q
wait_exit 0
T kill-server

start 120 40 NO_COLOR=1
wait_for "0 · Input"
wait_for "bold: |value|"
has_colour && fail "colour escapes under NO_COLOR"
keys 4
wait_for "softmax → weights"
screen | grep -qE '[░▒▓█]' || fail "no shade glyphs in the heatmap under NO_COLOR"
has_colour && fail "colour escapes under NO_COLOR"
keys q
wait_exit 0
T kill-server

start 120 40 NO_COLOR=1 LANG=C LC_ALL=C
wait_for "0 Input > 1 Projection"
keys 4
wait_for "softmax -> weights"
screen | grep -qP '[^\x00-\x7f]' && fail "non-ASCII characters in the C locale"
screen | grep -qE '0\.[0-9][0-9]' || fail "no weights shown"
keys q
wait_exit 0
