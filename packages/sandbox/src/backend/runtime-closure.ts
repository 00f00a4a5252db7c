/**
 * What a spawned program needs to read to start at all when `fs_read` is restricted
 * (reference §10.3, kernel-boundary.md §3): the loader and its libraries, public system
 * configuration, the device sinks. Each entry is justified in SECURITY.md; none holds a
 * secret (`/etc/ssl` is there as its certificates, never `/etc/ssl/private`).
 */
export const RUNTIME_READ_CLOSURE: readonly string[] = Object.freeze([
  "/lib",
  "/lib64",
  "/lib32",
  "/usr/lib",
  "/usr/lib64",
  "/usr/lib32",
  "/usr/libexec",
  "/usr/share",
  // Headers a granted compiler needs (`#include <stdio.h>`), and what a local install
  // adds beside the system's (pip's `dist-packages`, libraries, data): public like
  // `/usr/lib` and `/usr/share`. `/usr/local/bin` stays with the other program directories.
  "/usr/include",
  "/usr/local/include",
  "/usr/local/lib",
  "/usr/local/share",
  "/etc/ld.so.cache",
  "/etc/localtime",
  "/etc/nsswitch.conf",
  "/etc/passwd",
  "/etc/group",
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/services",
  "/etc/protocols",
  "/etc/ssl/certs",
  "/etc/ssl/openssl.cnf",
  "/etc/pki/tls/certs",
  "/etc/gitconfig",
  "/etc/alternatives",
  "/etc/terminfo",
  "/etc/python3",
  // The view's own /proc (its PID namespace holds only the call's processes): every
  // program reads its own /proc/self; another's memory, environ and fds stay refused.
  "/proc",
  "/dev/urandom",
  "/dev/random",
]);

/** Readable when exec is unrestricted (the programs a shell may find on the trusted PATH). */
export const BIN_DIRECTORIES: readonly string[] = Object.freeze([
  "/usr/bin",
  "/bin",
  "/usr/sbin",
  "/sbin",
  "/usr/local/bin",
  "/usr/local/sbin",
  "/opt",
]);

/** Always writable (and readable): `git` opens `/dev/null` read-write. */
export const DEVICE_SINKS: readonly string[] = Object.freeze([
  "/dev/null",
  "/dev/zero",
  "/dev/full",
]);

/** The dynamic loaders an execute rule set must include (those that exist are kept). */
export const DYNAMIC_LOADERS: readonly string[] = Object.freeze([
  "/lib64/ld-linux-x86-64.so.2",
  "/lib/ld-linux-aarch64.so.1",
  "/lib/ld-linux-armhf.so.3",
  "/lib/ld-musl-x86_64.so.1",
  "/lib/ld-musl-aarch64.so.1",
]);
