/* bridle-launch: failure reporting and small file helpers. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch.h"

_Noreturn void fail_code(int code, const char *what, int err) {
  if (err != 0) {
    dprintf(2, "bridle-launch: %s: %s\n", what, strerror(err));
  } else {
    dprintf(2, "bridle-launch: %s\n", what);
  }
  _exit(code);
}

_Noreturn void fail(const char *what) { fail_code(EXIT_LAUNCH_FAILED, what, errno); }

_Noreturn void fail_msg(const char *what) { fail_code(EXIT_LAUNCH_FAILED, what, 0); }

int write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t len = strlen(text);
  ssize_t n = write(fd, text, len);
  int err = errno;
  close(fd);
  if (n != (ssize_t)len) {
    errno = n < 0 ? err : EIO;
    return -1;
  }
  return 0;
}

void write_file_or_fail(const char *path, const char *text) {
  if (write_file(path, text) != 0) {
    char what[512];
    snprintf(what, sizeof what, "write %s", path);
    fail(what);
  }
}
