/* ui_export.c - the current stage or view written to a new file. */
#include "ui/views/ui_export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/dump.h"
#include "io/export.h"
#include "io/safe_file.h"
#include "ui/views/ui_views.h"

#define MAX_NUMBER 9999 /* mha-attention-9999.svg is the last automatic name */

const char *ui_export_extension(int fmt)
{
    const struct mha_format_info *f = mha_format_get(fmt);
    return f ? f->extension : "txt";
}

void ui_export_name(const char *what, int n, const char *ext, char *buf, size_t size)
{
    snprintf(buf, size, "mha-%s-%d.%s", what, n, ext);
}

/* What st shows in fmt, into a new buffer (free it).  -1 with err. */
static int render(const struct ui_state *st, int fmt, char **buf, size_t *len,
                  struct mha_error *err)
{
    *buf = NULL;
    FILE *mem = open_memstream(buf, len);
    if (!mem)
        return mha_error_set(err, "out of memory");
    int rc = 0;
    if (st->view != MHA_VIEW_NONE && st->vd) /* a view: its description, whatever the format */
        view_desc_write_text(mem, st->vd);
    else
        rc = mha_format_write(mem, st->ex, st->tr, st->stage, fmt, err);
    if (fclose(mem) != 0 && rc == 0)
        rc = mha_error_set(err, "out of memory");
    if (rc) {
        free(*buf);
        *buf = NULL;
    }
    return rc;
}

int ui_export_write(struct ui_state *st, int fmt, const char *dir, const char *path, char *written,
                    size_t size, struct mha_error *err)
{
    ui_views_sync(st); /* a view chosen just before is written with its numbers */
    char *buf = NULL;
    size_t len = 0;
    if (render(st, fmt, &buf, &len, err))
        return -1;
    const char *what = st->view != MHA_VIEW_NONE ? ui_view_mode_name(st->view)
                                                 : mha_stage_name((enum mha_stage)st->stage);
    const struct view_kind *view = view_kind(st->view);
    const char *ext = view ? view->extension : ui_export_extension(fmt);
    return ui_export_write_buffer(buf, len, what, ext, dir, path, written, size, err);
}

int ui_export_write_buffer(char *buf, size_t len, const char *what, const char *ext,
                           const char *dir, const char *path, char *written, size_t size,
                           struct mha_error *err)
{
    char folder[PATH_MAX];
    if (path)
        safe_file_folder(path, folder, sizeof folder);
    else
        snprintf(folder, sizeof folder, "%s", dir && *dir ? dir : ".");
    struct mha_error local;
    mha_error_clear(&local);
    if (path && safe_file_check_target(path, &local) != 0) { /* a FIFO, a device, a folder */
        free(buf);
        return mha_error_set(err, "%s: %s", path, local.text);
    }
    /* a new file is written whole beside its name (an export is a handout:
     * 0666 less the umask), then linked there: a name that exists is never
     * replaced */
    struct safe_file sf;
    FILE *f = NULL;
    if (safe_file_create_in(&sf, folder, &local) != 0 || !(f = safe_file_stream(&sf, &local)) ||
        fwrite(buf, 1, len, f) != len || safe_file_finish(&sf, &local) != 0) {
        const int e = errno;
        if (f && !local.text[0])
            mha_error_set(&local, "cannot write in %s: %s", folder, strerror(e));
        safe_file_discard(&sf);
        free(buf);
        return mha_error_set(err, "%s", local.text);
    }
    free(buf);
    char name[PATH_MAX + 128];
    int placed = 1;
    if (path) {
        snprintf(name, sizeof name, "%s", path);
        placed = safe_file_place(&sf, name, false, &local);
    }
    for (int n = 1; !path && placed == 1 && n <= MAX_NUMBER; n++) {
        char base[96];
        ui_export_name(what, n, ext, base, sizeof base);
        snprintf(name, sizeof name, "%s/%s", folder, base);
        placed = safe_file_place(&sf, name, false, &local);
    }
    safe_file_discard(&sf); /* what is left when nothing was placed */
    if (placed != 0) {
        if (placed == 1)
            return mha_error_set(err,
                                 path ? "%s exists; :export never replaces a file"
                                      : "%s: every name up to 9999 is taken",
                                 path ? path : folder);
        return mha_error_set(err, "%s: %s", name, local.text);
    }
    char *abs = realpath(name, NULL);
    snprintf(written, size, "%s", abs ? abs : name);
    free(abs);
    return 0;
}
