# deps.sh - sourced by scripts/run and scripts/test: install the Debian
# packages the build and the tests need when any is missing.  Everything it
# prints goes to stderr so a caller's stdout stays clean.

MHA_PACKAGES="gcc libc6-dev pkg-config meson ninja-build check libjansson-dev libcmark-dev
libncurses-dev libopenblas-dev tmux clang-format strace python3-numpy"

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

# mha_build DIR [meson options...]: configure DIR once, then build it.
mha_build() {
    local dir=$1
    shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@" >&2 || return 1
    fi
    ninja -C "$dir" >&2
}
