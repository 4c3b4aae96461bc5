#!/bin/bash
# scripts_run: scripts/run installs only what building and running need and
# builds only the program (not the tests), then opens it; scripts/test
# installs everything, the tests' tools too.  Run on a copy of the two
# scripts with meson, ninja and dpkg-query stood in for: nothing is
# installed or built, and the copy is removed.
ROOT=${1:?usage: $0 source-root}
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
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the lists: running needs none of the tests' tools; the tests get them all
run_list=$(bash -c '. "$1/scripts/deps.sh"; echo $MHA_RUN_PACKAGES' _ "$ROOT")
all_list=$(bash -c '. "$1/scripts/deps.sh"; echo $MHA_PACKAGES' _ "$ROOT")
for p in tmux strace clang-format check; do
    check "scripts/run does not install $p" bash -c '! grep -qw -- "$1" <<<"$2"' _ "$p" "$run_list"
    check "scripts/test installs $p" grep -qw -- "$p" <<<"$all_list"
done
for p in gcc meson ninja-build libncurses-dev libjansson-dev libcmark-dev; do
    check "scripts/run installs $p" grep -qw -- "$p" <<<"$run_list"
done
check "scripts/test uses the whole list" bash -c '! grep -q MHA_RUN_PACKAGES "$1"' _ "$ROOT/scripts/test"

# scripts/run on a copy: every package installed, meson and ninja logged
mkdir -p "$work/tree/scripts" "$work/bin"
cp "$ROOT/scripts/run" "$ROOT/scripts/deps.sh" "$work/tree/scripts/"
cat >"$work/bin/dpkg-query" <<'STUB'
#!/bin/bash
echo "$*" >>"$LOG/dpkg-query"
echo "install ok installed"
STUB
cat >"$work/bin/meson" <<'STUB'
#!/bin/bash
echo "$*" >>"$LOG/meson"
mkdir -p "$2" && : >"$2/build.ninja"
STUB
cat >"$work/bin/ninja" <<'STUB'
#!/bin/bash
echo "$*" >>"$LOG/ninja"
mkdir -p "$2/src"
printf '#!/bin/bash\necho "the program, with $*"\n' >"$2/src/mha-explorer"
chmod +x "$2/src/mha-explorer"
STUB
chmod +x "$work/bin/"*
out=$(cd "$work" && LOG=$work PATH="$work/bin:$PATH" bash tree/scripts/run --version 2>"$work/err")
rc=$?
check "scripts/run exits 0 (got $rc): $(cat "$work/err")" [ "$rc" -eq 0 ]
check "scripts/run opens the program with its arguments: $out" \
    grep -qxF "the program, with --version" <<<"$out"
check "scripts/run builds only the program: ninja $(cat "$work/ninja" 2>/dev/null)" \
    grep -qxF -- "-C build src/mha-explorer" "$work/ninja"
for p in tmux strace clang-format; do
    check "scripts/run asks only for what running needs, not $p" \
        bash -c '! grep -qw -- "$1" "$2"' _ "$p" "$work/dpkg-query"
done
echo "screen: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
