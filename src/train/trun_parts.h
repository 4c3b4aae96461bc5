/* trun_parts.h - the parts of a training run that its files share:
 * trun.c builds and ticks it, trun_measure.c measures its heads at the
 * evaluations, trun_scrub.c shows its checkpoints.  Private to src/train's
 * run driver (the rest of the program calls trun.h). */
#ifndef TRUN_PARTS_H
#define TRUN_PARTS_H

#include <stdbool.h>

#include "train/trun.h"

/* The figures of p's live model as a checkpoint's mark (trun_measure.c). */
void trun_mark_now(const struct trun_pane *p, struct trun_mark *m);

/* The held-out sequences the heads are measured on: the first of them. */
int trun_heads_sequences(const struct trun_pane *p);

/* Whether the live model's jobs are measured at each evaluation: the text
 * has jobs, and the heads are few enough to knock out one by one. */
bool trun_jobs_measured(const struct trun_pane *p);

/* A measure of m's heads begun in *job, in the memory of the last one (made
 * the first time, kept until the pane goes): false when it cannot be had. */
bool trun_heads_begin(const struct trun_pane *p, struct train_heads_job **job,
                      const struct train_model *m);

/* What the live model's heads do, measured in parts while more(ctx) says
 * so: 1 when done (the figures kept for the screen), 0 when it stopped
 * between sequences. */
int trun_roles_part(struct trun_pane *p, bool (*more)(void *ctx), void *ctx);

/* A text's jobs each head of the live model does, knocked out alone, in
 * parts (a held-out chunk each) while more(ctx) says so: 1 when done (the
 * labels shown until then stay until it is), 0 when it stopped. */
int trun_jobs_part(struct trun_pane *p, bool (*more)(void *ctx), void *ctx);

/* Whether every layer's heads are measured and knocked out at each
 * evaluation (a model of layers small enough), and that measure of the
 * live model. */
bool trun_layers_measured(const struct trun_pane *p);
void trun_layers_measure(struct trun_pane *p);

/* Load the checkpoint at or before step into every pane's shown model, its
 * heads to be measured in parts (trun_scrub.c). */
void trun_load_checkpoints(struct trun *t, long step);

/* The checkpoints' heads trun_load_checkpoints began to measure, in parts
 * while more(ctx) says so (NULL: to the end): true when none is left; and
 * whether any is left. */
bool trun_shown_part(struct trun *t, bool (*more)(void *ctx), void *ctx);
bool trun_shown_pending(const struct trun *t);

/* While the run's samples are shown (t->samples): the lines the model
 * from (at step) writes into p's (the writer made the first time); a
 * failure leaves none (trun_samples.c). */
void trun_pane_write(const struct trun *t, struct trun_pane *p, const struct train_model *from,
                     long step);

#endif
