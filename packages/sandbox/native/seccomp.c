/*
 * bridle-launch: the seccomp filter, installed last before execve. It refuses io_uring,
 * namespace creation (so `unshare -U` fails; clone3 gets ENOSYS so libc falls back to
 * clone, whose flags we can read), setns, the mount family (masks stay in place) and,
 * under `net deny-all`, AF_INET/AF_INET6/AF_PACKET sockets (EACCES). Wrong arch: kill.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launch.h"

#if defined(__x86_64__)
#define BRIDLE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define BRIDLE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "bridle-launch: unsupported architecture"
#endif

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#define NS_FLAGS                                                                                  \
  (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID |   \
   CLONE_NEWNET)

#define MAX_INSNS 96
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ERRNO(e) (SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))
#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)offsetof(struct seccomp_data, field))
#define LOAD_ARG0_LOW BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)offsetof(struct seccomp_data, args[0]))

struct prog {
  struct sock_filter insns[MAX_INSNS];
  unsigned short len;
};

static void emit(struct prog *p, struct sock_filter insn) {
  if (p->len >= MAX_INSNS) fail_msg("seccomp: filter too long");
  p->insns[p->len++] = insn;
}

/* if (nr == syscall) return action; */
static void deny(struct prog *p, long nr, uint32_t action) {
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1));
  emit(p, (struct sock_filter)RET(action));
}

/* if (nr == syscall) return (arg0 & flags) ? EPERM : ALLOW; */
static void deny_flags(struct prog *p, long nr, uint32_t flags) {
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 4));
  emit(p, (struct sock_filter)LOAD_ARG0_LOW);
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, flags, 0, 1));
  emit(p, (struct sock_filter)RET(ERRNO(EPERM)));
  emit(p, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
}

static void deny_inet_sockets(struct prog *p) {
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 6));
  emit(p, (struct sock_filter)LOAD_ARG0_LOW);
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 3, 0));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 2, 0));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_PACKET, 1, 0));
  emit(p, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
  emit(p, (struct sock_filter)RET(ERRNO(EACCES)));
}

static void build(struct prog *p, int net_deny_all) {
  emit(p, (struct sock_filter)LOAD(arch));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BRIDLE_AUDIT_ARCH, 1, 0));
  emit(p, (struct sock_filter)RET(SECCOMP_RET_KILL_PROCESS));
  emit(p, (struct sock_filter)LOAD(nr));
#if defined(__x86_64__)
  /* x32 numbers alias the 64-bit table with bit 30 set: refuse them all. */
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
  emit(p, (struct sock_filter)RET(ERRNO(ENOSYS)));
#endif
  deny(p, __NR_io_uring_setup, ERRNO(ENOSYS));
  deny(p, __NR_io_uring_enter, ERRNO(ENOSYS));
  deny(p, __NR_io_uring_register, ERRNO(ENOSYS));
  deny(p, __NR_clone3, ERRNO(ENOSYS));
  deny(p, __NR_setns, ERRNO(EPERM));
  static const long mount_family[] = {
      __NR_mount,  __NR_umount2, __NR_pivot_root, __NR_move_mount, __NR_open_tree,
      __NR_fsopen, __NR_fsmount, __NR_fspick,     __NR_fsconfig,   __NR_mount_setattr,
  };
  for (size_t i = 0; i < sizeof mount_family / sizeof *mount_family; i++) {
    deny(p, mount_family[i], ERRNO(EPERM));
  }
  if (net_deny_all) deny_inet_sockets(p);
  deny_flags(p, __NR_unshare, NS_FLAGS | CLONE_NEWTIME);
  deny_flags(p, __NR_clone, NS_FLAGS); /* the low byte of clone's flags is the exit signal */
  emit(p, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
}

int seccomp_available(void) {
  uint32_t action = SECCOMP_RET_ERRNO;
  return syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

void seccomp_apply(const struct policy *pol) {
  struct prog p = {.len = 0};
  build(&p, pol->net_deny_all);
  struct sock_fprog fprog = {.len = p.len, .filter = p.insns};
  if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0) fail("seccomp: install");
}
