"""Lean's interactive piece: a warm ``lean --server`` per import header, proof states, lemma holes.

A session is the Lean language server in the sandbox (``sandbox.start_session``, the caps of a gate's
compile), run exactly as G4 runs `lean` (the same command, environment, library path and the pinned
project's options as ``-D`` flags, which the server hands to its file worker) with one open document.
The document starts as the challenge's import header; each check replaces its whole text. Lean's
incremental elaboration keeps the elaborated header while the imports stay the same, so a check costs
the elaboration of the file's own commands, not the import (Mathlib's takes most of a cold compile).

Why the server and not the leanprover-community REPL: the server ships with every Lean release, so it is
the `lean` the gates already hash and run (the REPL is a separate build per toolchain), it keeps the
header by design when a document changes, and it answers proof-state queries at a position
(``$/lean/plainGoal``, ``$/lean/plainTermGoal``) for tactic and term proofs alike. It is also what the
test machine can run for real (the toy Lean), so the path tested is the path shipped.

The protocol is JSON-RPC with ``Content-Length`` framing: whatever a file makes Lean print arrives
JSON-escaped inside a message, so it cannot forge one. A check is ``textDocument/didChange`` followed by
``textDocument/waitForDiagnostics``, whose answer comes after the diagnostics of that version were
published; the last set published for the version is the file's messages. An error message, or a
``declaration uses sorry`` warning, fails the file (G4's rule); a server that stops answering by the
deadline is an error.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from putnam_solver.core.benchmark import Problem
from putnam_solver.core.gatekit import sandbox_limits
from putnam_solver.core.provers.lean.project import lean_option_flags
from putnam_solver.core.provers.lean.syntax import (
    COMMENT,
    LexError,
    lex,
)
from putnam_solver.core.provers.lean.toolchain import LeanCommand, find_lean
from putnam_solver.core.provers.lean.yes_no import questions as yes_no_questions
from putnam_solver.core.sandbox import fresh_copy
from putnam_solver.core.verify import PROFILE_GATES, GateResult, GateStatus, Track, VerifyOptions
from putnam_solver.kits.interactive import Compiled, Hole, Message, NotWarm, ProofState
from putnam_solver.kits.lean.lemma_files import HOLE_WORDS, find_holes, lemma_statement, lemma_text, paste_lemma
from putnam_solver.kits.sandbox_session import SandboxSession, SessionError, start_session
from putnam_solver.kits.sessions import outside, refused_for_holes

DOCUMENT = "Check.lean"
SERVER_FLAGS = ("-Dserver.reportDelayMs=0",)
"""The server waits this long (200 ms by default, against an editor's flicker) before it reports the
diagnostics of an edit: a check has no editor to spare it."""
_SORRY = re.compile(r"^declaration uses .?sorry")
_SEVERITY = {1: "error", 2: "warning", 3: "info", 4: "info"}
_HEADER_END = b"\r\n\r\n"


def header_text(text: str) -> str:
    """The module header of a Lean file: its leading ``prelude`` and ``import`` commands (comments aside)."""
    try:
        tokens = lex(text)
    except LexError:
        return ""
    end = 0
    i = 0
    code = [t for t in tokens if t.kind != COMMENT]
    while i < len(code):
        if code[i].text == "prelude":
            end, i = code[i].end, i + 1
        elif code[i].text == "import" and i + 1 < len(code):
            end, i = code[i + 1].end, i + 2
        else:
            break
    return text[:end]


def _imports(text: str) -> list[str]:
    return re.findall(r"\S+", re.sub(r"--[^\n]*|/-.*?-/", " ", header_text(text), flags=re.S))


def utf16_length(text: str) -> int:
    """LSP positions count UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


class LeanServerSession:
    """One warm ``lean --server`` with one document (see the module docstring)."""

    def __init__(
        self, lean: LeanCommand, challenge: str, options: VerifyOptions, scratch: Path, option_flags: tuple[str, ...]
    ) -> None:
        self.uses = 0
        self._lean = lean
        self._imports = _imports(challenge)
        self._limits = sandbox_limits(options)
        workdir = fresh_copy({}, scratch)
        self._uri = (workdir / DOCUMENT).as_uri()
        self._next_id = 0
        self._version = 1
        self._diagnostics: dict[int, list[dict[str, Any]]] = {}
        self._session: SandboxSession = start_session(
            [*lean.argv, "--server", *option_flags, *SERVER_FLAGS],
            workdir=workdir,
            readonly=lean.readonly,
            env={**lean.run_env(), "TZ": "UTC"},
            limits=self._limits,
            unsafe_no_sandbox=options.unsafe_no_sandbox,
        )
        try:
            deadline = time.monotonic() + self._limits.timeout_seconds
            self._request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, deadline)
            self._notify("initialized", {})
            document = {"uri": self._uri, "languageId": "lean4", "version": 1, "text": header_text(challenge)}
            self._notify("textDocument/didOpen", {"textDocument": document})
            errors = [m for m in self._wait(1, "", deadline) if m.severity == "error"]
            if errors:
                raise SessionError(f"the imports do not load in the Lean server: {errors[0]}")
        except BaseException:
            self._session.close()
            raise

    @property
    def alive(self) -> bool:
        return self._session.alive

    def close(self) -> None:
        self._session.close()

    def compile(self, text: str, timeout: float) -> Compiled:
        started = time.monotonic()
        messages = self._update(text, started + timeout)
        seconds = time.monotonic() - started
        evidence = {"warm": True, "lean": self._lean.evidence(), "session_uses": self.uses + 1}
        evidence["wall_seconds"] = round(seconds, 3)
        errors = [m for m in messages if m.severity == "error"]
        sorries = [m for m in messages if m.severity == "warning" and _SORRY.match(m.text)]
        if errors:
            more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
            detail = f"{errors[0]}{more}"
            return Compiled(GateStatus.FAILED, detail, tuple(messages), seconds, evidence)
        if sorries:
            detail = f"line {sorries[0].line}, column {sorries[0].column}: declaration uses sorry"
            return Compiled(GateStatus.FAILED, detail, tuple(messages), seconds, evidence)
        detail = "the Lean server elaborated the file without an error (warm)"
        return Compiled(GateStatus.PASSED, detail, tuple(messages), seconds, evidence)

    def goals(self, text: str, line: int, timeout: float) -> ProofState:
        lines = text.split("\n")
        if (off := outside(text, line)) is not None:
            return off
        deadline = time.monotonic() + timeout
        messages = self._update(text, deadline)
        errors = tuple(m for m in messages if m.severity == "error" and m.line is not None and m.line <= line)
        source = lines[line - 1]
        document = {"uri": self._uri}
        goal = self._request(
            "$/lean/plainGoal",
            {"textDocument": document, "position": {"line": line - 1, "character": utf16_length(source)}},
            deadline,
        )
        shown: str | None = None
        if isinstance(goal, dict) and isinstance(goal.get("goals"), list):
            goals = [g for g in goal["goals"] if isinstance(g, str)]
            shown = "\n\n".join(goals) if goals else "no goals (this part of the proof is complete)"
        elif source.strip():
            last = len(source.rstrip()) - 1
            term = self._request(
                "$/lean/plainTermGoal",
                {"textDocument": document, "position": {"line": line - 1, "character": utf16_length(source[:last])}},
                deadline,
            )
            if isinstance(term, dict) and isinstance(term.get("goal"), str):
                shown = f"(term mode: the expected type at the end of the line)\n{term['goal']}"
        note = "" if shown is not None else f"no proof is open at the end of line {line}"
        if errors:
            note = (note + "; " if note else "") + f"errors reported up to line {line} are listed"
        return ProofState(line, shown, errors, note)

    # -- the protocol -----------------------------------------------------------------------------------

    def _update(self, text: str, deadline: float) -> list[Message]:
        """Make the document ``text`` and wait for its diagnostics."""
        if _imports(text) != self._imports:
            raise NotWarm("the file's imports are not the challenge's")
        self._version += 1
        change = {"textDocument": {"uri": self._uri, "version": self._version}, "contentChanges": [{"text": text}]}
        self._notify("textDocument/didChange", change)
        return self._wait(self._version, text, deadline)

    def _wait(self, version: int, text: str, deadline: float) -> list[Message]:
        self._request("textDocument/waitForDiagnostics", {"uri": self._uri, "version": version}, deadline)
        found = self._diagnostics.pop(version, [])
        for old in [v for v in self._diagnostics if v < version]:
            del self._diagnostics[old]
        return [_message(d, text) for d in found]

    def _notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _request(self, method: str, params: dict[str, Any], deadline: float) -> Any:
        self._next_id += 1
        ident = self._next_id
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        while True:
            message = self._receive(deadline)
            if message.get("id") == ident and "method" not in message:
                if "error" in message:
                    error = message["error"]
                    raise SessionError(f"the Lean server refused {method}: {str(error)[:300]}")
                return message.get("result")
            self._handle(message)

    def _handle(self, message: dict[str, Any]) -> None:
        """Notifications: keep the diagnostics of our document; answer the server's own requests."""
        method = message.get("method")
        params = message.get("params")
        if method == "textDocument/publishDiagnostics" and isinstance(params, dict) and params.get("uri") == self._uri:
            version = params.get("version")
            diagnostics = params.get("diagnostics")
            if isinstance(version, int) and isinstance(diagnostics, list):
                self._diagnostics[version] = [d for d in diagnostics if isinstance(d, dict)]
        elif method is not None and "id" in message:
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        self._session.send(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _receive(self, deadline: float) -> dict[str, Any]:
        data = self._session.read(_frame_end, deadline)
        body = data[data.index(_HEADER_END) + len(_HEADER_END) :]
        try:
            message = json.loads(body)
        except ValueError as exc:
            self._session.close()
            raise SessionError(f"the Lean server sent a message that is not JSON: {exc}") from exc
        if not isinstance(message, dict):
            self._session.close()
            raise SessionError("the Lean server sent a message that is not an object")
        return message


def _frame_end(buffer: bytes) -> int | None:
    """Where the first complete ``Content-Length`` frame of ``buffer`` ends, or None."""
    split = buffer.find(_HEADER_END)
    if split < 0:
        return None
    length = re.search(rb"content-length:\s*(\d+)", buffer[:split], re.I)
    if length is None:
        raise SessionError(f"the Lean server sent a frame without a length: {buffer[:80]!r}")
    end = split + len(_HEADER_END) + int(length.group(1))
    return end if len(buffer) >= end else None


def _message(diagnostic: dict[str, Any], text: str) -> Message:
    start = diagnostic.get("range", {}).get("start", {}) if isinstance(diagnostic.get("range"), dict) else {}
    line = start.get("line") if isinstance(start, dict) else None
    character = start.get("character") if isinstance(start, dict) else None
    severity = _SEVERITY.get(diagnostic.get("severity", 1), "error")
    body = diagnostic.get("message")
    column = None
    if isinstance(line, int) and isinstance(character, int):
        column = _column(text, line, character)
    return Message(severity, line + 1 if isinstance(line, int) else None, column, str(body) if body else "")


def _column(text: str, line: int, utf16: int) -> int:
    """A UTF-16 offset on a line as code points (what G4's ``lean --json`` columns count)."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return utf16
    units = lines[line].encode("utf-16-le")[: 2 * utf16]
    return len(units.decode("utf-16-le", "replace"))


def _option_flags(problem: Problem) -> tuple[str, ...]:
    """The ``-D`` flags G4 and G5 compile ``problem`` with (its benchmark's Lean options), so that a warm
    check elaborates as the acceptance does."""
    return lean_option_flags(dict(problem.format.lean_options))


class LeanInteractive:
    """``Prover.interactive`` for Lean."""

    def session_key(self, problem: Problem, challenge: str, options: VerifyOptions) -> str:
        lean = find_lean(options)
        flags = " ".join(_option_flags(problem))
        return (
            f"lean|{lean.fingerprint}|{' '.join(lean.argv)}|{flags}|{options.unsafe_no_sandbox}|{_imports(challenge)}"
        )

    def open_session(
        self, problem: Problem, challenge: str, options: VerifyOptions, scratch: Path
    ) -> LeanServerSession:
        return LeanServerSession(find_lean(options), challenge, options, scratch, _option_flags(problem))

    def cold_only(self, problem: Problem, track: Track, options: VerifyOptions) -> str | None:
        """Where G4 runs a harness file after the compile: the statement check when the acceptance runs no
        G6 (``statement_type``), the answer of a no-answer yes/no problem (``yes_no``)."""
        if "G6" not in PROFILE_GATES[options.acceptance or options.profile]:
            return "G4 checks the theorem's type in a file of its own where no G6 follows"
        if yes_no_questions(problem, track):
            return "G4 decides a yes/no answer in a file of its own"
        return None

    def holes(self, challenge: str, candidate: str) -> list[Hole]:
        return find_holes(challenge, candidate)

    def only_holes(self, forbidden: GateResult) -> bool:
        return refused_for_holes(forbidden, HOLE_WORDS)

    def lemma_statement(self, challenge: str, candidate: str, name: str, track: Track) -> str:
        return lemma_statement(challenge, candidate, name, track)

    def lemma_text(self, statement: str, proved: str) -> str:
        return lemma_text(statement, proved)

    def paste_lemma(self, file: str, name: str, proved: str) -> str | None:
        return paste_lemma(file, name, proved)
