/* check_run.h - the last lines of every Check test program: its suite run
 * (each test in a process of its own, as Check does by default), what
 * failed said, and the exit status meson reads. */
#ifndef MHA_CHECK_RUN_H
#define MHA_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

static inline int check_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
