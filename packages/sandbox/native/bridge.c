/*
 * bridle-launch: the network of a host allow-list (`net proxy`, network.md §2). The
 * launcher enters a network namespace of its own holding only `lo`, binds and listens on
 * 127.0.0.1 at each `proxy` port there, and hands the listening sockets to the host
 * process over the IPC channel it was spawned with (Node's, named by NODE_CHANNEL_FD),
 * then closes its own copies. The host's egress proxy accepts on them directly: what a
 * connection carries is the proxy's to judge, and no socket anywhere on the file system,
 * nor any address outside the call's namespace, leads to the proxy (ADR 0017, amended).
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "launch.h"

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

/*
 * Launcher, before the target's fork: the host's channel, made close-on-exec and its
 * variables removed from the environment, so the target neither inherits it nor is told
 * of it (a Node program would otherwise take a descriptor of its own for the channel).
 */
int bridge_channel_take(const struct policy *p) {
  const char *text = getenv("NODE_CHANNEL_FD");
  char *end = NULL;
  long fd = text == NULL ? -1 : strtol(text, &end, 10);
  if (text == NULL || *text == '\0' || *end != '\0' || fd < 3 || fd > 65535)
    fail_msg("net proxy: no host channel (NODE_CHANNEL_FD)");
  for (size_t i = 0; i < p->keep_fds_len; i++)
    if (p->keep_fds[i] == (int)fd) fail_msg("net proxy: the host channel is a keep-fd");
  struct stat st;
  int type = 0;
  socklen_t len = sizeof type;
  if (fstat((int)fd, &st) != 0 || !S_ISSOCK(st.st_mode) ||
      getsockopt((int)fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM)
    fail_msg("net proxy: the host channel is not a stream socket");
  if (fcntl((int)fd, F_SETFD, FD_CLOEXEC) != 0) fail("net proxy: host channel");
  unsetenv("NODE_CHANNEL_FD");
  unsetenv("NODE_CHANNEL_SERIALIZATION_MODE");
  return (int)fd;
}

static int listen_on(uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("net proxy: socket");
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) fail("net proxy: bind a proxy port");
  if (listen(fd, 128) != 0) fail("net proxy: listen");
  return fd;
}

/* One message of Node's IPC protocol (json mode) carrying a listening socket: the host's
   ChildProcess emits `message` with {bridle: "egress", port} and a net.Server. */
static void send_listener(int channel, int listener, uint16_t port) {
  char msg[160];
  int n = snprintf(msg, sizeof msg,
                   "{\"cmd\":\"NODE_HANDLE\",\"type\":\"net.Server\",\"msg\":"
                   "{\"bridle\":\"egress\",\"port\":%u}}\n",
                   (unsigned)port);
  struct iovec iov = {.iov_base = msg, .iov_len = (size_t)n};
  union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                     .msg_controllen = sizeof control.buf};
  struct cmsghdr *c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &listener, sizeof listener);
  ssize_t sent;
  while ((sent = sendmsg(channel, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  if (sent != n) fail("net proxy: hand a proxy port to the host");
}

/*
 * Waits for the host to acknowledge `count` handles (Node answers each with one
 * NODE_HANDLE_ACK line). Closing the channel sooner could lose one: Node drops a channel
 * whose acknowledgement it cannot write, with what it has not read yet.
 */
static void await_acks(int channel, size_t count) {
  static const char ack[] = "\"cmd\":\"NODE_HANDLE_ACK\"";
  char buf[512];
  size_t have = 0, acked = 0;
  while (acked < count) {
    struct pollfd pfd = {.fd = channel, .events = POLLIN};
    int ready = poll(&pfd, 1, 10000);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) fail_msg("net proxy: the host did not take the proxy ports");
    ssize_t n = read(channel, buf + have, sizeof buf - 1 - have);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_msg("net proxy: the host closed its channel");
    have += (size_t)n;
    buf[have] = '\0';
    char *line;
    while ((line = memchr(buf, '\n', have)) != NULL) { /* one message per line */
      *line = '\0';
      if (strstr(buf, "NODE_HANDLE_NACK") != NULL) fail_msg("net proxy: the host refused a port");
      if (strstr(buf, ack) != NULL) acked++;
      size_t used = (size_t)(line + 1 - buf);
      memmove(buf, line + 1, have - used);
      have -= used;
    }
    if (have == sizeof buf - 1) fail_msg("net proxy: the host's channel sent a long line");
  }
}

/*
 * Launcher, in the call's network namespace, after the target's fork (so the target
 * never held a listener) and before it is told to go (so it never meets a port nobody
 * listens on: connections wait in the backlog until the host accepts). The launcher
 * keeps nothing: once the host acknowledged them, its copies of the listeners and of
 * the channel are closed.
 */
void bridge_hand_over(const struct policy *p, int channel) {
  int listeners[PROXY_MAX];
  for (size_t i = 0; i < p->proxy_len; i++) {
    listeners[i] = listen_on(p->proxy[i].port);
    send_listener(channel, listeners[i], p->proxy[i].port);
  }
  await_acks(channel, p->proxy_len);
  for (size_t i = 0; i < p->proxy_len; i++) close(listeners[i]);
  close(channel);
}
