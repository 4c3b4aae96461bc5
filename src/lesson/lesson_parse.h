/* lesson_parse.h - pieces of the lesson parser shared between its files. */
#ifndef MHA_LESSON_PARSE_H
#define MHA_LESSON_PARSE_H

#include "lesson/lesson.h"

/* Out of memory while a lesson is parsed: lesson_parse frees what it has
 * and returns NULL (this does not return while it runs; elsewhere it does
 * nothing and the caller goes on without the allocation). */
void lesson_out_of_memory(void);
/* strdup of s (NULL: ""); out of memory goes to lesson_out_of_memory, so
 * outside a parse it can return NULL. */
char *lesson_strdup(const char *s);

/* Parse the body of a ```mha block whose fence is at fence_line. */
void lesson_parse_scene(struct lesson *l, struct lesson_scene *sc, const char *body,
                        int fence_line);
void lesson_scene_done(struct lesson_scene *sc);
/* Read value into key k's member of sc (scene_keys.c); false with a
 * diagnostic when the value does not fit. */
bool lesson_scene_key_read(struct lesson *l, struct lesson_scene *sc, int k, const char *value,
                           int line);

/* Parse the body of a ```quiz block whose fence is at fence_line. */
void lesson_parse_quiz(struct lesson *l, struct lesson_quiz *q, const char *body, int fence_line);
void lesson_quiz_done(struct lesson_quiz *q);

/* Split body into "key: value" lines.  Calls fn for each with the 1-based
 * line in the file; lines starting with two spaces continue the previous
 * value when allow_continuation is true.  Reports malformed lines. */
typedef void (*lesson_kv_fn)(struct lesson *l, void *ctx, const char *key, const char *value,
                             int line);
void lesson_each_kv(struct lesson *l, const char *body, int fence_line, bool allow_continuation,
                    lesson_kv_fn fn, void *ctx);

/* Shared by state.c and check.c: the file a scene's load: names, under
 * assets_dir; and a reveal applied (the cell the cursor is on stays unless
 * the reveal names another). */
struct lesson_state;
void lesson_load_path(const struct lesson_state *st, const char *assets_dir, char *path, size_t n);
void lesson_apply_reveal(struct lesson_state *st, const struct lesson_scene *reveal);

#endif
