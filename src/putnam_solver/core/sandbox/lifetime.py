"""Sandboxes die with the harness: however the harness process ends (SIGKILL included), nothing it started
in a sandbox keeps running.

Sources read for this design: bubblewrap 0.8.0 ``bubblewrap.c`` (the version Debian 12 ships), util-linux
``sys-utils/setpriv.c`` and Linux ``kernel/exit.c``, ``kernel/cred.c`` and ``kernel/signal.c``.

1. **One long-lived thread starts every tree** (``spawn``). ``PR_SET_PDEATHSIG`` fires when the *thread*
   that forked the child exits, not when its process does: ``forget_original_parent`` (kernel/exit.c)
   sends ``t->pdeath_signal`` to every child of an exiting thread, even when a sibling thread of the same
   process adopts it. Gates run in worker threads (``serve``'s pool, the agent's ``anyio`` threads, which
   are retired when idle), so a run or a session forked there would be killed when its thread is retired
   while the harness lives on. The spawner is a daemon thread that never returns: it ends only with the
   process, and then every tree it started gets its signal.
2. **The first program of every tree arms the signal, then checks the harness is still there**
   (``tethered_argv``): ``setpriv --pdeathsig KILL`` and a shell that exits at once unless ``$PPID`` is
   still the harness. The signal is armed before the check, so a harness that died earlier is seen (the
   child was already reparented) and one that dies later kills the tree. This closes the window between
   the ``fork`` and bubblewrap's own ``prctl``, which bubblewrap makes only after it has cloned the
   namespaces (bubblewrap.c:2930-2933, ``handle_die_with_parent`` after ``drop_privs`` in the monitor).
   The signal survives the ``exec`` of ``prlimit`` and ``bwrap`` (neither is set-id or has file
   capabilities), and bubblewrap's monitor arms it again (``--die-with-parent``, bubblewrap.c:376-380).
3. **PID 1 of the sandbox dies with the monitor, and takes the namespace with it.** Whatever bubblewrap
   execs with ``--as-pid-1`` is PID 1 of the run's PID namespace, with the signal armed towards the
   monitor (bubblewrap.c:3337); when PID 1 dies the kernel kills every other process of the namespace
   (kernel/pid_namespace.c ``zap_pid_ns_processes``), daemons and double forks included. But a
   parent-death signal is checked like a ``kill`` from the dying parent: ``group_send_sig_info`` calls
   ``check_kill_permission`` (kernel/signal.c), which for ``SEND_SIG_NOINFO`` demands the same uid or
   ``CAP_KILL`` (``kill_ok_by_cred``). When the harness is root, the monitor is uid 0 without any
   capability (bubblewrap.c:2930, ``drop_privs``), so a PID 1 that has switched to the sandbox uid is
   out of its reach: the signal is silently refused (and ``commit_creds``, kernel/cred.c, also clears
   it on that switch). That is how a ``coqc`` outlived its killed harness by half an hour. So PID 1 is
   always a shell of ours (``pid1_argv``) that stays what bubblewrap made it (root, holding only the
   capabilities ``setpriv`` needs, when the harness is root), runs the rest as its child and waits for
   it: the monitor may signal it, the kernel delivers SIGKILL to a namespace's PID 1 when it comes from
   an ancestor namespace (kernel/signal.c ``send_signal_locked`` sets ``force``; ``sig_task_ignored``),
   and it reaps the command, so the command's rusage still reaches the monitor and our ``wait4``.
   Sandboxed processes cannot signal or trace it (another uid, no capabilities). Bubblewrap arms the
   signal in PID 1 only after building the mounts (bubblewrap.c:3337), tens of milliseconds after the
   ``clone``: a monitor killed in between leaves a PID 1 whose signal, armed too late, never fires
   (observed when a ``kill -9`` met a compile just starting). So the shell first checks the harness's
   *lifeline*, a pipe whose only write end the harness holds and never writes: a non-blocking read
   that meets end-of-file means the harness is gone (its descriptors close in ``do_exit`` before
   ``exit_notify`` signals the monitor), and the run exits with ``ORPHANED``; otherwise the monitor
   was alive after the signal was armed, and its death will kill PID 1.
4. **A harness that stops on a signal kills its sandboxes first.** A harness that exits on its own (its
   main thread returns, or a ``SIGINT``/``SIGTERM`` handler stops it gracefully) may still have threads
   waiting on sandboxes: the interpreter would join them, a ``with ThreadPoolExecutor`` left by a
   ``KeyboardInterrupt`` waits for its workers, a graceful server (uvicorn) waits for the requests in
   flight, and a cancelled ``anyio.to_thread`` call (the agent's tools) returns only when its thread does;
   each would keep its sandbox compiling until its timeout. So every handler of a stopping signal is
   wrapped by ``stopping``, which kills every live tree and refuses new ones before the handler itself
   runs: the ``putnam`` command's own (``clikit.interrupts_stop_sandboxes``), ``solve``'s Ctrl-C and the
   servers' graceful shutdown (``listen.stopping_server``) alike; the waiting threads then see their runs killed
   (an ``error``, never cached) and return at once. ``stop_all`` also runs as the interpreter's first
   thread-shutdown hook, before ``concurrent.futures`` joins its pools. A ``SIGTERM`` that nobody
   handles keeps its default action, which ends the process at once: steps 1-3 take the rest.

Other designs, and why not: bubblewrap's own init (no ``--as-pid-1``) would keep the signal, but the
monitor returns when the command exits without reaping that init (bubblewrap.c:541-551, ``monitor_child``
returns on the event fd that init writes at 625-636), so the command's peak memory would be lost; a
cgroup killed as a whole needs someone alive to kill it, which a SIGKILLed harness is not (the per-run
pids cgroup stays the cleanup of a run that ends normally); a subreaper adopts orphans but dies with the
harness too.

Without the sandbox (``unsafe_no_sandbox``) there is no PID namespace: step 2 still kills the command
itself when the harness dies, but a process it started and that left it may survive.
"""

from __future__ import annotations

import atexit
import concurrent.futures.thread  # noqa: F401 -- its exit hook (joining pool threads) is registered before ours
import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from types import FrameType
from typing import Any

from putnam_solver.core.sandbox.limits import ORPHANED, SandboxUnavailable


def _lifeline() -> tuple[int, int]:
    """A pipe (read end, write end) whose write end only this process holds (step 3): close-on-exec, so
    no program it runs inherits it, and renewed in a forked child (``_Spawner.forget_all``)."""
    return os.pipe2(os.O_CLOEXEC)


_LIFELINE = _lifeline()


def lifeline_fd() -> int:
    """The read end of the harness's lifeline, to pass to every sandbox's PID 1."""
    return _LIFELINE[0]


def pid1_argv(sh: str, dd: str) -> list[str]:
    """The PID 1 of every sandbox (step 3 of the module docstring): exit with ``ORPHANED`` if the
    harness's lifeline is missing or at end-of-file (``dd`` reads nothing and succeeds; with the harness alive the
    empty pipe makes the non-blocking read fail), else run the rest as a child (a command follows, so
    the shell cannot replace itself with it) and exit with its status (``128 + N`` for a signal N, as
    bubblewrap reports one). The command inherits the lifeline's read end: it carries nothing, and
    holding it changes nothing (only write ends keep a pipe from end-of-file)."""
    line = f"/proc/self/fd/{lifeline_fd()}"  # opened anew: dash redirects only descriptors 0-9
    script = f"[ -e {line} ] || exit {ORPHANED}; "  # no lifeline at all: fail closed
    script += f"{shlex.quote(dd)} if={line} iflag=nonblock count=1 status=none 2>/dev/null && exit {ORPHANED}; "
    script += '"$@"; exit $?'
    return [sh, "-c", script, "putnam-sandbox-init"]


_Job = tuple[Callable[[], "subprocess.Popen[bytes]"], "Future[subprocess.Popen[bytes]]"]


def tethered_argv(setpriv: str, sh: str, join: Path | None) -> list[str]:
    """The head of every run's command line: arm the parent-death signal, exit with ``ORPHANED`` if the
    harness is already gone, join the run's cgroup through ``join`` (if any), exec the rest."""
    script = f'[ "$PPID" = "$0" ] || exit {ORPHANED}; '
    script += 'echo 0 > "$1" && shift && exec "$@"' if join else 'exec "$@"'
    return [setpriv, "--pdeathsig=KILL", "--", sh, "-c", script, str(os.getpid()), *([str(join)] if join else [])]


class _Spawner:
    """The one thread that forks every sandbox tree (step 1 of the module docstring), and the trees alive."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # re-entered by a signal handler that interrupts its holder
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._live: set[int] = set()
        self._stopped = False

    def spawn(self, argv: list[str], **popen: Any) -> subprocess.Popen[bytes]:
        """``subprocess.Popen(argv, start_new_session=True, **popen)``, forked by the spawner thread."""
        with self._lock:
            if self._stopped:
                raise SandboxUnavailable("the harness is exiting: no new sandbox starts")
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._serve, name="putnam-sandbox-spawner", daemon=True)
                self._thread.start()
        future: Future[subprocess.Popen[bytes]] = Future()
        self._jobs.put((lambda: self._start(argv, popen), future))
        try:
            return future.result()
        except BaseException:
            future.add_done_callback(self._abandon)  # interrupted while waiting: end what may still start
            raise

    def release(self, pid: int) -> None:
        """Forget a tree its owner is about to kill and reap (so ``stop_all`` never signals a reused id)."""
        with self._lock:
            self._live.discard(pid)

    def stop_all(self, *, final: bool = False) -> int:
        """SIGKILL every live tree's process group (its monitor; step 3 takes the rest); ``final`` also
        refuses every later start. Returns how many were signalled."""
        with self._lock:
            self._stopped = self._stopped or final
            live = sorted(self._live)
        for pid in live:
            kill_group(pid)
        return len(live)

    def forget_all(self) -> None:
        """In a forked child: the trees, the spawner thread and the lifeline belong to the parent."""
        global _LIFELINE
        for fd in _LIFELINE:
            os.close(fd)
        _LIFELINE = _lifeline()
        self._lock = threading.RLock()
        self._live = set()
        self._thread = None

    def _start(self, argv: list[str], popen: dict[str, Any]) -> subprocess.Popen[bytes]:
        proc: subprocess.Popen[bytes] = subprocess.Popen(argv, start_new_session=True, **popen)
        with self._lock:
            self._live.add(proc.pid)
        return proc

    def _abandon(self, future: Future[subprocess.Popen[bytes]]) -> None:
        if future.exception() is None:
            proc = future.result()
            self.release(proc.pid)
            kill_group(proc.pid)

    def _serve(self) -> None:
        while True:
            start, future = self._jobs.get()
            try:
                future.set_result(start())
            except BaseException as exc:  # handed to the caller, which raises it
                future.set_exception(exc)


def kill_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads (every tree is started in a new session)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


_SPAWNER = _Spawner()
spawn = _SPAWNER.spawn
release = _SPAWNER.release


def stop_all() -> int:
    """Kill every sandbox this process has running now (their owners then see them killed by a signal,
    which every gate judges ``error``). Returns how many there were."""
    return _SPAWNER.stop_all()


Handler = Callable[[int, FrameType | None], Any]


def stopping(handler: Handler) -> Handler:
    """``handler`` of a stopping signal, run after every live sandbox is killed and new ones are refused
    (step 4 of the module docstring). Safe in a signal handler: the spawner's lock is re-entrant, so a
    main thread interrupted while holding it goes on."""

    def stop_then_handle(signum: int, frame: FrameType | None) -> Any:
        _SPAWNER.stop_all(final=True)
        return handler(signum, frame)

    return stop_then_handle


def _at_exit() -> None:
    _SPAWNER.stop_all(final=True)


os.register_at_fork(after_in_child=_SPAWNER.forget_all)
# Threading's exit hooks run newest first, before non-daemon threads are joined; concurrent.futures
# registered its own (which joins its pools) when imported above, so ours runs before it.
getattr(threading, "_register_atexit", atexit.register)(_at_exit)
