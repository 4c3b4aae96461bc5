/* ui_term.c - whether the terminal TERM names can hold the explorer: one
 * that moves the cursor (terminfo's cup), which "dumb" (Emacs' shell, some
 * editors' consoles) and a name the system has no entry for cannot. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ui/ui.h"
#include "ui/app/ui_top.h"

/* last: its macros (lines, columns, cur_term's fields) would rename words
 * of the headers above */
#include <term.h>

bool ui_terminal_usable(char *why, size_t n)
{
    const char *term = getenv("TERM");
    if (!term || !*term) {
        snprintf(why, n, "TERM is not set");
        return false;
    }
    TERMINAL *before = cur_term;
    int err = 0;
    if (setupterm(term, STDOUT_FILENO, &err) != OK) {
        snprintf(why, n, "this system has no terminfo entry for TERM=%s", term);
        set_curterm(before);
        return false;
    }
    const char *cup = tigetstr("cup");
    const bool moves = cup && cup != (const char *)-1;
    del_curterm(set_curterm(before));
    ui_release_curses();
    if (!moves)
        snprintf(why, n, "TERM=%s cannot move the cursor", term);
    return moves;
}
