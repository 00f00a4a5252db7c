/*
 * bridle-launch: the namespaces, limits and descriptor closing. The launcher enters a
 * PID namespace (and, when not root, a user namespace mapping its own uid/gid, which is
 * how an ordinary user obtains the others); the target then enters its own mount, IPC,
 * UTS, cgroup and (under `net deny-all`) network namespaces and builds its private view.
 * Under `net proxy` the launcher itself enters the network namespace, so that the proxy
 * ports it listens on after the target's fork are the target's (bridge.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "launch.h"

void isolate_enter_namespaces(int own_net) {
  uid_t uid = getuid();
  gid_t gid = getgid();
  int userns = geteuid() != 0;
  if (unshare(CLONE_NEWPID | (userns ? CLONE_NEWUSER : 0) | (own_net ? CLONE_NEWNET : 0)) != 0)
    fail("unshare namespaces");
  if (own_net) bridge_loopback_up();
  if (!userns) return;
  char map[64];
  write_file_or_fail("/proc/self/setgroups", "deny");
  snprintf(map, sizeof map, "%u %u 1", (unsigned)uid, (unsigned)uid);
  write_file_or_fail("/proc/self/uid_map", map);
  snprintf(map, sizeof map, "%u %u 1", (unsigned)gid, (unsigned)gid);
  write_file_or_fail("/proc/self/gid_map", map);
}

/* The target's own namespaces; the cgroup namespace is rooted at the cgroup it joined. */
void isolate_enter_target_namespaces(const struct policy *p) {
  int spaces = CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP |
               (p->net_deny_all ? CLONE_NEWNET : 0);
  if (unshare(spaces) != 0) fail("unshare namespaces");
}

/*
 * The tree yields the CPU to the host: the launcher runs in a session of its own, and
 * where the kernel groups each session for scheduling (autogroup), a burst of calls would
 * otherwise weigh one session each against the host's one. Raising one's own niceness
 * needs no privilege.
 */
void isolate_lower_priority(const struct policy *p) {
  if (!p->has_nice || p->nice == 0) return;
  char text[8];
  snprintf(text, sizeof text, "%u", (unsigned)p->nice);
  /* Best effort: without CAP_SYS_ADMIN the kernel takes one such write per 100 ms
     system-wide (EAGAIN), so in a burst an ordinary user's trees mostly keep nice 0. Only
     a session leader's autogroup is its own: any other shares its caller's. */
  int fd = getsid(0) == getpid() ? open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC) : -1;
  if (fd >= 0) {
    (void)!write(fd, text, strlen(text));
    close(fd);
  }
  if (setpriority(PRIO_PROCESS, 0, (int)p->nice) != 0) fail("nice: setpriority");
}

static void set_limit(int resource, uint64_t value, const char *what) {
  struct rlimit lim = {.rlim_cur = (rlim_t)value, .rlim_max = (rlim_t)value};
  if (setrlimit(resource, &lim) != 0) fail(what);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static void close_unlisted(const struct policy *p) {
  int *keep = p->keep_fds;
  qsort(keep, p->keep_fds_len, sizeof *keep, cmp_int);
  unsigned int from = 3;
  for (size_t i = 0; i <= p->keep_fds_len; i++) {
    unsigned int upto = i < p->keep_fds_len ? (unsigned int)keep[i] - 1 : ~0U;
    if (upto >= from && close_range(from, upto, 0) != 0) fail("close descriptors");
    if (i < p->keep_fds_len) from = (unsigned int)keep[i] + 1;
  }
}

void isolate_child(const struct policy *p, int go) {
  if (p->max_procs != 0 && geteuid() != 0) {
    /* RLIMIT_NPROC is counted per user namespace; +1 for the launcher, which is in it too. */
    set_limit(RLIMIT_NPROC, p->max_procs + 1, "max-procs: setrlimit");
  }
  isolate_enter_target_namespaces(p);
  view_build(p);
  if (p->cwd != NULL && chdir(p->cwd) != 0) fail("chdir cwd");
  if (p->has_fsize) set_limit(RLIMIT_FSIZE, p->rlimit_fsize, "rlimit-fsize");
  if (p->has_as) set_limit(RLIMIT_AS, p->rlimit_as, "rlimit-as");
  if (p->has_nofile) set_limit(RLIMIT_NOFILE, p->rlimit_nofile, "rlimit-nofile");
  set_limit(RLIMIT_CORE, 0, "rlimit-core");
  /* The launcher moves this process into the call's cgroups while it builds its view (an
     attach waits for an RCU grace period); nothing runs before it says it has. */
  char byte;
  if (read(go, &byte, 1) != 1) _exit(EXIT_LAUNCH_FAILED);
  close_unlisted(p);
}
