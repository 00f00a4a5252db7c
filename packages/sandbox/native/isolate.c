/*
 * bridle-launch: namespaces, the mount mask, the process cap, resource limits and
 * descriptor closing. Root keeps its credentials (PID + mount namespace only); others get
 * a user namespace mapping their own uid/gid so the target sees its real ids.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "launch.h"

static char cgroup_dir[4096 + 64]; /* the per-call pids cgroup, or "" */

void isolate_enter_namespaces(const struct policy *p) {
  uid_t uid = getuid();
  gid_t gid = getgid();
  int userns = geteuid() != 0;
  /* A mount namespace copies the mount table: only pay for it when there is a mask. */
  int mountns = p->mask.len > 0 ? CLONE_NEWNS : 0;
  if (unshare(CLONE_NEWPID | mountns | (userns ? CLONE_NEWUSER : 0)) != 0) {
    fail("unshare namespaces");
  }
  if (!userns) return;
  char map[64];
  write_file_or_fail("/proc/self/setgroups", "deny");
  snprintf(map, sizeof map, "%u %u 1", (unsigned)uid, (unsigned)uid);
  write_file_or_fail("/proc/self/uid_map", map);
  snprintf(map, sizeof map, "%u %u 1", (unsigned)gid, (unsigned)gid);
  write_file_or_fail("/proc/self/gid_map", map);
}

/* The pids hierarchy root (v1 "pids" mount, or v2 with the pids controller) + our cgroup. */
static int cgroup_parent(char *out, size_t size) {
  const char *root = NULL;
  const char *prefix = NULL;
  if (access("/sys/fs/cgroup/pids/cgroup.procs", W_OK) == 0) {
    root = "/sys/fs/cgroup/pids";
    prefix = ":pids:";
  } else if (access("/sys/fs/cgroup/cgroup.subtree_control", W_OK) == 0) {
    root = "/sys/fs/cgroup";
    prefix = "0::";
  } else {
    return -1;
  }
  FILE *f = fopen("/proc/self/cgroup", "re");
  if (f == NULL) return -1;
  char line[4096];
  int found = -1;
  while (fgets(line, sizeof line, f) != NULL) {
    char *at = strstr(line, prefix);
    if (at == NULL || (prefix[0] == ':' && at != strchr(line, ':'))) continue;
    char *path = at + strlen(prefix);
    path[strcspn(path, "\n")] = '\0';
    if (snprintf(out, size, "%s%s", root, strcmp(path, "/") == 0 ? "" : path) < (int)size) {
      found = 0;
    }
    break;
  }
  fclose(f);
  return found;
}

enum procs_mode isolate_procs_mode(void) {
  char parent[4096];
  if (geteuid() == 0 && cgroup_parent(parent, sizeof parent) == 0) return PROCS_CGROUP;
  if (geteuid() != 0) return PROCS_USERNS_RLIMIT;
  return PROCS_NONE;
}

/* Remove empty per-call cgroups left by launchers that were SIGKILLed. */
static void sweep_stale(const char *parent) {
  DIR *d = opendir(parent);
  if (d == NULL) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    long pid = 0;
    if (sscanf(e->d_name, "bridle-launch.%ld", &pid) != 1 || pid <= 0) continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
    char path[4096 + 256];
    snprintf(path, sizeof path, "%s/%s", parent, e->d_name);
    rmdir(path); /* fails harmlessly while populated */
  }
  closedir(d);
}

void isolate_cgroup_create(const struct policy *p) {
  char parent[4096], path[4096 + 64], file[4096 + 96], max[32];
  if (cgroup_parent(parent, sizeof parent) != 0) fail_msg("max-procs: no writable pids cgroup");
  /* Stale cgroups only come from SIGKILLed launchers: sweeping on one call in 16 keeps
     them bounded without listing the hierarchy root (dozens of entries) on every call. */
  if ((getpid() & 15) == 0) sweep_stale(parent);
  snprintf(path, sizeof path, "%s/bridle-launch.%ld", parent, (long)getpid());
  if (mkdir(path, 0700) != 0 && errno != EEXIST) fail("max-procs: create cgroup");
  snprintf(cgroup_dir, sizeof cgroup_dir, "%s", path);
  snprintf(file, sizeof file, "%s/pids.max", path);
  if (access(file, F_OK) != 0) {
    char control[4096 + 32];
    snprintf(control, sizeof control, "%s/cgroup.subtree_control", parent);
    (void)write_file(control, "+pids");
  }
  snprintf(max, sizeof max, "%llu", (unsigned long long)p->max_procs);
  if (write_file(file, max) != 0) {
    isolate_cgroup_remove();
    fail("max-procs: write pids.max");
  }
}

void isolate_cgroup_remove(void) {
  if (cgroup_dir[0] == '\0') return;
  /* Exiting tasks leave the cgroup asynchronously, usually within microseconds: poll
     finely (a 1 ms step cost most calls a whole millisecond), up to 200 ms in all. */
  for (int i = 0; i < 4000; i++) {
    if (rmdir(cgroup_dir) == 0 || errno == ENOENT) break;
    struct timespec ts = {0, 50000};
    nanosleep(&ts, NULL);
  }
  cgroup_dir[0] = '\0';
}

static void mask_paths(const struct path_list *masks) {
  if (masks->len == 0) return;
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fail("mask: make mounts private");
  for (size_t i = 0; i < masks->len; i++) {
    const char *path = masks->items[i];
    char what[4200];
    snprintf(what, sizeof what, "mask %s", path);
    struct stat st;
    if (stat(path, &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) continue; /* nothing to hide */
      fail(what);
    }
    unsigned long ro = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC;
    if (S_ISDIR(st.st_mode)) {
      if (mount("tmpfs", path, "tmpfs", ro, "size=4k,nr_inodes=1,mode=0555") != 0) fail(what);
    } else {
      if (mount("/dev/null", path, NULL, MS_BIND, NULL) != 0) fail(what);
      if (mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | ro, NULL) != 0) fail(what);
    }
  }
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

void isolate_child(const struct policy *p) {
  mask_paths(&p->mask);
  if (cgroup_dir[0] != '\0') {
    char procs[4096 + 128];
    snprintf(procs, sizeof procs, "%s/cgroup.procs", cgroup_dir);
    write_file_or_fail(procs, "0");
  } else if (p->max_procs != 0) {
    /* RLIMIT_NPROC is counted per user namespace; +1 for the launcher, which is in it too. */
    set_limit(RLIMIT_NPROC, p->max_procs + 1, "max-procs: setrlimit");
  }
  if (p->cwd != NULL && chdir(p->cwd) != 0) fail("chdir cwd");
  if (p->has_fsize) set_limit(RLIMIT_FSIZE, p->rlimit_fsize, "rlimit-fsize");
  if (p->has_as) set_limit(RLIMIT_AS, p->rlimit_as, "rlimit-as");
  close_unlisted(p);
}
