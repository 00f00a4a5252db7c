# The attacker's toolkit of the facade's kernel-boundary rows (kernel-boundary.md §1, §4),
# run by a granted `python3` inside each engine's call. The test writes one script per
# row: `ARGS` and `BODY` first, then this file. BODY runs with the helpers below in scope;
# every probe's outcome is reported as one line, "KB-RESULT {json}", at the end, whatever
# the body did. Probes return what they read, raw: a canary that leaks shows up in the
# envelope, where the judge looks for it.
import ctypes
import json
import os
import platform
import sys
import traceback

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

# Calls glibc has no wrapper for (or whose wrapper hides the errno), per architecture.
_NR = {
    "x86_64": {
        "pidfd_open": 434, "pidfd_getfd": 438, "keyctl": 250, "add_key": 248,
        "request_key": 249, "syslog": 103, "ptrace": 101, "process_vm_readv": 310,
        "name_to_handle_at": 303, "open_by_handle_at": 304,
    },
    "aarch64": {
        "pidfd_open": 434, "pidfd_getfd": 438, "keyctl": 219, "add_key": 217,
        "request_key": 218, "syslog": 116, "ptrace": 117, "process_vm_readv": 270,
        "name_to_handle_at": 264, "open_by_handle_at": 265,
    },
}[platform.machine()]


def _arg(value):
    if isinstance(value, int):
        return ctypes.c_long(value)
    return value


def _raise():
    err = ctypes.get_errno()
    raise OSError(err, os.strerror(err))


def sc(name, *args):
    """A raw system call by name; OSError on failure."""
    ret = libc.syscall(ctypes.c_long(_NR[name]), *[_arg(a) for a in args])
    if ret == -1:
        _raise()
    return ret


def c(name, *args, restype=ctypes.c_int):
    """A libc function by name; OSError when it returns -1."""
    fn = getattr(libc, name)
    fn.restype = restype
    ret = fn(*[_arg(a) for a in args])
    if ret == -1 or (restype == ctypes.c_void_p and ret == 2**64 - 1):
        _raise()
    return ret


def plain(value):
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("latin1")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return repr(value)


results = {}


def probe(name, fn):
    """Runs fn(); records {"ok": value} or {"errno": n, "error": text}."""
    try:
        results[name] = {"ok": plain(fn())}
    except OSError as e:
        results[name] = {"errno": e.errno, "error": e.strerror or str(e)}
    except Exception as e:  # a probe that cannot even be tried (bad handle, no such call)
        results[name] = {"errno": -1, "error": "%s: %s" % (type(e).__name__, e)}
    return results[name]


def read(path, size=1 << 16, offset=None):
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if offset is not None:
            os.lseek(fd, offset, os.SEEK_SET)
        data = b""
        while len(data) < size:  # /proc files answer a page per read
            chunk = os.read(fd, size - len(data))
            if not chunk:
                break
            data += chunk
        return data
    finally:
        os.close(fd)


def write(path, data, flags=os.O_WRONLY | os.O_CREAT | os.O_TRUNC):
    fd = os.open(path, flags, 0o666)
    try:
        return os.write(fd, data if isinstance(data, bytes) else data.encode())
    finally:
        os.close(fd)


def report():
    sys.stdout.write("\nKB-RESULT " + json.dumps(results) + "\n")
    sys.stdout.flush()


exit_code = 0
try:
    exec(compile(BODY, "<attack>", "exec"), globals())  # noqa: F821 (BODY comes first)
except SystemExit as e:  # the body's own exit status, reported after the results
    exit_code = e.code if isinstance(e.code, int) else 1
except BaseException:
    results["__crash__"] = {"ok": traceback.format_exc()}
report()
sys.exit(exit_code)
