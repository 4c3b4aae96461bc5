#!/bin/bash
# md_fences: every Markdown file of the project renders as written: its code
# fences (lines that start with ``` or a longer run) open and close in
# pairs, and a closing fence holds nothing after it (text there would leave
# the block open and swallow the rest of the file).
ROOT=${1:?usage: $0 path/to/source/root}
passed=0
failed=0
while IFS= read -r -d '' f; do
    problem=$(awk '
        # a fence is a run of three or more backticks; it closes on a run at
        # least as long with nothing after it (CommonMark)
        match($0, /^ ? ? ?```+/) {
            lead = index($0, "`") - 1
            run = RLENGTH - lead
            rest = substr($0, RLENGTH + 1)
            if (!open) {
                open = run; last = FNR
            } else if (run >= open && rest !~ /[^ ]/) {
                open = 0
            } else if (run >= open) {
                print FILENAME ":" FNR ": text after a closing fence: " $0
            }
        }
        END { if (open) print FILENAME ":" last ": a code fence is never closed" }
    ' "$f")
    if [ -z "$problem" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $problem"
    fi
done < <(find "$ROOT" -name '*.md' -not -path '*/build*' -not -path '*/.git/*' -print0)
echo "screen: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
