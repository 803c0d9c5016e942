"""Rocq's interactive piece: a warm ``coqtop`` per import header, proof states, lemma holes.

A session is ``coqtop -emacs`` in the sandbox (``sandbox.start_session``, the caps of a gate's compile),
started with the challenge's leading ``Require`` sentences loaded once; its toplevel module is named as
coqc names the candidate (``-top Putnam.Candidate``). A check replays the file sentence by sentence
after the header, stops at the first error as coqc does, and then steps back to the state after the
header (``BackTo``), so the next check starts where a fresh coqc would be after the imports.

Reading coqtop safely. Its prompts, errors and warnings are plain text on the same stream as whatever
the file prints, so a file can print a forged prompt or error. After each sentence the harness sends
``Fail Check putnam_sync_<random>.``: the failure message naming that fresh random name, and the prompt
after it, can only come from coqtop once every earlier sentence has finished. Everything before it is
the sentence's output, read as diagnostics (a forged error only fails the file's own check); the prompt
after it, which tells whether a proof is still open, is trusted. A sync that never comes (a sentence
coqtop read differently, a hang) ends in the session's deadline: an error, never a pass.

Where a warm run could differ from coqc, the file goes to the cold gates instead (``NotWarm``): commands
that move the toplevel itself (``Back``, ``Reset``, ``Load``, ``Quit`` ...), sections and modules (coqc
refuses one left open at the end of the file), ``Silent``, and a file whose leading ``Require``s are not
the session's.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from putnam_solver.core.benchmark import Problem
from putnam_solver.core.gatekit import ResolvedTool, ToolUnavailable, file_sha256, sandbox_limits
from putnam_solver.core.provers.rocq.build import _findlib_config
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.provers.rocq.syntax import LexError, Sentence, StatementError, sentences
from putnam_solver.core.provers.rocq.toolchain import COQC, find_tool, sandbox_paths
from putnam_solver.core.sandbox import fresh_copy
from putnam_solver.core.verify import GateResult, GateStatus, Track, VerifyOptions
from putnam_solver.kits.interactive import Compiled, Hole, Message, NotWarm, ProofState
from putnam_solver.kits.rocq.lemma_files import (
    HOLE_WORDS,
    answer_hole,
    find_holes,
    lemma_statement,
    lemma_text,
    paste_lemma,
)
from putnam_solver.kits.rocq.search import format_hits, search_sentence
from putnam_solver.kits.sandbox_session import SandboxSession, SessionError, start_session
from putnam_solver.kits.sessions import outside, refused_for_holes

HEADER_COMMANDS = frozenset({"Require", "From", "Import", "Export"})
"""The leading sentences a session loads once: those that load libraries."""
COLD_COMMANDS = frozenset(
    {"Back", "BackTo", "Backtrack", "Reset", "Undo", "Quit", "Drop", "Load", "Cd", "Declare", "Redirect"}
    | {"Section", "Module", "End"}
)
TOP = "Putnam.Candidate"
_SYNC = "putnam_sync_"
_PROMPT = re.compile(rb"<prompt>(.*?)</prompt>", re.S)
_TAGGED = re.compile(r"<(infomsg|warning|prompt)>.*?</\1>", re.S)
_ERROR = re.compile(
    r"(?:Toplevel input, characters (\d+)-(\d+):\n(?:>[^\n]*\n)*)?^Error:[ \t]*(.*?)(?=\n\n|\Z)", re.S | re.M
)
_PROMPT_TEXT = re.compile(r"^(.*?) < (\d+) \|(.*)\| (\d+) < ?$", re.S)
_FAILED = b"The command has indeed failed with message:"


@dataclass(frozen=True)
class _Prompt:
    """coqtop's emacs prompt (``x < 5 |x| 0 <``): the state number and the open proofs."""

    state: int
    proofs: str

    @property
    def proof_open(self) -> bool:
        return bool(self.proofs.strip())


def _parse_prompt(raw: bytes) -> _Prompt:
    match = _PROMPT_TEXT.match(raw.decode("utf-8", "replace").strip())
    if match is None:
        raise SessionError(f"coqtop answered with an unexpected prompt {raw[:80]!r}")
    return _Prompt(int(match.group(2)), match.group(3))


def coqtop_for(options: VerifyOptions) -> ResolvedTool:
    """The ``coqtop`` beside the ``coqc`` the gates run (the same installation), hashed."""
    coqc = find_tool(COQC, options)
    path = coqc.path.with_name("coqtop")
    if not path.is_file():
        raise ToolUnavailable(f"no coqtop beside {coqc.path}; install it with the same Coq")
    return ResolvedTool("coqtop", path, file_sha256(path), coqc.origin)


def header_sentences(text: str) -> list[Sentence]:
    """The leading library-loading sentences of a file (empty when it does not lex)."""
    try:
        sents = sentences(text)
    except LexError:
        return []
    header: list[Sentence] = []
    for sent in sents:
        if sent.command not in HEADER_COMMANDS or not sent.ended:
            break
        header.append(sent)
    return header


class CoqtopSession:
    """One warm coqtop (see the module docstring); one exchange at a time."""

    def __init__(
        self, coqtop: ResolvedTool, header: list[Sentence], source: str, options: VerifyOptions, scratch: Path
    ):
        self.uses = 0
        self._coqtop = coqtop
        self._header = [s.key for s in header]
        limits = sandbox_limits(options)
        workdir = fresh_copy({}, scratch)
        coqc = find_tool(COQC, options)
        self._session: SandboxSession = start_session(
            [str(coqtop.path), "-emacs", "-q", "-top", TOP],
            workdir=workdir,
            readonly=(*_findlib_config(), *sandbox_paths(coqc), *coqtop.readonly),
            limits=limits,
            unsafe_no_sandbox=options.unsafe_no_sandbox,
            merge_stderr=True,
        )
        try:
            deadline = time.monotonic() + limits.timeout_seconds
            self._session.read(_after_prompt, deadline)
            for sent in header:
                output, _ = self._exchange(source[sent.start : sent.end], deadline)
                error = _first_error(output, source, sent.start)
                if error is not None:
                    raise SessionError(f"the imports do not load in coqtop: {error}")
            self._base = self._sync(deadline).state
        except BaseException:
            self._session.close()
            raise

    @property
    def alive(self) -> bool:
        return self._session.alive

    def close(self) -> None:
        self._session.close()

    def evidence(self) -> dict[str, Any]:
        return {"warm": True, "tool": self._coqtop.evidence(), "session_uses": self.uses + 1}

    def compile(self, text: str, timeout: float) -> Compiled:
        started = time.monotonic()
        deadline = started + timeout
        body = self._body(text)
        try:
            status, detail, messages = self._replay(text, body, len(text), deadline)
        finally:
            self._reset(deadline)
        seconds = time.monotonic() - started
        evidence = self.evidence() | {"wall_seconds": round(seconds, 3)}
        return Compiled(status, detail, tuple(messages), seconds, evidence)

    def goals(self, text: str, line: int, timeout: float) -> ProofState:
        deadline = time.monotonic() + timeout
        lines = text.split("\n")
        if (off := outside(text, line)) is not None:
            return off
        end = sum(len(x) + 1 for x in lines[:line]) - 1
        body = self._body(text)
        try:
            status, detail, messages = self._replay(text, body, end, deadline, stop_unended=True)
            shown = self._show(deadline)
        finally:
            self._reset(deadline)
        if status is not GateStatus.PASSED:
            note = f"the file has an error before the end of line {line} ({detail}); the state shown is just before it"
            return ProofState(line, shown, tuple(m for m in messages if m.severity == "error"), note)
        note = "" if shown is not None else f"no proof is open at the end of line {line}"
        return ProofState(line, shown, (), note)

    def search(self, preamble: str, sentence: str, timeout: float) -> str:
        """coqtop's answer to the search ``sentence`` (``rocq.search.search_sentence`` built it), run after
        the sentences of ``preamble`` (the statement's scopes and definitions), then back to the header."""
        output = self.query(preamble, sentence, timeout)
        if output is None:
            return "the statement's preamble does not load, so nothing was searched"
        error = _first_error(output, "", 0)
        return f"Error: {error.text}" if error is not None else format_hits(output)

    def query(self, preamble: str, sentence: str, timeout: float) -> str | None:
        """coqtop's output (tags removed) for the harness's own ``sentence`` after ``preamble``'s sentences,
        then back to the header; None when ``preamble`` does not load."""
        deadline = time.monotonic() + timeout
        body = self._body(preamble)
        try:
            status, _, _ = self._replay(preamble, body, len(preamble), deadline)
            if status is not GateStatus.PASSED:
                return None
            output, _ = self._exchange(sentence, deadline)
        finally:
            self._reset(deadline)
        return _untagged(output)

    # -- the protocol -----------------------------------------------------------------------------------

    def _body(self, text: str) -> list[Sentence]:
        """The sentences after the session's header, or NotWarm when this file must go cold."""
        try:
            sents = sentences(text)
        except LexError as exc:
            raise NotWarm(f"the file does not lex ({exc})") from exc
        for sent in sents:
            if sent.command in COLD_COMMANDS or (sent.command in ("Set", "Unset") and "Silent" in sent.words):
                raise NotWarm(f"line {sent.line}: `{sent.command}` is checked by the cold gates")
        count = len(self._header)
        if [s.key for s in sents[:count]] != self._header:
            raise NotWarm("the file's Require sentences are not the challenge's")
        return sents[count:]

    def _replay(
        self, text: str, body: list[Sentence], end: int, deadline: float, stop_unended: bool = False
    ) -> tuple[GateStatus, str, list[Message]]:
        """Run the sentences of ``body`` that end by offset ``end``, stopping at the first error."""
        messages: list[Message] = []
        prompt: _Prompt | None = None
        for sent in body:
            if sent.end > end or (not sent.ended and stop_unended):
                break
            if not sent.ended:
                return GateStatus.FAILED, f"line {sent.line}: the file ends inside a sentence", messages
            output, prompt = self._exchange(text[sent.start : sent.end], deadline)
            messages += _warnings(output, text, sent.start)
            error = _first_error(output, text, sent.start)
            if error is not None:
                messages.append(error)
                return GateStatus.FAILED, str(error) + self._goals_note(prompt, deadline), messages
        if prompt is not None and prompt.proof_open and end >= len(text):
            detail = f"the file ends with unfinished proofs ({prompt.proofs.strip()})"
            return GateStatus.FAILED, detail + self._goals_note(prompt, deadline), messages
        return GateStatus.PASSED, "coqtop ran every sentence without an error (warm)", messages

    def _goals_note(self, prompt: _Prompt, deadline: float) -> str:
        """The goals where the file stopped, when a proof is open there (what coqc does not print)."""
        if not prompt.proof_open:
            return ""
        shown = self._show(deadline)
        return f"\ngoals at that point:\n{shown}" if shown else ""

    def _show(self, deadline: float) -> str | None:
        output, _ = self._exchange("Show.", deadline)
        text = _untagged(output).strip()
        if re.search(r"^Error:", text, re.M) or not text:
            return None
        return text

    def _exchange(self, chunk: str, deadline: float) -> tuple[str, _Prompt]:
        """Send one chunk and the sync; its output (untrusted) and the prompt after the sync (trusted)."""
        name = _SYNC + secrets.token_hex(8)
        self._session.send(f"{chunk}\nFail Check {name}.\n".encode())
        marker = re.compile(
            rb"The\s+reference\s+" + name.encode() + rb"\s+was\s+not\s+found\s+in\s+the\s+current\s+environment\.\s*"
            rb"<prompt>(.*?)</prompt>",
            re.S,
        )

        def until(buffer: bytes) -> int | None:
            found = marker.search(buffer)
            return None if found is None else found.end()

        data = self._session.read(until, deadline)
        found = marker.search(data)
        assert found is not None
        prompt = _parse_prompt(found.group(1))
        before = data[: data.rfind(_FAILED, 0, found.start())]
        return before.decode("utf-8", "replace"), prompt

    def _sync(self, deadline: float) -> _Prompt:
        return self._exchange("", deadline)[1]

    def _reset(self, deadline: float) -> None:
        """Back to the state after the header; a session that cannot get there is closed."""
        try:
            output, prompt = self._exchange(f"BackTo {self._base}.", max(deadline, time.monotonic() + 30))
        except SessionError:
            return
        if _first_error(output, "", 0) is not None or prompt.proof_open:
            self._session.close()


def _after_prompt(buffer: bytes) -> int | None:
    found = _PROMPT.search(buffer)
    return None if found is None else found.end()


def _untagged(output: str) -> str:
    return _TAGGED.sub("", output)


def _first_error(output: str, text: str, start: int) -> Message | None:
    """The first ``Error:`` coqtop printed for a chunk that starts at ``text[start]``, located in ``text``."""
    found = _ERROR.search(_untagged(output))
    if found is None:
        return None
    message = " ".join(found.group(3).split()) or "error"
    if found.group(1) is None or not text:
        return Message("error", None, None, message)
    line, column = _locate(text, start, int(found.group(1)))
    return Message("error", line, column, message)


def _warnings(output: str, text: str, start: int) -> list[Message]:
    found = re.findall(r"<warning>\s*Warning:?\s*(.*?)</warning>", output, re.S)
    return [Message("warning", None, None, " ".join(w.split())[:300]) for w in found[:5]]


def _locate(text: str, start: int, byte_offset: int) -> tuple[int, int]:
    """coqtop counts bytes from the start of the chunk; the 1-based line and 0-based column in ``text``."""
    chunk = text[start:].encode("utf-8")[:byte_offset].decode("utf-8", "replace")
    offset = start + len(chunk)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1)
    return line, column


class RocqInteractive:
    """``Prover.interactive`` for Rocq."""

    def session_key(self, problem: Problem, challenge: str, options: VerifyOptions) -> str:
        coqtop = coqtop_for(options)
        header = " ".join(" ".join(s.words) for s in header_sentences(challenge))
        return f"rocq|{coqtop.path}|{coqtop.sha256}|{options.unsafe_no_sandbox}|{header}"

    def open_session(self, problem: Problem, challenge: str, options: VerifyOptions, scratch: Path) -> CoqtopSession:
        return CoqtopSession(coqtop_for(options), header_sentences(challenge), challenge, options, scratch)

    def holes(self, challenge: str, candidate: str) -> list[Hole]:
        return find_holes(challenge, candidate)

    def only_holes(self, forbidden: GateResult) -> bool:
        return refused_for_holes(forbidden, HOLE_WORDS)

    def cold_only(self, problem: Problem, track: Track, options: VerifyOptions) -> str | None:
        """A no-answer problem with a solution: G4 also checks the answer in a file of its own
        (``core.provers.rocq.answer_env``: its environment, choice operators, a yes/no truth value)."""
        if track is not Track.NO_ANSWER:
            return None
        try:
            solution = statement_of(problem).solution
        except StatementError:
            return None  # G2 reports a statement that does not parse
        return None if solution is None else "G4 checks a no-answer answer in a file of its own"

    def lemma_statement(self, challenge: str, candidate: str, name: str, track: Track) -> str:
        return lemma_statement(challenge, candidate, name, track)

    def lemma_text(self, statement: str, proved: str) -> str:
        return lemma_text(statement, proved)

    def paste_lemma(self, file: str, name: str, proved: str) -> str | None:
        return paste_lemma(file, name, proved)

    def search_sentence(self, command: str, query: str) -> str:
        return search_sentence(command, query)

    def preamble(self, challenge: str, track: Track) -> str:
        """What of the challenge a search runs after: its sentences before the theorem (scopes,
        definitions), without the no-answer solution hole."""
        try:
            header = parse_statement(challenge, "challenge").header
        except (LexError, StatementError):
            return ""
        return "\n".join(challenge[s.start : s.end] for s in header if not answer_hole(s, track)) + "\n"
