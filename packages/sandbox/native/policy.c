/* bridle-launch: the policy text (one directive per line), parsed fail-closed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch.h"

#define POLICY_MAX_BYTES (1u << 20)

static char *read_all(int fd, size_t *len_out) {
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  if (buf == NULL) fail("policy: allocate");
  for (;;) {
    if (len + 1 >= cap) {
      if (cap >= POLICY_MAX_BYTES) fail_msg("policy: larger than 1 MiB");
      cap *= 2;
      buf = realloc(buf, cap);
      if (buf == NULL) fail("policy: allocate");
    }
    ssize_t n = read(fd, buf + len, cap - len - 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("policy: read");
    if (n == 0) break;
    len += (size_t)n;
  }
  buf[len] = '\0';
  *len_out = len;
  return buf;
}

static _Noreturn void bad_line(size_t line_no, const char *why) {
  char what[160];
  snprintf(what, sizeof what, "policy line %zu: %s", line_no, why);
  fail_msg(what);
}

static uint64_t parse_u64(const char *text, size_t line_no) {
  if (*text < '0' || *text > '9') bad_line(line_no, "expected a non-negative integer");
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0') bad_line(line_no, "expected a non-negative integer");
  return (uint64_t)v;
}

static void push_path(struct path_list *list, char *path, size_t line_no) {
  if (path[0] != '/') bad_line(line_no, "path is not absolute");
  list->items = realloc(list->items, (list->len + 1) * sizeof *list->items);
  if (list->items == NULL) fail("policy: allocate");
  list->items[list->len++] = path;
}

/* `proxy <port>`: a port of the call's namespace whose listener goes to the host's proxy. */
static void push_proxy(struct policy *p, char *value, size_t line_no) {
  if (p->proxy_len >= PROXY_MAX) bad_line(line_no, "at most 4 proxy ports");
  uint64_t port = parse_u64(value, line_no);
  if (port < 1 || port > 65535) bad_line(line_no, "proxy port must be between 1 and 65535");
  for (size_t i = 0; i < p->proxy_len; i++)
    if (p->proxy[i].port == port) bad_line(line_no, "proxy port given twice");
  p->proxy[p->proxy_len++] = (struct proxy_port){.port = (uint16_t)port};
}

static void set_axis(enum axis *slot, const char *value, size_t line_no) {
  if (*slot != AXIS_UNSET) bad_line(line_no, "axis given twice");
  if (strcmp(value, "all") == 0) {
    *slot = AXIS_ALL;
  } else if (strcmp(value, "restricted") == 0) {
    *slot = AXIS_RESTRICTED;
  } else {
    bad_line(line_no, "axis value must be all or restricted");
  }
}

static void set_once_u64(int *has, uint64_t *slot, const char *value, size_t line_no) {
  if (*has) bad_line(line_no, "directive given twice");
  *has = 1;
  *slot = parse_u64(value, line_no);
}

static void directive(struct policy *p, char *key, char *value, size_t line_no) {
  static int has_max_procs = 0, has_tmpfs = 0;
  if (strcmp(key, "fs-read") == 0) {
    set_axis(&p->fs_read, value, line_no);
  } else if (strcmp(key, "fs-write") == 0) {
    set_axis(&p->fs_write, value, line_no);
  } else if (strcmp(key, "exec") == 0) {
    set_axis(&p->exec, value, line_no);
  } else if (strcmp(key, "read") == 0) {
    push_path(&p->read, value, line_no);
  } else if (strcmp(key, "write") == 0) {
    push_path(&p->write, value, line_no);
  } else if (strcmp(key, "execute") == 0) {
    push_path(&p->execute, value, line_no);
  } else if (strcmp(key, "mask") == 0) {
    push_path(&p->mask, value, line_no);
  } else if (strcmp(key, "view-ro") == 0) {
    push_path(&p->view_ro, value, line_no);
  } else if (strcmp(key, "view-rw") == 0) {
    push_path(&p->view_rw, value, line_no);
  } else if (strcmp(key, "protect") == 0) {
    push_path(&p->protect, value, line_no);
  } else if (strcmp(key, "net") == 0) {
    if (p->net_deny_all || p->net_all || p->net_proxy) bad_line(line_no, "directive given twice");
    if (strcmp(value, "deny-all") == 0) {
      p->net_deny_all = 1;
    } else if (strcmp(value, "all") == 0) {
      p->net_all = 1;
    } else if (strcmp(value, "proxy") == 0) {
      p->net_proxy = 1;
    } else {
      bad_line(line_no, "net value must be deny-all, all or proxy");
    }
  } else if (strcmp(key, "proxy") == 0) {
    push_proxy(p, value, line_no);
  } else if (strcmp(key, "keep-fd") == 0) {
    uint64_t fd = parse_u64(value, line_no);
    if (fd < 3 || fd > 65535) bad_line(line_no, "keep-fd must be between 3 and 65535");
    p->keep_fds = realloc(p->keep_fds, (p->keep_fds_len + 1) * sizeof *p->keep_fds);
    if (p->keep_fds == NULL) fail("policy: allocate");
    p->keep_fds[p->keep_fds_len++] = (int)fd;
  } else if (strcmp(key, "rlimit-fsize") == 0) {
    set_once_u64(&p->has_fsize, &p->rlimit_fsize, value, line_no);
  } else if (strcmp(key, "rlimit-as") == 0) {
    set_once_u64(&p->has_as, &p->rlimit_as, value, line_no);
  } else if (strcmp(key, "rlimit-nofile") == 0) {
    set_once_u64(&p->has_nofile, &p->rlimit_nofile, value, line_no);
    if (p->rlimit_nofile < 16) bad_line(line_no, "rlimit-nofile must be at least 16");
  } else if (strcmp(key, "memory-max") == 0) {
    set_once_u64(&p->has_memory, &p->memory_max, value, line_no);
    if (p->memory_max < (1u << 20)) bad_line(line_no, "memory-max must be at least 1 MiB");
  } else if (strcmp(key, "tmpfs-size") == 0) {
    set_once_u64(&has_tmpfs, &p->tmpfs_bytes, value, line_no);
    if (p->tmpfs_bytes < 4096) bad_line(line_no, "tmpfs-size must be at least 4096");
  } else if (strcmp(key, "max-procs") == 0) {
    set_once_u64(&has_max_procs, &p->max_procs, value, line_no);
    if (p->max_procs == 0) bad_line(line_no, "max-procs must be at least 1");
  } else if (strcmp(key, "nice") == 0) {
    set_once_u64(&p->has_nice, &p->nice, value, line_no);
    if (p->nice > 19) bad_line(line_no, "nice must be between 0 and 19");
  } else if (strcmp(key, "cwd") == 0) {
    if (p->cwd != NULL) bad_line(line_no, "directive given twice");
    if (value[0] != '/') bad_line(line_no, "path is not absolute");
    p->cwd = value;
  } else {
    bad_line(line_no, "unknown directive");
  }
}

void policy_read(int fd, struct policy *p) {
  size_t len = 0;
  char *text = read_all(fd, &len);
  if (memchr(text, '\0', len) != NULL) fail_msg("policy: contains a NUL byte");
  policy_parse(text, len, p);
}

/* Parses `text` (len bytes, NUL-terminated, modified in place). */
void policy_parse(char *text, size_t len, struct policy *p) {
  if (len == 0 || text[len - 1] != '\n') fail_msg("policy: must end with a newline");
  memset(p, 0, sizeof *p);
  size_t line_no = 0;
  for (char *line = text; *line != '\0';) {
    char *nl = strchr(line, '\n');
    *nl = '\0';
    line_no++;
    char *space = strchr(line, ' ');
    if (space == NULL || space[1] == '\0') bad_line(line_no, "expected '<directive> <value>'");
    *space = '\0';
    if (line_no == 1) {
      if (strcmp(line, "version") != 0 || strcmp(space + 1, "1") != 0) {
        bad_line(line_no, "first line must be 'version 1'");
      }
    } else {
      directive(p, line, space + 1, line_no);
    }
    line = nl + 1;
  }
  if (p->fs_read == AXIS_UNSET || p->fs_write == AXIS_UNSET || p->exec == AXIS_UNSET) {
    fail_msg("policy: fs-read, fs-write and exec are required");
  }
  if (p->net_proxy && p->proxy_len == 0) fail_msg("policy: net proxy needs a proxy port");
  if (!p->net_proxy && p->proxy_len != 0) fail_msg("policy: proxy ports need net proxy");
  if (p->tmpfs_bytes == 0) p->tmpfs_bytes = DEFAULT_TMPFS_BYTES;
}
