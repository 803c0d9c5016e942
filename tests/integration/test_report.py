"""`putnam report`: the HTML page of a run, checked against the run's ledger, and rendered offline in
headless Chromium.

The runs are real campaigns: the scripted runner of ``campaign_driver`` submits candidates whose verdicts
come from the real Lean text gates over six PutnamBench problems; the rate-limited run goes through Inspect,
the real ``openai`` client and a loopback server that answers 429 once, with real coqc/coqchk judging the
proof. Every number the page shows is compared with what the ledger says, read independently (SQL or the
``Ledger`` API), never with the report's own computations.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.types import AttemptResult, CampaignJob
from putnam_solver.run.campaign import RunSettings, Selection, required_settings, solve
from putnam_solver.run.ledger import LEDGER_NAME, RATE_LIMITS_SINCE, Ledger
from putnam_solver.run.prices import run_unpriced
from putnam_solver.run.report.progress import format_seconds
from tests.browser import NEEDS_CHROMIUM, Node, page_requests, parse, recording_proxy, render
from tests.integration.campaign_driver import LEAN_BENCH, SIX, SIX_SCRIPT, lean_runner, lean_text_config

pytestmark = pytest.mark.skipif(not LEAN_BENCH.is_file(), reason=f"{LEAN_BENCH} is missing")
runner = CliRunner()
MARKUP = '<img src=x onerror="alert(1)"> & </td></tr><script>alert(2)</script>'
"""An attempt's error text that tries to escape the page's markup."""
B_SCRIPT = {"putnam_1962_a1": 1, "putnam_1962_a5": 1, "putnam_1962_a6": 2}
SHOT_SIZE = (1280, 2400)


class ErrorOn:
    """A scripted runner whose attempts of one problem end in an infrastructure error with ``message``."""

    def __init__(self, inner: Callable[[CampaignJob], None], problem: str, message: str) -> None:
        self.inner, self.problem, self.message = inner, problem, message

    def __call__(self, job: CampaignJob) -> None:
        forward = job.on_attempt

        def relay(result: AttemptResult) -> None:
            if result.problem == self.problem:
                result = dataclasses.replace(result, status="error", candidate=None, verdict=None, error=self.message)
            forward(result)

        self.inner(dataclasses.replace(job, on_attempt=relay))


def _run(run_dir: Path, script: dict[str, int], campaigns: int, error_on: str | None = None) -> Path:
    inner = lean_runner(script)
    campaign_runner = ErrorOn(inner, error_on, MARKUP) if error_on else inner
    settings = RunSettings(run_dir, lean_text_config(), Selection(LEAN_BENCH, problems=SIX), campaigns)
    outcome = solve(settings, None, campaign_runner)
    assert outcome.exit_code == ExitCode.SUCCESS, outcome.message
    return run_dir


def _audit_first_pass(run_dir: Path) -> str:
    """Re-verify the first stored pass as `putnam audit` does (real text gates) and store the audit."""
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        row = next(a for a in ledger.attempts() if a.verified_pass)
        bench = load_benchmark(LEAN_BENCH)
        assert row.candidate is not None
        verdict = run_gates(
            get_prover("lean"),
            bench,
            bench.problems[row.problem],
            row.candidate.encode(),
            Track.WITH_ANSWER,
            VerifyOptions(profile=Profile.TEXT),
        )
        assert verdict.accepted
        ledger.record_audit(row.id, verdict.to_json(), "toolchain of the test", bench.sha256, False)
        return row.problem
    finally:
        ledger.close()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """Run A (six problems, three campaigns, one pass audited) and run B (other solves, one error), each
    with its report written by `putnam report`."""
    base = tmp_path_factory.mktemp("runs")
    a = _run(base / "run-a", SIX_SCRIPT, 3)
    _audit_first_pass(a)
    b = _run(base / "run-b", B_SCRIPT, 2, error_on="putnam_1962_a4")
    for run_dir in (a, b):
        result = runner.invoke(app, ["report", str(run_dir)])
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == str(run_dir / "report.html")
    yield a, b


def _ledger(run_dir: Path) -> Ledger:
    return Ledger.open(run_dir / LEDGER_NAME)


def _page(path: Path) -> Node:
    return parse(path.read_text(encoding="utf-8"))


def _stat(page: Node, key: str) -> tuple[str, str]:
    node = page.by_id(f"stat-{key}")
    [value] = node.all(cls="value")
    return node.attrs["data-value"], value.text()


def _assert_headline_equals_ledger(page: Node, run_dir: Path) -> None:
    """The headline the page shows against the ledger's own API and the SQL of its tables."""
    ledger = _ledger(run_dir)
    try:
        settings = required_settings(ledger, "check")
        selected = settings.selected
        solved = ledger.passed_problems() & set(selected)
        audited = ledger.audited_problems() & solved
        usage = ledger.usage()
        campaigns = ledger.campaigns()
    finally:
        ledger.close()
    db = sqlite3.connect(run_dir / LEDGER_NAME)
    cost, tokens = db.execute("SELECT SUM(cost_dollars), SUM(input_tokens + output_tokens) FROM attempts").fetchone()
    db.close()
    assert usage.cost_dollars == pytest.approx(cost) and usage.tokens == tokens
    assert _stat(page, "solved") == (str(len(solved)), str(len(solved)))
    assert _stat(page, "audited") == (str(len(audited)), str(len(audited)))
    unresolved = len(set(selected) - solved)
    assert _stat(page, "unresolved") == (str(unresolved), str(unresolved))
    raw, shown = _stat(page, "dollars")
    assert _stat(page, "tokens") == (str(tokens), f"{tokens:,}")
    if not cost and run_unpriced(settings.config):  # no price and nothing counted: unknown, never $0.00
        assert (raw, shown) == ("", "unknown") and _stat(page, "dollars-per-solved") == ("", "unknown")
    elif run_unpriced(settings.config):  # what was counted is not all that was spent: never the run's cost
        assert (raw, shown) == ("", f"at least ${cost:.2f}") and _stat(page, "dollars-per-solved") == ("", "unknown")
    else:
        assert float(raw) == pytest.approx(cost) and shown == f"${cost:.2f}"
        raw, shown = _stat(page, "dollars-per-solved")
        assert float(raw) == pytest.approx(cost / len(solved)) and shown == f"${cost / len(solved):.2f}"
    raw, shown = _stat(page, "wall-time")
    assert all(c.finished_at for c in campaigns) and shown == format_seconds(float(raw))


def test_the_headline_equals_the_ledger(runs: tuple[Path, Path]) -> None:
    a, b = runs
    for run_dir in (a, b):
        _assert_headline_equals_ledger(_page(run_dir / "report.html"), run_dir)
    assert _stat(_page(a / "report.html"), "audited")[0] == "1", "the audited pass counts"
    assert _stat(_page(a / "report.html"), "solved")[0] == "5"


def test_every_attempt_is_in_the_table_with_its_ledger_numbers(runs: tuple[Path, Path]) -> None:
    a, _ = runs
    page = _page(a / "report.html")
    table = page.by_id("attempts-table")
    keys = [th.attrs["data-key"] for th in table.all("th")]
    rows = {
        r.attrs["id"]: [td.attrs.get("data-sort") for td in r.all("td")] for r in table.all("tr") if "id" in r.attrs
    }
    db = sqlite3.connect(a / LEDGER_NAME)
    stored = db.execute("SELECT id, campaign, problem, status, turns, cost_dollars FROM attempts").fetchall()
    db.close()
    assert set(rows) == {f"attempt-{i}" for i, *_ in stored}
    for attempt_id, campaign, problem, status, turns, cost in stored:
        cells = dict(zip(keys, rows[f"attempt-{attempt_id}"], strict=True))
        assert (cells["campaign"], cells["problem"], cells["status"]) == (str(campaign), problem, status)
        assert cells["turns"] == str(turns) and float(cells["cost"] or "nan") == pytest.approx(cost)


def test_gate_stops_count_the_first_gate_that_did_not_pass_of_every_attempt(runs: tuple[Path, Path]) -> None:
    a, b = runs
    for run_dir in (a, b):
        db = sqlite3.connect(run_dir / LEDGER_NAME)
        first_failures = db.execute(
            "SELECT g.gate || ' ' || g.name, g.status, COUNT(*) FROM gates g WHERE g.status != 'passed' AND "
            "g.position = (SELECT MIN(position) FROM gates h WHERE h.attempt_id = g.attempt_id AND "
            "h.status != 'passed') GROUP BY 1, 2"
        ).fetchall()
        no_verdict = db.execute(
            "SELECT status, COUNT(*) FROM attempts WHERE id NOT IN (SELECT attempt_id FROM verdicts) GROUP BY 1"
        ).fetchall()
        db.close()
        expected = {(s, how): n for s, how, n in first_failures}
        expected |= {(f"no verdict ({status})", status): n for status, n in no_verdict}
        table = _page(run_dir / "report.html").by_id("gate-stops")
        shown = {
            (r.attrs["data-stopper"], r.attrs["data-how"]): int(r.attrs["data-count"]) for r in table.all("tr")[1:]
        }
        assert shown == expected
    assert set(expected) == {("G3 forbidden", "failed"), ("no verdict (error)", "error")}, "run B: sorry, errors"


def test_each_problem_of_the_benchmark_is_in_the_grid_linked_to_its_evidence(runs: tuple[Path, Path]) -> None:
    a, _ = runs
    report = a / "report.html"
    page = _page(report)
    grid = page.by_id("problem-grid").all("td", cls="cell")
    cells = {c.attrs["data-problem"]: c for c in grid if "data-problem" in c.attrs}
    assert set(cells) == set(load_benchmark(LEAN_BENCH).problems), "every PutnamBench problem, once"
    ledger = _ledger(a)
    try:
        passes = {r.problem: r for r in ledger.attempts() if r.verified_pass}
        attempted = {r.problem for r in ledger.attempts()}
    finally:
        ledger.close()
    states = {p: c.attrs["data-state"] for p, c in cells.items()}
    assert {p for p, s in states.items() if s == "solved"} == set(passes)
    assert {p for p, s in states.items() if s == "attempted"} == attempted - set(passes)
    assert {p for p, s in states.items() if s != "outside"} == set(SIX)
    for problem, row in passes.items():
        [link] = cells[problem].all("a")
        folder = (report.parent / unquote(link.attrs["href"])).resolve()
        assert folder == (a / "attempts" / f"campaign-{row.campaign}" / problem).resolve(), "the passing attempt"
        assert {"candidate.lean", "verdict.json", "gates.log", "turns.json", "attempt.json"} <= {
            p.name for p in folder.iterdir()
        }
    assert not cells["putnam_2000_a1"].all("a"), "a problem never attempted links nowhere"


def test_evidence_links_of_the_table_reach_the_files_and_turns_are_kept(runs: tuple[Path, Path]) -> None:
    a, _ = runs
    report = a / "report.html"
    ledger = _ledger(a)
    try:
        turns = {r.id: ledger.turns(r.id) for r in ledger.attempts()}
    finally:
        ledger.close()
    for row in _page(report).by_id("attempts-table").all("tr")[1:]:
        links = {link.text(): (report.parent / unquote(link.attrs["href"])) for link in row.all("a")}
        assert {"candidate", "challenge", "verdict", "gates", "turns", "record"} <= set(links)
        assert all(path.is_file() for path in links.values())
        attempt_id = int(row.attrs["id"].removeprefix("attempt-"))
        assert json.loads(links["turns"].read_text()) == turns[attempt_id] != []


def test_untrusted_text_stays_text(runs: tuple[Path, Path]) -> None:
    _, b = runs
    text = (b / "report.html").read_text(encoding="utf-8")
    assert MARKUP not in text and "<script>alert(2)</script>" not in text and "<img src=x" not in text
    page = parse(text)
    notes = [td.attrs["title"] for td in page.by_id("attempts-table").all("td") if td.attrs.get("title")]
    assert notes and set(notes) == {MARKUP}, "shown as the error, exactly, and nowhere as markup"


def test_the_page_refers_to_nothing_outside_the_run(runs: tuple[Path, Path]) -> None:
    """Every link and source in the markup is relative; the only script with an address in it is plotly's
    bundle, beside the page and byte for byte the pinned wheel's (its addresses serve map charts the report
    never draws)."""
    from plotly.offline import get_plotlyjs

    a, _ = runs
    text = (a / "report.html").read_text(encoding="utf-8")
    page = parse(text)
    for node in page.walk():
        for name in ("href", "src", "action", "srcset", "xlink:href"):
            value = node.attrs.get(name)
            if value is not None:
                assert "://" not in value and not value.startswith(("//", "data:", "javascript:")), (node.tag, value)
    assert not page.all("link") and not page.all("iframe")
    scripts = page.all("script")
    [bundle] = [s for s in scripts if "src" in s.attrs]
    assert bundle.attrs["id"] == "plotly-js" and "/" not in bundle.attrs["src"] and bundle.text() == ""
    assert (a / bundle.attrs["src"]).read_text(encoding="utf-8") == get_plotlyjs()
    for script in scripts:
        assert "://" not in script.text(), script.text()[:200]
    assert "url(" not in "".join(s.text() for s in page.all("style"))
    for host in ("google.com", "googleapis.com", "gvt1.com", "gvt2.com"):
        assert host not in text, "the browser-service hosts the offline check ignores are not named here"


def test_the_page_is_small_and_plotly_is_written_once_per_folder(tmp_path: Path, runs: tuple[Path, Path]) -> None:
    """The 5 MB bundle is a file beside the pages, written once for every page of a folder; with
    --inline-plotly it is in the page (one file to send) and nothing is written beside it."""
    from plotly.offline import get_plotlyjs

    a, b = runs
    assert (a / "report.html").stat().st_size < 300_000
    shared = tmp_path / "shared"
    for run_dir in (a, b):
        assert runner.invoke(app, ["report", str(run_dir), "-o", str(shared / f"{run_dir.name}.html")]).exit_code == 0
    [bundle] = shared.glob("plotly-*.min.js")
    assert sorted(p.name for p in shared.iterdir()) == sorted(["run-a.html", "run-b.html", bundle.name])
    written = bundle.stat().st_mtime_ns
    assert runner.invoke(app, ["report", str(a), "-o", str(shared / "run-a.html")]).exit_code == 0
    assert bundle.stat().st_mtime_ns == written, "a bundle with the right bytes is left as it is"
    single = tmp_path / "single"
    assert runner.invoke(app, ["report", str(a), "-o", str(single / "a.html"), "--inline-plotly"]).exit_code == 0
    assert [p.name for p in single.iterdir()] == ["a.html"]
    [inlined] = [s for s in parse((single / "a.html").read_text()).all("script") if s.attrs.get("id") == "plotly-js"]
    assert "src" not in inlined.attrs and inlined.text() == get_plotlyjs()


def test_rate_limiting_of_a_run_is_recorded_and_shown(tmp_path: Path, runs: tuple[Path, Path]) -> None:
    a, _ = runs
    note = _page(a / "report.html").by_id("rate-limit-note")
    assert note.attrs["data-requests"] == "0" and "rate-limited no request" in note.text()
    older = tmp_path / "older"
    older.mkdir()
    shutil.copy(a / LEDGER_NAME, older / LEDGER_NAME)
    db = sqlite3.connect(older / LEDGER_NAME)
    db.execute("DELETE FROM meta WHERE key = ?", (RATE_LIMITS_SINCE,))
    db.commit()
    db.close()
    assert runner.invoke(app, ["report", str(older)]).exit_code == 0
    note = _page(older / "report.html").by_id("rate-limit-note")
    assert "data-requests" not in note.attrs and "recorded before" in note.text()


def test_a_real_rate_limited_run_shows_its_rate_limiting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inspect, the real openai client, a loopback server answering 429 once, real coqc: the ledger keeps the
    rate-limited request and the report shows it."""
    pytest.importorskip("openai")
    from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
    from tests.fakes.scripted_agent import GOOD, config, rocq_ready, solve_fixture

    if rocq_ready() is not None:
        pytest.skip(str(rocq_ready()))
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "1")
    monkeypatch.setenv("INSPECT_EVAL_ATTEMPT_TIMEOUT", "5")
    fake = FakeOpenAI(["429", tool_call_reply("submit", {"proof": GOOD}, "call_1")])
    with serve(fake) as url:
        cfg = config(
            None,
            model="openai-api/fake/fake-model",
            model_base_url=url,
            model_args={},
            prices={},
            jobs=4,
            fallback_jobs=1,
        )
        outcome = solve_fixture(tmp_path, cfg, ["one_plus_one"])
    assert outcome.exit_code == 0, outcome.message
    assert fake.faults_served == ["429"]
    ledger = _ledger(tmp_path)
    try:
        [row] = ledger.rate_limits()
    finally:
        ledger.close()
    assert (row.campaign, row.retries) == (1, 1) and "of 4 connections" in (row.connections or "")
    assert runner.invoke(app, ["report", str(tmp_path)]).exit_code == 0
    page = _page(tmp_path / "report.html")
    note = page.by_id("rate-limit-note")
    assert note.attrs["data-requests"] == "1" and "rate-limited 1 requests" in note.text()
    assert page.by_id("chart-rate-limits") is not None
    _assert_headline_equals_ledger(page, tmp_path)


def test_the_command_writes_where_asked_and_refuses_what_is_not_a_run(tmp_path: Path, runs: tuple[Path, Path]) -> None:
    a, _ = runs
    elsewhere = tmp_path / "shared" / "a.html"
    result = runner.invoke(app, ["report", str(a), "-o", str(elsewhere)])
    assert result.exit_code == 0 and result.stdout.strip() == str(elsewhere)
    page = _page(elsewhere)
    hrefs = [link.attrs["href"] for link in page.by_id("attempts-table").all("a")]
    assert hrefs and all((elsewhere.parent / unquote(h)).is_file() for h in hrefs), "links lead back into the run"
    empty = tmp_path / "not-a-run"
    empty.mkdir()
    refused = runner.invoke(app, ["report", str(empty)])
    assert refused.exit_code == 2 and "not a run directory" in refused.stderr
    assert list(empty.iterdir()) == [], "nothing is created in a directory that holds no run"
    wrong = runner.invoke(app, ["report", "--compare", str(a)])
    assert wrong.exit_code == 2 and "two run directories" in wrong.stderr


def test_compare_shows_who_solved_what_as_the_two_ledgers_say(runs: tuple[Path, Path]) -> None:
    a, b = runs
    result = runner.invoke(app, ["report", "--compare", str(a), str(b)])
    assert result.exit_code == 0, result.output
    path = a / f"compare-{b.name}.html"
    assert result.stdout.strip() == str(path)
    solved = []
    for run_dir in (a, b):
        ledger = _ledger(run_dir)
        try:
            solved.append(ledger.passed_problems())
        finally:
            ledger.close()
    page = _page(path)
    expected = {
        "both": solved[0] & solved[1],
        "only-a": solved[0] - solved[1],
        "only-b": solved[1] - solved[0],
        "neither": set(SIX) - solved[0] - solved[1],
    }
    assert expected["only-a"] and expected["only-b"], "the runs differ, so the comparison has something to show"
    for key, problems in expected.items():
        assert page.by_id(f"stat-{key}").attrs["data-value"] == str(len(problems))
        cells = {
            c.attrs["data-problem"] for c in page.by_id("problem-grid").all("td") if c.attrs.get("data-state") == key
        }
        assert cells == problems
    for key in ("only-a", "only-b"):
        listed = {li.all("a")[0].text() for li in page.by_id(f"list-{key}").all("li")}
        assert listed == expected[key]


# -- in a real browser, offline --------------------------------------------------------------------------------


def _assert_screenshot(path: Path, size: tuple[int, int]) -> None:
    from PIL import Image

    with Image.open(path) as image:
        assert image.size == size
        colors = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colors is not None and len(colors) > 200, "charts, text and the grid, not a blank page"
    most = max(count for count, _ in colors)
    assert most < 0.95 * size[0] * size[1], "not one colour all over"


def _costs(page: Node) -> list[float]:
    """The cost column of the attempts table, top to bottom."""
    table = page.by_id("attempts-table")
    column = [th.attrs["data-key"] for th in table.all("th")].index("cost")
    return [float(row.all("td")[column].attrs["data-sort"]) for row in table.all("tr")[1:]]


@NEEDS_CHROMIUM
def test_the_report_renders_offline_in_chromium_with_the_ledgers_numbers(
    tmp_path: Path, runs: tuple[Path, Path]
) -> None:
    """One page load (Chromium is slow to start): no request leaves the page, the screenshot shows a page,
    the charts are drawn, the headline equals the ledger, and the address sorts the attempts table."""
    a, _ = runs
    report = a / "report.html"
    stored_order = _costs(_page(report))
    assert stored_order != sorted(stored_order, reverse=True), "the stored order is not already the one asked for"
    shot = tmp_path / "report.png"
    with recording_proxy() as (proxy, address):
        dom = render(report.as_uri() + "#sort=cost-desc", tmp_path / "profile", shot, SHOT_SIZE, proxy=address)
    assert page_requests(proxy) == [], "the page asked the network for something"
    _assert_screenshot(shot, SHOT_SIZE)
    page = parse(dom)
    _assert_headline_equals_ledger(page, a)
    for chart in ("chart-solved-time", "chart-solved-cost", "chart-problem-cost", "chart-gates"):
        assert page.by_id(chart).all("svg", cls="main-svg"), f"{chart} was not drawn"
        assert page.by_id(chart).all(cls="trace"), f"{chart} has no data"
    titles = {n.attrs.get("data-title") for n in page.all(cls="modebar-btn")}
    assert "Zoom" in titles and "Share chart..." not in titles, "no button uploads a chart"
    assert _costs(page) == sorted(stored_order, reverse=True)
    assert page.by_id("attempts-table").attrs["data-sorted"] == "cost-desc"
    # The same check sees a page's request: a page that loads an image and a script from elsewhere.
    control = tmp_path / "control.html"
    control.write_text('<p>x</p><img src="http://example.invalid/x.png"><script src="https://example.invalid/x.js">')
    with recording_proxy() as (proxy, address):
        render(control.as_uri(), tmp_path / "profile-control", proxy=address)
    assert any("example.invalid" in r for r in page_requests(proxy))


@NEEDS_CHROMIUM
def test_the_comparison_renders_offline_in_chromium(tmp_path: Path, runs: tuple[Path, Path]) -> None:
    a, b = runs
    output = tmp_path / "compare.html"
    assert runner.invoke(app, ["report", "--compare", str(a), str(b), "-o", str(output)]).exit_code == 0
    shot = tmp_path / "compare.png"
    with recording_proxy() as (proxy, address):
        dom = render(output.as_uri(), tmp_path / "profile", shot, SHOT_SIZE, proxy=address)
    assert page_requests(proxy) == []
    _assert_screenshot(shot, SHOT_SIZE)
    page = parse(dom)
    assert page.by_id("chart-compare-cost").all("svg", cls="main-svg")
    rows = {r.attrs["data-row"]: [td.text() for td in r.all("td")] for r in page.by_id("compare-table").all("tr")[1:]}
    for column, run_dir in enumerate((a, b)):
        ledger = _ledger(run_dir)
        try:
            usage, solved = ledger.usage(), ledger.passed_problems()
        finally:
            ledger.close()
        assert rows["solved"][column] == str(len(solved))
        assert rows["dollars"][column] == f"at least ${usage.cost_dollars:.2f}"  # scripted/worker has no price
        assert rows["tokens"][column] == f"{usage.tokens:,}"
