/* bridle-launch: shared declarations. See ../docs/launcher-protocol.md. */
#ifndef BRIDLE_LAUNCH_H
#define BRIDLE_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#define LAUNCHER_VERSION 1
#define EXIT_LAUNCH_FAILED 125
#define EXIT_NOT_EXECUTABLE 126
#define EXIT_NOT_FOUND 127

enum axis { AXIS_UNSET = 0, AXIS_ALL, AXIS_RESTRICTED };

struct path_list {
  char **items;
  size_t len;
};

struct policy {
  enum axis fs_read, fs_write, exec;
  struct path_list read, write, execute, mask;
  int net_deny_all;
  int *keep_fds;
  size_t keep_fds_len;
  int has_fsize, has_as;
  uint64_t rlimit_fsize, rlimit_as;
  uint64_t max_procs; /* 0: no cap */
  char *cwd;
};

/* util.c */
_Noreturn void fail(const char *what);          /* "bridle-launch: what: strerror(errno)", exit 125 */
_Noreturn void fail_msg(const char *what);      /* "bridle-launch: what", exit 125 */
_Noreturn void fail_code(int code, const char *what, int err);
void write_file_or_fail(const char *path, const char *text);
int write_file(const char *path, const char *text); /* 0 or -1 (errno set) */

/* policy.c */
void policy_read(int fd, struct policy *out);
void policy_parse(char *text, size_t len, struct policy *out);

/* landlock.c */
int landlock_abi(void);
void landlock_apply(const struct policy *p);

/* seccomp.c */
int seccomp_available(void);
void seccomp_apply(const struct policy *p);

/* isolate.c */
enum procs_mode { PROCS_NONE = 0, PROCS_CGROUP, PROCS_USERNS_RLIMIT };
void isolate_enter_namespaces(const struct policy *p); /* launcher, before fork */
enum procs_mode isolate_procs_mode(void);
void isolate_cgroup_create(const struct policy *p);  /* launcher, before fork */
void isolate_cgroup_remove(void);                    /* launcher, after the target died */
void isolate_child(const struct policy *p);          /* target, before landlock/seccomp/exec */

/* probe.c */
int probe_main(void);
int peer_cred_main(const char *fd_text);

#endif
