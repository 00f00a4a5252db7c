/*
 * bridle-launch: the file-size limit, reported whatever a program does with SIGXFSZ.
 *
 * The kernel answers a write past RLIMIT_FSIZE with EFBIG and a SIGXFSZ to the writer,
 * and drops that signal at once when the writer ignores it (python and Node do), so
 * neither the writer's exit nor any counter tells the launcher. A tracer sees every
 * signal, ignored ones too (the kernel never ignores a signal for a traced process), so
 * the launcher seizes its target and, through the fork, vfork and clone events, every
 * process and thread of the tree: no syscall stops, only signal deliveries, new tasks
 * and exits. A SIGXFSZ delivered (ignored, caught or fatal) marks the limit hit; a
 * blocked one is still pending when its process exits, and is read at the exit stop.
 * Each signal is passed on unchanged, group stops are kept (PTRACE_LISTEN), so what the
 * programs see is what they would see untraced. Where the kernel refuses the seize (a
 * host that forbids ptrace), the report falls back to a SIGXFSZ death (ADR 0021).
 *
 * The same new-task events let the launcher make every process its target starts the
 * memory cgroup's preferred victim (oom_score_adj 500, raised, never lowered): a program
 * that runs the tree out of memory is killed, not the shell or interpreter that started
 * it, which then goes on and reports (ADR 0021, amended 2026-12-06).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "launch.h"

#ifndef PTRACE_LISTEN
#define PTRACE_LISTEN 0x4208
#endif
#ifndef PTRACE_EVENT_STOP
#define PTRACE_EVENT_STOP 128
#endif
#ifndef PTRACE_PEEKSIGINFO
#define PTRACE_PEEKSIGINFO 0x4209
#endif
#ifndef PTRACE_PEEKSIGINFO_SHARED
#define PTRACE_PEEKSIGINFO_SHARED 1
#endif

struct peeksiginfo_args_compat {
  unsigned long long off;
  unsigned int flags;
  int nr;
};

#define PROGRAM_OOM_SCORE_ADJ 500

static int traced;
static int file_size_hit;

/* The thread-group id of task `tid` (itself for a process), or -1. */
static pid_t tgid_of(pid_t tid) {
  char path[64], line[128];
  snprintf(path, sizeof path, "/proc/%ld/status", (long)tid);
  FILE *f = fopen(path, "re");
  if (f == NULL) return -1;
  long tgid = -1;
  while (fgets(line, sizeof line, f) != NULL && sscanf(line, "Tgid: %ld", &tgid) != 1) {
  }
  fclose(f);
  return (pid_t)tgid;
}

/* A new process of the tree: the OOM killer's choice before the one that started it. */
static void prefer_as_victim(pid_t pid) {
  char path[64], text[16] = {0};
  snprintf(path, sizeof path, "/proc/%ld/oom_score_adj", (long)pid);
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  if (read(fd, text, sizeof text - 1) > 0 && atoi(text) < PROGRAM_OOM_SCORE_ADJ) {
    snprintf(text, sizeof text, "%d", PROGRAM_OOM_SCORE_ADJ);
    (void)!pwrite(fd, text, strlen(text), 0);
  }
  close(fd);
}

int trace_seize(pid_t pid) {
  long options = PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |
                 PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL;
  traced = ptrace(PTRACE_SEIZE, pid, 0, (void *)options) == 0;
  return traced;
}

/* Whether a SIGXFSZ is queued for `pid` (its own queue, or its process's when `shared`). */
static int xfsz_pending(pid_t pid, int shared) {
  siginfo_t queued[64];
  for (unsigned long long off = 0; off < 4096; off += 64) {
    struct peeksiginfo_args_compat args = {
        .off = off, .flags = shared ? PTRACE_PEEKSIGINFO_SHARED : 0, .nr = 64};
    long n = ptrace(PTRACE_PEEKSIGINFO, pid, &args, queued);
    if (n <= 0) return 0;
    for (long i = 0; i < n; i++) {
      if (queued[i].si_signo == SIGXFSZ) return 1;
    }
    if (n < 64) return 0;
  }
  return 0;
}

static int is_stop_signal(int sig) {
  return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

void trace_stopped(pid_t pid, int status) {
  int sig = WSTOPSIG(status);
  int event = (unsigned)status >> 16;
  if (event == PTRACE_EVENT_STOP) {
    /* A group stop stays one (SIGCONT ends it); a new task's first stop is SIGTRAP. */
    if (is_stop_signal(sig)) (void)ptrace(PTRACE_LISTEN, pid, 0, 0);
    else (void)ptrace(PTRACE_CONT, pid, 0, 0);
    return;
  }
  if (event == PTRACE_EVENT_EXIT) {
    if (!file_size_hit && (xfsz_pending(pid, 0) || xfsz_pending(pid, 1))) file_size_hit = 1;
    (void)ptrace(PTRACE_CONT, pid, 0, 0);
    return;
  }
  if (event != 0) { /* fork, vfork, clone, vfork done */
    unsigned long born = 0;
    if ((event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
         event == PTRACE_EVENT_CLONE) &&
        ptrace(PTRACE_GETEVENTMSG, pid, 0, &born) == 0 && tgid_of((pid_t)born) == (pid_t)born)
      prefer_as_victim((pid_t)born);
    (void)ptrace(PTRACE_CONT, pid, 0, 0);
    return;
  }
  if (sig == SIGXFSZ) file_size_hit = 1;
  (void)ptrace(PTRACE_CONT, pid, 0, (void *)(long)sig); /* delivered as it would be */
}

int trace_file_size_hit(void) { return file_size_hit; }
