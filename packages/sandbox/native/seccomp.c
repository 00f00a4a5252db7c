/*
 * bridle-launch: the seccomp filter, installed last before execve (kernel-boundary.md §2).
 * Refused: tracing and other processes' memory and descriptors, file handles, keyrings,
 * perf, bpf, userfaultfd, io_uring, the mount family, namespace creation and joining
 * (clone3 gets ENOSYS so libc falls back to clone, whose flags we can read), chroot,
 * modules, kexec, reboot, swap, clocks, acct, syslog, device-node mknod, terminal
 * injection ioctls, and socket families the grant does not give (AF_UNIX socket() unless
 * `net all`; AF_INET/AF_INET6 under `net deny-all`; netlink, packet, vsock, … always).
 * socketpair stays, of the connected kinds only unless `net all`. A foreign architecture is killed; x32 numbers get ENOSYS.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
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

#define MAX_INSNS 320
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ERRNO(e) (SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))
#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)offsetof(struct seccomp_data, field))
/* The low 32 bits of an argument (little-endian on both supported architectures). */
#define LOAD_ARG_LOW(n) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)offsetof(struct seccomp_data, args[n]))

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
  emit(p, (struct sock_filter)LOAD_ARG_LOW(0));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, flags, 0, 1));
  emit(p, (struct sock_filter)RET(ERRNO(EPERM)));
  emit(p, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
}

/* if (nr == syscall) return (the argument's file type is a device) ? EPERM : ALLOW; */
static void deny_device_mode(struct prog *p, long nr, int arg) {
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 6));
  emit(p, (struct sock_filter)LOAD_ARG_LOW(arg));
  emit(p, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, S_IFMT));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, S_IFCHR, 2, 0));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, S_IFBLK, 1, 0));
  emit(p, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
  emit(p, (struct sock_filter)RET(ERRNO(EPERM)));
}

/* ioctl: terminal input injection and the Linux console's multiplexer. */
static void deny_tty_injection(struct prog *p) {
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 5));
  emit(p, (struct sock_filter)LOAD_ARG_LOW(1));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 2, 0));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 1, 0));
  emit(p, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
  emit(p, (struct sock_filter)RET(ERRNO(EPERM)));
}

/* socket(domain): the families the grant gives pass; unix and IP ones refused with
   EACCES (a refusal), every other family with EAFNOSUPPORT (absent, as programs expect). */
static void filter_socket_families(struct prog *p, int allow_unix, int allow_inet) {
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 7));
  emit(p, (struct sock_filter)LOAD_ARG_LOW(0));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1));
  emit(p, (struct sock_filter)RET(allow_unix ? SECCOMP_RET_ALLOW : ERRNO(EACCES)));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 1, 0));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 0, 1));
  emit(p, (struct sock_filter)RET(allow_inet ? SECCOMP_RET_ALLOW : ERRNO(EACCES)));
  emit(p, (struct sock_filter)RET(ERRNO(EAFNOSUPPORT)));
}

/*
 * socketpair(AF_UNIX, type): only connected kinds (stream, seqpacket) when unix sockets
 * are refused. A datagram pair's end can be aimed at any socket path with sendto,
 * sendmsg or connect, and nothing on the path (a read-only bind, Landlock) refuses that:
 * a host datagram service (journald, syslog, sd_notify) in the view would be reached.
 */
static void filter_socketpair_types(struct prog *p) {
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socketpair, 0, 6));
  emit(p, (struct sock_filter)LOAD_ARG_LOW(1));
  emit(p, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf)); /* less the flags */
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_STREAM, 2, 0));
  emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_SEQPACKET, 1, 0));
  emit(p, (struct sock_filter)RET(ERRNO(EACCES)));
  emit(p, (struct sock_filter)RET(SECCOMP_RET_ALLOW));
}

/* Refused outright with EPERM: what no call needs and every escape above uses. */
static const long refused[] = {
    __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_pidfd_getfd,
    __NR_open_by_handle_at, __NR_name_to_handle_at, __NR_keyctl, __NR_add_key,
    __NR_request_key, __NR_perf_event_open, __NR_bpf, __NR_userfaultfd, __NR_setns,
    __NR_mount, __NR_umount2, __NR_pivot_root, __NR_move_mount, __NR_open_tree, __NR_fsopen,
    __NR_fsmount, __NR_fspick, __NR_fsconfig, __NR_mount_setattr, __NR_chroot,
    __NR_init_module, __NR_finit_module, __NR_delete_module, __NR_kexec_load,
    __NR_kexec_file_load, __NR_reboot, __NR_swapon, __NR_swapoff, __NR_settimeofday,
    __NR_clock_settime, __NR_clock_adjtime, __NR_adjtimex, __NR_acct, __NR_syslog,
    __NR_quotactl, __NR_vhangup, __NR_fanotify_init, __NR_lookup_dcookie,
#ifdef __NR_iopl
    __NR_iopl,
#endif
#ifdef __NR_ioperm
    __NR_ioperm,
#endif
#ifdef __NR_uselib
    __NR_uselib,
#endif
#ifdef __NR_open_tree_attr
    __NR_open_tree_attr,
#endif
};

static void build(struct prog *p, const struct policy *pol) {
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
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) deny(p, refused[i], ERRNO(EPERM));
  /* Each block below loads an argument and returns: no check may follow it for its call. */
  filter_socket_families(p, pol->net_all, !pol->net_deny_all);
  if (!pol->net_all) filter_socketpair_types(p);
  deny_tty_injection(p);
#ifdef __NR_mknod
  deny_device_mode(p, __NR_mknod, 1);
#endif
  deny_device_mode(p, __NR_mknodat, 2);
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
  build(&p, pol);
  struct sock_fprog fprog = {.len = p.len, .filter = p.insns};
  if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0) fail("seccomp: install");
}
