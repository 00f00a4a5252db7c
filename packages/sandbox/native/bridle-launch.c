/*
 * bridle-launch: entry point. Reads the policy, sets no_new_privs, creates the per-call
 * cgroups, enters the PID (and, for non-root, user) namespace, forks the target as PID 1
 * of it and stays as its reaper; under `net proxy` it hands the host its proxy ports (bridge.c). The target enters its other namespaces, builds its
 * private view, drops every capability, applies Landlock and seccomp and execs.
 * Protocol: ../docs/launcher-protocol.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch.h"

extern char **environ;

static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

static void signal_set(sigset_t *set) {
  sigemptyset(set);
  for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) sigaddset(set, forwarded[i]);
  sigaddset(set, SIGCHLD);
}

static _Noreturn void exec_or_fail(const char *program, char **argv) {
  execve(program, argv, environ);
  int err = errno;
  char what[4200];
  snprintf(what, sizeof what, "exec %s", program);
  fail_code(err == ENOENT ? EXIT_NOT_FOUND
            : (err == EACCES || err == ENOEXEC || err == EPERM) ? EXIT_NOT_EXECUTABLE
                                                                : EXIT_LAUNCH_FAILED,
            what, err);
}

/*
 * `--nest <program> -- <argv0> [arg...]`: a program started by a confined engine (the bash
 * worker) from inside the call. It already runs in the call's view, namespaces and
 * filters; the nest adds a Landlock domain of its own, so it cannot trace, read the
 * memory or descriptors of, or signal the engine that started it (kernel-boundary.md §2,
 * the engine's own process).
 */
static _Noreturn void nest_main(const char *program, char **argv) {
  if (program[0] != '/') fail_msg("program must be an absolute path");
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("prctl NO_NEW_PRIVS");
  landlock_nest();
  exec_or_fail(program, argv);
}

static _Noreturn void run_target(const struct policy *p, int parent_alive, int go, char **argv,
                                 const sigset_t *old_mask) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail("prctl PDEATHSIG");
  struct pollfd alive = {.fd = parent_alive, .events = POLLIN};
  if (poll(&alive, 1, 0) != 0) _exit(EXIT_LAUNCH_FAILED); /* the launcher is already gone */
  isolate_child(p, go);
  caps_drop_all();
  landlock_apply(p);
  seccomp_apply(p);
  if (sigprocmask(SIG_SETMASK, old_mask, NULL) != 0) fail("sigprocmask");
  exec_or_fail(argv[0], argv);
}

/*
 * A signal from outside the namespace reaches its PID 1 only if PID 1 catches it, so a
 * default-disposition target would never die of a forwarded SIGTERM. Emulate the default
 * action: forward when caught, drop when ignored, otherwise SIGKILL (reported as signal).
 */
static int forward(pid_t child, int sig) {
  char path[64], line[256];
  unsigned long long caught = 0, ignored = 0;
  snprintf(path, sizeof path, "/proc/%ld/status", (long)child);
  FILE *f = fopen(path, "re");
  if (f != NULL) {
    while (fgets(line, sizeof line, f) != NULL) {
      sscanf(line, "SigCgt: %llx", &caught);
      sscanf(line, "SigIgn: %llx", &ignored);
    }
    fclose(f);
  }
  unsigned long long bit = 1ULL << (sig - 1);
  if (caught & bit) return kill(child, sig), 0;
  if (ignored & bit) return 0;
  kill(child, SIGKILL);
  return sig;
}

/*
 * Every child is reaped: the namespace's init does not
 * finish exiting while a process of its namespace is left unreaped.
 */
static int reap(pid_t child, const sigset_t *set) {
  int killed_by = 0;
  for (;;) {
    int status = 0;
    /* __WALL: the tree's processes and threads are traced (trace.c) and report here. */
    pid_t done = waitpid(-1, &status, WNOHANG | __WALL);
    if (done > 0 && WIFSTOPPED(status)) {
      trace_stopped(done, status);
      continue;
    }
    if (done > 0 && done != child) continue; /* a traced descendant */
    if (done == child) {
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
      return 128 + (sig == SIGKILL && killed_by != 0 ? killed_by : sig);
    }
    if (done < 0 && errno != EINTR) fail("waitpid");
    int sig = sigwaitinfo(set, NULL);
    if (sig > 0 && sig != SIGCHLD) {
      int emulated = forward(child, sig);
      if (emulated != 0) killed_by = emulated;
    }
  }
}

static int launch(struct policy policy, char **target) {
  for (size_t i = 0; i < policy.keep_fds_len; i++) {
    if (fcntl(policy.keep_fds[i], F_GETFD) < 0) fail_msg("keep-fd: descriptor is not open");
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("prctl NO_NEW_PRIVS");
  isolate_lower_priority(&policy);
  if (policy.max_procs != 0 && isolate_procs_mode() == PROCS_NONE)
    fail_msg("max-procs: no pids cgroup and no user namespace");
  cgroups_create(&policy);
  isolate_enter_namespaces(policy.net_proxy);
  int channel = policy.net_proxy ? bridge_channel_take(&policy) : -1;
  int alive[2], go[2];
  if (pipe2(alive, O_CLOEXEC) != 0 || pipe2(go, O_CLOEXEC) != 0) fail("pipe");
  sigset_t set, old_mask;
  signal_set(&set);
  if (sigprocmask(SIG_BLOCK, &set, &old_mask) != 0) fail("sigprocmask");
  /*
   * fork, not vfork: the launcher moves the child into the call's cgroups while the child
   * builds its view, since an attach waits for an RCU grace period (up to milliseconds,
   * longer than the whole view on a busy host). The child execs nothing before `go`.
   */
  pid_t child = fork();
  if (child < 0) fail("fork");
  if (child == 0) {
    close(alive[1]);
    close(go[1]);
    run_target(&policy, alive[0], go[0], target, &old_mask);
  }
  close(alive[0]);
  close(go[0]);
  cgroups_attach(child);
  /* Traced before it runs anything: a SIGXFSZ anywhere in the tree is seen (trace.c). */
  if (policy.has_fsize) (void)trace_seize(child);
  /* While the target builds its view: the proxy ports of the namespace they share. */
  if (policy.net_proxy) bridge_hand_over(&policy, channel);
  if (write(go[1], "g", 1) != 1) fail("start the target");
  close(go[1]);
  int code = reap(child, &set);
  const char *limit = cgroups_limit_hit();
  int file_size = trace_file_size_hit();
  if (limit != NULL || file_size) {
    dprintf(2, "\nbridle-launch: limit exceeded: %s%s%s\n", limit != NULL ? limit : "",
            limit != NULL && file_size ? "," : "", file_size ? "file_size" : "");
  }
  cgroups_remove();
  return code;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--probe") == 0) return probe_main();
  if (argc == 2 && strcmp(argv[1], "--serve") == 0) return serve_main();
  if (argc >= 5 && strcmp(argv[1], "--nest") == 0 && strcmp(argv[3], "--") == 0)
    nest_main(argv[2], argv + 4);
  if (argc == 3 && strcmp(argv[1], "--peer-cred") == 0) return peer_cred_main(argv[2]);
  int by_fd = argc >= 5 && strcmp(argv[1], "--policy-fd") == 0;
  int by_text = argc >= 5 && strcmp(argv[1], "--policy") == 0;
  if (!(by_fd || by_text) || strcmp(argv[3], "--") != 0) {
    fail_msg("usage: bridle-launch --policy-fd <n> | --policy <text> -- <program> [arg...] | "
             "--nest <program> -- <argv0> [arg...] | --serve | --probe | --peer-cred <fd>");
  }
  if (argv[4][0] != '/') fail_msg("program must be an absolute path");
  struct policy policy;
  if (by_text) {
    /* The policy as an argument: no pipe to set up and drain for every spawn. */
    policy_parse(argv[2], strlen(argv[2]), &policy);
  } else {
    char *end = NULL;
    long fd = strtol(argv[2], &end, 10);
    if (argv[2][0] == '\0' || *end != '\0' || fd < 0 || fd > 65535) fail_msg("--policy-fd: bad fd");
    policy_read((int)fd, &policy);
    close((int)fd);
  }
  return launch(policy, argv + 4);
}
