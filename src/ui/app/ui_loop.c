/* ui_loop.c - the explorer in a real terminal: the input loop with its
 * timers (autoplay and a replay wake it through wtimeout; no signals, no
 * threads), the keys written to a recording as they come, a replay's keys
 * fed in as if typed, Ctrl-C and Ctrl-\ as a flag, and resizes. */
#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/app/ui_follow.h"
#include "ui/app/ui_top.h"
#include "ui/train/ui_train.h"
#include "ui/follow/ui_stream.h"
#include "ui/ui.h"
#include "ui/state/ui_keys.h"
#include "ui/state/ui_play.h"
#include "ui/state/ui_state.h"
#include "train/trun_ring.h"

/* The screen kept for the next run when a follower rejoins (UI_RUN_AGAIN),
 * and the terminal keys come from when standard input is the stream. */
static SCREEN *kept_screen;
static FILE *tty_in;

/* Set by the signal handler, read by the loop; nothing else happens there. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

struct saved_signals {
    struct sigaction intr, term, hup, quit;
};

static void catch_signals(struct saved_signals *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    got_signal = 0;
    sigaction(SIGINT, &sa, &old->intr);
    sigaction(SIGTERM, &sa, &old->term);
    sigaction(SIGHUP, &sa, &old->hup);
    sigaction(SIGQUIT, &sa, &old->quit); /* Ctrl-\ too leaves the terminal as it was */
}

static void restore_signals(const struct saved_signals *old)
{
    sigaction(SIGINT, &old->intr, NULL);
    sigaction(SIGTERM, &old->term, NULL);
    sigaction(SIGHUP, &old->hup, NULL);
    sigaction(SIGQUIT, &old->quit, NULL);
}

/* A key into the explorer, typed or replayed. */
void ui_app_feed(struct ui_app *app, int key, bool is_char)
{
    if (!is_char && key == KEY_RESIZE) {
        ui_app_reflow(app, LINES, COLS);
        return;
    }
    if (!is_char && key == KEY_MOUSE) {
        if (!app->lay.too_small)
            ui_app_mouse(app);
        return;
    }
    if (app->lay.too_small) { /* only the notice shows: q quits */
        if (is_char && (key == 'q' || key == 'Q'))
            app->st.quit = true;
        return;
    }
    ui_app_key(app, key, is_char);
}

void ui_app_play_event(struct ui_app *app, const struct rec_event *e)
{
    /* the training ticks before the key, as when it was recorded */
    if (ui_train_timers(app, ui_train_tick_of(&app->stream, trun_ms(e->t)), true))
        ui_app_reflow(app, app->win.rows, app->win.cols);
    int key;
    bool is_char;
    app->stream.streamed = true; /* it writes, reads and copies nothing (ui_stream_refuses) */
    if (rec_key_is_mouse(e->key)) {
        const MEVENT ev = ui_record_mouse_event(e->key, e->y, e->x);
        if (!app->lay.too_small)
            ui_app_mouse_event(app, &ev);
    } else if (ui_rec_to_curses(e->key, &key, &is_char)) {
        ui_app_feed(app, key, is_char);
    }
    app->stream.streamed = false;
    app->st.quit = false; /* a replay never closes the explorer */
}

/* Write a typed key to the recording (not the one that quits: a replay
 * ends with the explorer open, nor a q that asked for a second one: no
 * follower is asked because of it); a failure stops the recording and says
 * so. */
static void record(struct ui_app *app, int key, bool is_char, double now)
{
    const int code = ui_rec_from_curses(key, is_char);
    if (!app->stream.record || code < 0 || code == REC_KEY_RESIZE || app->st.quit ||
        app->quit_armed)
        return;
    ui_record_write(app, now - app->stream.record_start, code);
    ui_record_state(app, -1.0); /* where the key took the screen */
}

/* A typed key while a replay plays: q quits, Esc stops the replay, any
 * other key pauses it or plays on. */
static void replay_control(struct ui_app *app, int key, bool is_char, double now)
{
    struct ui_replay *r = &app->stream.replay;
    if (is_char && (key == 'q' || key == 'Q')) {
        app->st.quit = true;
    } else if (is_char && key == 27) {
        ui_replay_stop(r);
        ui_viewer_own(&app->les, &app->st);
        ui_state_say(&app->st, false, "Replay stopped after %d of %d keys; the explorer is yours.",
                     r->next, r->rec->n);
    } else {
        ui_replay_toggle(r, now);
        ui_state_say(&app->st, false,
                     r->paused ? "Replay paused: any key plays on, Esc stops it, q quits."
                               : "Replay playing on.");
    }
    ui_app_reflow(app, LINES, COLS); /* the message line may need more lines */
}

/* The replay's keys that are due, then autoplay's move.  True when the
 * screen changed. */
static bool timers(struct ui_app *app, double now)
{
    bool changed = ui_follow_tick(app, now);
    ui_record_tick(app, now);
    struct ui_replay *r = &app->stream.replay;
    int rk;
    while (ui_replay_due(r, now, &rk)) {
        ui_app_teacher_event(app, r->rec, &app->stream.replay_state, r->next,
                             ui_replay_time(r, now));
        changed = true;
    }
    /* where it started, and the moves no key made (autoplay, the training) at their time */
    const int states_before = app->stream.replay_state;
    if (r->active)
        ui_app_teacher_state(app, r->rec, &app->stream.replay_state, r->next,
                             ui_replay_time(r, now));
    changed = changed || app->stream.replay_state != states_before;
    if (r->active && ui_replay_finished(r) && app->stream.replay_state >= r->rec->n_states) {
        /* the run as the recording ended it */
        ui_watch_apply(app, r->rec, &app->stream.replay_snap, r->next, LONG_MAX);
        r->active = false;
        ui_viewer_own(&app->les, &app->st);
        ui_state_say(&app->st, false,
                     "The replay finished: %d keys from %s%s. The explorer is yours.%s%s%s",
                     r->rec->n, r->name,
                     r->rec->warning[0] ? " (its last line was cut short and left out)" : "",
                     app->stream.stream_note ? " Not opened here: " : "",
                     app->stream.stream_note ? app->stream.stream_note : "",
                     app->stream.stream_note ? "." : "");
        ui_app_reflow(app, app->win.rows, app->win.cols);
        changed = true;
    }
    if (!app->lay.too_small && !ui_autoplay_is_teachers(&app->stream) && ui_app_autoplay(app, now))
        changed = true;
    /* the recorded run's snapshots due by now, between its keys */
    if (r->active && ui_watch_apply(app, r->rec, &app->stream.replay_snap, r->next,
                                    ui_train_session_ms(&app->stream, now))) {
        ui_app_reflow(app, app->win.rows, app->win.cols);
        changed = true;
    }
    if (ui_train_timers(app, ui_train_tick_of(&app->stream, ui_train_session_ms(&app->stream, now)),
                        false)) {
        ui_app_reflow(app, app->win.rows, app->win.cols);
        changed = true;
    }
    /* autoplay's moves and training's, as they happen */
    ui_record_state(app, now - app->stream.record_start);
    return changed;
}

/* A string a terminal sends (OSC, DCS, SOS, PM, APC: its introducer
 * read), read to its end and dropped: up to BEL, ST (ESC \ or U+009C), or
 * a pause of 100 ms where a terminal sends none (a reply comes at once).
 * Nothing of it is kept, so it may be as long as it likes. */
static void drop_string(void)
{
    wtimeout(stdscr, 100);
    bool esc = false;
    for (;;) {
        wint_t c;
        const int r = wget_wch(stdscr, &c);
        if (r == ERR)
            return;
        if (r != OK) { /* a key code curses made of bytes inside it */
            esc = false;
            continue;
        }
        if (c == 7 || c == 0x9c || (esc && c == '\\'))
            return;
        esc = c == 27;
    }
}

/* The bytes after an ESC (or a C1 control: first, its 7-bit byte) that
 * curses did not decode, read whole into seq (a terminal sends them at
 * once: 50 ms at most between two); a string is read to its end and
 * dropped (seq holds its introducer); a byte that begins no sequence is
 * given back to curses, to be read as typed. */
static size_t escape_rest(char *seq, size_t n, char first)
{
    size_t len = 0;
    if (first)
        seq[len++] = first;
    wtimeout(stdscr, 50);
    while (len + 1 < n && !ui_key_escape_whole(seq, len)) {
        wint_t c;
        const int r = wget_wch(stdscr, &c);
        if (r == ERR)
            break;
        if (r != OK || c < 0x20 || c > 0x7e || (len == 0 && !ui_key_escape_begins((char)c))) {
            if (r == OK)
                unget_wch((wchar_t)c);
            else
                ungetch((int)c);
            break;
        }
        seq[len++] = (char)c;
    }
    seq[len] = '\0';
    if (len == 1 && ui_key_escape_string(seq[0]))
        drop_string();
    return len;
}

/* The 7-bit byte after ESC that C1 control c (U+0080..U+009F) stands
 * for. */
static char c1_byte(wint_t c)
{
    return (char)(c - 0x80 + 0x40);
}

/* A bracketed paste (its start read): the text up to its end goes into
 * the ':' or '/' line as typed characters (and so into a recording),
 * line breaks and other controls as spaces, never as Enter; with no line
 * open it is dropped, said once.  Read to its end whatever its length:
 * past what the line holds it is dropped too, never keys. */
static void paste(struct ui_app *app, double now)
{
    bool open = app->st.cmd_active && !app->stream.replay.active &&
                !(app->stream.follow && !app->stream.detached);
    long typed = 0;
    for (;;) {
        wtimeout(stdscr, 100);
        wint_t c;
        const int r = wget_wch(stdscr, &c);
        if (r == ERR)
            break;
        if (r != OK)
            continue; /* a key code inside a paste: not text */
        if (c == 27 || (c >= 0x80 && c <= 0x9f)) {
            char seq[40];
            const size_t len = escape_rest(seq, sizeof seq, c == 27 ? 0 : c1_byte(c));
            if (ui_key_escape(seq, len) == UI_ESC_PASTE_END)
                break;
            continue;
        }
        open = open && app->st.cmd_active; /* the line stays open: no Enter comes */
        if (open && typed < UI_CMD_MAX) {  /* what the line can hold; the rest is read, and
                                              dropped */
            const wint_t text = c < 0x20 || c == 0x7f ? ' ' : c;
            ui_app_feed(app, (int)text, true);
            record(app, (int)text, true, now);
            typed++;
        }
    }
    if (!open)
        ui_state_say(&app->st, false, "A paste goes into the : line only (: opens it).");
}

/* An ESC read, or a C1 control c (U+0080..U+009F): the key the sequence
 * after it stands for (a curses key code), 27 for Esc alone, 0 for a
 * sequence that means nothing here, a string or a paste (done). */
static int escape(struct ui_app *app, double now, wint_t c, bool *is_char)
{
    char seq[40];
    const size_t len = escape_rest(seq, sizeof seq, c == 27 ? 0 : c1_byte(c));
    *is_char = len == 0;
    if (len == 0)
        return 27;
    const int key = ui_key_escape(seq, len);
    if (key == UI_ESC_PASTE_START)
        paste(app, now);
    return key > 0 ? key : 0;
}

/* A key waits on the terminal, not read yet. */
static bool keys_waiting(void)
{
    struct pollfd fd = {fileno(tty_in ? tty_in : stdin), POLLIN, 0};
    return poll(&fd, 1, 0) > 0 && (fd.revents & POLLIN);
}

int ui_app_interactive(struct ui_app *app)
{
    /* the handlers go in before newterm(): ncurses then leaves them alone
     * (it installs its own only over the default, and its own exits 1), and
     * what is put back afterwards is what the program started with */
    struct saved_signals old;
    catch_signals(&old);
    SCREEN *scr = kept_screen;
    kept_screen = NULL;
    if (!scr && app->stream.keys_from_tty && !(tty_in = fopen("/dev/tty", "r"))) {
        restore_signals(&old);
        fprintf(stderr, "mha-explorer: cannot read keys from /dev/tty: %s\n", strerror(errno));
        return 2;
    }
    if (!scr)
        scr = newterm(NULL, stdout, tty_in ? tty_in : stdin);
    if (!scr) {
        restore_signals(&old);
        fprintf(stderr,
                "mha-explorer: the explorer cannot draw here: ncurses cannot open TERM=%s.\n"
                "--dump STAGE prints stages and --print-lesson N a lesson without a screen.\n",
                getenv("TERM") ? getenv("TERM") : "");
        return got_signal == SIGINT ? 130 : got_signal ? 128 + (int)got_signal : 2;
    }
    set_term(scr);
    ui_app_setup_curses(app);
    app->screen_up = true;
    /* bracketed paste: the terminal marks a paste, which is then text for
     * the ':' line, never keys (put back below) */
    fputs("\033[?2004h", stdout);
    fflush(stdout);
    app->stream.keys_waiting = keys_waiting;
    ui_app_reflow(app, LINES, COLS);
    ui_app_apply_focus(app);
    if (ui_record_begin(app))
        ui_app_reflow(app, LINES, COLS); /* the message line may need more lines */
    const double start = ui_play_clock();
    app->stream.record_start = start;
    app->stream.record_mark = start;
    if (app->stream.replay.rec)
        ui_replay_start(&app->stream.replay, app->stream.replay.rec, app->stream.replay.name,
                        app->stream.replay.speed, start);
    if (app->autoplay.on)
        ui_autoplay_start(&app->autoplay, start);

    bool dirty = true;
    while (!app->st.quit && !got_signal && !app->stream.rejoin) {
        if (dirty) {
            wnoutrefresh(stdscr); /* blank below, so a resized stdscr is not redrawn later */
            ui_app_draw(app);
            doupdate();
            dirty = false;
        }
        /* wake for what is due, and now and then to see a signal's flag */
        const double before = ui_play_clock();
        wtimeout(stdscr,
                 ui_train_loop_wait(
                     &app->training,
                     ui_train_tick_of(&app->stream, ui_train_session_ms(&app->stream, before)),
                     ui_play_wait_ms(&app->autoplay, &app->stream.replay, before, 250)));
        wint_t ch;
        const int r = wget_wch(stdscr, &ch);
        const double now = ui_play_clock();
        if (r == ERR) {
            dirty = timers(app, now);
            continue;
        }
        bool is_char = r == OK;
        /* Esc, or a sequence curses did not know; a C1 control, never a key */
        if (is_char && (ch == 27 || (ch >= 0x80 && ch <= 0x9f))) {
            const int key = escape(app, now, ch, &is_char);
            if (key == 0) {
                dirty = true;
                continue;
            }
            ch = (wint_t)key;
        }
        if (!is_char && ch == KEY_MOUSE && app->stream.replay.active) {
            MEVENT ignored; /* the replay plays on: clicks do not steer it */
            getmouse(&ignored);
            continue;
        }
        if (!is_char && ch == KEY_MOUSE && !app->stream.replay.active) {
            /* a click or the wheel, written with where it happened */
            MEVENT ev;
            if (getmouse(&ev) == OK) {
                if (ui_train_timers(
                        app, ui_train_tick_of(&app->stream, ui_train_session_ms(&app->stream, now)),
                        true))
                    ui_app_reflow(app, app->win.rows, app->win.cols);
                if (!app->lay.too_small)
                    ui_app_mouse_event(app, &ev);
                ui_record_mouse(app, now - app->stream.record_start, &ev);
                ui_record_state(app, -1.0);
            }
            dirty = true;
            continue;
        }
        if (app->stream.follow && ui_follow_key(app, (int)ch, is_char, now)) {
            dirty = true; /* F, or a q that asks first */
        } else if (app->stream.replay.active && !(!is_char && ch == KEY_RESIZE)) {
            replay_control(app, (int)ch, is_char, now);
        } else {
            /* the training ticks due before the key, as a replay will run them */
            if (ui_train_timers(
                    app, ui_train_tick_of(&app->stream, ui_train_session_ms(&app->stream, now)),
                    true))
                ui_app_reflow(app, app->win.rows, app->win.cols);
            ui_app_feed(app, (int)ch, is_char);
        }
        record(app, (int)ch, is_char, now);
        dirty = true;
    }

    ui_app_free_windows(app);
    app->stream.keys_waiting = NULL;
    if (app->stream.rejoin && !got_signal) {
        /* the caller starts again; the terminal stays the explorer's */
        kept_screen = scr;
        restore_signals(&old);
        return UI_RUN_AGAIN;
    }
    ui_record_end(app);
    fputs("\033[?2004l", stdout);
    fflush(stdout);
    endwin();
    delscreen(scr);
    if (tty_in)
        fclose(tty_in);
    tty_in = NULL;
    ui_release_curses();
    /* from here a signal ends the program as signals do (130 for SIGINT,
     * 143 for SIGTERM): the dispositions it started with, not ncurses' */
    restore_signals(&old);
    return got_signal == SIGINT ? 130 : got_signal ? 128 + (int)got_signal : 0;
}
