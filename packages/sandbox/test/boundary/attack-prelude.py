# The attacker's toolkit for the kernel-boundary suite (kernel-boundary.md §1, §4).
# Run as `python3 -c <this file> <body> <args json> <token>`: the body runs with the
# helpers below in scope; every probe's outcome is reported as one JSON line
# ("BRIDLE-RESULT {...}") at the end, whatever the body does. Probes print what they
# read, raw: a canary that leaks shows up in the output, where the test looks for it.
import ctypes
import json
import os
import platform
import sys
import traceback

BODY = sys.argv[1]
ARGS = json.loads(sys.argv[2])
TOKEN = sys.argv[3]

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

# Numbers of the calls glibc has no wrapper for (or whose wrapper hides the errno).
_NR = {
    "x86_64": {
        "pidfd_getfd": 438, "keyctl": 250, "add_key": 248, "request_key": 249,
        "syslog": 103, "fsopen": 430, "perf_event_open": 298, "bpf": 321,
        "userfaultfd": 323, "io_uring_setup": 425, "clone3": 435, "open_tree": 428,
        "process_vm_readv": 310, "ptrace": 101,
    },
    "aarch64": {
        "pidfd_getfd": 438, "keyctl": 219, "add_key": 217, "request_key": 218,
        "syslog": 116, "fsopen": 430, "perf_event_open": 241, "bpf": 280,
        "userfaultfd": 282, "io_uring_setup": 425, "clone3": 435, "open_tree": 428,
        "process_vm_readv": 270, "ptrace": 117,
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


def c(name, *args, restype=ctypes.c_int, failed=-1):
    """A libc function by name; OSError when it returns `failed`."""
    fn = getattr(libc, name)
    fn.restype = restype
    ret = fn(*[_arg(a) for a in args])
    if ret == failed or (restype == ctypes.c_void_p and failed == -1 and ret == 2**64 - 1):
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
    return results[name]


def read(path, size=1 << 16, offset=None):
    fd = os.open(path, os.O_RDONLY)
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


def read_once(path, size=1 << 16):
    """One non-blocking read (devices such as /dev/kmsg never end)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        return os.read(fd, size)
    finally:
        os.close(fd)


def write(path, data, flags=os.O_WRONLY | os.O_CREAT | os.O_TRUNC):
    fd = os.open(path, flags, 0o666)
    try:
        return os.write(fd, data if isinstance(data, bytes) else data.encode())
    finally:
        os.close(fd)


def report():
    sys.stdout.write("\nBRIDLE-RESULT " + json.dumps(results) + "\n")
    sys.stdout.flush()


try:
    exec(compile(BODY, "<attack>", "exec"), globals())
except BaseException:
    results["__crash__"] = {"ok": traceback.format_exc()}
finally:
    report()
