/* ui_words.c - writing out the lists named in help words (ui_words.h). */
#include "ui/state/ui_words.h"

#include <stdio.h>
#include <string.h>

#include "engine/stages.h"
#include "engine/views.h"
#include "io/colorscale.h"
#include "io/format.h"
#include "io/view_desc.h"

/* The list called name (len bytes of it) joined with last before its last
 * entry, into out; false when there is no such list. */
static bool list_of(const char *name, size_t len, const char *last, char *out, size_t n)
{
    if (len == 6 && !strncmp(name, "stages", len))
        mha_stage_names(out, n, last);
    else if (len == 5 && !strncmp(name, "views", len))
        mha_view_names(out, n, last);
    else if (len == 6 && !strncmp(name, "themes", len))
        colorscale_theme_names(out, n, last);
    else if (len == 7 && !strncmp(name, "formats", len))
        mha_format_list(MHA_FORMAT_ANY, last, out, n);
    else if (len == 5 && !strncmp(name, "range", len))
        mha_stage_range(out, n);
    else if (len == 10 && !strncmp(name, "last_stage", len))
        snprintf(out, n, "%d", MHA_STAGE_COUNT - 1);
    else
        return false;
    return true;
}

const char *ui_words_expand(const char *text, char *buf, size_t n)
{
    size_t used = 0;
    if (n == 0)
        return buf;
    buf[0] = '\0';
    for (const char *p = text; *p && used + 1 < n;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (close) {
            char last[16] = "", list[256];
            const char *bar = memchr(p, '|', (size_t)(close - p));
            const char *name_end = bar ? bar : close;
            if (bar)
                snprintf(last, sizeof last, "%.*s", (int)(close - bar - 1), bar + 1);
            if (list_of(p + 1, (size_t)(name_end - p - 1), last, list, sizeof list)) {
                const int w = snprintf(buf + used, n - used, "%s", list);
                used = w < 0 ? used : used + (size_t)w < n ? used + (size_t)w : n - 1;
                p = close + 1;
                continue;
            }
        }
        buf[used++] = *p++;
        buf[used] = '\0';
    }
    return buf;
}
