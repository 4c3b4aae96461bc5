#!/bin/bash
# Themes: --theme mono and NO_COLOR draw no colour at all (no 3x/4x or
# 38;5/48;5 escapes) and the heatmap in shade glyphs, ASCII ones in the C
# locale; NO_COLOR wins over any theme; T goes round the themes and colour
# comes back after mono; light and projector draw in colour, the projector
# on a white background of its own.
. "$(dirname "$0")/lib.sh"

# a heatmap cell in mono: a shade glyph, then the weight
glyph_cells() { screen | grep -cE " [░▒▓█]0\.[0-9]{2}"; }
ascii_cells() { screen | grep -cE " [.:*#]0\.[0-9]{2}"; }
no_colour() { ! has_colour; }

start 120 40 -- --theme mono --stage attention
wait_for "softmax → weights"
wait_for "bold: |value|"
check "no colour escapes with --theme mono" no_colour
check "shade glyphs in the heatmap" test "$(glyph_cells)" -gt 4
keys T # mono -> dark: colour again
wait_for "Theme dark"
check "colour after T" has_colour
keys T
wait_for "Theme light"
check "colour in the light theme" has_colour
keys T
wait_for "Theme projector"
check "the projector paints its own white" bash -c "tmux -L '$SOCK' capture-pane -p -e | grep -qF '48;5;231m'"
keys T
wait_for "Theme mono"
check "no colour escapes after T to mono" no_colour
keys q
wait_exit 0
T kill-server

start 120 40 NO_COLOR=1 -- --theme projector --stage attention --present
wait_for "softmax → weights"
check "NO_COLOR wins over --theme projector" no_colour
check "shade glyphs under NO_COLOR" test "$(glyph_cells)" -gt 4
keys T
wait_for "NO_COLOR is set"
check "still no colour after T" no_colour
keys q q
wait_exit 0
T kill-server

start 120 40 LANG=C LC_ALL=C -- --theme mono --stage attention
wait_for "softmax -> weights"
check "ASCII shades in the C locale" test "$(ascii_cells)" -gt 4
check "no colour escapes" no_colour
screen | grep -qP '[^\x00-\x7f]' && fail "non-ASCII characters in the C locale"
pass
keys q
wait_exit 0
