/* train_text.h - text as training data: next-word prediction on a plain
 * UTF-8 file of lines, one sentence a line, with the model of train.h.
 *
 * Words.  A line is cut into words at spaces; a punctuation mark is a word
 * of its own ("end." is "end" and "."; a run of the same mark, "...", is
 * one word); an apostrophe or a hyphen between two letters stays in the
 * word ("didn't", "well-known"), and so do a point or a comma between two
 * digits ("3.14").  Words are lower-cased (A-Z, Latin-1, Latin Extended-A,
 * Greek and Cyrillic capitals) unless the case is kept.
 *
 * The vocabulary is <unk> (id 0) and the file's most frequent words, as
 * many as --vocab allows (ties: the word met first comes first, so the same
 * file gives the same ids); every other word is read as <unk>, and so is a
 * word longer than TRAIN_LABEL_MAX - 1 bytes.
 *
 * Rows.  A line of n words is a row of n tokens whose target at position t
 * is word t + 1 (the last has none): the model is causal, so what it says
 * at t comes from words 0..t only.  A line longer than the context is cut
 * into rows of context words (each row's last target is the word that
 * follows it); a line of one word has nothing to predict and is left out.
 * Rows are padded to the longest with <unk>, with no target there.
 *
 * Held out.  One in TRAIN_TEXT_HELD_OUT_EVERY of the text's different
 * lines with a word to predict (lines of the same words are one, whatever
 * their case when it is not kept) is held out: different lines 9, 19, 29,
 * ... counting from 0 in the order they first come, the last one when there
 * are fewer than TRAIN_TEXT_HELD_OUT_EVERY.  Its first copy, every row of
 * it, is where the accuracy is measured; it is never trained on, nor is any
 * row whose tokens equal a held-out row's (its other copies, pieces of long
 * lines), and those rows are counted.  A text of one different line has
 * nothing left to train on and is refused.
 *
 * Jobs.  A jobs file beside the text (FILE.jobs for FILE.txt) may name what
 * predicting each word tests: one line per line of the text, one tag per
 * word of that line as it is cut above, "-" for none; tags are 1 to 31 of
 * a-z, 0-9, _ and -, at most TRAIN_TEXT_MAX_JOBS different ones.  The
 * held-out accuracy is then also given per job.
 *
 * Everything here works on text in memory (src/io/text_io.h reads files);
 * every error names the file, and the line and column where there is one.
 */
#ifndef MHA_TRAIN_TEXT_H
#define MHA_TRAIN_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha.h"
#include "train/train.h"

/* A text file (and its jobs file) holds at most this many bytes. */
#define TRAIN_TEXT_MAX_BYTES ((size_t)4 << 20)
/* ... and makes at most this many rows, and rows x length token places. */
#define TRAIN_TEXT_MAX_ROWS (1 << 17)
#define TRAIN_TEXT_MAX_CELLS (1 << 21)
/* One different line in this many is held out (at least one). */
#define TRAIN_TEXT_HELD_OUT_EVERY 10
#define TRAIN_TEXT_MAX_JOBS 8
#define TRAIN_TEXT_UNKNOWN "<unk>"

/* Defaults of --train FILE.txt (the others are train.h's). */
#define TRAIN_TEXT_DEFAULT_CONTEXT 16
#define TRAIN_TEXT_DEFAULT_VOCAB TRAIN_MAX_VOCAB
#define TRAIN_TEXT_DEFAULT_D_MODEL 32
#define TRAIN_TEXT_DEFAULT_HEADS 2
/* A text's jobs take longer to share out between heads than a letter
 * puzzle's: twice the rate and up to 4000 steps (on the bundled corpus,
 * seeds 1 to 40 stop between steps 1050 and 3650) */
#define TRAIN_TEXT_DEFAULT_STEPS 4000
#define TRAIN_TEXT_DEFAULT_LR 0.02f
/* ... and half that with two layers or more: at 0.02, two layers on the
 * names corpus lost the copy they had begun to make */
#define TRAIN_TEXT_DEFAULT_LR_LAYERS 0.01f

struct train_text_options {
    int vocab;      /* most tokens, <unk> included (2..TRAIN_MAX_VOCAB) */
    int context;    /* most words a row (2..TRAIN_MAX_CONTEXT) */
    bool keep_case; /* words as written, not lower-cased */
};

/* What a text dataset knows beyond its rows (train_dataset.text). */
struct train_text {
    char file[TRAIN_NAME_MAX * 2]; /* the file's name without its folder */
    bool lowercase;
    int lines;           /* lines of the file */
    int used_lines;      /* lines with a word to predict */
    int different_lines; /* ... different ones */
    int held_lines;      /* ... held out: different lines, one copy each */
    int dropped_rows;    /* rows left out of training: they repeat a held-out row */
    int split_lines;     /* lines longer than the context, cut into rows */
    int context;         /* the context lines were cut at */
    long words;          /* words of the file */
    long distinct;       /* different words */
    long unknown;        /* words read as <unk> */
    long unknown_kinds;  /* different words among them */
    int n_jobs;          /* 0: no jobs file */
    char job_names[TRAIN_TEXT_MAX_JOBS][TRAIN_NAME_MAX];
    signed char *jobs; /* (rows, len): the job of the target at each place, -1 none */
    int *row_len;      /* (rows): tokens of each row before the padding */
    int *line_of;      /* (rows): the line of the file (0-based) each row comes from */
};

/* ---- words ---- */

/* The next word of s[*at .. len) (valid UTF-8): its start and length, and
 * *at moved past it; false when only spaces are left. */
bool train_text_next_word(const char *s, size_t len, size_t *at, size_t *start, size_t *wlen);

/* Lower-case s[0 .. len) in place (the capitals above; every mapping keeps
 * the byte length). */
void train_text_lower(char *s, size_t len);

/* Bytes that make a file not text: a NUL byte, a byte that is not UTF-8,
 * a control character other than tab, CR and LF, a bidirectional
 * control.  0, or -1 with err at name:line:column ("a NUL byte: this looks
 * like a binary file, not text").  A UTF-8 byte order mark at the start is
 * allowed. */
int train_text_check(const char *s, size_t len, const char *name, struct mha_error *err);

/* ---- the dataset ---- */

/* Next-word prediction on text (len bytes, name for messages and the task's
 * name) and its jobs file (NULL when there is none), as a dataset with one
 * output "next" of vocab classes, held-out lines chosen (train_dataset.order,
 * n_train, n_held) and d->text filled.  NULL + err: not text (above), no
 * word, no line with two words, only one such line, nothing left to train
 * on, too many rows, a jobs file that does not match.  Free with
 * train_dataset_free. */
struct train_dataset *train_text_dataset_new(const char *text, size_t len, const char *name,
                                             const char *jobs, size_t jobs_len,
                                             const char *jobs_name,
                                             const struct train_text_options *o,
                                             struct mha_error *err);

/* ---- measuring a text model ---- */

struct train_text_eval {
    double loss;       /* mean cross-entropy per predicted word (nats, log-sum-exp) */
    double perplexity; /* e^loss */
    float top1, top3;  /* the word is the model's first choice / among its first three */
    long words;        /* predicted words measured */
    int n_jobs;
    float job_top1[TRAIN_TEXT_MAX_JOBS], job_top3[TRAIN_TEXT_MAX_JOBS];
    long job_words[TRAIN_TEXT_MAX_JOBS];
};

/* Measure run (a text dataset's run) on its held-out rows.  Leaves the
 * activation cache holding the last chunk.  0, or -1 + err. */
int train_text_evaluate(struct train_run *run, struct train_text_eval *out, struct mha_error *err);
/* The same with the heads where knock[h] is set knocked out (each one's
 * output replaced by its mean over the held-out rows, as
 * train_heads_ablate does): what the model loses without them. */
int train_text_evaluate_knocked(struct train_run *run, const bool *knock,
                                struct train_text_eval *out, struct mha_error *err);

/* train_text_evaluate_knocked a held-out chunk at a time (the training
 * screen's, between frames): all zero before it begins; each call goes on
 * while more(ctx) says so (NULL: to the end) and gives 1 with out filled
 * once done, 0 before, -1 + err.  Nothing may train the model meanwhile. */
struct train_text_measure {
    int stage; /* 0: not begun; 1: the merged heads' mean (heads knocked out); 2: the measure */
    int s0;    /* the held-out row the next chunk starts at */
    long rows, top1, top3, job1[TRAIN_TEXT_MAX_JOBS], job3[TRAIN_TEXT_MAX_JOBS];
    double mean[TRAIN_MAX_D_MODEL], nll;
    struct train_text_eval out;
};
int train_text_measure_part(struct train_run *run, const bool *knock, struct train_text_measure *tm,
                            bool (*more)(void *ctx), void *ctx, struct mha_error *err);

/* A head is credited with a job when knocking it out alone takes at least
 * this much off the job's held-out top-1 accuracy. */
#define TRAIN_TEXT_JOB_DROP 0.1f

/* What each head of run's model does for the text's jobs: all is the
 * measure with every head (train_text_evaluate), knocked (heads entries)
 * receives each head knocked out alone, and does[h] bit j is set when
 * knocking head h out costs job j TRAIN_TEXT_JOB_DROP or more.  0, or -1 +
 * err. */
int train_text_head_jobs(struct train_run *run, const struct train_text_eval *all,
                         struct train_text_eval *knocked, unsigned *does, struct mha_error *err);

/* train_text_evaluate then train_text_head_jobs, a held-out chunk at a time
 * (all zero before it begins): 1 when done (all and does[] filled), 0
 * before, -1 + err; more and the model as for train_text_measure_part. */
struct train_text_jobs {
    int next; /* the measure in progress: 0 with every head, h + 1 with head h knocked out */
    struct train_text_measure m;
    struct train_text_eval all;
    unsigned does[TRAIN_MAX_D_MODEL];
    float knocked[TRAIN_MAX_D_MODEL][TRAIN_TEXT_MAX_JOBS]; /* each job's top-1, head h out */
};
int train_text_jobs_part(struct train_run *run, struct train_text_jobs *job,
                         bool (*more)(void *ctx), void *ctx, struct mha_error *err);

/* "agree", "agree+content", "" for the jobs in does (the text's names). */
void train_text_jobs_label(const struct train_text *t, unsigned does, char *buf, size_t n);

/* What knocking one head out did, in words: "knocked out alone, long falls
 * from 1.00 to 0.08" for the job it costs most (all: each job's top-1 with
 * every head, knocked: without the head), or "knocked out alone, no job
 * falls by 0.1" when none falls by TRAIN_TEXT_JOB_DROP. */
void train_text_knocked_text(const struct train_text *t, const float *all, const float *knocked,
                             char *buf, size_t n);

/* The output of m that predicts the next word: one named "next" with a
 * class per token; -1 when m is not a language model. */
int train_model_next_output(const struct train_model *m);

/* The next word after position pos of tokens (len of them, len <= context):
 * the n (<= MHA_NEXT_WORD_MAX) likeliest words of output k with their
 * probabilities softmax(logits / temperature), likeliest first (ties: the
 * lower id), into out.  Runs a forward pass of one sequence through m's own
 * buffers (no allocation).  0, or -1 + err. */
int train_next_words(struct train_model *m, int k, const int *tokens, int len, int pos,
                     float temperature, int n, struct mha_next_word *out, struct mha_error *err);

/* The nucleus of top_p (in (0, 1]) after position pos of tokens at
 * temperature, as train_next_pick draws from it (train_next_nucleus, no
 * top_k, <unk> left out) into out's top_p, nucleus and nucleus_p (the rest
 * of out as it was).  0, or -1 + err. */
int train_next_words_nucleus(struct train_model *m, int k, const int *tokens, int len, int pos,
                             float temperature, double top_p, struct mha_next_word *out,
                             struct mha_error *err);

/* Every class's probability softmax(logits / temperature) of output k at
 * position pos of tokens, into p (the output's classes of them), after a
 * forward pass as train_next_words runs.  0, or -1 + err. */
int train_next_probs(struct train_model *m, int k, const int *tokens, int len, int pos,
                     float temperature, double *p, struct mha_error *err);

/* The logit lens: tokens (len of them) run through m once, and for each
 * layer l, the residual stream after it at position pos read through
 * output k's own read-out, softmax(r_l·U_kᵀ + bias_k): its n (<=
 * MHA_NEXT_WORD_MAX) likeliest classes, likeliest first (ties: the lower
 * id), named by the vocabulary where the output has a class per word (else
 * by number), into out[l] (the model's layers of them).  The last layer's
 * is the model's own output.  0, or -1 + err. */
int train_logit_lens(struct train_model *m, int k, const int *tokens, int len, int pos, int n,
                     struct mha_next_word *out, struct mha_error *err);

/* The word to write after tokens (len of them) from output k: with
 * temperature 0 the likeliest, else one drawn with r from softmax(logits /
 * temperature) over the top_k likeliest (0: every word) and, when top_p is
 * below 1, over their nucleus (train_next_nucleus), in proportion to their
 * probabilities.  <unk> (id 0 of a text model) is never chosen.  The id,
 * or -1 + err. */
int train_next_pick(struct train_model *m, int k, const int *tokens, int len, float temperature,
                    int top_k, double top_p, struct rng *r, struct mha_error *err);

/* The nucleus of the C probabilities p (top-p sampling): every class but
 * skip (-1: none), likeliest first (the lower id on a tie), cut to the
 * top_k likeliest when top_k is in 1..C-1, then to the fewest whose sum
 * reaches top_p (in (0, 1]) times the sum of those kept; their ids into
 * pick (C of room), likeliest first.  Returns how many (at least 1 when
 * any class is left). */
int train_next_nucleus(const double *p, int C, int skip, int top_k, double top_p, int *pick);

/* The word a line starts from when none is given: the first word of m's
 * sample that is not <unk> (a line never holds it); -1 when there is none. */
int train_model_first_word(const struct train_model *m);

/* A line written on from ids[0..n) (n >= 1, room for the model's context
 * in ids): the word train_next_pick chooses appended, and the whole line
 * run again, until a sentence's end mark (a word of . ! ? alone) or the
 * context is full.  The line's length, or -1 + err. */
int train_write_line(struct train_model *m, int k, int *ids, int n, float temperature, int top_k,
                     double top_p, struct rng *r, struct mha_error *err);

/* ---- typed words ---- */

/* The words nearest, in m's own embedding, to what m expects at position
 * pos of a sentence whose words before it are tokens[0..pos): the
 * embedding E[w] of each word w weighted by the probability next-word
 * output k gives it after tokens[pos - 1], summed, and the n known words
 * (not <unk>) whose embeddings have the highest cosine with that sum, the
 * highest first (the lower id on a tie), into best and cos.  Returns how
 * many (0 when pos is 0: nothing comes before it), or -1 + err. */
int train_slot_neighbours(struct train_model *m, int k, const int *tokens, int pos, int n,
                          int *best, float *cos, struct mha_error *err);

#endif
