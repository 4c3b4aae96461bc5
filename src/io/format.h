/* format.h - every output format in one table, MHA_FORMATS below: its
 * name and alias, the file extension, what kind of output it is and the
 * function that writes it.  One number space for all of them (enum
 * mha_format); the command line (--format), :export, help and error
 * messages all read this table.  Adding a format is one row there and its
 * writer in a file of its own (with its line in io/meson.build); the row
 * declares the writer.
 *
 * Pictures (svg, html) are refused above EXPORT_MAX_CELLS numbers; tables
 * and dumps are written as they go and have no limit. */
#ifndef MHA_FORMAT_H
#define MHA_FORMAT_H

#include <stdio.h>

#include "engine/mha.h"

/* One row per format, X(ID, name, alias or NULL, extension, kind,
 * writer), giving MHA_FORMAT_ID.  The pictures and tables (what an export
 * writes) come before the dumps: 0 .. MHA_FORMAT_EXPORTS - 1. */
#define MHA_FORMATS(X)                                                                             \
    X(SVG, "svg", NULL, "svg", MHA_FORMAT_PICTURE, export_svg_write)                               \
    X(HTML, "html", NULL, "html", MHA_FORMAT_PICTURE, export_html_write)                           \
    X(MARKDOWN, "markdown", "md", "md", MHA_FORMAT_TABLE, export_markdown_write)                   \
    X(CSV, "csv", NULL, "csv", MHA_FORMAT_TABLE, export_csv_write)                                 \
    X(LATEX, "latex", "tex", "tex", MHA_FORMAT_TABLE, export_latex_write)                          \
    X(TEXT, "text", "txt", "txt", MHA_FORMAT_DUMP, dump_text_write)                                \
    X(JSON, "json", NULL, "json", MHA_FORMAT_DUMP, dump_json_line_write)

#define MHA_FORMAT_VALUE(id, name, alias, ext, kind, writer) MHA_FORMAT_##id,
enum mha_format { MHA_FORMATS(MHA_FORMAT_VALUE) MHA_FORMAT_COUNT };
#undef MHA_FORMAT_VALUE

/* The first dump: the formats before it are the exports. */
#define MHA_FORMAT_EXPORTS MHA_FORMAT_TEXT

enum mha_format_kind {
    MHA_FORMAT_PICTURE = 1, /* a picture or page of coloured matrices */
    MHA_FORMAT_TABLE = 2,   /* tables to paste into notes, spreadsheets, papers */
    MHA_FORMAT_DUMP = 4,    /* the --dump output: text for people, json for programs */
};
#define MHA_FORMAT_ANY (MHA_FORMAT_PICTURE | MHA_FORMAT_TABLE | MHA_FORMAT_DUMP)

/* Writes stage (a stage or DUMP_ALL) of t, computed from ex; 0, or -1 on a
 * write error. */
typedef int (*mha_format_writer)(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                                 int stage);

/* Each row's writer: export.h says what the pictures and tables write,
 * dump.h what the dumps do (the json row's adds a newline). */
#define MHA_FORMAT_WRITER(id, name, alias, ext, kind, writer)                                      \
    int writer(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage);
MHA_FORMATS(MHA_FORMAT_WRITER)
#undef MHA_FORMAT_WRITER

struct mha_format_info {
    const char *name;      /* "markdown" */
    const char *alias;     /* "md", or NULL */
    const char *extension; /* without the dot: "md" */
    enum mha_format_kind kind;
    mha_format_writer write;
};

/* The row of fmt; NULL out of range. */
const struct mha_format_info *mha_format_get(int fmt);
/* A name or alias -> enum mha_format; -1 for anything else (or NULL). */
int mha_format_from_name(const char *name);
/* The names of the formats whose kind is in kinds (dumps first, then
 * pictures, then tables, each in table order), joined by ", " and by last
 * before the last one ("text, json, svg, ... or latex" for last " or ").  Into buf; returns buf. */
const char *mha_format_list(unsigned kinds, const char *last, char *buf, size_t n);

/* Write stage (a stage or DUMP_ALL) of t in fmt.  Everything is checked before
 * a byte is written: -1 with err for an unknown format or stage, or a
 * picture with more than EXPORT_MAX_CELLS numbers ("svg: 1048576 numbers
 * are too many for a picture ..."); then -1 with err "write error while
 * writing the csv export" when out fails part-way.  0 when all went out. */
int mha_format_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage,
                     int fmt, struct mha_error *err);

#endif
