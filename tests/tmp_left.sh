#!/bin/bash
# tmp_left.sh DIR - the last test of a run: every test ran with TMPDIR set to
# DIR (tests/meson.build), so anything in it now was left behind by a test or
# by the program under test.  Names what is left, then empties DIR so that the
# next run starts clean.
dir=${1:?usage: $0 DIR}
[ -d "$dir" ] || {
    echo "FAIL: $dir is not a folder"
    exit 1
}
left=$(cd "$dir" && find . -mindepth 1 -maxdepth 2 -printf '%P\n' | sort | head -40)
find "$dir" -mindepth 1 -delete 2>/dev/null || rm -rf "${dir:?}"/* "${dir:?}"/.[!.]* 2>/dev/null
if [ -n "$left" ]; then
    echo "FAIL: the tests left in their temporary folder:"
    echo "$left"
    exit 1
fi
echo "the tests left nothing in their temporary folder"
