/* bridle-launch: shared declarations. See ../docs/launcher-protocol.md. */
#ifndef BRIDLE_LAUNCH_H
#define BRIDLE_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#define LAUNCHER_VERSION 1
#define EXIT_LAUNCH_FAILED 125
#define EXIT_NOT_EXECUTABLE 126
#define EXIT_NOT_FOUND 127
#define DEFAULT_TMPFS_BYTES (512ULL << 20)

enum axis { AXIS_UNSET = 0, AXIS_ALL, AXIS_RESTRICTED };

struct path_list {
  char **items;
  size_t len;
};

#define PROXY_MAX 4
struct proxy_port { /* a port in the call's namespace whose listener the host's proxy takes */
  uint16_t port;
};

struct policy {
  enum axis fs_read, fs_write, exec;
  /* view_ro/view_rw: in the view, no Landlock rule (an axis granted "all");
     protect: write-blocked paths that exist, bound read-only over whatever holds them. */
  struct path_list read, write, execute, mask, view_ro, view_rw, protect;
  int net_deny_all, net_all, net_proxy;
  struct proxy_port proxy[PROXY_MAX];
  size_t proxy_len;
  int *keep_fds;
  size_t keep_fds_len;
  int has_fsize, has_as, has_nofile, has_memory;
  uint64_t rlimit_fsize, rlimit_as, rlimit_nofile;
  uint64_t memory_max;  /* bytes for the whole tree (a memory cgroup) */
  uint64_t tmpfs_bytes; /* size of the view's private /tmp and /dev/shm */
  uint64_t max_procs;   /* 0: no cap */
  int has_nice;
  uint64_t nice;        /* niceness of the tree and of its session's autogroup (0..19) */
  char *cwd;
};

/* view.c */
#define VIEW_MAX_BINDS 2048
enum bound { BOUND_NOTHING = 0, BOUND_TREE, BOUND_LINK, BOUND_MASK };
struct view_bind {
  const char *path;
  int writable;
  int overlay; /* 0: a bind; 1: a protection (read-only, wins at its path); 2: a mask;
                  3: a pin (a directory above a protection, bound onto itself) */
  enum bound bound;
};
struct view_ctx {
  int oldroot, newroot;
  uint64_t tmpfs_bytes;
};
void view_build(const struct policy *p); /* target, in its own mount namespace */

/* caps.c */
void caps_drop_all(void);
int caps_all_clear(void);

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
void landlock_nest(void);

/* seccomp.c */
int seccomp_available(void);
void seccomp_apply(const struct policy *p);

/* isolate.c */
enum procs_mode { PROCS_NONE = 0, PROCS_CGROUP, PROCS_USERNS_RLIMIT };
void isolate_enter_namespaces(int own_net); /* launcher, before fork (own_net: `net proxy`) */
void isolate_enter_target_namespaces(const struct policy *p); /* target, after the cgroups */
enum procs_mode isolate_procs_mode(void);
void isolate_lower_priority(const struct policy *p); /* launcher, before the fork */
void isolate_child(const struct policy *p, int go); /* target, before landlock/seccomp/exec */

/* cgroups.c: the per-call pids and memory cgroups */
int cgroups_memory_available(void);
void cgroups_create(const struct policy *p);  /* launcher, before fork */
void cgroups_attach(pid_t pid);                /* launcher: moves the target into the call's cgroups */
void cgroups_remove(void);                    /* launcher, after the target died */
const char *cgroups_limit_hit(void);          /* launcher, after the target died: or NULL */

/* trace.c: the file-size limit seen whatever a program does with SIGXFSZ */
int trace_seize(pid_t pid);                 /* launcher: the target and all it starts; 0 if refused */
void trace_stopped(pid_t pid, int status);  /* launcher: a traced task stopped; resumes it */
int trace_file_size_hit(void);              /* launcher, after the target died */

/* bridge.c: `net proxy` */
void bridge_loopback_up(void);                 /* launcher, in its own network namespace */
int bridge_channel_take(const struct policy *p); /* launcher, before the target's fork */
void bridge_hand_over(const struct policy *p, int channel); /* launcher, after the fork */

/* serve.c: the host's spawn server (--serve) */
int serve_main(void);

/* probe.c */
int probe_main(void);
int peer_cred_main(const char *fd_text);

#endif
