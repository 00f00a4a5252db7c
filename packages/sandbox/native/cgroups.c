/*
 * bridle-launch: the per-call cgroups. `pids` caps processes for root (non-root uses
 * RLIMIT_NPROC in its user namespace); `memory` caps the whole tree's memory (V8 makes
 * RLIMIT_AS unusable). cgroup v2 holds both in one directory; v1 has one per controller.
 * After the target died the launcher reads which limit the tree ran into.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "launch.h"

enum controller { PIDS = 0, MEMORY, CONTROLLERS };
static const char *const names[CONTROLLERS] = {"pids", "memory"};
static char made[CONTROLLERS][4096 + 64]; /* the per-call cgroup of each controller, or "" */
static int unified;                        /* cgroup v2 */

/* The hierarchy of `controller` that this process is in, as a writable directory. */
static int parent_of(enum controller c, char *out, size_t size) {
  char v1[64], file[128];
  snprintf(v1, sizeof v1, "/sys/fs/cgroup/%s", names[c]);
  snprintf(file, sizeof file, "%s/cgroup.procs", v1);
  const char *root = NULL;
  char prefix[64];
  if (access(file, W_OK) == 0) {
    root = v1;
    snprintf(prefix, sizeof prefix, ":%s:", names[c]);
    unified = 0;
  } else if (access("/sys/fs/cgroup/cgroup.subtree_control", W_OK) == 0) {
    root = "/sys/fs/cgroup";
    snprintf(prefix, sizeof prefix, "0::");
    unified = 1;
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
    if (snprintf(out, size, "%s%s", root, strcmp(path, "/") == 0 ? "" : path) < (int)size) found = 0;
    break;
  }
  fclose(f);
  return found;
}

enum procs_mode isolate_procs_mode(void) {
  char parent[4096];
  if (geteuid() == 0 && parent_of(PIDS, parent, sizeof parent) == 0) return PROCS_CGROUP;
  if (geteuid() != 0) return PROCS_USERNS_RLIMIT;
  return PROCS_NONE;
}

int cgroups_memory_available(void) {
  char parent[4096];
  return parent_of(MEMORY, parent, sizeof parent) == 0;
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

static void set_value(enum controller c, const char *file, uint64_t value, int required) {
  char path[4096 + 160], text[32];
  snprintf(path, sizeof path, "%s/%s", made[c], file);
  snprintf(text, sizeof text, "%llu", (unsigned long long)value);
  if (write_file(path, text) == 0 || !required) return;
  int err = errno;
  cgroups_remove();
  errno = err;
  char what[256];
  snprintf(what, sizeof what, "%s: write %s", names[c], file);
  fail(what);
}

static void create(enum controller c) {
  char parent[4096];
  if (parent_of(c, parent, sizeof parent) != 0) {
    char what[64];
    snprintf(what, sizeof what, "%s: no writable cgroup", names[c]);
    fail_msg(what);
  }
  /* One sweep in 16 calls keeps stale cgroups bounded without listing the root each time. */
  if ((getpid() & 15) == 0) sweep_stale(parent);
  char path[sizeof made[0]];
  snprintf(path, sizeof path, "%s/bridle-launch.%ld", parent, (long)getpid());
  for (int other = 0; other < CONTROLLERS; other++) {
    if (made[other][0] != '\0' && strcmp(made[other], path) == 0) {
      snprintf(made[c], sizeof made[c], "%s", path); /* v2: one directory for both */
      return;
    }
  }
  if (mkdir(path, 0700) != 0 && errno != EEXIST) fail("cgroup: create");
  snprintf(made[c], sizeof made[c], "%s", path);
  if (unified) {
    char control[4096 + 32];
    snprintf(control, sizeof control, "%s/cgroup.subtree_control", parent);
    (void)write_file(control, c == PIDS ? "+pids" : "+memory");
  }
}

void cgroups_create(const struct policy *p) {
  if (p->max_procs != 0 && isolate_procs_mode() == PROCS_CGROUP) {
    create(PIDS);
    set_value(PIDS, "pids.max", p->max_procs, 1);
  }
  if (p->has_memory) {
    create(MEMORY);
    if (unified) {
      set_value(MEMORY, "memory.max", p->memory_max, 1);
      set_value(MEMORY, "memory.swap.max", 0, 0);
    } else {
      set_value(MEMORY, "memory.limit_in_bytes", p->memory_max, 1);
      set_value(MEMORY, "memory.memsw.limit_in_bytes", p->memory_max, 0);
    }
  }
}

void cgroups_attach(pid_t pid) {
  char text[24];
  snprintf(text, sizeof text, "%ld", (long)pid);
  for (int c = 0; c < CONTROLLERS; c++) {
    if (made[c][0] == '\0' || (c > 0 && strcmp(made[c], made[c - 1]) == 0)) continue;
    char procs[sizeof made[0] + 32];
    snprintf(procs, sizeof procs, "%s/cgroup.procs", made[c]);
    write_file_or_fail(procs, text);
  }
}

/* The value of `key` in a flat-keyed cgroup file ("key value" lines), or 0. */
static unsigned long long keyed(const char *dir, const char *file, const char *key) {
  char path[4096 + 160], line[256];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "re");
  if (f == NULL) return 0;
  unsigned long long value = 0;
  size_t n = strlen(key);
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, key, n) == 0 && line[n] == ' ') value = strtoull(line + n + 1, NULL, 10);
  }
  fclose(f);
  return value;
}

const char *cgroups_limit_hit(void) {
  if (made[MEMORY][0] != '\0') {
    const char *file = unified ? "memory.events" : "memory.oom_control";
    if (keyed(made[MEMORY], file, "oom_kill") > 0) return "memory";
  }
  if (made[PIDS][0] != '\0' && keyed(made[PIDS], "pids.events", "max") > 0)
    return "processes";
  return NULL;
}

/*
 * Exiting tasks leave a cgroup asynchronously, usually within microseconds: poll finely
 * (a 1 ms step cost most calls a whole millisecond), up to 200 ms in all. The process
 * count goes first: it is what a later call's limit could be mistaken for.
 */
void cgroups_remove(void) {
  for (int c = 0; c < CONTROLLERS; c++) {
    if (made[c][0] == '\0') continue;
    for (int i = 0; i < 4000; i++) {
      if (rmdir(made[c]) == 0 || errno == ENOENT) break;
      struct timespec ts = {0, 50000};
      nanosleep(&ts, NULL);
    }
    for (int other = c + 1; other < CONTROLLERS; other++) {
      if (strcmp(made[other], made[c]) == 0) made[other][0] = '\0'; /* v2: the same one */
    }
    made[c][0] = '\0';
  }
}
