/*
 * bridle-launch: every capability dropped before Landlock, seccomp and exec, also for
 * root (kernel-boundary.md §2): the bounding and ambient sets emptied, securebits locked
 * so uid 0 regains nothing at exec, then the effective, permitted and inheritable sets
 * cleared. What closes: file handles, raw sockets, mknod, CAP_DAC_*, module loading, …
 */
#include <errno.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "launch.h"

/* The highest capability this kernel knows (cap_last_cap), probed by PR_CAPBSET_READ. */
static int last_cap(void) {
  int cap = 40;
  while (cap < 64 && prctl(PR_CAPBSET_READ, cap + 1, 0, 0, 0) >= 0) cap++;
  while (cap > 0 && prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0) cap--;
  return cap;
}

void caps_drop_all(void) {
  int top = last_cap();
  for (int cap = 0; cap <= top; cap++) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) fail("caps: drop bounding");
  }
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL)
    fail("caps: clear ambient");
  unsigned long bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                       SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED;
  if (prctl(PR_SET_SECUREBITS, bits, 0, 0, 0) != 0) fail("caps: lock securebits");
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2] = {{0}, {0}};
  if (syscall(__NR_capset, &header, data) != 0) fail("caps: clear sets");
}

/* Whether every set is empty now (the probe's check that the drop holds). */
int caps_all_clear(void) {
  struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2];
  if (syscall(__NR_capget, &header, data) != 0) return 0;
  for (int i = 0; i < 2; i++) {
    if (data[i].effective | data[i].permitted | data[i].inheritable) return 0;
  }
  return prctl(PR_CAPBSET_READ, 0, 0, 0, 0) == 0;
}
