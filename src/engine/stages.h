/* stages.h - the stage table: what each of the seven stages is called, its
 * formula and sentence, the legend its numbers need, and the tensors it
 * shows in order.  One row per stage; the screen, the pipeline bar, the
 * presenter, the exports and both dumps read it, so a stage is described
 * once.  Pure data (no I/O). */
#ifndef MHA_STAGES_H
#define MHA_STAGES_H

#include <stddef.h>

#include "engine/explain.h"
#include "engine/mha.h"

/* Which colour scales a stage's numbers need explained. */
enum mha_legend {
    MHA_LEGEND_SIGNED,     /* signed numbers, each matrix its own max */
    MHA_LEGEND_HEADS,      /* columns in their head's colour */
    MHA_LEGEND_SIGNED_PROB /* signed scores and 0..1 weights */
};

#define MHA_STAGE_MAX_TENSORS 8

struct mha_stage_info {
    const char *name;         /* "split": options, commands, scene keys, JSON keys */
    const char *title;        /* "Split": the screen's heading and the pipeline bar */
    const char *short_title;  /* "Split": the bar when it is short of room */
    const char *subtitle;     /* "a slice per head": the text pane and the presenter */
    const char *heading;      /* "Split into heads": the exports' headings */
    const char *formula;      /* the exports' formula, with symbols for the sizes */
    const char *sentence;     /* the exports' one-sentence explanation */
    const char *dump_heading; /* the text dump's "== 2 split: ... ==" line */
    enum mha_legend legend;
    int n_tensors;
    enum mha_tensor tensors[MHA_STAGE_MAX_TENSORS]; /* what the stage computes or takes in,
                                                       in the order the exports show it */
};

/* The row of stage s (s must be a stage: 0 <= s < MHA_STAGE_COUNT). */
const struct mha_stage_info *mha_stage_info(enum mha_stage s);

/* "0-6": the stage numbers as a range, for messages and key hints.
 * Returns buf. */
const char *mha_stage_range(char *buf, size_t n);

/* "input, projection, split, transpose, attention, merge, output": the
 * names joined by ", " (last_sep before the last one, e.g. " or ").
 * Returns buf. */
const char *mha_stage_names(char *buf, size_t n, const char *last_sep);

#endif
