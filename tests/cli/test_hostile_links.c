/* test_hostile_links.c - symbolic links someone else planted in a shared
 * folder (sticky, writable by everyone: /tmp's mode), met anywhere in the
 * path of a file the program writes: as the file itself, or as a folder of
 * its path.  Each is followed only when it belongs to the user or to the
 * folder's owner (the kernel's protected_symlinks rule); any other is
 * refused with status 2 naming the link and its owner, and the file behind
 * it is left as it was.  Making a link owned by another user takes root
 * (lchown): as anyone else the tests say so and pass. */
#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostile_run.h"
#include "test_tmp.h"

static char scratch[256];

/* what the message says of the link planted by uid 4321 */
#define SHARED_LINK "shared/dirlink: is a symbolic link owned by uid 4321 in a shared folder"

static void setup(void)
{
    ck_assert_ptr_nonnull(test_tmp_dir(scratch, sizeof scratch, "mha-hostile-links"));
}

static void teardown(void)
{
    ck_assert_int_eq(test_tmp_remove(scratch), 0);
}

static const char *in_scratch(const char *name, char *buf, size_t n)
{
    return test_tmp_path(scratch, name, buf, n);
}

static void put(const char *path, const char *text, mode_t mode)
{
    ck_assert_int_eq(test_tmp_put(path, text, mode), 0);
}

static char *contents(const char *path)
{
    char *text = test_tmp_read(path);
    ck_assert_msg(text != NULL, "cannot read %s: %s", path, strerror(errno));
    return text;
}

/* Train a little and save to path; the result (free it). */
static struct hostile_result save_to(const char *path)
{
    return hostile_run((const char *[]){"--train", "prev", "--steps", "5", "--save", path, "--dump",
                                        "summary", NULL},
                       NULL, NULL, 60);
}

static void expect(struct hostile_result *r, int status, const char *message)
{
    ck_assert_msg(!r->timed_out, "blocked (killed after the time limit)");
    ck_assert_msg(r->status == status, "status %d, not %d (stderr: %s)", r->status, status, r->err);
    ck_assert_msg(strstr(r->err, message), "stderr '%s' lacks '%s'", r->err, message);
    hostile_result_free(r);
}

static mode_t kind_of(const char *path)
{
    struct stat sb;
    ck_assert_int_eq(lstat(path, &sb), 0);
    return sb.st_mode & S_IFMT;
}

static uid_t owner_of(const char *path)
{
    struct stat sb;
    ck_assert_int_eq(lstat(path, &sb), 0);
    return sb.st_uid;
}

static bool not_root(void)
{
    if (geteuid() == 0)
        return false;
    fprintf(stderr, "hostile_links: not root, no link made for another user (lchown)\n");
    return true;
}

/* A sticky folder anyone may write to, "shared" in the scratch folder. */
static const char *shared_folder(char *buf, size_t n)
{
    ck_assert_int_eq(mkdir(in_scratch("shared", buf, n), 0755), 0);
    ck_assert_int_eq(chmod(buf, 01777), 0);
    return buf;
}
START_TEST(a_link_another_user_planted_in_a_shared_folder_is_not_followed)
{
    if (not_root())
        return;
    char shared[300], victim[300], link[300];
    shared_folder(shared, sizeof shared);
    put(in_scratch("victim.json", victim, sizeof victim), "the victim's\n", 0640);
    ck_assert_int_eq(chown(victim, 1234, 1234), 0);
    ck_assert_int_eq(symlink(victim, in_scratch("shared/lm.json", link, sizeof link)), 0);
    ck_assert_int_eq(lchown(link, 4321, 4321), 0); /* planted by uid 4321 */
    struct hostile_result r = save_to(link);
    expect(&r, 2, "shared/lm.json: is a symbolic link owned by uid 4321 in a shared folder");
    char *text = contents(victim);
    ck_assert_str_eq(text, "the victim's\n");
    free(text);
    ck_assert_int_eq(owner_of(victim), 1234);
    /* the folder's owner's link is followed; the file keeps its owner and mode */
    ck_assert_int_eq(chown(shared, 4321, 4321), 0);
    r = save_to(link);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    text = contents(victim);
    ck_assert_ptr_nonnull(strstr(text, "\"embedding\""));
    free(text);
    ck_assert_int_eq(owner_of(victim), 1234);
    ck_assert_int_eq(kind_of(link), S_IFLNK);
    struct stat sb;
    ck_assert_int_eq(stat(victim, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0640);
    /* and the user's own */
    ck_assert_int_eq(chown(shared, 0, 0), 0);
    ck_assert_int_eq(lchown(link, 0, 0), 0);
    r = save_to(link);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    ck_assert_int_eq(kind_of(link), S_IFLNK);
}
END_TEST

/* A link to a folder of the user's, planted in the shared folder by
 * another user: --save, --record, --export-torch and --dump to a file
 * through it are refused, and the file behind it is left as it was. */
START_TEST(a_folder_link_another_user_planted_is_not_followed)
{
    if (not_root())
        return;
    char shared[300], mine[300], precious[300], link[300], through[300];
    shared_folder(shared, sizeof shared);
    ck_assert_int_eq(mkdir(in_scratch("mine", mine, sizeof mine), 0755), 0);
    put(in_scratch("mine/precious.json", precious, sizeof precious), "the user's own\n", 0644);
    ck_assert_int_eq(symlink(mine, in_scratch("shared/dirlink", link, sizeof link)), 0);
    ck_assert_int_eq(lchown(link, 4321, 4321), 0); /* planted by uid 4321 */
    in_scratch("shared/dirlink/precious.json", through, sizeof through);
    struct hostile_result r = save_to(through);
    expect(&r, 2, SHARED_LINK);
    /* deeper in the path too, and a new file behind it is not made */
    char deeper[300], fresh[300];
    ck_assert_int_eq(mkdir(in_scratch("mine/sub", deeper, sizeof deeper), 0755), 0);
    r = save_to(in_scratch("shared/dirlink/sub/../sub/new.json", fresh, sizeof fresh));
    expect(&r, 2, SHARED_LINK);
    ck_assert_int_eq(access(in_scratch("mine/sub/new.json", fresh, sizeof fresh), F_OK), -1);
    /* every other way of writing a file goes the same way */
    char rec[300];
    in_scratch("shared/dirlink/demo.rec", rec, sizeof rec);
    r = hostile_run((const char *[]){"--record", rec, NULL}, NULL, NULL, 20);
    expect(&r, 2, SHARED_LINK);
    char lm[300], script[300];
    r = hostile_run((const char *[]){"--train", "prev", "--steps", "5", "--save",
                                     in_scratch("lm.json", lm, sizeof lm), "--dump", "summary",
                                     NULL},
                    NULL, NULL, 60);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    in_scratch("shared/dirlink/lm.py", script, sizeof script);
    r = hostile_run((const char *[]){"--load", lm, "--export-torch", script, NULL}, NULL, NULL, 20);
    expect(&r, 2, SHARED_LINK);
    ck_assert_int_eq(access(in_scratch("mine/lm.py", fresh, sizeof fresh), F_OK), -1);
    ck_assert_int_eq(access(in_scratch("mine/demo.rec", fresh, sizeof fresh), F_OK), -1);
    char *text = contents(precious);
    ck_assert_str_eq(text, "the user's own\n");
    free(text);
    ck_assert_int_eq(kind_of(link), S_IFLNK);
    /* the folder owner's link, and the user's own, are followed */
    ck_assert_int_eq(chown(shared, 4321, 4321), 0);
    r = save_to(through);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    text = contents(precious);
    ck_assert_ptr_nonnull(strstr(text, "\"embedding\""));
    free(text);
    ck_assert_int_eq(chown(shared, 0, 0), 0);
    ck_assert_int_eq(lchown(link, 0, 0), 0);
    r = save_to(through);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    /* a link in a folder that is not shared is followed whoever made it */
    char plain[300], other[300];
    ck_assert_int_eq(mkdir(in_scratch("plain", plain, sizeof plain), 0755), 0);
    ck_assert_int_eq(symlink(mine, in_scratch("plain/dirlink", other, sizeof other)), 0);
    ck_assert_int_eq(lchown(other, 4321, 4321), 0);
    r = save_to(in_scratch("plain/dirlink/precious.json", other, sizeof other));
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
}
END_TEST

static Suite *hostile_links_suite(void)
{
    Suite *s = suite_create("hostile_links");
    TCase *tc = tcase_create("links");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_link_another_user_planted_in_a_shared_folder_is_not_followed);
    tcase_add_test(tc, a_folder_link_another_user_planted_is_not_followed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(hostile_links_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
