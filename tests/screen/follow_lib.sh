# follow_lib.sh - what the class tests share (sourced after lib.sh, in
# $WORK/cwd): a named terminal of its own for the teacher and each student,
# its screen, its stage, and waits for what it shows.

# session NAME W H COMMAND...: a terminal of its own on the test's server
session() {
    local name=$1 w=$2 h=$3
    shift 3
    {
        echo "export TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8"
        echo "export XDG_STATE_HOME='$WORK/state'"
        printf 'cd %q\n' "$WORK/cwd"
        printf '%s\n' "$*"
        echo "echo EXPLORER-EXITED"
        echo "sleep 600"
    } >"$WORK/$name.sh"
    T new-session -d -s "$name" -x "$w" -y "$h" "bash '$WORK/$name.sh'" 2>/dev/null ||
        { sleep 0.3; T new-session -d -s "$name" -x "$w" -y "$h" "bash '$WORK/$name.sh'"; }
}
cap() { T capture-pane -p -t "$1"; }
# the stage line's "N · Name"
stage_of() { cap "$1" | sed -n 2p | grep -oP '^\d · \w+'; }

# wait_in NAME TEXT [seconds]
wait_in() {
    local name=$1 text=$2 limit=${3:-10} i=0
    while [ $i -lt $((limit * 20)) ]; do
        cap "$name" | shows "$text" && pass && return 0
        sleep 0.05
        i=$((i + 1))
    done
    echo "---- $name ----"
    cap "$name"
    fail "$name: \"$text\" did not appear within ${limit}s"
}

# same_stage NAME...: every follower shows the teacher's stage within 3 s
# (the teacher's read again each time: a key sent to it may not be drawn yet)
same_stage() {
    local name i
    for name in "$@"; do
        i=0
        while [ "$(stage_of "$name")" != "$(stage_of teach)" ] && [ $i -lt 60 ]; do
            sleep 0.05
            i=$((i + 1))
        done
        [ "$(stage_of "$name")" = "$(stage_of teach)" ] || {
            cap "$name"
            fail "$name shows \"$(stage_of "$name")\", the teacher \"$(stage_of teach)\""
        }
        pass
    done
}
