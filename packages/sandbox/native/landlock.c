/*
 * bridle-launch: the Landlock ruleset. Debian 12's UAPI headers stop at ABI 3, so the
 * ABI 4-7 pieces (net rules, scoping) are declared here; the struct is sized per ABI.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launch.h"

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2 /* ABI 4 */

#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_READ_DIR (1ULL << 3)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_REFER (1ULL << 13)    /* ABI 2 */
#define LL_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#define LL_NET_BIND_TCP (1ULL << 0) /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)

#define LL_READ (LL_FS_READ_FILE | LL_FS_READ_DIR)
#define LL_WRITE                                                                                  \
  (LL_FS_WRITE_FILE | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE | LL_FS_MAKE_CHAR | LL_FS_MAKE_DIR |   \
   LL_FS_MAKE_REG | LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO | LL_FS_MAKE_BLOCK | LL_FS_MAKE_SYM |       \
   LL_FS_REFER | LL_FS_TRUNCATE)
/* Rights that apply to a non-directory; the kernel refuses the others on a file rule. */
#define LL_FILE_RIGHTS (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE)

struct ll_ruleset_attr { /* ABI 6 layout; the size passed selects the ABI 1/4/6 prefix */
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

struct ll_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

struct ll_net_port_attr {
  uint64_t allowed_access;
  uint64_t port;
} __attribute__((packed));

static const char *const device_sinks[] = {"/dev/null", "/dev/zero", "/dev/full"};

int landlock_abi(void) {
  long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : (int)abi;
}

static void add_path(int ruleset, const char *path, uint64_t access, uint64_t handled) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return; /* a granted path that does not exist */
    char what[512];
    snprintf(what, sizeof what, "landlock: open %s", path);
    fail(what);
  }
  struct stat st;
  if (fstat(fd, &st) != 0) fail("landlock: fstat");
  struct ll_path_beneath_attr rule = {.allowed_access = access & handled, .parent_fd = fd};
  if (!S_ISDIR(st.st_mode)) rule.allowed_access &= LL_FILE_RIGHTS;
  if (rule.allowed_access != 0 &&
      syscall(__NR_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0) != 0) {
    char what[512];
    snprintf(what, sizeof what, "landlock: add rule %s", path);
    fail(what);
  }
  close(fd);
}

static void add_list(int ruleset, const struct path_list *list, uint64_t access, uint64_t handled) {
  for (size_t i = 0; i < list->len; i++) add_path(ruleset, list->items[i], access, handled);
}

static int beneath(const char *path, const char *dir) {
  size_t n = strlen(dir);
  if (n == 1 && dir[0] == '/') return path[0] == '/';
  return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/*
 * The view's /tmp is a fresh tmpfs of the call's own (view.c) when writes are restricted:
 * readable and writable, so programs that put temporary files there (cc, sort, git) work
 * wherever TMPDIR points. Not when a write-only root lies beneath it: a rule on /tmp
 * would make that root readable (kernel-boundary.md §2).
 */
static int private_tmp_is_open(const struct policy *p) {
  if (p->fs_write != AXIS_RESTRICTED) return 0;
  for (size_t i = 0; i < p->write.len; i++) {
    const char *root = p->write.items[i];
    if (strcmp(root, "/") == 0) return 0; /* the host's /tmp, not a private one */
    if (!beneath(root, "/tmp") || p->fs_read != AXIS_RESTRICTED) continue;
    int readable = 0;
    for (size_t j = 0; j < p->read.len && !readable; j++) readable = beneath(root, p->read.items[j]);
    if (!readable) return 0;
  }
  return 1;
}

void landlock_apply(const struct policy *p) {
  int fs_restricted = p->fs_read == AXIS_RESTRICTED || p->fs_write == AXIS_RESTRICTED ||
                      p->exec == AXIS_RESTRICTED;
  int abi = landlock_abi();
  if (fs_restricted && abi < 3) fail_msg("landlock: ABI >= 3 required for fs restrictions");
  int net_handled = p->net_deny_all || p->net_proxy;
  if (p->net_deny_all && abi < 4) fail_msg("landlock: ABI >= 4 required for net deny-all");
  if (p->net_proxy && abi < 4) fail_msg("landlock: ABI >= 4 required for net proxy");
  if (!fs_restricted && !net_handled && abi < 6) return; /* nothing to apply */

  struct ll_ruleset_attr attr = {0};
  if (p->fs_read == AXIS_RESTRICTED) attr.handled_access_fs |= LL_READ;
  if (p->fs_write == AXIS_RESTRICTED) attr.handled_access_fs |= LL_WRITE;
  if (p->exec == AXIS_RESTRICTED) attr.handled_access_fs |= LL_FS_EXECUTE;
  if (net_handled) attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
  if (abi >= 6) attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
  size_t size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;

  int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) fail("landlock: create ruleset");
  uint64_t handled = attr.handled_access_fs;
  add_list(ruleset, &p->read, LL_READ, handled);
  /* A write root is not readable unless it is also a read root (kernel-boundary.md §2). */
  add_list(ruleset, &p->write, LL_WRITE, handled);
  add_list(ruleset, &p->execute, LL_FS_EXECUTE | LL_READ, handled);
  if (private_tmp_is_open(p)) add_path(ruleset, "/tmp", LL_READ | LL_WRITE, handled);
  if (p->fs_write == AXIS_RESTRICTED || p->fs_read == AXIS_RESTRICTED) {
    for (size_t i = 0; i < sizeof device_sinks / sizeof *device_sinks; i++) {
      add_path(ruleset, device_sinks[i], LL_READ | LL_FS_WRITE_FILE | LL_FS_TRUNCATE, handled);
    }
  }
  /* `net proxy`: TCP connect to the proxy ports only, bind nowhere (network.md §5). */
  for (size_t i = 0; p->net_proxy && i < p->proxy_len; i++) {
    struct ll_net_port_attr rule = {.allowed_access = LL_NET_CONNECT_TCP, .port = p->proxy[i].port};
    if (syscall(__NR_landlock_add_rule, ruleset, LL_RULE_NET_PORT, &rule, 0) != 0)
      fail("landlock: add proxy port rule");
  }
  /* no_new_privs is already set by main(); restrict_self requires it for non-root. */
  if (syscall(__NR_landlock_restrict_self, ruleset, 0) != 0) fail("landlock: restrict self");
  close(ruleset);
}

/* A new, nested domain that restricts nothing of the file system (execute is handled
   and granted on "/"): what it adds is the domain boundary, across which the kernel
   refuses ptrace, /proc/<pid>/mem|fd|environ of the outer domain, and (ABI >= 6)
   signals and abstract unix sockets. */
void landlock_nest(void) {
  int abi = landlock_abi();
  if (abi < 1) fail_msg("landlock: unavailable for a nested program");
  struct ll_ruleset_attr attr = {.handled_access_fs = LL_FS_EXECUTE};
  if (abi >= 6) attr.scoped = LL_SCOPE_ABSTRACT_UNIX_SOCKET | LL_SCOPE_SIGNAL;
  int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, abi >= 6 ? 24 : 8, 0);
  if (ruleset < 0) fail("landlock: create nested ruleset");
  add_path(ruleset, "/", LL_FS_EXECUTE, LL_FS_EXECUTE);
  if (syscall(__NR_landlock_restrict_self, ruleset, 0) != 0) fail("landlock: restrict nested");
  close(ruleset);
}
