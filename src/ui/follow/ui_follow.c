/* ui_follow.c - following the teacher's explorer, as the screen reads it:
 * the session clock the training screen keeps, the status words, and
 * :class (the students' command).  The teacher's events and state lines
 * are applied at the top (app/ui_follow_apply.c). */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/rec_stream.h"
#include "train/trun.h"
#include "ui/modes/ui_parts.h"
#include "ui/follow/ui_stream.h"
#include "ui/modes/ui_keymaps.h"

/* A follower's own keys (app/ui_follow_apply.c switches on them); every
 * other key of a follower's explores alone. */
static const struct ui_keymap_row follow_rows[] = {
    {{'F'},
     "F",
     UI_FOLLOW_REJOIN,
     "rejoin the teacher from any screen (or a new file)",
     "F rejoins the teacher"},
    {{'q', 'Q'}, "q Q", UI_FOLLOW_QUIT, "main screen: asks; q again leaves the class", NULL},
};
const struct ui_keymap ui_keymap_follow = UI_KEYMAP("Following a teacher (--follow)", follow_rows);

double ui_follow_clock(const struct ui_stream *stream, double now)
{
    const struct rec_follow *f = stream->follow;
    if (!stream->detached)
        return f->s.clock;
    return now - stream->record_start + stream->detach_offset;
}

long ui_train_session_ms(const struct ui_stream *stream, double now)
{
    const struct ui_replay *r = &stream->replay;
    if (r->active) {
        const double at = r->paused ? r->paused_at : now;
        return trun_ms((at - r->start) * r->speed);
    }
    if (stream->follow) /* the teacher's clock, or one's own carried on from it */
        return trun_ms(ui_follow_clock(stream, now));
    return trun_ms(now - stream->record_start);
}

void ui_stream_play_status(const struct ui_stream *stream, const struct ui_autoplay *autoplay,
                           double now, char *buf, size_t n)
{
    ui_play_status_text(autoplay, &stream->replay, buf, n);
    ui_record_status(stream, buf, n);
    ui_follow_status(stream, now, buf, n);
}

void ui_follow_status(const struct ui_stream *stream, double now, char *buf, size_t n)
{
    const struct rec_follow *f = stream->follow;
    if (!f)
        return;
    const size_t len = strlen(buf);
    char why[400];
    rec_follow_why(f, now, why, sizeof why);
    if (stream->detached)
        snprintf(buf + len, n - len, "%sexploring on your own · F rejoins the teacher",
                 len ? " · " : "");
    else if (why[0])
        snprintf(buf + len, n - len, "%s%s", len ? " · " : "", why);
    else if (stream->follow_off[0])
        snprintf(buf + len, n - len, "%s%s · F goes to the teacher", len ? " · " : "",
                 stream->follow_off);
    else
        snprintf(buf + len, n - len, "%sfollowing the teacher · %d key%s", len ? " · " : "",
                 stream->follow_next, stream->follow_next == 1 ? "" : "s");
}

void ui_viewer_own(struct ui_lessons *les, struct ui_state *st)
{
    if (les->progress)
        return;
    char warning[600];
    les->progress = progress_load(NULL, warning, sizeof warning);
    if (warning[0])
        ui_state_say(st, true, "%s", warning);
}

int ui_follow_class(struct ui_state *st, const struct ui_stream *stream)
{
    if (!stream->record) {
        ui_state_say(st, false,
                     "A class follows a recorded session: start the explorer with --record FILE, "
                     "then :class gives the students' command.");
        return 0;
    }
    char path[PATH_MAX];
    if (!realpath(stream->record_name, path))
        snprintf(path, sizeof path, "%s", stream->record_name);
    ui_state_say(st, false,
                 "Students run: mha-explorer --follow %s  (over ssh: ssh HOST tail -c +1 -f %s | "
                 "mha-explorer --follow -)",
                 path, path);
    return 0;
}

bool ui_autoplay_is_teachers(const struct ui_stream *stream)
{
    if (stream->follow)
        return !stream->detached;
    return stream->replay.active && stream->replay.rec && stream->replay.rec->n_states > 0;
}
