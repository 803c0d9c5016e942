"""Red team, seventh round on the paths around the gates: which toolchain a stored verdict speaks for, and the
model's own Markdown in the files a run leaves for people to read.

- ``putnam serve`` and ``putnam verify`` read the toolchain's fingerprint for the verdict cache's key before the
  gates ran and stored the verdict under that key afterwards: a ``coqc`` replaced while a candidate was judged
  (here by a ``coqc`` that reads no prelude, which rejects the sound sample proof) left its rejection stored
  under the key of the ``coqc`` that was there before, so once the good ``coqc`` was back the sound proof was
  ``rejected (cached)`` for good, on every later request (``verifier/one_toolchain.py``);
- ``putnam serve`` looked at the toolchain only every 60 seconds: a ``coqc`` no selftest had judged answered
  verifications in between (``Readiness.confirm``);
- ``inspect view`` renders a score's explanation as Markdown: a candidate's ``fail "..."`` message quoted in
  G4's detail showed there as bold ``ACCEPTED: every gate passed`` and a link (``markdown_text.paragraph``);
- ``plan.md`` and ``sketch.md`` hold the model's own text as Markdown: rendered (a repository's page, an
  editor's preview), its ``<img src=https://...>`` loaded a remote address whenever the page was viewed and
  its ``# Solved: 2 of 2`` was a heading; a skeleton holding a fence line closed ``sketch.md``'s code block
  and rendered the rest (``run/report/model_text.py``).

Real parts: real coqc/coqchk in the sandbox for every verdict, a real ``coqc`` file replaced in place, the real
HTTP app (starlette's test client) with its real readiness and selftest records, Markdown rendered by
markdown-it (CommonMark with raw HTML, as a repository's page renders it before sanitising) and by headless
Chromium.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Track, Verdict, VerifyOptions
from putnam_solver.verifier import dispatch
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from tests.fakes.swapped_coqc import (
    GOOD,
    NEEDS_COQ,
    PROBLEM,
    SwappedDuring,
    broken_coqc,
    installed_coqc,
    replace,
    serve_config,
)
from tests.helpers import ROCQ_SAMPLES

KEY = "redteam7-key-0123456789abcdef"


# -- putnam verify: a verdict is stored only under the key of the toolchain that made it ----------------------


@NEEDS_COQ
def test_verify_stores_no_verdict_made_across_a_toolchain_change(coqc: Path, tmp_path: Path) -> None:
    """Before: the rejection the broken ``coqc`` made was stored under the good ``coqc``'s key, and the next
    ``putnam verify`` of the sound proof, with the good ``coqc`` back, answered ``rejected`` (cached). Now the
    verdict is shown but not stored, and the proof is judged again and accepted."""
    bench = load_benchmark(ROCQ_SAMPLES)
    cache = VerdictCache(tmp_path / "verdicts")
    candidate = Candidate(tmp_path / f"{PROBLEM}.v", bench.problems[PROBLEM], GOOD)
    options = VerifyOptions(tools={"coqc": coqc})
    rocq = get_prover("rocq")
    good = coqc.read_bytes()

    def judged(verifier: Any = dispatch.LOCAL) -> Verdict:
        (verdict,) = verify_candidates(
            [candidate], rocq, bench, Track.WITH_ANSWER, options, cache=cache, verifier=verifier
        )
        return verdict

    during = judged(SwappedDuring(coqc, broken_coqc()))
    assert during.status == "rejected" and not during.cached, "the broken coqc rejected the sound proof"
    replace(coqc, good)
    after = judged()
    assert after.accepted and not after.cached, "judged again on the good coqc, not answered by the stored rejection"
    again = judged()
    assert again.accepted and again.cached, "valid beside: a verdict made on one toolchain is reused as before"


@NEEDS_COQ
def test_an_acceptance_made_across_a_toolchain_change_does_not_count(coqc: Path, tmp_path: Path) -> None:
    """The good ``coqc`` replaced by a wrapper that runs it (an upgrade in place) while the sound proof is judged:
    every gate passed, but no one toolchain made the verdict, so it is an ``error`` naming both, never stored."""
    bench = load_benchmark(ROCQ_SAMPLES)
    cache = VerdictCache(tmp_path / "verdicts")
    candidate = Candidate(tmp_path / f"{PROBLEM}.v", bench.problems[PROBLEM], GOOD)
    options = VerifyOptions(tools={"coqc": coqc})
    upgrade = f'#!/bin/sh\nexec {installed_coqc()} "$@"\n'.encode()
    (verdict,) = verify_candidates(
        [candidate], get_prover("rocq"), bench, Track.WITH_ANSWER, options, cache=cache,
        verifier=SwappedDuring(coqc, upgrade),
    )  # fmt: skip
    assert verdict.status == "error", verdict.gates
    problem = verdict.first_problem()
    assert problem is not None and "changed while this candidate was judged" in problem.detail
    assert not any(cache.directory.rglob("*.json")), "nothing stored"


# -- putnam serve: the same, and readiness checked per verification ------------------------------------------


@pytest.fixture
def served(coqc: Path, tmp_path: Path) -> Iterator[Any]:
    """A function that starts the real app (readiness, selftest records, cache) on ``coqc`` with a backend."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from putnam_solver.serve import create_app
    from putnam_solver.serve.verifier import PoolVerifier

    config = serve_config(coqc, tmp_path, KEY, 2)
    clients: list[Any] = []

    def start(backend: Any = dispatch.LOCAL) -> Any:
        client = TestClient(create_app(config, PoolVerifier(1, backend)))
        clients.append(client.__enter__())
        return client

    yield start
    for client in clients:
        client.__exit__(None, None, None)


def ask(client: Any) -> tuple[int, dict[str, Any]]:
    response = client.post(
        "/verify", json={"problem": PROBLEM, "candidate": GOOD.decode()}, headers={"Authorization": f"Bearer {KEY}"}
    )
    return response.status_code, dict(response.json())


@NEEDS_COQ
def test_serve_stores_no_verdict_made_across_a_toolchain_change(served: Any, coqc: Path) -> None:
    """Before: ``coqc`` replaced during the first request's verification; its rejection was stored under the key
    of the good ``coqc``, and with that ``coqc`` back the server answered ``rejected``, ``cached: true`` to every
    later request for the sound proof. Now the second request is judged again and accepted; the third is cached."""
    good = coqc.read_bytes()
    client = served(SwappedDuring(coqc, broken_coqc()))
    code, first = ask(client)
    assert code == 200 and first["status"] == "rejected" and first["cached"] is False, first
    replace(coqc, good)
    code, second = ask(client)
    assert code == 200 and second["status"] == "accepted" and second["cached"] is False, second
    code, third = ask(client)
    assert code == 200 and third["status"] == "accepted" and third["cached"] is True, "valid: reused as before"


@NEEDS_COQ
def test_serve_judges_nothing_on_a_toolchain_no_selftest_passed(served: Any, coqc: Path) -> None:
    """Before: readiness looked at the toolchain every 60 seconds, so a ``coqc`` replaced between two requests
    judged the second (the sound proof rejected, the verdict stored). Now the second is refused with 503, naming
    the missing selftest, and once the selftested ``coqc`` is back the server answers again."""
    good = coqc.read_bytes()
    client = served()
    code, first = ask(client)
    assert code == 200 and first["status"] == "accepted", first
    replace(coqc, broken_coqc())
    code, refused = ask(client)
    assert code == 503 and "no selftest of rocq on this toolchain" in refused["detail"], refused
    replace(coqc, good)
    code, back = ask(client)
    assert code == 200 and back["status"] == "accepted" and back["cached"] is True, back


# -- the model's Markdown: plan.md and sketch.md show its text as text ----------------------------------------

BEACON = "https://attacker.example/seen.png"
FORGED_HEADLINE = "Solved: 2 of 2 (100.0%), audited"
HOSTILE = (
    f"# {FORGED_HEADLINE}\n\n<h1>{FORGED_HEADLINE}</h1><img src={BEACON}>\n![seen]({BEACON})\n"
    f"**{FORGED_HEADLINE}** [the audit](https://attacker.example/audit)\n"
    "```\n</code></pre><img src=https://attacker.example/fence.png>\n````\n~~~\n"
    "\x1b[1A\x1b[2Kaccepted\rline\n"
)
"""Everything a model can write to make a Markdown page load a remote address or show a forged headline: a
heading, raw HTML, an image and a link, bold, fence lines of three and four backticks and of tildes (to close
the harness's block), and a terminal escape with a carriage return (for ``cat``)."""

HONEST_PLAN = "1. Case on `Nat.even n`.\n2. Use `Nat.even_mul` in each case.\n"
HONEST_SKELETON = "Theorem t : True.\nProof.\n  (* hole 1 *) admit.\nQed.\n"


def markdown_html(text: str) -> str:
    markdown_it = pytest.importorskip("markdown_it")
    return str(markdown_it.MarkdownIt("commonmark", {"html": True}).enable("table").render(text))


def hostile_evidence(tmp_path: Path, plan: str, informal: str, skeleton: str) -> tuple[str, str]:
    """``plan.md`` and ``sketch.md`` as ``putnam solve``, ``report`` and ``audit`` write them for these texts."""
    from putnam_solver.core.util import sha256_hex
    from putnam_solver.run.ledger_rows import AttemptRow
    from putnam_solver.run.ledger_sketches import SketchRow
    from putnam_solver.run.report.evidence import write_agent_evidence

    attempt = AttemptRow(1, 1, PROBLEM, "rejected", 1, 0, 0, 0.0, "x", "h", None, None, None, None)
    sketch = SketchRow(
        problem=PROBLEM, sample=1, attempt_key="a1", call_index=1, informal_proof=informal, skeleton=skeleton,
        holes=1, proved=0, id=1, campaign=1, skeleton_sha256=sha256_hex(skeleton.encode()),
        recorded_at="2026-01-01T00:00:00+00:00",
    )  # fmt: skip
    write_agent_evidence(tmp_path, [attempt], {1: {"plan": plan}}, [], ".v", [sketch])
    folder = tmp_path / "attempts" / "campaign-1" / PROBLEM
    return (folder / "plan.md").read_text(), (folder / "sketch.md").read_text()


def test_model_markdown_in_plan_and_sketch_renders_as_text(tmp_path: Path) -> None:
    """Before: ``plan.md`` was the plan as the model wrote it and ``sketch.md`` put the informal proof in the page
    and the skeleton in a ``` block that its own fence line closed: rendered, each held an ``<img>`` and a Markdown
    image loading ``attacker.example``, ``<h1>Solved: 2 of 2 (100.0%), audited</h1>``, bold and a link. Now the
    rendered pages hold the text, every character of it, inside code blocks, and no image, link or heading of it."""
    plan, sketch = hostile_evidence(tmp_path, HOSTILE, HOSTILE, HOSTILE)
    for page in (plan, sketch):
        html = markdown_html(page)
        assert "<img" not in html and "<a " not in html and "<strong>" not in html, html
        assert FORGED_HEADLINE not in "".join(re.findall(r"<h\d>(.*?)</h\d>", html)), html
        blocks = re.findall(r"<pre><code[^>]*>(.*?)</code></pre>", html, re.S)
        shown = [unescape(b) for b in blocks]
        assert all(HOSTILE.replace("\x1b", "\\x1b").replace("\r", "\\x0d") == b for b in shown), shown
        assert "\x1b" not in page and "\r" not in page, "read with cat, no escape acts"
    assert len(re.findall(r"<pre>", markdown_html(sketch))) == 2, "the informal proof and the skeleton"


def test_an_honest_plan_and_sketch_still_read_as_written(tmp_path: Path) -> None:
    """Valid beside: the texts are there byte for byte, under the harness's own headings."""
    plan, sketch = hostile_evidence(tmp_path, HONEST_PLAN, "n * n is even exactly when n is.", HONEST_SKELETON)
    assert HONEST_PLAN in plan and "# Plan" in plan
    assert "n * n is even exactly when n is." in sketch and HONEST_SKELETON in sketch
    html = markdown_html(sketch)
    assert "<h1>Sketch 1 of attempt a1 (0 of 1 holes proved)</h1>" in html and "<h2>Skeleton</h2>" in html
    assert unescape(re.findall(r"<pre><code[^>]*>(.*?)</code></pre>", html, re.S)[1]) == HONEST_SKELETON


def test_a_rendered_sketch_loads_nothing_in_a_browser(tmp_path: Path) -> None:
    """The hostile ``sketch.md`` and ``plan.md`` rendered as a repository's page renders them (markdown-it, raw HTML
    on), opened in headless Chromium with every request sent to a recording proxy: no request leaves."""
    from tests.browser import NEEDS_CHROMIUM, page_requests, recording_proxy, render

    if NEEDS_CHROMIUM.args[0]:
        pytest.skip(NEEDS_CHROMIUM.kwargs["reason"])
    plan, sketch = hostile_evidence(tmp_path, HOSTILE, HOSTILE, HOSTILE)
    page = tmp_path / "page.html"
    page.write_text(f"<!doctype html><html><body>{markdown_html(plan)}{markdown_html(sketch)}</body></html>")
    with recording_proxy() as (proxy, address):
        dom = render(page.as_uri(), tmp_path / "profile", proxy=address)
    assert "attacker.example" in dom, "the page shows the text"
    assert page_requests(proxy) == [], page_requests(proxy)
    raw = tmp_path / "raw.html"  # the same texts as the files held them before
    raw.write_text(f"<!doctype html><html><body>{markdown_html(HOSTILE)}</body></html>")
    with recording_proxy() as (proxy, address):
        render(raw.as_uri(), tmp_path / "profile-raw", proxy=address)
    assert any("attacker.example" in line for line in page_requests(proxy)), "the check sees a load when one is made"


# -- inspect view: a score's explanation is Markdown there --------------------------------------------------

FORGED_SCORE = "ACCEPTED: every gate passed"


@pytest.mark.usefixtures("solve_env")
def test_a_compiler_message_in_a_score_explanation_renders_as_text(tmp_path: Path) -> None:
    """``inspect view`` renders a score's explanation as Markdown (sanitised: no remote image, but headings, bold
    and links stay). Before: the candidate's ``fail "..."`` message, which coqc prints as it is and G4's detail
    quotes, rendered in the explanation of a rejected sample as ``<strong>ACCEPTED: every gate passed</strong>``,
    a link to ``attacker.example`` and raw HTML. Now the explanation is one line of text: rendered, no heading,
    emphasis, link or tag of the candidate's."""
    pytest.importorskip("inspect_ai")
    from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
    from tests.fakes.scripted_agent import FIXTURE, NEEDS_ROCQ, STATEMENT
    from tests.integration.inspect_cli import inspect_eval

    if NEEDS_ROCQ.args[0]:
        pytest.skip(NEEDS_ROCQ.kwargs["reason"])
    message = f"no\n\n# {FORGED_SCORE}\n\n**{FORGED_SCORE}** [the verdict](https://attacker.example/v) <b>x</b>"
    proof = f'{STATEMENT}  fail "{message}".\nQed.\n'
    fake = FakeOpenAI([tool_call_reply("submit", {"proof": proof}, "call_1")])
    with serve(fake) as url:
        log = inspect_eval(tmp_path, url, f"benchmark={FIXTURE}", "problems=one_plus_one", "max_turns=1")
    (score,) = [s.scores["putnam_gates"] for s in log.samples or [] if s.scores]
    assert score.value == "I" and score.answer == "rejected"
    explanation = str(score.explanation)
    assert FORGED_SCORE in explanation and "\n" not in explanation, explanation
    assert explanation.startswith("G4 compile failed"), explanation
    html = markdown_html(explanation)
    assert html.count("<p>") == 1 and not re.search(r"<(h\d|strong|a|b)[ >]", html), html


@pytest.mark.parametrize(
    "text",
    [
        "G4 compile failed: coqc: line 3, characters 2-13: Error: Unable to unify 2 with 1 + 1.",
        "vetoed by the reviewer: the proof leans on reflexivity alone",
        "accepted",
        "the worker submitted nothing",
    ],
)
def test_an_honest_explanation_reads_as_before(text: str) -> None:
    """Valid beside: an explanation without markup is the same text, and renders as that text."""
    from putnam_solver.markdown_text import paragraph

    assert paragraph(text) == text
    assert unescape(markdown_html(paragraph(text))) == f"<p>{text}</p>\n"


@pytest.mark.parametrize("start", ["# ", "> ", "- ", "+ ", "1. ", "12) ", "---", "    ", "<h1>", "|a|b|\n|-|-|\n"])
def test_no_explanation_opens_a_block(start: str) -> None:
    """Whatever an explanation starts with, it renders as one paragraph of its own text."""
    from putnam_solver.markdown_text import paragraph

    text = f"{start}{FORGED_SCORE}"
    html = markdown_html(paragraph(text))
    assert html.startswith("<p>") and html.count("<p>") == 1 and FORGED_SCORE in html, html


# -- a sealed audit counts only for the problem it judged -----------------------------------------------------

PROBLEMS = ("sample_even_square", "sample_rev_length")


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real run that solved both sample problems, then audited by this account (every row sealed)."""
    pytest.importorskip("inspect_ai")
    from tests.fakes.sample_prover import SampleProver, solved_run
    from tests.fakes.scripted_agent import NEEDS_ROCQ
    from tests.processes import putnam

    if NEEDS_ROCQ.args[0]:
        pytest.skip(NEEDS_ROCQ.kwargs["reason"])
    run_dir, benchmark = solved_run(tmp_path_factory.mktemp("audited"), SampleProver([]), PROBLEMS)
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0, stdout + stderr
    return run_dir, benchmark


@pytest.fixture
def audited_copy(audited: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    run_dir = tmp_path / "run"
    shutil.copytree(audited[0], run_dir, ignore=shutil.ignore_patterns("work", "logs", "run.lock"))
    return run_dir, audited[1]


def swap_problems(run_dir: Path) -> None:
    """Each pass's attempt row (and its stored verdict's ``problem``) relabelled with the other problem: every
    candidate is now stored as a proof of a statement it does not prove; the audit rows are left as they were."""
    import json

    from tests.helpers import sql

    first, second = PROBLEMS
    sql(run_dir, "UPDATE attempts SET problem='swapping' WHERE problem=?", first)
    sql(run_dir, "UPDATE attempts SET problem=? WHERE problem=?", first, second)
    sql(run_dir, "UPDATE attempts SET problem=? WHERE problem='swapping'", second)
    for attempt, stored in sql(run_dir, "SELECT attempt_id, json FROM verdicts"):
        verdict = json.loads(stored)
        verdict["problem"] = second if verdict["problem"] == first else first
        sql(run_dir, "UPDATE verdicts SET json=? WHERE attempt_id=?", json.dumps(verdict), attempt)


def report_counts(run_dir: Path) -> tuple[str, str]:
    """``putnam report``'s solved and audited figures."""
    from tests.processes import putnam

    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    page = (run_dir / "report.html").read_text()
    found = [re.search(rf'id="stat-{key}" data-value="([^"]*)"', page) for key in ("solved", "audited")]
    assert found[0] and found[1], page[:2000]
    return found[0].group(1), found[1].group(1)


def test_a_sealed_audit_counts_for_no_other_problem(audited_copy: tuple[Path, Path]) -> None:
    """Before: with the two passes' attempt rows relabelled with each other's problem (and their verdicts'
    ``problem``), each sealed ``accepted`` audit still named its attempt id and candidate hash, so ``putnam
    report`` showed 2 audited of 2, though neither stored candidate proves the problem it is now counted for
    (``putnam audit`` rejects both). Now an audit confirms only a pass of the problem its own sealed verdict
    judged: none is audited."""
    from tests.processes import putnam

    run_dir, benchmark = audited_copy
    swap_problems(run_dir)
    assert report_counts(run_dir) == ("2", "0"), "the ledger's claims stand as claims; no audit confirms them"
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 1 and "not confirmed" in stdout, stdout + stderr
    assert "**Solved: 0 of 2 (0.0%), audited**" in (run_dir / "SUMMARY.md").read_text()


def test_this_account_s_audits_of_the_right_problems_still_count(audited_copy: tuple[Path, Path]) -> None:
    """Valid beside: the same run, unedited, is 2 audited of 2."""
    run_dir, _ = audited_copy
    assert report_counts(run_dir) == ("2", "2")
    assert "**Solved: 2 of 2 (100.0%), audited**" in (run_dir / "SUMMARY.md").read_text()
