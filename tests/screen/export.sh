#!/bin/bash
# e writes the stage as an SVG picture in the current folder, says where,
# and never writes over a file; the picture is well-formed XML; a view
# writes its table as text; :export takes other formats and names; a
# folder that cannot be written is a message, not a crash.
. "$(dirname "$0")/lib.sh"

OUT="$WORK/out"
mkdir -p "$OUT"
cd "$OUT" || exit 1

well_formed() {
    if command -v xmllint >/dev/null 2>&1; then
        xmllint --noout "$1"
    elif command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1"
    else
        grep -q '</svg>' "$1"
    fi
}

start 100 30 -- --stage attention
wait_for "4 · Attention"
keys e
wait_for "Wrote $OUT/mha-attention-1.svg"
check "the SVG is there" test -s "$OUT/mha-attention-1.svg"
check "the SVG is well-formed" well_formed "$OUT/mha-attention-1.svg"
check "the SVG has the attention stage" grep -q 'softmax' "$OUT/mha-attention-1.svg"
echo mine >"$OUT/mha-attention-2.svg"
keys e
wait_for "Wrote $OUT/mha-attention-3.svg"
check "a file there is left alone" test "$(cat "$OUT/mha-attention-2.svg")" = mine
check "no temporary files left" test "$(ls -A "$OUT" | grep -c '^\.')" -eq 0
keys v
wait_for "Shapes view"
keys e
wait_for "Wrote $OUT/mha-shapes-1.txt (the shapes view's table as text)."
check "the table is there" grep -q 'contiguous' "$OUT/mha-shapes-1.txt"
keys 2 :
type_text "export markdown notes.md"
keys Enter
wait_for "Wrote $OUT/notes.md"
check "markdown of the split stage" grep -q '^### Stage 2' "$OUT/notes.md"
keys :
type_text "export csv notes.md"
keys Enter
wait_for "notes.md exists"
keys :
type_text "export html /nonexistent/folder/page.html"
keys Enter
wait_for "Nothing written: /nonexistent/folder/page.html: cannot write in"
keys 4
wait_for "4 · Attention"
keys q
wait_exit 0
