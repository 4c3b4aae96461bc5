#!/bin/bash
# stage_literals.sh - the builders of the screen's blocks, the exports and the
# dumps name no stage: they walk the stage table's rows (src/engine/stages.c),
# so a stage is added there alone.  Usage: stage_literals.sh SOURCE_ROOT
root=${1:?usage: stage_literals.sh SOURCE_ROOT}
status=0
for f in src/ui/views/ui_view.c src/io/export_table.c src/io/dump_json.c src/io/dump.c \
    src/io/export_svg.c src/io/export_html.c; do
    if [ ! -f "$root/$f" ]; then
        echo "stage_literals: $f is missing" >&2
        status=1
        continue
    fi
    # MHA_STAGE_COUNT (how many) is fine; a named stage is a case the table should hold
    if grep -nE 'MHA_STAGE_[A-Z_]+' "$root/$f" | grep -vE 'MHA_STAGE_(COUNT|MAX_TENSORS)\b' |
        grep -E 'MHA_STAGE_[A-Z]'; then
        echo "stage_literals: $f names a stage; describe it in the stage table instead" >&2
        status=1
    fi
done
exit $status
