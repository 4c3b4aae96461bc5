#!/bin/bash
# manual: the manual opens from the build directory with no install
# (--man through man -l, the source tree's doc/mha-explorer.1), says where
# the page is when man is missing, and the docs send the reader to --man,
# never to "man mha-explorer" (no manual entry until meson install); README
# says how once.
EXE=${1:?usage: $0 path/to/mha-explorer source-root}
ROOT=${2:?usage: $0 path/to/mha-explorer source-root}
passed=0
failed=0
check() { # check WHAT CONDITION...
    local what=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $what"
    fi
}

if command -v man >/dev/null 2>&1; then
    out=$(MANPAGER=cat PAGER=cat MANWIDTH=80 "$EXE" --man 2>&1)
    rc=$?
    check "--man exits 0 (got $rc)" [ "$rc" -eq 0 ]
    check "--man shows the page" grep -q 'MHA-EXPLORER(1)' <<<"$out"
    check "--man shows its own entry" grep -q -- '--man' <<<"$out"
fi
# no man on the PATH: the page's place, exit status 1
err=$(PATH=/nonexistent "$EXE" --man 2>&1 >/dev/null)
rc=$?
check "--man without man exits 1 (got $rc)" [ "$rc" -eq 1 ]
check "--man without man names the page: $err" grep -q 'doc/mha-explorer.1' <<<"$err"

for f in README.md doc/*.md lessons/README.md; do
    check "$f sends the reader to 'man mha-explorer'" \
        bash -c '! grep -n "man mha-explorer" "$1"' _ "$ROOT/$f"
done
n=$(grep -o -- '--man\b' "$ROOT/README.md" | wc -l)
check "README.md says --man once (found $n)" [ "$n" -eq 1 ]
echo "screen: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
