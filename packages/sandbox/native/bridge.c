/*
 * bridle-launch: the network bridge of a host allow-list (`net proxy`, network.md §2).
 * The launcher enters a network namespace of its own holding only `lo`; the bridge, a
 * second process of the call's PID namespace (never the target's child, so a target
 * that waits for every child is not kept waiting), listens on 127.0.0.1 at each `proxy`
 * port and relays every accepted connection byte for byte to the UNIX socket of that
 * port, where the host's egress proxy decides. It parses nothing: what a connection
 * carries is the proxy's to judge. Once listening it holds no capability and a Landlock
 * domain of its own that opens no file and makes no TCP connection. It dies with the namespace (the target is its init).
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "launch.h"

#define BRIDGE_MAX_PAIRS 128 /* the host proxy caps a call lower; this bounds the bridge */
#define BRIDGE_BUF (64 * 1024)

struct half { /* one direction: bytes read from `from`, not yet written to `to` */
  char buf[BRIDGE_BUF];
  size_t off, len;
  int eof; /* `from` reached end of file */
  int shut; /* `to` was shut for writing after the last byte */
};

struct pair {
  int tcp, unix_fd; /* -1: slot free */
  struct half up;   /* tcp → unix */
  struct half down; /* unix → tcp */
};

static struct pair pairs[BRIDGE_MAX_PAIRS];

/* `lo` up: the namespace's only interface (needs CAP_NET_ADMIN over it: the launcher's). */
void bridge_loopback_up(void) {
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("net proxy: socket for lo");
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
  if (ioctl(fd, SIOCGIFFLAGS, &ifr) != 0) fail("net proxy: read lo flags");
  ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
  if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0) fail("net proxy: bring lo up");
  close(fd);
}

static int listen_on(uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) fail("net proxy: socket");
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) fail("net proxy: bind bridge port");
  if (listen(fd, 128) != 0) fail("net proxy: listen");
  return fd;
}

static int connect_host(const char *path) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

static void drop(struct pair *p) {
  close(p->tcp);
  close(p->unix_fd);
  p->tcp = p->unix_fd = -1;
}

/* Moves what it can one way; 0 to keep the pair, -1 when it must close. */
static int pump(struct half *h, int from, int to, short from_ready, short to_ready) {
  if (h->len == 0 && !h->eof && (from_ready & (POLLIN | POLLHUP | POLLERR))) {
    ssize_t n = read(from, h->buf, sizeof h->buf);
    if (n > 0) {
      h->off = 0;
      h->len = (size_t)n;
    } else if (n == 0) {
      h->eof = 1;
    } else if (errno != EAGAIN && errno != EINTR) {
      return -1;
    }
  }
  if (h->len > 0 && (to_ready & (POLLOUT | POLLERR | POLLHUP) || from_ready)) {
    ssize_t n = send(to, h->buf + h->off, h->len, MSG_NOSIGNAL);
    if (n > 0) {
      h->off += (size_t)n;
      h->len -= (size_t)n;
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
      return -1;
    }
  }
  if (h->eof && h->len == 0 && !h->shut) {
    shutdown(to, SHUT_WR);
    h->shut = 1;
  }
  return 0;
}

static void accept_on(int listener, const char *path) {
  for (;;) {
    int tcp = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (tcp < 0) return;
    struct pair *slot = NULL;
    for (size_t i = 0; i < BRIDGE_MAX_PAIRS && slot == NULL; i++)
      if (pairs[i].tcp < 0) slot = &pairs[i];
    int host = slot == NULL ? -1 : connect_host(path);
    if (host < 0) { /* full, or the proxy is gone: the client sees a reset, nothing leaves */
      close(tcp);
      continue;
    }
    int one = 1; /* relayed bytes go out as they come: no Nagle stall behind a delayed ACK */
    setsockopt(tcp, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    memset(slot, 0, sizeof *slot);
    slot->tcp = tcp;
    slot->unix_fd = host;
  }
}

static _Noreturn void relay(const struct policy *p, const int *listeners) {
  size_t np = p->proxy_len;
  for (size_t i = 0; i < BRIDGE_MAX_PAIRS; i++) pairs[i].tcp = pairs[i].unix_fd = -1;
  struct pollfd fds[PROXY_MAX + 2 * BRIDGE_MAX_PAIRS];
  int slot_of[2 * BRIDGE_MAX_PAIRS];
  for (;;) {
    size_t n = 0;
    for (size_t i = 0; i < np; i++) fds[n++] = (struct pollfd){.fd = listeners[i], .events = POLLIN};
    size_t first_pair = n;
    for (size_t i = 0; i < BRIDGE_MAX_PAIRS; i++) {
      struct pair *q = &pairs[i];
      if (q->tcp < 0) continue;
      short tcp_ev = (short)((q->up.len == 0 && !q->up.eof ? POLLIN : 0) | (q->down.len ? POLLOUT : 0));
      short unix_ev = (short)((q->down.len == 0 && !q->down.eof ? POLLIN : 0) | (q->up.len ? POLLOUT : 0));
      slot_of[n - first_pair] = (int)i;
      fds[n++] = (struct pollfd){.fd = q->tcp, .events = tcp_ev};
      slot_of[n - first_pair] = (int)i;
      fds[n++] = (struct pollfd){.fd = q->unix_fd, .events = unix_ev};
    }
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      _exit(EXIT_LAUNCH_FAILED);
    }
    for (size_t i = 0; i < np; i++)
      if (fds[i].revents & POLLIN) accept_on(listeners[i], p->proxy[i].path);
    for (size_t k = first_pair; k + 1 < n; k += 2) {
      struct pair *q = &pairs[slot_of[k - first_pair]];
      if (q->tcp != fds[k].fd) continue; /* a slot filled by accept_on in this round */
      short tr = fds[k].revents, ur = fds[k + 1].revents;
      int bad = pump(&q->up, q->tcp, q->unix_fd, tr, ur) < 0 ||
                pump(&q->down, q->unix_fd, q->tcp, ur, tr) < 0;
      int done = q->up.shut && q->down.shut;
      if (bad || done) drop(q);
    }
  }
}

/*
 * Launcher, in the call's network namespace, after the target's fork (the target is the
 * PID namespace's init): forks the bridge and returns once it listens on every port, so
 * the target, told to go only afterwards, never meets a port nobody listens on.
 */
void bridge_start(const struct policy *p) {
  int ready[2];
  if (pipe2(ready, O_CLOEXEC) != 0) fail("net proxy: pipe");
  pid_t pid = fork();
  if (pid < 0) fail("net proxy: fork the bridge");
  if (pid == 0) {
    close(ready[0]);
    /* Nothing of the launcher's: no policy, no keep-fd, no output pipe of the call
       (stderr stays until it listens, for a failure's message). */
    if (ready[1] > 3 && close_range(3, (unsigned)ready[1] - 1, 0) != 0) fail("net proxy: close");
    if (close_range((unsigned)ready[1] + 1, ~0U, 0) != 0) fail("net proxy: close");
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null <= 2 || dup2(null, 0) < 0 || dup2(null, 1) < 0) fail("net proxy: /dev/null");
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail("net proxy: prctl PDEATHSIG");
    /* Not dumpable: the target, same uid, can read nothing of it through /proc. */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) fail("net proxy: prctl DUMPABLE");
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_IGN);
    int listeners[PROXY_MAX];
    for (size_t i = 0; i < p->proxy_len; i++) listeners[i] = listen_on(p->proxy[i].port);
    caps_drop_all();
    landlock_bridge();
    if (write(ready[1], "r", 1) != 1) _exit(EXIT_LAUNCH_FAILED);
    close(ready[1]);
    if (dup2(null, 2) < 0) _exit(EXIT_LAUNCH_FAILED); /* opened before the domain forbade it */
    close(null);
    relay(p, listeners);
  }
  close(ready[1]);
  char byte;
  ssize_t n;
  while ((n = read(ready[0], &byte, 1)) < 0 && errno == EINTR) {
  }
  if (n != 1) fail_msg("net proxy: the bridge did not start");
  close(ready[0]);
}
