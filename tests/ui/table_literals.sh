#!/bin/bash
# table_literals.sh - what the stage table and the view registry describe is
# named nowhere else: the builders of the screen's blocks, the exports, the
# dumps, the text pane and a lesson's focus name no stage (they read the
# rows of src/engine/stages.c), and no file names a view but its row in
# MHA_VIEWS (src/engine/views.h) and its own file (src/io/view_<name>.c): the
# screen, the exports, --print-lesson and the lesson HTML render one description.
# The screen writes the stage keys' range from the table, never as digits, and
# the screen tests read a lesson's count of steps from the program.
# Usage: table_literals.sh SOURCE_ROOT
root=${1:?usage: table_literals.sh SOURCE_ROOT}
status=0
for f in src/ui/views/ui_view.c src/io/export_table.c src/io/dump_json.c src/io/dump.c \
    src/io/export_svg.c src/io/export_html.c src/ui/panes/ui_describe.c src/ui/state/ui_lesson.c \
    src/ui/state/ui_link.c src/lesson/lesson_html.c; do
    if [ ! -f "$root/$f" ]; then
        echo "table_literals: $f is missing" >&2
        status=1
        continue
    fi
    # MHA_STAGE_COUNT (how many) is fine; a named stage is a case the table should hold
    if grep -nE 'MHA_STAGE_[A-Z_]+' "$root/$f" | grep -vE 'MHA_STAGE_(COUNT|MAX_TENSORS)\b' |
        grep -E 'MHA_STAGE_[A-Z]'; then
        echo "table_literals: $f names a stage; describe it in the stage table instead" >&2
        status=1
    fi
done
# the stage keys' range is the table's too: a hint or message of the screen
# writes it from mha_stage_range or {range} / {last_stage} (ui_words.h),
# never as digits ("0-6", "0 … 6")
# the last stage's number, from enum mha_stage (src/engine/mha.h)
last=$(($(sed -n '/^enum mha_stage {/,/^};/p' "$root/src/engine/mha.h" |
    grep -cE '^\s+MHA_STAGE_[A-Z]+,') - 1))
ranges=$(grep -rnE "\"[^\"]*\\b0 ?(-|–|…|\\.\\.\\.?) ?$last\\b[^\"]*\"" "$root/src/ui" --include='*.c' |
    grep -vE '//|/\*' || true)
if [ -n "$ranges" ]; then
    echo "$ranges"
    echo "table_literals: a stage range written as digits in the screen's words; write" \
        "{range} or {last_stage} (ui_words.h) or mha_stage_range() instead" >&2
    status=1
fi
# the screen tests name a step by its number and read a lesson's count of
# steps from the program (lesson_steps in tests/screen/lib.sh), so that a
# step added to a lesson fails none of them: no "step 5/7", no "7/7 ✓"
pinned=$(grep -nE 'step [0-9]+/[0-9]+|[0-9]+/[0-9]+ ✓|\+[0-9]+/[0-9]+ ' "$root"/tests/screen/*.sh || true)
if [ -n "$pinned" ]; then
    echo "$pinned"
    echo "table_literals: a screen test pins a lesson's count of steps; write" \
        "\$(lesson_steps N) (tests/screen/lib.sh) instead" >&2
    status=1
fi
# MHA_VIEW_NONE (the stage itself) and MHA_VIEW_COUNT are fine, and a view's
# own file src/io/view_<name>.c names its own value in its row
views=$(grep -rnE 'MHA_VIEW_[A-Z_]+' "$root/src" --include='*.c' --include='*.h' |
    grep -vE '^[^:]*/src/(io/view_desc\.c|engine/views\.h):' |
    grep -vE 'MHA_VIEW_(NONE|COUNT|DESC_H)\b' | grep -E 'MHA_VIEW_[A-Z]' |
    while IFS= read -r line; do
        case $line in
        */src/io/view_*.c:*)
            own=${line%%.c:*}
            own=${own##*/view_}
            [ "$(grep -oE 'MHA_VIEW_[A-Z_]+' <<<"$line" | sort -u)" = "MHA_VIEW_${own^^}" ] &&
                continue
            ;;
        esac
        echo "$line"
    done)
if [ -n "$views" ]; then
    echo "$views"
    echo "table_literals: a view is named outside its row (src/engine/views.h's MHA_VIEWS" \
        "and its own file's view_kind)" >&2
    status=1
fi
exit $status
