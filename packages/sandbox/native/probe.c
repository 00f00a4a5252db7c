/* bridle-launch: `--probe` (what this kernel supports) and `--peer-cred <fd>`. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch.h"

/* Whether a child can unshare these namespaces (the child exits; nothing persists). */
static int can_unshare(int flags) {
  pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) _exit(unshare(flags) == 0 ? 0 : 1);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int probe_main(void) {
  int userns = can_unshare(CLONE_NEWUSER);
  int pidns = can_unshare(CLONE_NEWPID | CLONE_NEWNS | (geteuid() != 0 ? CLONE_NEWUSER : 0));
  static const char *const modes[] = {"none", "cgroup", "userns-rlimit"};
  printf("{\"launcher_version\":%d,\"landlock_abi\":%d,\"seccomp\":%s,\"user_namespaces\":%s,"
         "\"pid_namespaces\":%s,\"max_procs\":\"%s\"}\n",
         LAUNCHER_VERSION, landlock_abi(), seccomp_available() ? "true" : "false",
         userns ? "true" : "false", pidns ? "true" : "false", modes[isolate_procs_mode()]);
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
