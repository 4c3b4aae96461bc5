#!/bin/bash
# Ctrl-\ (SIGQUIT) ends the explorer as Ctrl-C does: status 131, and the
# terminal as it was (the main screen, the cursor shown, typed keys echoed),
# from the plain explorer, a lesson, presenter mode and an open `:` prompt.
. "$(dirname "$0")/lib.sh"

terminal_restored() {
    local what=$1
    wait_for EXPLORER-EXITED
    check "$what: the main screen is back" test "$(T display -p '#{alternate_on}')" = 0
    check "$what: the cursor is shown" test "$(T display -p '#{cursor_flag}')" = 1
    type_text "typed-$what"
    wait_for "typed-$what"
}

quit_with_ctrl_backslash() {
    local what=$1 ready=$2
    shift 2
    start 100 30 -- "$@"
    wait_for "$ready"
    [ "$what" = prompt ] && { keys :; type_text "heads"; wait_for ":heads"; }
    keys 'C-\'
    wait_exit 131
    terminal_restored "$what"
    T kill-server
}

quit_with_ctrl_backslash plain "? help"
quit_with_ctrl_backslash lesson "Lesson 7" --lesson 7
quit_with_ctrl_backslash present "Attention" --present --stage attention
quit_with_ctrl_backslash prompt "? help"

# Ctrl-C still does the same, with its own status
start 100 30
wait_for "? help"
keys C-c
wait_exit 130
terminal_restored interrupt
