/* fsync_signal.c - loaded into mha-explorer (LD_PRELOAD) by the
 * hostile-write tests: each fsync() is done, then the program sends itself
 * the signal MHA_TEST_FSYNC_SIGNAL names (a number), so the signal arrives
 * in the middle of a save, after the temporary is written and before it is
 * renamed into place. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fsync(int fd)
{
    int (*real)(int) = NULL;
    void *found = dlsym(RTLD_NEXT, "fsync");
    memcpy(&real, &found, sizeof real); /* POSIX: a function's address as dlsym gives it */
    const int rc = real ? real(fd) : 0;
    const char *sig = getenv("MHA_TEST_FSYNC_SIGNAL");
    if (sig && atoi(sig) > 0)
        kill(getpid(), atoi(sig));
    return rc;
}
