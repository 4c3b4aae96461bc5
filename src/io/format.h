/* format.h - every output format in one table: its name and aliases, the
 * file extension, what kind of output it is and the function that writes
 * it.  One number space for all of them (enum mha_format); the command
 * line (--format), :export, help and error messages all read this table.
 * Adding a format is one row here plus its writer.
 *
 *   name      aliases  ext   kind     writer
 *   svg                svg   picture  export_svg_write
 *   html               html  picture  export_html_write
 *   markdown  md       md    table    export_markdown_write
 *   csv                csv   table    export_csv_write
 *   latex     tex      tex   table    export_latex_write
 *   text      txt      txt   dump     dump_write's text
 *   json               json  dump     dump_json_write and a newline
 *
 * Pictures (svg, html) are refused above EXPORT_MAX_CELLS numbers; tables
 * and dumps are written as they go and have no limit. */
#ifndef MHA_FORMAT_H
#define MHA_FORMAT_H

#include <stdio.h>

#include "engine/mha.h"

enum mha_format {
    MHA_FORMAT_SVG,
    MHA_FORMAT_HTML,
    MHA_FORMAT_MARKDOWN,
    MHA_FORMAT_CSV,
    MHA_FORMAT_LATEX,
    MHA_FORMAT_TEXT,
    MHA_FORMAT_JSON,
    MHA_FORMAT_COUNT
};

/* The picture and table formats (those an export writes) come first:
 * 0 .. MHA_FORMAT_EXPORTS - 1. */
#define MHA_FORMAT_EXPORTS MHA_FORMAT_TEXT

enum mha_format_kind {
    MHA_FORMAT_PICTURE = 1, /* a picture or page of coloured matrices */
    MHA_FORMAT_TABLE = 2,   /* tables to paste into notes, spreadsheets, papers */
    MHA_FORMAT_DUMP = 4,    /* the --dump output: text for people, json for programs */
};
#define MHA_FORMAT_ANY (MHA_FORMAT_PICTURE | MHA_FORMAT_TABLE | MHA_FORMAT_DUMP)

/* Writes stage (0..6 or DUMP_ALL) of t, computed from ex; 0, or -1 on a
 * write error. */
typedef int (*mha_format_writer)(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                                 int stage);

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
 * before the last one: "text, json, svg, html, markdown, csv or latex" for
 * last " or ".  Into buf; returns buf. */
const char *mha_format_list(unsigned kinds, const char *last, char *buf, size_t n);

/* Write stage (0..6 or DUMP_ALL) of t in fmt.  Everything is checked before
 * a byte is written: -1 with err for an unknown format or stage, or a
 * picture with more than EXPORT_MAX_CELLS numbers ("svg: 1048576 numbers
 * are too many for a picture ..."); then -1 with err "write error while
 * writing the csv export" when out fails part-way.  0 when all went out. */
int mha_format_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage,
                     int fmt, struct mha_error *err);

#endif
