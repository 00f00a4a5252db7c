/*
 * bridle-launch: `--probe` (what this host gives, layer by layer, found by setting each
 * layer up for real in a throw-away target) and `--peer-cred <fd>`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch.h"

/* The layers in the order a launch sets them up; the probe reports how far it got. */
enum layer { L_NAMESPACES = 0, L_VIEW, L_CAPABILITIES, L_LANDLOCK, L_SECCOMP, LAYERS };
static const char *const layer_names[LAYERS] = {"namespaces", "private_view", "capabilities",
                                                "landlock", "seccomp"};

static int wait_exit(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A throw-away target: every layer of a restricted launch, reporting each it completes on
   `steps` (one byte per layer) and its failure, if any, on stderr (`errors`). */
static _Noreturn void trial(int steps, int errors) {
  dup2(errors, 2);
  struct policy p;
  memset(&p, 0, sizeof p);
  p.fs_read = p.fs_write = p.exec = AXIS_RESTRICTED;
  p.net_deny_all = 1;
  p.tmpfs_bytes = 1 << 20;
  p.keep_fds = (int[]){steps};
  p.keep_fds_len = 1;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("prctl NO_NEW_PRIVS");
  isolate_enter_namespaces(0);
  pid_t child = fork();
  if (child < 0) fail("fork");
  if (child > 0) _exit(wait_exit(child) == 0 ? 0 : 1);
  isolate_enter_target_namespaces(&p);
  char step = 1;
  if (write(steps, &step, 1) != 1) _exit(1);
  view_build(&p);
  if (write(steps, &step, 1) != 1) _exit(1);
  caps_drop_all();
  if (!caps_all_clear()) fail_msg("capabilities remain after the drop");
  if (write(steps, &step, 1) != 1) _exit(1);
  landlock_apply(&p);
  if (write(steps, &step, 1) != 1) _exit(1);
  seccomp_apply(&p);
  if (write(steps, &step, 1) != 1) _exit(1);
  _exit(0);
}

/* Whether a host allow-list's network can be set up here (`net proxy`): a network
   namespace of its own with `lo` up, a listener on 127.0.0.1 and a connection to it. */
static int net_proxy_works(void) {
  pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) dup2(null, 2); /* a failure is the answer, not a message */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) _exit(1);
    isolate_enter_namespaces(1);
    int server = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (server < 0 || client < 0 || bind(server, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        listen(server, 1) != 0 || getsockname(server, (struct sockaddr *)&addr, &len) != 0 ||
        connect(client, (struct sockaddr *)&addr, sizeof addr) != 0)
      _exit(1);
    _exit(0);
  }
  return wait_exit(pid) == 0;
}

/* Prints `text` as a JSON string body (quotes and control characters escaped). */
static void json_text(const char *text) {
  for (const char *c = text; *c != '\0'; c++) {
    if (*c == '"' || *c == '\\') printf("\\%c", *c);
    else if ((unsigned char)*c < 0x20) printf(" ");
    else putchar(*c);
  }
}

int probe_main(void) {
  int steps[2], errors[2];
  if (pipe2(steps, O_CLOEXEC) != 0 || pipe2(errors, O_CLOEXEC) != 0) fail("pipe");
  pid_t pid = fork();
  if (pid < 0) fail("fork");
  if (pid == 0) {
    close(steps[0]);
    close(errors[0]);
    trial(steps[1], errors[1]);
  }
  close(steps[1]);
  close(errors[1]);
  int reached = 0;
  char buf[64];
  ssize_t n;
  while ((n = read(steps[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) reached += (int)n;
  }
  char error[512] = "";
  size_t len = 0;
  while (len + 1 < sizeof error && (n = read(errors[0], error + len, sizeof error - 1 - len)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    len += (size_t)n;
  }
  error[len] = '\0';
  error[strcspn(error, "\n")] = '\0';
  wait_exit(pid);
  static const char *const modes[] = {"none", "cgroup", "userns-rlimit"};
  printf("{\"launcher_version\":%d,\"landlock_abi\":%d,\"seccomp\":%s,\"user_namespaces\":%s,"
         "\"pid_namespaces\":%s,\"max_procs\":\"%s\",\"memory_limit\":\"%s\",\"layers\":{",
         LAUNCHER_VERSION, landlock_abi(), seccomp_available() ? "true" : "false",
         reached > L_NAMESPACES ? "true" : "false", reached > L_NAMESPACES ? "true" : "false",
         modes[isolate_procs_mode()], cgroups_memory_available() ? "cgroup" : "none");
  for (int i = 0; i < LAYERS; i++) printf("%s\"%s\":%s", i ? "," : "", layer_names[i], reached > i ? "true" : "false");
  printf("},\"net_proxy\":%s,\"serve\":true,\"layer_error\":\"", net_proxy_works() ? "true" : "false");
  json_text(reached < LAYERS ? (error[0] ? error : "failed without a message") : "");
  printf("\"}\n");
  return fflush(stdout) == 0 ? 0 : EXIT_LAUNCH_FAILED;
}

/* Kernel-attested credentials of the peer of a connected unix socket (SO_PEERCRED). */
int peer_cred_main(const char *fd_text) {
  char *end = NULL;
  long fd = strtol(fd_text, &end, 10);
  if (*fd_text == '\0' || *end != '\0' || fd < 0 || fd > 65535) fail_msg("--peer-cred: bad fd");
  struct ucred cred;
  socklen_t len = sizeof cred;
  if (getsockopt((int)fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) fail("--peer-cred");
  printf("{\"pid\":%ld,\"uid\":%lu,\"gid\":%lu}\n", (long)cred.pid, (unsigned long)cred.uid,
         (unsigned long)cred.gid);
  return fflush(stdout) == 0 ? 0 : EXIT_LAUNCH_FAILED;
}
