/* mat_blas.c - OpenBLAS, opened the first time a product is large enough
 * for it.  Loading the library (and its threads) costs about 2 ms, more than
 * a whole run at the classroom's sizes, so the program is not linked to it:
 * dlopen finds libopenblas.so.0 at the first large product, and where it
 * cannot be opened the plain loops do the work.
 *
 * It works in one thread unless OPENBLAS_NUM_THREADS (or OMP_NUM_THREADS)
 * asks for more: its waiting threads spin between products, and at the
 * sizes the program trains at, a spinning thread on a two-core machine
 * made a 1.5 s run take 14 s. */
#include "engine/mat_blas.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "mha_config.h"

#if MHA_HAVE_CBLAS
#include <cblas.h>

typedef __typeof__(&cblas_sgemm) sgemm_fn;

static sgemm_fn sgemm;
static int state; /* 1 open, -1 cannot be opened (set once) */
static pthread_once_t opened = PTHREAD_ONCE_INIT;

static void open_blas(void)
{
    static const char *const names[] = {"libopenblas.so.0", "libopenblas.so"};
    state = -1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            continue;
        void *sym = dlsym(lib, "cblas_sgemm");
        memcpy(&sgemm, &sym, sizeof sgemm); /* POSIX: a symbol's address as a function */
        if (sgemm) {
            void *threads = dlsym(lib, "openblas_set_num_threads");
            if (threads && !getenv("OPENBLAS_NUM_THREADS") && !getenv("OMP_NUM_THREADS")) {
                void (*set_threads)(int);
                memcpy(&set_threads, &threads, sizeof set_threads);
                set_threads(1);
            }
            state = 1; /* kept open for the program's life */
            return;
        }
        dlclose(lib);
    }
}

bool mat_blas_available(void)
{
    pthread_once(&opened, open_blas);
    return state > 0;
}

bool mat_blas_sgemm(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float *a,
                    int lda, const float *b, int ldb, float beta, float *c, int ldc)
{
    if (!mat_blas_available())
        return false;
    sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
          m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return true;
}

#else

bool mat_blas_available(void)
{
    return false;
}

bool mat_blas_sgemm(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float *a,
                    int lda, const float *b, int ldb, float beta, float *c, int ldc)
{
    (void)trans_a, (void)trans_b, (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda;
    (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
    return false;
}

#endif
