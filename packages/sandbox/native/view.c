/*
 * bridle-launch: the private view of the file system (kernel-boundary.md §2). In the
 * target's own mount namespace: pivot into a staging tmpfs with the host root at
 * /oldroot, build the view under /newroot (binds resolved inside /oldroot, so a symlink
 * can never point a bind outside the host's tree), then pivot into /newroot and detach
 * everything else. What the view does not hold does not exist for the call (ENOENT).
 *
 * Runs in the vforked target: no malloc, stack buffers only.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launch.h"

#define STAGE "/tmp"
#define VIEW_PATH_MAX 4096

/* Device files of the minimal /dev, bound from the host's (no /dev/tty: a call never has
   a controlling terminal). */
static const char *const devices[] = {"null", "zero", "full", "random", "urandom"};
/* The fresh /proc is read-only as a whole: its global files (sysctls, sysrq-trigger,
   irq affinity) are writable by uid 0 without any capability. What lists host-wide state
   to any reader is masked; the rest (kcore, kmsg, …) needs a capability no call has. */
static const char *const proc_masked[] = {"keys", "key-users", "timer_list", "sched_debug"};

static long sys_openat2(int dirfd, const char *path, int flags, unsigned long long resolve) {
  struct open_how how = {.flags = (unsigned long long)flags, .resolve = resolve};
  return syscall(__NR_openat2, dirfd, path, &how, sizeof how);
}

static int open_tree_fd(int dirfd, const char *path, unsigned int flags) {
  return (int)syscall(__NR_open_tree, dirfd, path, flags);
}

static int move_mount_fd(int from, int to) {
  return (int)syscall(__NR_move_mount, from, "", to, "",
                      MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
}

static int set_attr(int fd, const char *path, unsigned int at_flags, uint64_t set) {
  struct mount_attr attr = {.attr_set = set};
  return (int)syscall(__NR_mount_setattr, fd, path, at_flags, &attr, sizeof attr);
}

static _Noreturn void view_fail(const char *step, const char *path) {
  char what[VIEW_PATH_MAX + 64];
  snprintf(what, sizeof what, "view: %s %s", step, path);
  fail(what);
}

/* An O_PATH descriptor of `path` resolved with `root` as "/" (never leaving it), or -1. */
static int resolve_in(int root, const char *path, int follow) {
  const char *rel = path[0] == '/' ? path + 1 : path;
  if (rel[0] == '\0') rel = ".";
  return (int)sys_openat2(root, rel, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW),
                          RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}

/* Makes every directory of `path` (not the last component) inside the view; returns the
   parent's descriptor and points *name at the last component. */
static int parent_in_view(int newroot, const char *path, const char **name) {
  char prefix[VIEW_PATH_MAX];
  size_t len = strlen(path);
  if (len >= sizeof prefix) view_fail("path too long", path);
  const char *slash = strrchr(path, '/');
  *name = slash + 1;
  if (slash != path) { /* usually the directory is there already: one lookup */
    memcpy(prefix, path, (size_t)(slash - path));
    prefix[slash - path] = '\0';
    int there = resolve_in(newroot, prefix, 1);
    if (there >= 0) return there;
  }
  int dir = (int)fcntl(newroot, F_DUPFD_CLOEXEC, 3);
  if (dir < 0) fail("view: dup");
  for (const char *at = path + 1; at <= slash; at++) {
    if (*at != '/') continue;
    size_t n = (size_t)(at - path);
    memcpy(prefix, path, n);
    prefix[n] = '\0';
    int next = resolve_in(newroot, prefix, 1);
    if (next < 0 && errno == ENOENT) {
      const char *component = strrchr(prefix, '/') + 1;
      /* A stand-in for a host directory the grant does not show: read-only by mode, so
         nothing lands in it by mistake where it is writable (the private /tmp). Its
         owner could chmod it back, but only to write into the call's own tmpfs. */
      if (mkdirat(dir, component, 0555) != 0 && errno != EEXIST) view_fail("mkdir", prefix);
      next = resolve_in(newroot, prefix, 1);
    }
    if (next < 0) view_fail("open", prefix);
    close(dir);
    dir = next;
  }
  return dir;
}

/* The mount point for a bind of `kind` at `path` in the view, as an O_PATH descriptor. */
static int mount_point(int newroot, const char *path, mode_t kind) {
  int existing = resolve_in(newroot, path, 0);
  if (existing >= 0) return existing;
  const char *name = NULL;
  int parent = parent_in_view(newroot, path, &name);
  /* A view parent that is a read-only bind cannot take a new mount point. */
  int made = 0;
  if (S_ISDIR(kind)) {
    made = mkdirat(parent, name, 0755);
  } else {
    int file = openat(parent, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
    made = file < 0 ? -1 : close(file);
  }
  if (made != 0 && errno != EEXIST) view_fail("mount point", path);
  close(parent);
  int fd = resolve_in(newroot, path, 0);
  if (fd < 0) view_fail("open mount point", path);
  return fd;
}

/* Whether `source` (an O_PATH descriptor) is at `path` itself, not reached through a link. */
static int at_own_path(int source, const char *path) {
  char link[64], real[VIEW_PATH_MAX + 16], own[VIEW_PATH_MAX + 16];
  snprintf(link, sizeof link, "/newroot/proc/self/fd/%d", source);
  ssize_t n = readlink(link, real, sizeof real - 1);
  if (n < 0) view_fail("locate", path);
  real[n] = '\0';
  snprintf(own, sizeof own, "/oldroot%s", strcmp(path, "/") == 0 ? "" : path);
  return strcmp(real, own) == 0;
}

/* Recreates in the view each link on the way to `path` (`/bin` → `usr/bin`), where the
   view has nothing of that name yet, and each host directory on the way that the view
   lacks (a stand-in, as parent_in_view makes them), so the link has somewhere to live
   whatever was bound before it. A prefix the view cannot resolve ends the walk. */
static void link_prefixes(const struct view_ctx *v, const char *path) {
  char prefix[VIEW_PATH_MAX];
  size_t len = strlen(path);
  if (len >= sizeof prefix) view_fail("path too long", path);
  for (size_t end = 1; end <= len; end++) {
    if (end < len && path[end] != '/') continue;
    memcpy(prefix, path, end);
    prefix[end] = '\0';
    int host = resolve_in(v->oldroot, prefix, 0);
    if (host < 0) return;
    struct stat st;
    int is_link = fstat(host, &st) == 0 && S_ISLNK(st.st_mode);
    int is_dir = !is_link && S_ISDIR(st.st_mode);
    int there = resolve_in(v->newroot, prefix, 0);
    if (there >= 0) close(there);
    if ((is_link || (is_dir && end < len)) && there < 0) {
      char *slash = strrchr(prefix, '/');
      char target[VIEW_PATH_MAX];
      ssize_t n = is_link ? readlinkat(host, "", target, sizeof target - 1) : 0;
      *slash = '\0';
      int parent = resolve_in(v->newroot, prefix[0] ? prefix : "/", 1);
      if (parent < 0) {
        close(host);
        return;
      }
      if (is_link && n >= 0) {
        target[n] = '\0';
        (void)symlinkat(target, parent, slash + 1);
      } else if (is_dir && mkdirat(parent, slash + 1, 0555) != 0 && errno != EEXIST) {
        *slash = '/';
        view_fail("mkdir", prefix);
      }
      close(parent);
    }
    close(host);
  }
}

/*
 * A small read-only configuration file (`/etc/passwd`, …: regular, no execute bit, at
 * most COPY_MAX bytes) is copied into the view rather than bound: a copy costs a few
 * system calls, a bind a mount. Only where the view's directory takes new files (the
 * view's own root, or a masked directory, both read-only once the view is complete).
 */
#define COPY_MAX (64 * 1024)
static int copy_small(const struct view_ctx *v, int source, int direct, const struct stat *st,
                      const char *path) {
  if (!S_ISREG(st->st_mode) || (st->st_mode & 0111) != 0 || st->st_size > COPY_MAX) return 0;
  const char *name = NULL;
  int parent = parent_in_view(v->newroot, path, &name);
  int out = openat(parent, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, st->st_mode & 0644);
  close(parent);
  if (out < 0) return 0; /* a read-only directory, or already there: bind instead */
  int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW;
  int in = -1;
  if (direct) {
    in = (int)sys_openat2(v->oldroot, path + 1, flags, RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS);
  } else {
    char link[64];
    snprintf(link, sizeof link, "/newroot/proc/self/fd/%d", source);
    in = open(link, flags & ~O_NOFOLLOW);
  }
  if (in < 0) view_fail("open to copy", path);
  static char buffer[COPY_MAX];
  ssize_t n = read(in, buffer, sizeof buffer);
  if (n < 0 || write(out, buffer, (size_t)n) != n) view_fail("copy", path);
  close(in);
  close(out);
  return 1;
}

/*
 * Binds host `path` at the same path of the view. A path reached through a link is not
 * bound itself: its links are recreated, and the funnel lists where it really is (a bind
 * at a link's spelling could cover a later, narrower bind beneath the real location).
 */
static enum bound bind(const struct view_ctx *v, const char *path, int writable) {
  /* Usually no component is a link: then the path is where the source is. */
  const char *rel = path[0] == '/' ? path + 1 : path;
  int source = (int)sys_openat2(v->oldroot, rel, O_PATH | O_CLOEXEC | O_NOFOLLOW,
                                RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS);
  int direct = source >= 0;
  if (!direct) source = resolve_in(v->oldroot, path, 0);
  if (source < 0) {
    /* Nothing to show; or out of the user's reach (the target could not read it either). */
    if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EACCES)
      return BOUND_NOTHING;
    view_fail("resolve", path);
  }
  struct stat st;
  if (fstat(source, &st) != 0) view_fail("stat", path);
  if (S_ISLNK(st.st_mode) || (!direct && !at_own_path(source, path))) {
    close(source);
    link_prefixes(v, path);
    return BOUND_LINK;
  }
  if (!writable && copy_small(v, source, direct, &st, path)) {
    close(source);
    return BOUND_TREE;
  }
  int tree = open_tree_fd(source, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH);
  close(source);
  if (tree < 0) view_fail("clone", path);
  uint64_t attrs = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (writable ? 0 : MOUNT_ATTR_RDONLY);
  if (set_attr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, attrs) != 0) view_fail("set attributes", path);
  int target = mount_point(v->newroot, path, st.st_mode);
  if (move_mount_fd(tree, target) != 0) view_fail("attach", path);
  close(target);
  close(tree);
  return BOUND_TREE;
}

static void mount_fs(const char *type, const char *at, unsigned long flags, const char *data) {
  if (mount(type, at, type, flags, data) != 0) view_fail("mount", at);
}

/* A fresh empty tmpfs, detached (attached with move_mount); writable until the view is
   finished, so what the grant shows beneath a masked directory can still be put there. */
static int empty_tmpfs(void) {
  int fs = (int)syscall(__NR_fsopen, "tmpfs", FSOPEN_CLOEXEC);
  if (fs < 0) fail("view: fsopen tmpfs");
  if (syscall(__NR_fsconfig, fs, FSCONFIG_SET_STRING, "size", "1m", 0) != 0 ||
      syscall(__NR_fsconfig, fs, FSCONFIG_SET_STRING, "nr_inodes", "1024", 0) != 0 ||
      syscall(__NR_fsconfig, fs, FSCONFIG_SET_STRING, "mode", "0755", 0) != 0 ||
      syscall(__NR_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) != 0)
    fail("view: configure tmpfs");
  int mnt = (int)syscall(__NR_fsmount, fs, FSMOUNT_CLOEXEC,
                         MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
  if (mnt < 0) fail("view: fsmount tmpfs");
  close(fs);
  return mnt;
}

/* Masked directories, made read-only once the view is complete. */
static int masked_dirs[VIEW_MAX_BINDS];
static size_t masked_count;

/* Hides `path` (a path of the view): an empty directory, or /dev/null read-only over a
   file. A link shows nothing itself; what it names is masked by its own entry. */
static void mask(int newroot, const char *path) {
  int fd = resolve_in(newroot, path, 0);
  if (fd < 0) {
    /* Nothing to hide; or the launcher's user cannot reach it, nor can the target. */
    if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EACCES) return;
    view_fail("resolve mask", path);
  }
  struct stat st;
  if (fstat(fd, &st) != 0) view_fail("stat mask", path);
  if (!S_ISLNK(st.st_mode)) {
    int cover = S_ISDIR(st.st_mode)
                    ? empty_tmpfs()
                    : open_tree_fd(AT_FDCWD, "/newroot/dev/null", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
    if (cover < 0) view_fail("mask source", path);
    if (!S_ISDIR(st.st_mode) &&
        set_attr(cover, "", AT_EMPTY_PATH, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC) != 0)
      view_fail("mask attributes", path);
    if (move_mount_fd(cover, fd) != 0) view_fail("mask", path);
    if (S_ISDIR(st.st_mode) && masked_count < VIEW_MAX_BINDS) {
      masked_dirs[masked_count++] = cover; /* the attached mount, still open */
    } else {
      close(cover);
    }
  }
  close(fd);
}

static void seal_masks(void) {
  for (size_t i = 0; i < masked_count; i++) {
    if (set_attr(masked_dirs[i], "", AT_EMPTY_PATH, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
                                                       MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC) != 0)
      fail("view: seal a mask");
    close(masked_dirs[i]);
  }
  masked_count = 0;
}

/*
 * The view's /dev. Root (in the host's user namespace, still holding CAP_MKNOD here)
 * makes the few device nodes in it, a system call each; an ordinary user's tmpfs takes
 * no device nodes (its user namespace does not own the devices), so it binds the host's.
 */
static void make_dev(const struct view_ctx *v) {
  mount_fs("tmpfs", "/newroot/dev", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k,nr_inodes=64");
  int dev = open("/newroot/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dev < 0) fail("view: open /dev");
  char host[64];
  mode_t mask_before = umask(0);
  for (size_t i = 0; i < sizeof devices / sizeof *devices; i++) {
    snprintf(host, sizeof host, "/dev/%s", devices[i]);
    int source = resolve_in(v->oldroot, host, 0);
    if (source < 0) continue; /* e.g. a container without one of them */
    struct stat st;
    if (fstat(source, &st) != 0 || !S_ISCHR(st.st_mode)) view_fail("not a device:", host);
    if (geteuid() == 0 && mknodat(dev, devices[i], S_IFCHR | 0666, st.st_rdev) == 0) {
      close(source);
      continue;
    }
    int tree = open_tree_fd(source, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
    close(source);
    if (tree < 0) view_fail("clone", host);
    int target = mount_point(v->newroot, host, S_IFREG);
    if (move_mount_fd(tree, target) != 0) view_fail("attach", host);
    close(target);
    close(tree);
  }
  umask(mask_before);
  static const char *const links[][2] = {{"/proc/self/fd", "fd"},     {"/proc/self/fd/0", "stdin"},
                                         {"/proc/self/fd/1", "stdout"}, {"/proc/self/fd/2", "stderr"},
                                         {"pts/ptmx", "ptmx"}};
  for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
    if (symlinkat(links[i][0], dev, links[i][1]) != 0) view_fail("symlink /dev/", links[i][1]);
  }
  if (mkdirat(dev, "pts", 0755) != 0 || mkdirat(dev, "shm", 01777) != 0) fail("view: mkdir /dev");
  close(dev);
  /* A private pty instance: best effort (programs without a terminal do not need it). */
  (void)mount("devpts", "/newroot/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
              "newinstance,ptmxmode=0666,mode=0620");
  char shm[64];
  snprintf(shm, sizeof shm, "mode=1777,size=%llu", (unsigned long long)v->tmpfs_bytes);
  mount_fs("tmpfs", "/newroot/dev/shm", MS_NOSUID | MS_NODEV | MS_NOEXEC, shm);
}

static void make_proc(void) {
  mount_fs("proc", "/newroot/proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL);
  char path[128];
  int newroot = open("/newroot", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (newroot < 0) fail("view: open /newroot");
  for (size_t i = 0; i < sizeof proc_masked / sizeof *proc_masked; i++) {
    snprintf(path, sizeof path, "/proc/%s", proc_masked[i]);
    mask(newroot, path);
  }
  close(newroot);
}

static int under(const char *path, const char *dir) {
  size_t n = strlen(dir);
  return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* /proc and /dev are the view's own; a bind of either (say /dev/null) is already there. */
static int view_owned(const char *path) { return under(path, "/proc") || under(path, "/dev"); }

/*
 * Pins: each directory between a protected path and the writable root that holds it is
 * bound onto itself, so it is a mount point, which cannot be renamed or removed. Without
 * them `mv .git .git-old; mkdir .git` would put a new, writable `.git/config` where the
 * protected one was.
 */
static char pin_pool[1 << 16];
static size_t pin_used;

static const char *pin_copy(const char *path, size_t len) {
  if (pin_used + len + 1 > sizeof pin_pool) fail_msg("view: too many protected paths");
  char *copy = pin_pool + pin_used;
  memcpy(copy, path, len);
  copy[len] = '\0';
  pin_used += len + 1;
  return copy;
}

/* The longest writable root that holds `path` (strictly), or NULL. */
static const char *writable_root_of(const struct policy *p, const char *path) {
  const char *best = NULL;
  const struct path_list *lists[] = {&p->write, &p->view_rw};
  for (size_t l = 0; l < 2; l++) {
    for (size_t i = 0; i < lists[l]->len; i++) {
      const char *root = lists[l]->items[i];
      size_t n = strlen(root);
      int holds = strcmp(root, "/") == 0 || (strncmp(path, root, n) == 0 && path[n] == '/');
      if (holds && strcmp(root, path) != 0 && (best == NULL || strlen(best) < n)) best = root;
    }
  }
  return best;
}

static size_t add_pins(const struct policy *p, struct view_bind *out, size_t n, size_t cap) {
  for (size_t i = 0; i < p->protect.len; i++) {
    const char *path = p->protect.items[i];
    const char *root = writable_root_of(p, path);
    if (root == NULL) continue; /* not writable anyway */
    size_t from = strcmp(root, "/") == 0 ? 0 : strlen(root);
    for (size_t end = from + 1; path[end] != '\0'; end++) {
      if (path[end] != '/') continue;
      int known = 0;
      for (size_t j = 0; j < n && !known; j++) {
        known = out[j].overlay == 3 && strlen(out[j].path) == end && strncmp(out[j].path, path, end) == 0;
      }
      if (known) continue;
      if (n == cap) fail_msg("view: too many paths");
      out[n++] = (struct view_bind){pin_copy(path, end), 1, 3, BOUND_NOTHING};
    }
  }
  return n;
}

static size_t sort_binds(const struct policy *p, struct view_bind *out, size_t cap) {
  size_t n = 0;
  const struct {
    const struct path_list *list;
    int writable, overlay;
  } sources[] = {{&p->view_ro, 0, 0}, {&p->read, 0, 0},  {&p->execute, 0, 0},
                 {&p->view_rw, 1, 0}, {&p->write, 1, 0}, {&p->protect, 0, 1},
                 {&p->mask, 0, 2}};
  for (size_t s = 0; s < sizeof sources / sizeof *sources; s++) {
    for (size_t i = 0; i < sources[s].list->len; i++) {
      const char *path = sources[s].list->items[i];
      if (view_owned(path) || strcmp(path, "/") == 0) continue;
      if (n == cap) fail_msg("view: too many paths");
      out[n++] = (struct view_bind){path, sources[s].writable, sources[s].overlay, BOUND_NOTHING};
    }
  }
  n = add_pins(p, out, n, cap);
  /* Parents before children (a shorter path first); at one path, a protection after
     the binds and a mask after everything. */
  for (size_t i = 1; i < n; i++) {
    struct view_bind b = out[i];
    size_t j = i;
    while (j > 0) {
      size_t lj = strlen(out[j - 1].path), lb = strlen(b.path);
      if (lj < lb || (lj == lb && out[j - 1].overlay <= b.overlay)) break;
      out[j] = out[j - 1];
      j--;
    }
    out[j] = b;
  }
  return n;
}

/* Whether a mask lies between `binds[i]` and the host base (so the base does not show it). */
static int under_mask(const struct view_bind *binds, size_t i) {
  for (size_t j = i; j-- > 0;) {
    if (binds[j].overlay == 2 && binds[j].bound == BOUND_MASK && under(binds[i].path, binds[j].path))
      return 1;
  }
  return 0;
}

/* Whether the nearest enclosing entry already bound the same tree the same way. */
static int covered(const struct view_bind *binds, size_t i) {
  if (binds[i].overlay) return 0;
  /* Beneath a mask only what is listed is shown: each entry is put there itself. */
  for (size_t j = i; j-- > 0;) {
    if (!under(binds[i].path, binds[j].path)) continue;
    return binds[j].bound == BOUND_TREE && binds[j].writable == binds[i].writable &&
           binds[j].overlay == 0;
  }
  return 0;
}

/*
 * Where the view starts: the host's whole tree read-write (2) when "/" is a write or
 * view-rw path, or fs-write is "all" and no path is given to write or read; read-only (1)
 * when "/" is a read or view-ro path, or fs-read is "all" and no view-ro path is given;
 * else an empty root (0) that holds only the listed paths. The funnel always lists the
 * paths; the defaults serve a policy written by hand.
 */
static int has_root(const struct path_list *list) {
  for (size_t i = 0; i < list->len; i++)
    if (strcmp(list->items[i], "/") == 0) return 1;
  return 0;
}

static int base_of(const struct policy *p) {
  size_t read = p->read.len + p->view_ro.len + p->execute.len;
  size_t written = p->write.len + p->view_rw.len;
  if (has_root(&p->write) || has_root(&p->view_rw)) return 2;
  if (p->fs_write == AXIS_ALL && written == 0 && read == 0) return 2;
  if (has_root(&p->read) || has_root(&p->view_ro)) return 1;
  if (p->fs_read == AXIS_ALL && p->view_ro.len == 0) return 1; /* read: Landlock's only */
  return 0;
}

void view_build(const struct policy *p) {
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fail("view: make mounts private");
  mount_fs("tmpfs", STAGE, MS_NOSUID | MS_NODEV, "mode=0700,size=64k,nr_inodes=64");
  if (chdir(STAGE) != 0 || mkdir("oldroot", 0700) != 0 || mkdir("newroot", 0755) != 0)
    fail("view: stage");
  if (syscall(__NR_pivot_root, ".", "oldroot") != 0) fail("view: pivot into the stage");
  if (chdir("/") != 0) fail("view: chdir");
  struct view_ctx v = {.tmpfs_bytes = p->tmpfs_bytes};
  v.oldroot = open("/oldroot", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (v.oldroot < 0) fail("view: open /oldroot");

  int base = base_of(p);
  if (base != 0) {
    int tree = open_tree_fd(v.oldroot, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH);
    if (tree < 0) fail("view: clone /");
    if (base == 1 && set_attr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID) != 0)
      fail("view: read-only /");
    if (syscall(__NR_move_mount, tree, "", AT_FDCWD, "/newroot", MOVE_MOUNT_F_EMPTY_PATH) != 0)
      fail("view: attach /");
    close(tree);
  } else {
    char root[64];
    snprintf(root, sizeof root, "mode=0755,size=1m,nr_inodes=%d", 1 << 14);
    mount_fs("tmpfs", "/newroot", MS_NOSUID | MS_NODEV, root);
  }
  v.newroot = open("/newroot", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (v.newroot < 0) fail("view: open /newroot");
  if (base == 0 && (mkdirat(v.newroot, "proc", 0555) != 0 || mkdirat(v.newroot, "dev", 0755) != 0 ||
                    mkdirat(v.newroot, "tmp", 01777) != 0))
    fail("view: mkdir");
  make_dev(&v); /* first: masks of files bind its /dev/null */
  make_proc();
  if (base == 2) {
    /* fs_write "all": the host's /tmp is granted like the rest. */
  } else {
    char tmp[64];
    snprintf(tmp, sizeof tmp, "mode=1777,size=%llu", (unsigned long long)p->tmpfs_bytes);
    mount_fs("tmpfs", "/newroot/tmp", MS_NOSUID | MS_NODEV, tmp);
    /* Under a read-everything base, /sys would show the host's devices and cgroups. */
    if (base == 1) {
      mask(v.newroot, "/sys");
    }
  }

  struct view_bind binds[VIEW_MAX_BINDS];
  size_t count = sort_binds(p, binds, VIEW_MAX_BINDS);
  for (size_t i = 0; i < count; i++) {
    struct view_bind *b = &binds[i];
    b->bound = BOUND_NOTHING;
    if (b->overlay == 2) {
      mask(v.newroot, b->path);
      b->bound = BOUND_MASK;
      continue;
    }
    if (b->overlay == 3) {
      b->bound = bind(&v, b->path, 1);
      continue;
    }
    /* The base shows a path already, unless a mask or the private /tmp covers it. */
    if (!b->overlay && !under_mask(binds, i) && !(base != 2 && under(b->path, "/tmp"))) {
      if (base == 2 && b->writable) continue; /* already writable */
      if (base == 1 && !b->writable) continue; /* already readable */
    }
    if (covered(binds, i)) continue;
    b->bound = bind(&v, b->path, b->writable);
  }
  seal_masks();
  if (base == 0 && set_attr(v.newroot, "", AT_EMPTY_PATH, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV) != 0)
    fail("view: read-only root");
  close(v.oldroot);
  close(v.newroot);

  /* Into the view; the stage and the host tree under it are detached for good. */
  if (chdir("/newroot") != 0) fail("view: chdir /newroot");
  if (syscall(__NR_pivot_root, ".", ".") != 0) fail("view: pivot into the view");
  if (umount2(".", MNT_DETACH) != 0) fail("view: detach the host tree");
  if (chdir("/") != 0) fail("view: chdir /");
}
