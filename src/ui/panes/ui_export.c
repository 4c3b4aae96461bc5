/* ui_export.c - the current stage or view written to a new file. */
#include "ui/panes/ui_export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/dump.h"
#include "io/export.h"
#include "ui/views/ui_views.h"

#define MAX_NUMBER 9999 /* mha-attention-9999.svg is the last automatic name */

int ui_export_format_from_name(const char *name)
{
    return mha_format_from_name(name);
}

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
    const struct ui_view_ops *view = ui_view_ops(st->view);
    if (view && st->vd) /* a view writes itself (its registry row), whatever the format */
        view->export_text(mem, st->vd);
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

/* The folder of path ("." when it has none). */
static void folder_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else if (slash == path)
        snprintf(dir, n, "/");
    else
        snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

/* Put the finished temporary file at name unless something is there:
 * 0, 1 when name exists, -1 (errno) for any other failure. */
static int place(const char *tmp, const char *name)
{
    if (link(tmp, name) == 0)
        return 0;
    if (errno == EEXIST)
        return 1;
    /* a file system without hard links: rename, after looking */
    struct stat sb;
    if (lstat(name, &sb) == 0)
        return 1;
    return rename(tmp, name) == 0 ? 0 : -1;
}

int ui_export_write(const struct ui_state *st, int fmt, const char *dir, const char *path,
                    char *written, size_t size, struct mha_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    if (render(st, fmt, &buf, &len, err))
        return -1;
    const char *what = st->view != MHA_VIEW_NONE ? ui_view_mode_name(st->view)
                                                 : mha_stage_name((enum mha_stage)st->stage);
    const struct ui_view_ops *view = ui_view_ops(st->view);
    const char *ext = view ? view->extension : ui_export_extension(fmt);
    return ui_export_write_buffer(buf, len, what, ext, dir, path, written, size, err);
}

int ui_export_write_buffer(char *buf, size_t len, const char *what, const char *ext,
                           const char *dir, const char *path, char *written, size_t size,
                           struct mha_error *err)
{
    char folder[PATH_MAX], tmp[PATH_MAX + 32];
    if (path)
        folder_of(path, folder, sizeof folder);
    else
        snprintf(folder, sizeof folder, "%s", dir && *dir ? dir : ".");
    snprintf(tmp, sizeof tmp, "%s/.mha-export-XXXXXX", folder);
    const int fd = mkstemp(tmp);
    if (fd < 0) {
        free(buf);
        return mha_error_set(err, "cannot write in %s: %s", folder, strerror(errno));
    }
    /* mkstemp makes the file 0600; an export is a handout: the permissions
     * any new file gets here (0666 less the umask) */
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "w");
    const bool ok = f && fwrite(buf, 1, len, f) == len && fflush(f) == 0 && fsync(fd) == 0;
    const int saved = errno;
    const bool closed = f ? fclose(f) == 0 : close(fd) == 0;
    if (!ok || !closed) {
        unlink(tmp);
        free(buf);
        return mha_error_set(err, "cannot write in %s: %s", folder, strerror(ok ? errno : saved));
    }
    free(buf);
    char name[PATH_MAX + 128];
    int placed = 1;
    if (path) {
        snprintf(name, sizeof name, "%s", path);
        placed = place(tmp, name);
    }
    for (int n = 1; !path && placed == 1 && n <= MAX_NUMBER; n++) {
        char base[96];
        ui_export_name(what, n, ext, base, sizeof base);
        snprintf(name, sizeof name, "%s/%s", folder, base);
        placed = place(tmp, name);
    }
    const int saved_place = errno;
    unlink(tmp); /* after a link the name stays; after a rename there is nothing left */
    if (placed != 0) {
        if (placed == 1)
            return mha_error_set(err,
                                 path ? "%s exists; :export never replaces a file"
                                      : "%s: every name up to 9999 is taken",
                                 path ? path : folder);
        return mha_error_set(err, "cannot write %s: %s", name, strerror(saved_place));
    }
    char *abs = realpath(name, NULL);
    snprintf(written, size, "%s", abs ? abs : name);
    free(abs);
    return 0;
}
