"""Run a command with ``socket(AF_UNIX, ...)`` refused, for comparator's whole process tree.

Comparator's README runs it under ``systemd-run --property=RestrictAddressFamilies=~AF_UNIX`` to close a
landrun escape through Unix-domain sockets (leanprover/comparator README.md, "If the following command
succeeds"). systemd needs a running service manager, which containers and many hosts lack, so G6 does
what that property does itself: a seccomp filter, loaded with libseccomp through ctypes, that makes
``socket()`` with family ``AF_UNIX`` fail with ``EAFNOSUPPORT``. Like systemd's property it leaves
``socketpair()`` alone (systemd.exec(5), RestrictAddressFamilies=). The filter sets ``no_new_privs``,
is inherited by every child and cannot be removed; libseccomp kills a process that makes a system
call of another architecture (its default ``SCMP_FLTATR_ACT_BADARCH``), so a 32-bit ``socketcall``
cannot go around it.

Usage: ``python -m putnam_solver.core.provers.lean.nounix -- COMMAND ARGS...``; exit 126 when the filter
cannot be installed (the command never runs unconfined).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import sys
from collections.abc import Sequence

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_ACT_ERRNO_BASE = 0x00050000
SCMP_CMP_EQ = 4
AF_UNIX = 1
"""Linux's ``AF_UNIX`` (``<bits/socket.h>``), written here so that the trusted package loads no socket module."""
CANNOT_CONFINE = 126


class _ArgCmp(ctypes.Structure):
    """libseccomp's ``struct scmp_arg_cmp`` (seccomp.h)."""

    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


class ConfineError(Exception):
    """libseccomp is missing or refused the filter."""


def _libseccomp() -> ctypes.CDLL:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError as exc:
        raise ConfineError(f"libseccomp not found ({exc}); install libseccomp2") from exc
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(_ArgCmp),
    ]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    return lib


def libseccomp_status() -> tuple[bool, str]:
    """Whether the filter can be built here, and why not (without loading it into this process)."""
    try:
        _libseccomp()
    except ConfineError as exc:
        return False, str(exc)
    return True, "AF_UNIX sockets denied by a seccomp filter (libseccomp)"


def deny_unix_sockets() -> None:
    """Load the filter into this process (and so into everything it execs). Raises ConfineError."""
    lib = _libseccomp()
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        raise ConfineError("seccomp_init failed")
    try:
        number = lib.seccomp_syscall_resolve_name(b"socket")
        family = _ArgCmp(0, SCMP_CMP_EQ, AF_UNIX, 0)
        action = SCMP_ACT_ERRNO_BASE | errno.EAFNOSUPPORT
        if lib.seccomp_rule_add_array(ctx, action, number, 1, ctypes.byref(family)) != 0:
            raise ConfineError("seccomp_rule_add_array failed for socket(AF_UNIX)")
        if lib.seccomp_load(ctx) != 0:
            raise ConfineError("seccomp_load failed (seccomp disabled in this kernel or container?)")
    finally:
        lib.seccomp_release(ctx)


def command_prefix() -> list[str]:
    """The words that run a command under the filter: this file by the running interpreter in isolated mode
    (``-I``), so that no ``PYTHONPATH``, user site or working directory supplies the ``ctypes`` it loads the
    filter with, before the filter exists."""
    return [sys.executable, "-I", os.path.abspath(__file__), "--"]


def main(argv: Sequence[str]) -> int:
    command = list(argv[1:] if argv[:1] == ["--"] else argv)
    if not command:
        print("usage: nounix -- COMMAND ARGS...", file=sys.stderr)
        return CANNOT_CONFINE
    try:
        deny_unix_sockets()
    except ConfineError as exc:
        print(f"nounix: cannot deny AF_UNIX sockets: {exc}", file=sys.stderr)
        return CANNOT_CONFINE
    os.execvp(command[0], command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
