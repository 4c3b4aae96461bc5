/* format.c - the table of output formats, and writing through it. */
#include "io/format.h"

#include <string.h>

#include "io/dump.h"
#include "io/export.h"

#define MHA_FORMAT_ROW(id, name, alias, ext, kind, writer)                                         \
    [MHA_FORMAT_##id] = {name, alias, ext, kind, writer},
static const struct mha_format_info formats[MHA_FORMAT_COUNT] = {MHA_FORMATS(MHA_FORMAT_ROW)};
#undef MHA_FORMAT_ROW

const struct mha_format_info *mha_format_get(int fmt)
{
    return fmt >= 0 && fmt < MHA_FORMAT_COUNT ? &formats[fmt] : NULL;
}

int mha_format_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int f = 0; f < MHA_FORMAT_COUNT; f++)
        if (!strcmp(name, formats[f].name) || (formats[f].alias && !strcmp(name, formats[f].alias)))
            return f;
    return -1;
}

const char *mha_format_list(unsigned kinds, const char *last, char *buf, size_t n)
{
    /* the dumps (the default output) first, then pictures, then tables */
    static const enum mha_format_kind order[] = {MHA_FORMAT_DUMP, MHA_FORMAT_PICTURE,
                                                 MHA_FORMAT_TABLE};
    int count = 0, total = 0;
    for (int f = 0; f < MHA_FORMAT_COUNT; f++)
        total += (kinds & formats[f].kind) != 0;
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        for (int f = 0; f < MHA_FORMAT_COUNT && n; f++) {
            if (!(kinds & order[k]) || formats[f].kind != order[k])
                continue;
            const char *sep = count == 0 ? "" : count + 1 == total ? last : ", ";
            const int w = snprintf(buf + used, n - used, "%s%s", sep, formats[f].name);
            if (w < 0 || (size_t)w >= n - used) {
                buf[used] = '\0'; /* whole names only */
                return buf;
            }
            used += (size_t)w;
            count++;
        }
    return buf;
}

int mha_format_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage,
                     int fmt, struct mha_error *err)
{
    const struct mha_format_info *f = mha_format_get(fmt);
    if (!f) {
        char list[128];
        return mha_error_set(err, "unknown format; expected %s",
                             mha_format_list(MHA_FORMAT_ANY, " or ", list, sizeof list));
    }
    if (stage != DUMP_ALL && (stage < 0 || stage >= MHA_STAGE_COUNT))
        return mha_error_set(err, "unknown stage %d; expected %d..%d or all", stage, 0,
                             MHA_STAGE_COUNT - 1);
    if (f->kind == MHA_FORMAT_PICTURE) {
        const size_t cells = export_cell_count(ex, t, stage);
        if (cells > EXPORT_MAX_CELLS)
            return mha_error_set(err,
                                 "%s: %zu numbers are too many for a picture (the limit is "
                                 "%d); choose one stage, a smaller example, or --format csv",
                                 f->name, cells, EXPORT_MAX_CELLS);
    }
    if (f->write(out, ex, t, stage) != 0 || ferror(out))
        return mha_error_set(err, "write error while writing the %s %s", f->name,
                             f->kind == MHA_FORMAT_DUMP ? "dump" : "export");
    return 0;
}
