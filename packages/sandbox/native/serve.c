/*
 * bridle-launch --serve: the host's spawn server (ADR 0023). One long-lived, tiny
 * process per host, started with Node's IPC channel (NODE_CHANNEL_FD) as its only
 * descriptor besides stderr. On each request it forks, wires the child's descriptors
 * and execs exactly the argv the host would have spawned itself (the launcher with its
 * policy, so confinement is applied in the child as before); it hands the host its ends
 * of the child's standard streams and reports the child's pid, then its exit. The host
 * pays a message per spawn instead of a fork of itself and a wait for the exec.
 *
 * Authenticated by construction: the channel is a socket pair inherited from the host,
 * nothing on the file system leads to it, and no child inherits it. The server dies
 * with the host (PDEATHSIG, and end of the channel), killing every child's group first.
 * Protocol: ../docs/launcher-protocol.md, "Spawn server".
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch.h"

#define SLOTS_MAX 64  /* descriptors 3.. of one child */
#define CHILDREN_MAX 4096
#define QUEUE_MAX 256 /* received descriptors not yet claimed by a request */
#define LINE_MAX_BYTES (4u << 20)

struct held { /* a descriptor the host sent for a request not yet made */
  long id;
  int slot;
  int fd;
};

struct child {
  pid_t pid;
  long id;
  int errpipe; /* read end: the errno of a failed exec, or end of file once it exec'd */
};

/* A pipeline link: the write end of a child's stdin pipe, until its upstream stage takes it. */
struct link {
  long id;
  int fd;
};

static int channel = -1;
static struct held held[QUEUE_MAX];
static size_t held_len;
static int arrived[QUEUE_MAX]; /* descriptors received, in order, not yet matched to a line */
static size_t arrived_len;
static struct child children[CHILDREN_MAX];
static size_t children_len;
static struct link links[CHILDREN_MAX];
static size_t links_len;

/* The write end of `id`'s stdin pipe the server keeps; -1 if none. */
static int link_of(long id) {
  for (size_t i = 0; i < links_len; i++)
    if (links[i].id == id) return links[i].fd;
  return -1;
}

/* The server's copy of `id`'s link closes: once the upstream stage holds it, or when
 * none will come (the child ended), so the stage reads end of file. */
static void drop_link(long id) {
  for (size_t i = 0; i < links_len; i++) {
    if (links[i].id != id) continue;
    close(links[i].fd);
    links[i] = links[--links_len];
    return;
  }
}

static void send_all(const char *text, size_t len, int fd) {
  struct iovec iov = {.iov_base = (void *)text, .iov_len = len};
  union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
  if (fd >= 0) {
    memset(&control, 0, sizeof control);
    m.msg_control = control.buf;
    m.msg_controllen = sizeof control.buf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  while (iov.iov_len > 0) {
    ssize_t n = sendmsg(channel, &m, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(0); /* the host is gone */
    iov.iov_base = (char *)iov.iov_base + n;
    iov.iov_len -= (size_t)n;
    m.msg_control = NULL; /* the descriptor went with the first bytes */
    m.msg_controllen = 0;
  }
}

static void sendf(int fd, const char *format, long a, long b) {
  char line[256];
  int n = snprintf(line, sizeof line, format, a, b);
  send_all(line, (size_t)n, fd);
}

/* A number after `"key":` in a line Node or the host wrote (the channel is trusted). */
static long field(const char *line, const char *key) {
  char pattern[48];
  snprintf(pattern, sizeof pattern, "\"%s\":", key);
  const char *at = strstr(line, pattern);
  return at == NULL ? -1 : strtol(at + strlen(pattern), NULL, 10);
}

static int unbase64(const char *in, size_t len, char *out, size_t *out_len) {
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  unsigned value = 0;
  int bits = 0;
  size_t n = 0;
  for (size_t i = 0; i < len && in[i] != '='; i++) {
    const char *d = memchr(digits, in[i], 64);
    if (d == NULL || in[i] == '\0') return -1;
    value = (value << 6) | (unsigned)(d - digits);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (char)((value >> bits) & 0xff);
    }
  }
  *out_len = n;
  return 0;
}

/* The descriptor of `id`'s `slot` the host sent, taken out of the queue; -1 if none. */
static int take_held(long id, int slot) {
  for (size_t i = 0; i < held_len; i++) {
    if (held[i].id != id || held[i].slot != slot) continue;
    int fd = held[i].fd;
    held[i] = held[--held_len];
    return fd;
  }
  return -1;
}

static void drop_held(long id) {
  for (size_t i = 0; i < held_len;) {
    if (held[i].id == id) {
      close(held[i].fd);
      held[i] = held[--held_len];
    } else {
      i++;
    }
  }
}

/* Every descriptor from `first` up is closed at exec (close_range, or one by one). */
static void cloexec_from(int first) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, (unsigned)first, ~0u, 4u /* CLOSE_RANGE_CLOEXEC */) == 0) return;
#endif
  for (int fd = first; fd < 65536; fd++) fcntl(fd, F_SETFD, FD_CLOEXEC);
}

struct request {
  const char *cwd;
  /* stdin, stdout, stderr: n /dev/null, p a pipe to the host, c closed, m as stdout,
   * l a pipeline link (stdin: a pipe from the next request's stdout; 1 and 2: the stdin
   * pipe of the request `to` names) */
  const char *io;
  const char *slots; /* descriptors 3..: h the host's, n /dev/null */
  char **argv;
  char **envp;
};

/* The payload: NUL-terminated fields cwd, io, slots, argc, argv..., then env entries. */
static int parse_request(char *payload, size_t len, struct request *r, char **store, size_t cap) {
  char *fields[4];
  size_t at = 0;
  for (int i = 0; i < 4; i++) {
    if (at >= len) return -1;
    fields[i] = payload + at;
    at += strlen(payload + at) + 1;
  }
  r->cwd = fields[0];
  r->io = fields[1];
  r->slots = fields[2];
  long argc = strtol(fields[3], NULL, 10);
  if (strlen(r->io) != 3 || strlen(r->slots) > SLOTS_MAX || argc < 1) return -1;
  size_t n = 0;
  while (at < len && n + 2 < cap) {
    store[n++] = payload + at;
    at += strlen(payload + at) + 1;
    if (n == (size_t)argc) store[n++] = NULL;
  }
  if (n <= (size_t)argc) return -1;
  store[n] = NULL;
  r->argv = store;
  r->envp = store + argc + 1;
  return 0;
}

/* A socket pair for a standard stream: [0] the child's end, [1] the host's. */
static int stream_pair(int pair[2]) {
  return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair);
}

static _Noreturn void child_exec(const struct request *r, int *want, int count, int errpipe) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  signal(SIGPIPE, SIG_DFL);
  int err = 0;
  /* Nothing the server started outlives it (it dies with the host). */
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) err = errno;
  if (err == 0 && setsid() < 0) err = errno;
  if (err == 0 && chdir(r->cwd) != 0) err = errno;
  /* Above every target first, so that no dup2 overwrites a source still to be placed. */
  int high[3 + SLOTS_MAX];
  for (int i = 0; err == 0 && i < count; i++) {
    high[i] = fcntl(want[i], F_DUPFD_CLOEXEC, 3 + count + 8);
    if (high[i] < 0) err = errno;
  }
  for (int i = 0; err == 0 && i < count; i++) {
    if (dup2(high[i], i) < 0) err = errno;
  }
  if (err == 0) {
    cloexec_from(count);
    execve(r->argv[0], r->argv, r->envp);
    err = errno;
  }
  while (write(errpipe, &err, sizeof err) < 0 && errno == EINTR) {
  }
  _exit(127);
}

/* What one request's child gets, and what the server holds of it until the fork. */
struct wiring {
  int want[3 + SLOTS_MAX]; /* the child's descriptor i */
  int own[3 + SLOTS_MAX];  /* the server's copies, closed after the fork */
  int owned;
  int host_end[3]; /* the host's end of a `p` stream */
  int kept;        /* the write end of an `l` stdin, kept as the request's link */
};

/* Descriptor `i` (0, 1 or 2) wired as `mode` says; returns 0 or an errno. */
static int wire_stream(struct wiring *w, int i, char mode, long to, int null_fd) {
  int ends[2];
  if (mode == 'm' && i == 2) {
    w->want[2] = w->want[1];
  } else if (mode == 'l' && i == 0) {
    if (pipe2(ends, O_CLOEXEC) != 0) return errno;
    w->want[0] = w->own[w->owned++] = ends[0];
    w->kept = ends[1];
  } else if (mode == 'l' && link_of(to) >= 0) {
    w->want[i] = link_of(to);
  } else if (mode == 'l') {
    /* The next stage already ended: a pipe nobody reads, as bash's would be. */
    if (pipe2(ends, O_CLOEXEC) != 0) return errno;
    close(ends[0]);
    w->want[i] = w->own[w->owned++] = ends[1];
  } else if (mode == 'p' || mode == 'c') {
    if (stream_pair(ends) != 0) return errno;
    w->want[i] = w->own[w->owned++] = ends[0];
    if (mode == 'p') w->host_end[i] = ends[1];
    else close(ends[1]);
  } else {
    w->want[i] = null_fd;
  }
  return 0;
}

static void spawn_request(long id, long to, char *payload, size_t len) {
  static char *store[65536];
  struct request r;
  if (parse_request(payload, len, &r, store, sizeof store / sizeof *store) != 0 ||
      children_len == CHILDREN_MAX) {
    drop_held(id);
    if (to >= 0) drop_link(to);
    sendf(-1, "{\"bridle\":\"exit\",\"id\":%ld,\"errno\":%ld}\n", id, EINVAL);
    return;
  }
  int count = 3 + (int)strlen(r.slots);
  struct wiring w = {.owned = 0, .host_end = {-1, -1, -1}, .kept = -1};
  int *want = w.want;
  int failed = 0;
  int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) failed = errno;
  for (int i = 0; i < 3 && !failed; i++) failed = wire_stream(&w, i, r.io[i], to, null_fd);
  for (int i = 3; i < count && !failed; i++) {
    int fd = r.slots[i - 3] == 'h' ? take_held(id, i) : null_fd;
    if (fd < 0) failed = EBADF;
    else if (fd != null_fd) w.own[w.owned++] = fd;
    want[i] = fd;
  }
  int errpipe[2] = {-1, -1};
  if (!failed && pipe2(errpipe, O_CLOEXEC) != 0) failed = errno;
  pid_t pid = failed ? -1 : fork();
  if (pid == 0) {
    close(channel);
    close(errpipe[0]);
    child_exec(&r, want, count, errpipe[1]);
  }
  if (pid < 0 && !failed) failed = errno;
  for (int i = 0; i < w.owned; i++) close(w.own[i]);
  if (null_fd >= 0) close(null_fd);
  drop_held(id);
  if (to >= 0) drop_link(to);
  if (errpipe[1] >= 0) close(errpipe[1]);
  if (failed) {
    for (int i = 0; i < 3; i++)
      if (w.host_end[i] >= 0) close(w.host_end[i]);
    if (errpipe[0] >= 0) close(errpipe[0]);
    if (w.kept >= 0) close(w.kept);
    sendf(-1, "{\"bridle\":\"exit\",\"id\":%ld,\"errno\":%ld}\n", id, failed);
    return;
  }
  children[children_len++] = (struct child){.pid = pid, .id = id, .errpipe = errpipe[0]};
  if (w.kept >= 0) links[links_len++] = (struct link){.id = id, .fd = w.kept};
  for (int i = 0; i < 3; i++) {
    if (w.host_end[i] < 0) continue;
    sendf(w.host_end[i],
          "{\"cmd\":\"NODE_HANDLE\",\"type\":\"net.Socket\",\"msg\":"
          "{\"bridle\":\"stdio\",\"id\":%ld,\"fd\":%ld}}\n",
          id, i);
    close(w.host_end[i]);
  }
  sendf(-1, "{\"bridle\":\"started\",\"id\":%ld,\"pid\":%ld}\n", id, pid);
}

static void handle_line(char *line, size_t len) {
  if (strstr(line, "\"NODE_HANDLE_ACK\"") != NULL || strstr(line, "\"NODE_HANDLE_NACK\"") != NULL)
    return; /* the host took (or refused) a stream we sent */
  if (strstr(line, "\"cmd\":\"NODE_HANDLE\"") != NULL) {
    if (arrived_len == 0) return; /* Node sends the descriptor with the line */
    int fd = arrived[0];
    memmove(arrived, arrived + 1, --arrived_len * sizeof *arrived);
    long id = field(line, "id"), slot = field(line, "slot");
    if (id < 0 || slot < 3 || slot >= 3 + SLOTS_MAX || held_len == QUEUE_MAX) close(fd);
    else held[held_len++] = (struct held){.id = id, .slot = (int)slot, .fd = fd};
    send_all("{\"cmd\":\"NODE_HANDLE_ACK\"}\n", 26, -1);
    return;
  }
  if (strstr(line, "\"bridle\":\"spawn\"") == NULL) return;
  long id = field(line, "id");
  const char *p = strstr(line, "\"p\":\"");
  if (id < 0 || p == NULL) return;
  p += 5;
  const char *end = memchr(p, '"', len - (size_t)(p - line));
  if (end == NULL) return;
  size_t decoded = 0;
  char *payload = malloc((size_t)(end - p) + 1);
  if (payload == NULL || unbase64(p, (size_t)(end - p), payload, &decoded) != 0) {
    free(payload);
    drop_held(id);
    if (field(line, "to") >= 0) drop_link(field(line, "to"));
    sendf(-1, "{\"bridle\":\"exit\",\"id\":%ld,\"errno\":%ld}\n", id, EINVAL);
    return;
  }
  spawn_request(id, field(line, "to"), payload, decoded);
  free(payload);
}

/* Reads what the host sent; returns 0 at end of the channel. */
static int read_channel(char **buf, size_t *have, size_t *cap) {
  if (*cap - *have < 65536) {
    if (*cap >= LINE_MAX_BYTES) _exit(EXIT_LAUNCH_FAILED);
    *cap *= 2;
    *buf = realloc(*buf, *cap);
    if (*buf == NULL) _exit(EXIT_LAUNCH_FAILED);
  }
  union {
    char buf[CMSG_SPACE(sizeof(int) * 16)];
    struct cmsghdr align;
  } control;
  struct iovec iov = {.iov_base = *buf + *have, .iov_len = *cap - *have - 1};
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                     .msg_controllen = sizeof control.buf};
  ssize_t n = recvmsg(channel, &m, MSG_CMSG_CLOEXEC);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t fds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < fds; i++) {
      int fd;
      memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      if (arrived_len < QUEUE_MAX) arrived[arrived_len++] = fd;
      else close(fd);
    }
  }
  if (n == 0) return 0;
  *have += (size_t)n;
  char *start = *buf, *nl;
  while ((nl = memchr(start, '\n', *have - (size_t)(start - *buf))) != NULL) {
    *nl = '\0';
    handle_line(start, (size_t)(nl - start));
    start = nl + 1;
  }
  *have -= (size_t)(start - *buf);
  memmove(*buf, start, *have);
  return 1;
}

static void reap_children(void) {
  for (;;) {
    int status = 0;
    pid_t done = waitpid(-1, &status, WNOHANG);
    if (done <= 0) return;
    for (size_t i = 0; i < children_len; i++) {
      if (children[i].pid != done) continue;
      int err = 0;
      ssize_t n = read(children[i].errpipe, &err, sizeof err);
      close(children[i].errpipe);
      long id = children[i].id;
      children[i] = children[--children_len];
      drop_link(id);
      if (n == (ssize_t)sizeof err) sendf(-1, "{\"bridle\":\"exit\",\"id\":%ld,\"errno\":%ld}\n", id, err);
      else if (WIFSIGNALED(status))
        sendf(-1, "{\"bridle\":\"exit\",\"id\":%ld,\"signal\":%ld}\n", id, WTERMSIG(status));
      else sendf(-1, "{\"bridle\":\"exit\",\"id\":%ld,\"code\":%ld}\n", id, WEXITSTATUS(status));
      break;
    }
  }
}

int serve_main(void) {
  pid_t host = getppid();
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail("prctl PDEATHSIG");
  if (getppid() != host) return 0;
  const char *text = getenv("NODE_CHANNEL_FD");
  channel = text == NULL ? -1 : (int)strtol(text, NULL, 10);
  if (channel < 3 || fcntl(channel, F_SETFD, FD_CLOEXEC) != 0)
    fail_msg("serve: no host channel (NODE_CHANNEL_FD)");
  unsetenv("NODE_CHANNEL_FD");
  unsetenv("NODE_CHANNEL_SERIALIZATION_MODE");
  /* Whatever else the host let through is not the server's to hold open. */
  for (int fd = 3; fd < 1024; fd++)
    if (fd != channel) close(fd);
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGCHLD);
  if (sigprocmask(SIG_BLOCK, &mask, NULL) != 0) fail("sigprocmask");
  signal(SIGPIPE, SIG_IGN);
  int sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sigfd < 0) fail("signalfd");
  size_t have = 0, cap = 65536 * 2;
  char *buf = malloc(cap);
  if (buf == NULL) fail("malloc");
  for (;;) {
    struct pollfd fds[2] = {{.fd = channel, .events = POLLIN}, {.fd = sigfd, .events = POLLIN}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      fail("poll");
    }
    if (fds[1].revents & POLLIN) {
      struct signalfd_siginfo info;
      while (read(sigfd, &info, sizeof info) == (ssize_t)sizeof info) {
      }
      reap_children();
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      if (!read_channel(&buf, &have, &cap)) break;
    }
  }
  /* The host is gone: nothing it started may outlive it. */
  for (size_t i = 0; i < children_len; i++) kill(-children[i].pid, SIGKILL);
  return 0;
}
