/* ui_exit.c - giving ncurses' memory back at the end, so that a sanitizer
 * build's leak check after a long session reports only the program's own
 * leaks.  Which of ncurses' functions exist is found by meson
 * (ui_config.h): exit_curses (ncurses 6.2 on) frees everything when ncurses
 * was built for leak checking and exits; _nc_free_tparm frees the cache of
 * parsed terminal strings in any build. */
#include <curses.h>
#include <stdlib.h>

#include "ui/ui.h"
#include "ui/app/ui_top.h"
#include "ui_config.h"

#if UI_HAVE_NC_FREE_TPARM
/* not in ncurses' public headers; this is its signature from 6.3 on
 * (TERMINAL is struct term; term.h is not included for its macros) */
struct term;
extern void _nc_free_tparm(struct term *term);
#endif

void ui_release_curses(void)
{
#if UI_HAVE_NC_FREE_TPARM
    _nc_free_tparm(NULL); /* the cache is shared; NULL: no terminal's own buffers */
#endif
}

int ui_exit(int status)
{
#if UI_HAVE_EXIT_CURSES
    exit_curses(status); /* does not return */
#endif
    return status;
}
