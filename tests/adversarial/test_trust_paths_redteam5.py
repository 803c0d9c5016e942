"""Red team, fifth round on the paths around the gates: what others' text and files do to the reader.

Earlier rounds made every count, verdict and file the harness writes from a handed-over input its own;
this round looks at what such an input does on the way to the person or process reading it:

- the CLI printed text others chose to the operator's terminal as it was: Coq's messages about a
  candidate (``fail "..."`` prints any bytes), a proof bundle's claimed statuses and toolchain names. An
  escape sequence there is a command to the terminal: ``ESC [1A ESC [2K`` erased the ``REJECTED`` line of
  ``putnam verify`` and wrote ``ACCEPTED`` over it, ``ESC [8m`` hid the true count printed after it; and a
  line break in a bundle's claimed status wrote a line of ``verify --bundle``'s table of its own,
  claiming a problem re-verified (``terminal.py``, ``Bundle.claimed``);
- ``putnam report`` and ``putnam audit`` read a file of the run directory whole to compare it with what they
  would write there (plotly's bundle beside the page, an attempt's ``sketch.md``): a sparse terabyte planted
  there (``truncate -s 1T``) ended them in a MemoryError ("a bug in putnam"), a link was followed
  (``safe_write.holds`` reads no further than the expected bytes, and no link);
- ``putnam serve``'s log: uvicorn decodes the request path, and a client with no key wrote a log line of its
  own (``POST /verify -> 200 key=alice``) with ``%0a``; ``putnam mcp``'s stderr line of a check and
  ``putnam solve``'s live view (a model's tool names, as rich markup) carried escapes as well;
- ``putnam serve`` had no track of its own: a client of a no-answer evaluation asked for with-answer and read
  the official answer in the G2 detail of its verdict (``putnam serve --track no-answer`` refuses it); and a
  server on one split, like ``verify --bundle`` against one split, judged and counted another split's
  problems;
- a resume removed every dot file of the run directory (a ``.gitignore``), not only its own temporaries.

Real parts: ``putnam verify`` with real coqc/coqchk in the sandbox, bundles written by the bundle writer,
a real ``putnam solve`` run (the loopback model server) reported by ``putnam report``, real ``putnam serve``
processes on loopback; the live view, the sketch files and the stale temporaries through their real functions.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from putnam_solver.bundles.files import write_bundle
from putnam_solver.clikit import TerminalConsole
from putnam_solver.core.util import sha256_hex
from putnam_solver.run.ledger_sketches import SketchRow
from putnam_solver.run.report.evidence import evidence_dir, sketch_markdown, write_agent_evidence
from putnam_solver.terminal import one_line, terminal_text
from tests.fakes.sample_prover import SAMPLES
from tests.helpers import SANDBOX_AVAILABLE
from tests.processes import putnam

NEEDS_COQ = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None or not SANDBOX_AVAILABLE,
    reason="needs coqc, coqchk and the sandbox",
)
BENCHMARK = SAMPLES / "benchmark.jsonl"
PROBLEM, OTHER = "sample_even_square", "sample_rev_length"
GOOD = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_text()
FORGED_LINE = f"ACCEPTED  {PROBLEM}  x.v"
ERASE_AND_HIDE = f"\x1b[1A\x1b[2K\r{FORGED_LINE}\x1b[8m"
"""Up one line, erase it, write a forged verdict line, then hide all that follows (the true count)."""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def verify(*args: str | Path) -> tuple[int, str, str]:
    return putnam("verify", "--prover", "rocq", "--benchmark", BENCHMARK, *args)


# -- 1. a candidate's compiler messages are shown to the operator, never obeyed by the terminal -----------


@NEEDS_COQ
def test_a_compiler_message_cannot_rewrite_the_verdict_on_the_operator_s_terminal(cache: Path, tmp_path: Path) -> None:
    """Before: stdout held coqc's message with its escapes raw, so a terminal showed ``ACCEPTED
    sample_even_square x.v`` where ``REJECTED`` had been printed, and nothing of the true count."""
    candidate = tmp_path / f"{PROBLEM}.v"
    candidate.write_text(GOOD.replace("  rewrite Nat.even_mul.", f'  fail "{ERASE_AND_HIDE}".'))
    code, stdout, stderr = verify(candidate)
    assert code == 1, stdout + stderr
    assert "\x1b" not in stdout + stderr
    assert stdout.startswith(f"REJECTED  {PROBLEM}  {candidate}\n")
    assert "Tactic failure: \\x1b[1A\\x1b[2K" in stdout  # shown, as the compiler printed it
    assert stdout.splitlines()[-1].startswith("1 problem: 0 accepted, 1 rejected")


@NEEDS_COQ
def test_a_sound_proof_s_verdict_prints_as_before(cache: Path, tmp_path: Path) -> None:
    candidate = tmp_path / f"{PROBLEM}.v"
    candidate.write_text(GOOD.replace("Qed.", "(* ℕ → ∀\tn, ∃ m *)\nQed."))
    code, stdout, stderr = verify(candidate)
    assert code == 0, stdout + stderr
    assert stdout.splitlines()[0] == f"ACCEPTED  {PROBLEM}  {candidate}"
    assert stdout.splitlines()[-1].startswith("1 problem: 1 accepted")


def test_the_harness_s_own_colours_still_reach_a_terminal_and_text_keeps_its_lines() -> None:
    terminal = io.StringIO()
    console = TerminalConsole(file=terminal, force_terminal=True, color_system="standard", highlight=False)
    console.print("[red]error:[/red] x.v: \x1b[2Kgone\x9b2K\u202egnp.v")
    shown = terminal.getvalue()
    assert shown.count("\x1b") == 2  # rich's own colour on and off, nothing of the message's
    assert "\\x1b[2Kgone\\x9b2K\\u202egnp.v" in shown
    assert terminal_text("line 1\n\tℕ → ∀ x, ∃ y\r\nline 2") == "line 1\n\tℕ → ∀ x, ∃ y\nline 2"
    assert one_line("coqc 8.16.1\nsample_rev_length  accepted") == "coqc 8.16.1 sample_rev_length accepted"


# -- 2. a bundle's claims are one cell of verify --bundle's table -----------------------------------------


def bundle(
    target: Path, claims: dict[str, tuple[str, Any]], fingerprints: list[str], benchmark: Path = BENCHMARK
) -> Path:
    """A bundle as ``putnam export`` writes it (the bundle writer and its manifest): per problem its
    candidate and claimed status, against the samples' benchmark."""
    files: dict[str, bytes] = {}
    entries = []
    for problem, (proof, status) in claims.items():
        data = proof.encode()
        files[f"proofs/{problem}.v"] = data
        claim = {"problem": problem, "status": status, "candidate_sha256": sha256_hex(data)}
        files[f"verdicts/{problem}.json"] = json.dumps({"problem": problem, "submission": claim}).encode()
        entries.append({"problem": problem, "claimed": status, "toolchain": fingerprints[0]})
    index = {
        "format": "putnam-proof-bundle",
        "version": 1,
        "prover": "rocq",
        "track": "with-answer",
        "benchmark": {"name": benchmark.name, "sha256": sha256_hex(benchmark.read_bytes()), "pin": None},
        "toolchain": {"fingerprints": fingerprints},
        "problems": entries,
    }
    files["bundle.json"] = json.dumps(index).encode()
    write_bundle(target, files)
    return target


ADMITTED = (SAMPLES / "proofs" / f"{OTHER}.v").read_text().replace("Qed.", "Admitted.")


@NEEDS_COQ
def test_a_claimed_status_cannot_add_a_line_to_the_re_verified_table(cache: Path, tmp_path: Path) -> None:
    """Before: the table printed ``sample_rev_length  accepted  accepted`` on a line of its own, under the
    line that re-verified the bundle's ``Admitted`` proof as REJECTED, and the toolchain note on stderr
    was two lines, its second a table line too."""
    forged = f"accepted\n{OTHER}  accepted      accepted"
    made = bundle(tmp_path / "b", {PROBLEM: (GOOD, "accepted"), OTHER: (ADMITTED, forged)}, [f"coq\n{OTHER}  ok"])
    code, stdout, stderr = verify("--bundle", made)
    assert code == 1, stdout + stderr
    rows = {line.split()[0]: line.split()[1:3] for line in stdout.splitlines()[1:3]}
    assert rows == {PROBLEM: ["accepted", "accepted"], OTHER: ["unreadable", "REJECTED"]}
    assert f"{OTHER}  accepted" not in stdout
    assert "2 proofs (1 claimed accepted), re-verified here: 1 accepted, 1 rejected" in stdout
    (note,) = [line for line in stderr.splitlines() if "another toolchain" in line]
    assert note.endswith(f"coq {OTHER} ok")
    assert not any(line.startswith(f"{OTHER}  ok") for line in stderr.splitlines())


@NEEDS_COQ
def test_an_honest_bundle_s_claims_show_as_they_are(cache: Path, tmp_path: Path) -> None:
    made = bundle(tmp_path / "b.tar.gz", {PROBLEM: (GOOD, "accepted"), OTHER: (ADMITTED, "rejected")}, ["coq"])
    code, stdout, stderr = verify("--bundle", made)
    assert code == 1, stdout + stderr
    rows = {line.split()[0]: line.split()[1:3] for line in stdout.splitlines()[1:3]}
    assert rows == {PROBLEM: ["accepted", "accepted"], OTHER: ["rejected", "REJECTED"]}


def split_copy(directory: Path) -> Path:
    """The samples' benchmark with splits: ``PROBLEM`` in ``valid``, every other problem in ``test``."""
    records = [json.loads(line) for line in BENCHMARK.read_text().splitlines() if line.strip()]
    copy = directory / "benchmark.jsonl"
    copy.write_text(
        "".join(json.dumps({**r, "split": "valid" if r["problem_id"] == PROBLEM else "test"}) + "\n" for r in records)
    )
    return copy


def test_a_bundle_checked_against_one_split_counts_no_proof_of_another(cache: Path, tmp_path: Path) -> None:
    """Before: ``verify --bundle B --benchmark FILE:test`` re-verified and counted the proof of a problem of
    the valid split ("1 proofs ..., re-verified here: 1 accepted"), where ``verify DIR`` and ``solve``
    keep to the split named."""
    copy = split_copy(tmp_path)
    made = bundle(tmp_path / "b", {PROBLEM: (GOOD, "accepted")}, ["coq"], copy)
    code, stdout, stderr = putnam("verify", "--prover", "rocq", "--benchmark", f"{copy}:test", "--bundle", made)
    assert code == 2 and "accepted" not in stdout, stdout + stderr
    assert f"proofs/{PROBLEM}.v (problem {PROBLEM}): in the valid split, not test" in " ".join(stderr.split())
    for whole in (f"{copy}:valid", str(copy)):
        code, stdout, stderr = putnam("verify", "--prover", "rocq", "--benchmark", whole, "--bundle", made)
        assert code == 0 and "re-verified here: 1 accepted" in stdout, stdout + stderr


# -- 3. files of a run directory compared with what would be written there are read no further ----------

SPARSE = 1 << 40
"""A terabyte that takes no disk: larger than memory and swap, so a whole read fails at once."""


def sparse(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        handle.truncate(SPARSE)


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("inspect_ai")
    from tests.fakes.sample_prover import SampleProver, solved_run

    return solved_run(tmp_path_factory.mktemp("solved"), SampleProver([]), (PROBLEM,))[0]


def report_case(solved: Path, tmp_path: Path) -> tuple[Path, Path]:
    pytest.importorskip("plotly")
    from putnam_solver.run.report.html import plotly_file_name

    run_dir = tmp_path / "run"
    shutil.copytree(solved, run_dir, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    return run_dir, run_dir / plotly_file_name()


@NEEDS_COQ
def test_a_sparse_terabyte_beside_the_report_is_replaced_not_read(solved: Path, tmp_path: Path) -> None:
    """Before: ``putnam report`` read the planted file whole to compare it with plotly's bundle and ended
    in "unexpected MemoryError", exit 1, writing no report."""
    run_dir, planted = report_case(solved, tmp_path)
    sparse(planted)
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    assert planted.stat().st_size < 16 << 20 and b"plotly" in planted.read_bytes()[:4096].lower()
    assert (run_dir / "report.html").is_file()


@NEEDS_COQ
def test_a_link_beside_the_report_is_replaced_and_the_right_bundle_kept(solved: Path, tmp_path: Path) -> None:
    run_dir, planted = report_case(solved, tmp_path)
    secret = tmp_path / "secret"
    secret.write_bytes(b"the reader's own file")
    planted.unlink(missing_ok=True)
    planted.symlink_to(secret)
    assert putnam("report", run_dir)[0] == 0
    assert not planted.is_symlink() and secret.read_bytes() == b"the reader's own file"
    kept = planted.read_bytes()
    before = os.stat(planted).st_ino
    assert putnam("report", run_dir)[0] == 0  # the right bytes are there: left as they are
    assert os.stat(planted).st_ino == before and planted.read_bytes() == kept


def sketch_row() -> SketchRow:
    skeleton = "Proof.\n  admit.\nQed.\n"
    return SketchRow(
        problem=PROBLEM,
        sample=1,
        attempt_key="a1",
        call_index=1,
        informal_proof="n * n is even exactly when n is.",
        skeleton=skeleton,
        holes=1,
        proved=0,
        id=1,
        campaign=1,
        skeleton_sha256=sha256_hex(skeleton.encode()),
        recorded_at="2026-01-01T00:00:00+00:00",
    )


def test_a_sparse_terabyte_or_a_link_at_a_sketch_md_is_replaced_not_read(tmp_path: Path) -> None:
    """``putnam audit`` and ``report`` write each attempt's ``sketch.md`` again when it does not hold the
    ledger's sketches; before, they read the planted file whole to know (a MemoryError), or through a link."""
    row = sketch_row()
    place = tmp_path / evidence_dir(row.campaign, row.problem, row.sample) / "sketch.md"
    expected = sketch_markdown([row]).encode()
    sparse(place)
    write_agent_evidence(tmp_path, [], {}, [], ".v", [row])
    assert place.read_bytes() == expected
    place.unlink()
    secret = tmp_path / "secret"
    secret.write_bytes(expected)  # even the right bytes behind a link are not this run's file
    place.symlink_to(secret)
    write_agent_evidence(tmp_path, [], {}, [], ".v", [row])
    assert not place.is_symlink() and place.read_bytes() == expected
    before = os.stat(place).st_ino
    write_agent_evidence(tmp_path, [], {}, [], ".v", [row])  # already right: left alone
    assert os.stat(place).st_ino == before


# -- 4. a client's request path is one field of one line of the server's log ------------------------------

FORGED_LOG = "2026-12-03 17:00:00,000 INFO [-] putnam_solver.serve: POST /verify -> 200 key=alice 1.0 ms"


def test_a_client_without_a_key_writes_no_line_of_the_server_s_log(tmp_path: Path) -> None:
    """uvicorn decodes the request's path (``%0a`` a line feed, ``%1b`` an escape) before the gatekeeper logs
    it. Before: ``GET /x%1b%5b2K%0a<a log line>`` from a client with no key wrote that line to the log, a
    verification by alice answered 200 that never happened, and the escape reached the operator's terminal."""
    import socket
    from urllib.parse import quote, urlsplit

    import httpx

    from tests.helpers import ROCQ_SAMPLES
    from tests.serve_server import start_server, write_keys

    args = ["--keys", str(write_keys(tmp_path / "keys")), "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES)]
    env = {"PUTNAM_CACHE_DIR": str(tmp_path / "cache")}
    server = start_server(tmp_path / "server.log", [*args, "--no-selftest"], env, wait_ready=False)
    try:
        target = "/x" + quote(f"\x1b[1A\x1b[2K\n{FORGED_LOG}", safe="/:,=")
        url = urlsplit(server.url)
        with socket.create_connection((url.hostname, url.port)) as raw:
            raw.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            assert raw.recv(100).startswith(b"HTTP/1.1 404")
        assert httpx.get(f"{server.url}/health").status_code == 200
    finally:
        server.stop()
    log = server.log_text()
    assert "\x1b" not in log
    assert not any(line.startswith(FORGED_LOG[:23]) for line in log.splitlines())
    (line,) = [line for line in log.splitlines() if "GET /x" in line]
    assert line.endswith(
        "%0A2026-12-03%2017:00:00,000%20INFO%20%5B-%5D%20putnam_solver.serve:%20POST%20/verify%20"
        "-%3E%20200%20key=alice%201.0%20ms -> 404 key=- " + line.rsplit(" ", 2)[-2] + " ms"
    )
    assert any(" putnam_solver.serve: GET /health -> 200 key=- " in line for line in log.splitlines())


def test_a_resume_removes_only_its_own_stale_temporaries(tmp_path: Path) -> None:
    """A resume (holding the run's lock) deletes what a killed write left; before, every regular file
    whose name starts with a dot in the run directory and its evidence folders, a ``.gitignore`` too."""
    from putnam_solver.core.safe_files import write_below
    from putnam_solver.run.report.evidence import remove_stale_temporaries

    kept = [tmp_path / ".gitignore", tmp_path / ".notes.md", tmp_path / ".SUMMARY.md.0123"]
    for path in kept:
        path.write_text("the user's own\n")
    folder = tmp_path / "attempts" / "campaign-1" / PROBLEM
    folder.mkdir(parents=True)
    stale = [tmp_path / ".SUMMARY.md.0123456789abcdef", folder / ".verdict.json.fedcba9876543210"]
    for path in stale:
        path.write_text("{")
    write_below(tmp_path, Path("SUMMARY.md"), b"# written\n", 0o644)  # a write of ours leaves no temporary
    assert sorted(remove_stale_temporaries(tmp_path)) == sorted(stale)
    assert all(path.read_text() == "the user's own\n" for path in kept)
    assert (tmp_path / "SUMMARY.md").read_bytes() == b"# written\n"


# -- 5. a no-answer server judges no with-answer request ------------------------------------------------

ANSWER_LINE = "sample_last_digit_solution : Z := 6."
WITHOUT_ANSWER = (
    "Require Import ZArith.\nOpen Scope Z_scope.\n\nTheorem sample_last_digit\n    : (2 ^ 100) mod 10 = 6.\n"
)
"""Leaves the answer's definition out: G2 names the challenge line it misses, on with-answer the official one."""


def _served(tmp_path: Path, records: Path, *flags: str, benchmark: str = str(BENCHMARK)) -> Any:
    from tests.serve_server import start_server, write_keys

    shutil.copytree(records, tmp_path / "cache" / "selftest")
    args = ["--keys", str(write_keys(tmp_path / "keys")), "--prover", "rocq", "--benchmark", benchmark]
    return start_server(tmp_path / "server.log", [*args, *flags], {"PUTNAM_CACHE_DIR": str(tmp_path / "cache")})


def _ask(server: Any, path: str, body: dict[str, Any]) -> Any:
    import httpx

    from tests.serve_server import auth

    return httpx.post(f"{server.url}{path}", json=body, headers=auth("bob"), params={"full": "1"}, timeout=120)


ITEM = {"problem": "sample_last_digit", "candidate": WITHOUT_ANSWER + "Proof. reflexivity. Qed.\n", "profile": "text"}


@NEEDS_COQ
def test_a_no_answer_server_refuses_a_with_answer_request(tmp_path: Path, rocq_selftest_records: Path) -> None:
    """``putnam serve`` had no track of its own: a client of a no-answer evaluation sent ``"track":
    "with-answer"`` and read the official answer in the G2 detail of its verdict (the challenge line it left
    out), which ``putnam mcp --track no-answer`` already refuses."""
    server = _served(tmp_path, rocq_selftest_records, "--track", "no-answer")
    try:
        asked = [
            _ask(server, "/verify", {**ITEM, "track": "with-answer"}),
            _ask(
                server, "/verify/batch", {"items": [{**ITEM, "track": "no-answer"}, {**ITEM, "track": "with-answer"}]}
            ),
        ]
        for answer in asked:
            assert answer.status_code == 422, answer.text
            assert "serves the no-answer track only" in answer.text and ANSWER_LINE not in answer.text
        assert "item 1:" in asked[1].json()["detail"]
        kimina = _ask(
            server,
            "/kimina/verify",
            {
                "codes": [{"custom_id": "sample_last_digit", "proof": ITEM["candidate"]}],
                "track": "with-answer",
                "profile": "text",
            },
        )
        assert kimina.status_code == 200 and "no-answer track only" in kimina.json()["results"][0]["error"]
        default = _ask(server, "/verify", ITEM)  # no track named: the server's
        assert default.status_code == 200 and default.json()["track"] == "no-answer", default.text
        assert default.json()["status"] == "rejected" and ANSWER_LINE not in default.text
    finally:
        server.stop()


@NEEDS_COQ
def test_a_server_on_the_default_track_serves_both(tmp_path: Path, rocq_selftest_records: Path) -> None:
    server = _served(tmp_path, rocq_selftest_records)
    try:
        with_answer = _ask(server, "/verify", {**ITEM, "track": "with-answer"})
        assert with_answer.status_code == 200 and with_answer.json()["track"] == "with-answer"
        assert ANSWER_LINE in with_answer.text  # what a with-answer verdict may quote, and a no-answer server never
        assert _ask(server, "/verify", ITEM).json()["track"] == "with-answer"
        assert _ask(server, "/verify", {**ITEM, "track": "no-answer"}).json()["track"] == "no-answer"
    finally:
        server.stop()


def test_putnam_mcp_s_stderr_line_of_a_check_shows_the_compiler_s_escapes(capsys: pytest.CaptureFixture[str]) -> None:
    """``putnam mcp`` writes one stderr line per judged call, the first line of a check's answer in it: coqc's
    message about the candidate, whose escapes went to the terminal or log viewer of the IDE running it."""
    from putnam_solver.mcp.stdio import stderr

    stderr(f"check {PROBLEM} (with-answer, candidate sha256 0123): coqc: Tactic failure: {ERASE_AND_HIDE}")
    shown = capsys.readouterr().err
    assert "\x1b" not in shown and shown.count("\n") == 1
    assert shown.endswith("Tactic failure: \\x1b[1A\\x1b[2K\\x0dACCEPTED  sample_even_square  x.v\\x1b[8m\n")
    stderr("verify sample_even_square (no-answer, candidate sha256 0123): accepted; answer solution: confirmed")
    assert capsys.readouterr().err == (
        "putnam mcp: verify sample_even_square (no-answer, candidate sha256 0123): accepted; answer solution: "
        "confirmed\n"
    )


def test_the_live_view_shows_a_model_s_tool_name_and_a_provider_s_failure_as_text() -> None:
    """``putnam solve``'s live view names the tool each attempt ran last: the model's words (a call of a tool
    that does not exist is named too), which went into a rich table as markup (``[link=...]``) with their
    escapes; the provider's failure messages kept their escapes too."""
    from putnam_solver.run.agent.live_run import RunningAttempt
    from putnam_solver.run.report.progress import Totals, live_view

    tool = "[link=https://example.invalid]submit[/link]\x1b[2K\x1b[8m"
    running = (RunningAttempt(PROBLEM, 3, tool, 1200, 100.0), RunningAttempt(OTHER, 1, "check", 10, 100.0))
    totals = Totals(
        1, 0, 1, 1, 2, 0, 4, 1210, 0.01, failures="HTTP 500: \x1b[8mhidden", campaign_size=2, in_flight=running
    )
    terminal = io.StringIO()
    console = Console(file=terminal, force_terminal=True, color_system=None, width=200)
    console.print(live_view(totals, 200, now=130.0))
    shown = terminal.getvalue()
    assert "\x1b" not in shown and "\x1b]8;" not in shown  # no escape, no hyperlink
    assert "[link=https://example.invalid]submit[/link]\\x1b[2K\\x1b[8m" in shown
    assert "HTTP 500: \\x1b[8mhidden" in shown and " check " in shown


@NEEDS_COQ
def test_a_server_on_one_split_judges_no_problem_of_another(tmp_path: Path, rocq_selftest_records: Path) -> None:
    """Before: ``putnam serve --benchmark FILE:test`` judged a valid-split problem asked for by id or by its
    record (``putnam mcp`` on the same split refuses it, as ``solve`` and ``verify DIR`` leave it out)."""
    copy = split_copy(tmp_path)
    record = next(json.loads(line) for line in copy.read_text().splitlines() if PROBLEM in line)
    server = _served(tmp_path, rocq_selftest_records, benchmark=f"{copy}:test")
    try:
        for body in ({"problem": PROBLEM}, {"record": record}):
            refused = _ask(server, "/verify", {**body, "candidate": GOOD, "profile": "text"})
            assert refused.status_code == 404, refused.text
            assert (
                f"{PROBLEM} is in the valid split of benchmark.jsonl; this server serves its test split" in refused.text
            )
        other = (SAMPLES / "proofs" / f"{OTHER}.v").read_text()
        served = _ask(server, "/verify", {"problem": OTHER, "candidate": other, "profile": "text"})
        assert served.status_code == 200 and served.json()["status"] == "accepted", served.text
    finally:
        server.stop()
