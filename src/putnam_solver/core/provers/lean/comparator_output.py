"""How G6 reads comparator's exit 1: a rejection only when comparator itself says the candidate differs.

Comparator's ``main`` exits 1 on every uncaught exception and prints it last, on stderr, as
``uncaught exception: <message>`` (a Lean ``main`` does). Its own messages (leanprover/comparator at
5756749) say what failed:

- the statement, a definition hole or the dependencies differ: ``Comparator.compareAt``
  (Comparator/Compare.lean:46-102, called at Main.lean:286), e.g. "Challenge and solution theorem
  statement do not match: 'X'";
- a forbidden axiom, or the solution's target is not a theorem or definition: ``Comparator.checkAxioms``
  (Comparator/Axioms.lean:32-66, Main.lean:287), e.g. "Illegal axiom detected: 'sorryAx'";
- Lean's kernel rejects the replay: Main.lean:224 prints "Lean default kernel rejects the solution", and
  :225/:293 throw the kernel's message, which Lean renders as "(kernel) ..." (leanprover/lean4
  src/Lean/Message.lean ``Kernel.Exception.toMessageData``) or, for a malformed inductive, "Invalid
  constructor/recursor" and "No such constructor/recursor" (src/Lean/Replay.lean); the quotient
  post-check prints "Quotient post-check rejects the solution" (:237, messages at :232 and :234);
- an external kernel (nanoda) exits nonzero: ":198 <name> kernel rejected the solution", then
  "<name> exited with N" (:199).

Everything else after ``Building Solution`` is not a judgement of the candidate and is ``error``: a
child exiting nonzero ("Child exited with N", Main.lean:98 and :112: the candidate's build or export,
aborted under ``LEAN_ABORT_ON_PANIC=1`` or out of memory), an external kernel that could not be started
("Error while interacting with <name> kernel", :204), a kernel that ran out of a resource ("(kernel)
deterministic timeout", "excessive memory consumption detected", "deep recursion detected",
"interrupted"), an external kernel killed by a signal (exit 128+N, leanprover/lean4
src/runtime/process.cpp) or panicking (Rust's exit code 101), landrun failing ("[landrun:error]",
Zouuup/landrun internal/log/log.go:60-64), Lean's runtime panicking ("INTERNAL PANIC", "PANIC at").

The candidate's build prints into comparator's output, so it can print any of these texts. It can only
lose by it: an error marker anywhere turns a rejection into an uncached ``error``, and the rejection
itself is read from the last ``uncaught exception`` line, which comparator prints after every child
has exited.
"""

from __future__ import annotations

import re

EXCEPTION_PREFIX = "uncaught exception: "
COMPARISON_REJECTIONS = (
    "Const not found in solution",  # Compare.lean:48 and :76, :94
    "Const does not match between challenge and target",  # Compare.lean:55, :102
    "Challenge and solution constant kind don't match",  # Compare.lean:82
    "Challenge and solution theorem statement do not match",  # Compare.lean:85
    "Solution constant is not a definition",  # Compare.lean:99, Axioms.lean:66
    "Constant not found in solution",  # Axioms.lean:32, :41
    "Illegal axiom detected",  # Axioms.lean:45
    "Solution constant is not a theorem",  # Axioms.lean:59
)
"""What ``compareAt`` and ``checkAxioms`` throw about the solution. Their messages about the challenge
("Const not found in challenge", "Challenge constant is not a definition") concern the harness's own
module and stay errors."""
KERNEL_REJECTS = "Lean default kernel rejects the solution"  # Main.lean:224
QUOTIENT_REJECTS = "Quotient post-check rejects the solution"  # Main.lean:237
KERNEL_MESSAGES = (
    "(kernel) ",
    "Invalid constructor ",
    "No such constructor ",
    "Invalid recursor ",
    "No such recursor ",
)
QUOTIENT_MESSAGES = ("Could not find quotient constant in final kernel env", "Quotient constant mismatch on")
ERROR_MARKERS = (
    "INTERNAL PANIC",  # Lean's runtime: "INTERNAL PANIC: out of memory" and other fatal errors
    "PANIC at ",  # a Lean `panic!`, which LEAN_ABORT_ON_PANIC=1 (Main.lean:128, :146) turns into an abort
    "Error while interacting with ",  # Main.lean:204
    "[landrun:error]",  # landrun's own failure: sandbox, missing binary
    "(kernel) deterministic timeout",
    "(kernel) excessive memory consumption detected",
    "(kernel) deep recursion detected",
    "(kernel) interrupted",
)
EXTERNAL_EXIT = re.compile(r"^(?P<name>\S+) exited with (?P<code>-?\d+)$")  # Main.lean:199
RUST_PANIC_EXIT = 101
"""The exit code of a Rust program whose main thread panicked (nanoda is Rust): a crash, not a verdict."""


def final_exception(stderr: str) -> str | None:
    """The message of comparator's uncaught exception: the text after the last ``uncaught exception:``."""
    at = stderr.rfind(EXCEPTION_PREFIX)
    return stderr[at + len(EXCEPTION_PREFIX) :].strip() if at >= 0 else None


def rejection(stdout: str, stderr: str) -> str | None:
    """Why comparator rejected the candidate, when its own messages say it did; None when the exit 1
    is not a judgement of the candidate (see the module docstring)."""
    everything = stdout + "\n" + stderr
    if any(marker in everything for marker in ERROR_MARKERS):
        return None
    message = final_exception(stderr)
    if not message:
        return None
    lines = set(stdout.splitlines())
    if message.startswith(COMPARISON_REJECTIONS):
        return message
    if KERNEL_REJECTS in lines and message.startswith(KERNEL_MESSAGES):
        return f"Lean's kernel rejected the replay: {message}"
    if QUOTIENT_REJECTS in lines and message.startswith(QUOTIENT_MESSAGES):
        return f"the quotient post-check rejected the replay: {message}"
    return _external_kernel_rejection(message, lines)


def _external_kernel_rejection(message: str, lines: set[str]) -> str | None:
    found = EXTERNAL_EXIT.match(message.splitlines()[0])
    if found is None or f"{found['name']} kernel rejected the solution" not in lines:
        return None
    code = int(found["code"])
    if not 0 < code < 128 or code == RUST_PANIC_EXIT:
        return None
    return f"the {found['name']} kernel rejected the solution (exit {code})"


def not_a_verdict(stderr: str) -> str:
    """What stopped comparator, for an exit 1 that is not a rejection."""
    message = final_exception(stderr)
    shown = message.splitlines()[0][:300] if message else "no uncaught exception printed"
    return (
        f"comparator stopped without judging the candidate ({shown}): its build or export failed, a kernel "
        "ran out of a resource or crashed, or a tool broke; not a verdict"
    )
