# deps.sh - sourced by scripts/run and scripts/test: install the Debian
# packages the build needs (scripts/run), or those and what the tests need
# (scripts/test), when any is missing.  Everything it prints goes to stderr
# so a caller's stdout stays clean.

# what building and running the program needs (man-db: --man shows the
# manual through man)
MHA_RUN_PACKAGES="gcc libc6-dev pkg-config meson ninja-build libjansson-dev libcmark-dev
libncurses-dev libopenblas-dev man-db"
# what the tests add: Check for the suites, the screen in tmux, the signal
# tests' strace, the layout check's clang-format, numpy for the reference
# checks of safetensors files
MHA_TEST_PACKAGES="check tmux clang-format strace python3-numpy"
MHA_PACKAGES="$MHA_RUN_PACKAGES $MHA_TEST_PACKAGES"

mha_missing_packages() {
    local missing="" p
    for p in $MHA_PACKAGES; do
        if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
            missing="$missing $p"
        fi
    done
    echo "$missing"
}

mha_install_deps() {
    local missing
    missing=$(mha_missing_packages)
    [ -z "$missing" ] && return 0
    echo "installing missing packages:$missing" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo="sudo"
        else
            echo "error: need root or sudo to install:$missing" >&2
            return 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >&2 || return 1
    # shellcheck disable=SC2086
    $sudo apt-get install -y -qq --no-install-recommends $missing >&2 || return 1
}

# mha_configure DIR [meson options...]: configure DIR once.
mha_configure() {
    local dir=$1
    shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@" >&2 || return 1
    fi
}

# mha_build DIR [meson options...]: configure DIR once, then build all of
# it, the tests too.
mha_build() {
    mha_configure "$@" || return 1
    ninja -C "$1" >&2
}

# mha_build_program DIR [meson options...]: configure DIR once, then build
# only the program (the target src/mha-explorer), no test.
mha_build_program() {
    mha_configure "$@" || return 1
    ninja -C "$1" src/mha-explorer >&2
}
