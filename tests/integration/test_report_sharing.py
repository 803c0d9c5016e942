"""A report worth sharing, checked as a reader would: every problem cell of a miniF2F run within the page's
width in Chromium (eight per row clipped its names at four columns, hiding the solved one), a page that
stays small, one sentence instead of a chart without information (no price, no solve), vetoed and
disputed attempts in the grid, the legend and a list, and ``report --compare`` that warns when the runs
are on different benchmarks.

The runs are real campaigns: the scripted runner of ``campaign_driver`` submits candidates whose verdicts
come from the real Lean text gates, over miniF2F's Lean statements and PutnamBench's.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Track
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent.types import AttemptResult, CampaignJob
from putnam_solver.run.campaign import RunSettings, Selection, solve
from tests.browser import NEEDS_CHROMIUM, Node, parse, render
from tests.integration.campaign_driver import LEAN_BENCH, SIX, ScriptedRunner, lean_runner, lean_text_config

MINIF2F = Path("/work/shared/data/minif2f/minif2f_lean4.jsonl")
pytestmark = pytest.mark.skipif(
    not (MINIF2F.is_file() and LEAN_BENCH.is_file()), reason="the miniF2F or PutnamBench Lean file is missing"
)
runner = CliRunner()
WIDTH = 1280
VETO = "the proof assumes what it should show"


class Relay:
    """A scripted runner whose results are changed on the way to the campaign: no cost (a model without a
    price), and the statuses a reviewer's veto or the answer check would give chosen problems."""

    def __init__(self, inner: Callable[[CampaignJob], None], statuses: Mapping[str, str]) -> None:
        self.inner, self.statuses = inner, statuses

    def __call__(self, job: CampaignJob) -> None:
        forward = job.on_attempt

        def relay(result: AttemptResult) -> None:
            status = self.statuses.get(result.problem, result.status)
            feedback = VETO if status == "vetoed" else None
            forward(dataclasses.replace(result, cost_dollars=0.0, status=status, reviewer_feedback=feedback))

        self.inner(dataclasses.replace(job, on_attempt=relay))


def _minif2f_run(run_dir: Path) -> tuple[Path, str, tuple[str, ...]]:
    """Sixteen miniF2F problems, the last in id order solved (the one a clipped grid hid), one vetoed and
    one disputed; returns the run, the solved problem and the selection."""
    bench = load_benchmark(MINIF2F)
    chosen = tuple(sorted(bench.problems)[-16:])
    solved = chosen[-1]
    prover = get_prover("lean")
    good = {solved: re.sub(r"sorry\s*\Z", "simp\n", prover.challenge(bench.problems[solved], Track.WITH_ANSWER))}
    scripted = ScriptedRunner(prover, good, {solved: 1})
    relay = Relay(scripted, {chosen[0]: "vetoed", chosen[1]: "disputed"})
    settings = RunSettings(run_dir, lean_text_config(), Selection(MINIF2F, problems=chosen), 1)
    outcome = solve(settings, None, relay)
    assert outcome.exit_code == ExitCode.SUCCESS, outcome.message
    return run_dir, solved, chosen


@pytest.fixture(scope="module")
def minif2f(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, tuple[str, ...]]]:
    run_dir, solved, chosen = _minif2f_run(tmp_path_factory.mktemp("runs") / "minif2f")
    assert runner.invoke(app, ["report", str(run_dir)]).exit_code == 0
    yield run_dir, solved, chosen


def _page(path: Path) -> Node:
    return parse(path.read_text(encoding="utf-8"))


def _cells(page: Node) -> dict[str, Node]:
    return {c.attrs["data-problem"]: c for c in page.by_id("other-problems").all(cls="cell")}


def test_the_page_is_small_and_its_plotly_is_beside_it(minif2f: tuple[Path, str, tuple[str, ...]]) -> None:
    run_dir, _, _ = minif2f
    assert (run_dir / "report.html").stat().st_size < 300_000, "plotly is not inlined into every page"
    assert len(list(run_dir.glob("plotly-*.min.js"))) == 1


def test_a_run_without_prices_says_so_instead_of_drawing_zero_costs(minif2f: tuple[Path, str, tuple[str, ...]]) -> None:
    run_dir, _, _ = minif2f
    page = _page(run_dir / "report.html")
    notes = {n.attrs["data-chart"]: n.text() for n in page.all(cls="no-chart")}
    assert set(notes) == {"chart-solved-cost", "chart-problem-cost"}, "the progress over time is still drawn"
    for chart in ("chart-solved-cost", "chart-problem-cost"):
        assert notes[chart].startswith("No price for scripted/worker: the cost of this run is unknown")
        assert not [n for n in page.walk() if n.attrs.get("id") == chart], f"{chart} is not drawn"
    assert page.by_id("chart-solved-time") is not None
    assert "$0.00" not in page.by_id("headline").text()


def test_a_run_without_solves_says_so_instead_of_a_flat_line(tmp_path: Path) -> None:
    settings = RunSettings(tmp_path, lean_text_config(), Selection(LEAN_BENCH, problems=SIX[:2]), 1)
    assert solve(settings, None, lean_runner({})).exit_code == ExitCode.SUCCESS
    assert runner.invoke(app, ["report", str(tmp_path)]).exit_code == 0
    page = _page(tmp_path / "report.html")
    notes = {n.attrs["data-chart"]: n.text() for n in page.all(cls="no-chart")}
    assert notes == {
        "chart-solved-time": "No problem was solved: there is no progress to draw.",
        "chart-solved-cost": "No problem was solved: there is no progress to draw.",
    }, "the run has prices: its cost per problem is drawn"
    assert page.by_id("chart-problem-cost") is not None


def test_vetoed_and_disputed_attempts_are_in_the_grid_the_legend_and_a_list(
    minif2f: tuple[Path, str, tuple[str, ...]],
) -> None:
    run_dir, solved, chosen = minif2f
    page = _page(run_dir / "report.html")
    cells = _cells(page)
    assert len(cells) == len(load_benchmark(MINIF2F).problems), "every problem of the benchmark, once"
    states = {p: c.attrs["data-state"] for p, c in cells.items()}
    assert (states[chosen[0]], states[chosen[1]], states[solved]) == ("vetoed", "disputed", "solved")
    assert {p for p, s in states.items() if s == "attempted"} == set(chosen[2:-1])
    legend = {k.attrs["data-state"]: int(k.attrs["data-count"]) for k in page.by_id("grid").all(cls="key")}
    assert (legend["vetoed"], legend["disputed"], legend["solved"]) == (1, 1, 1)
    flagged = {
        li.attrs["data-problem"]: (li.attrs["data-status"], li.text())
        for li in page.by_id("flagged-attempts").all("li")
    }
    assert set(flagged) == {chosen[0], chosen[1]}
    assert flagged[chosen[0]][0] == "vetoed" and VETO in flagged[chosen[0]][1]
    assert flagged[chosen[1]][0] == "disputed"


def _measure(report: Path, tmp_path: Path, extra_css: str = "") -> dict[str, object]:
    """Each problem cell's box in Chromium at ``WIDTH`` pixels. The measuring script runs in a copy of the
    page beside it (same folder, so plotly loads), without the page's policy, which runs no script but its
    own."""
    script = (
        "var cells = [], box = document.getElementById('other-problems');"
        "document.querySelectorAll('#other-problems .cell').forEach(function (c) {"
        "  var r = c.getBoundingClientRect();"
        "  cells.push([c.getAttribute('data-problem'), r.left, r.right, r.width]); });"
        "var out = document.createElement('pre'); out.id = 'layout';"
        "out.textContent = JSON.stringify({width: document.documentElement.clientWidth, cells: cells,"
        " overflow: box.scrollWidth - box.clientWidth});"
        "document.body.appendChild(out);"
    )
    text = report.read_text(encoding="utf-8")
    text = re.sub(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">', "", text)
    text = text.replace("</style>", extra_css + "</style>", 1).replace("</body>", f"<script>{script}</script></body>")
    copy = report.parent / f"measure-{len(extra_css)}.html"
    copy.write_text(text, encoding="utf-8")
    try:
        dom = render(copy.as_uri(), tmp_path / f"profile-{len(extra_css)}", size=(WIDTH, 1600))
    finally:
        copy.unlink()
    layout: dict[str, object] = json.loads(parse(dom).by_id("layout").text())
    return layout


@NEEDS_CHROMIUM
def test_every_cell_of_a_minif2f_grid_is_within_the_page_width_in_chromium(
    tmp_path: Path, minif2f: tuple[Path, str, tuple[str, ...]]
) -> None:
    run_dir, solved, _ = minif2f
    layout = _measure(run_dir / "report.html", tmp_path)
    width = layout["width"]
    cells = {name: (left, right, size) for name, left, right, size in layout["cells"]}  # type: ignore[attr-defined]
    assert width == WIDTH and len(cells) == len(load_benchmark(MINIF2F).problems)
    outside = [name for name, (left, right, size) in cells.items() if left < 0 or right > width or size <= 0]
    assert outside == [], f"{len(outside)} cells off the page, e.g. {outside[:3]}"
    assert layout["overflow"] == 0, "the grid never scrolls sideways"
    assert 0 < cells[solved][1] <= width, "the solved problem is on the page"
    # The same measure sees cells off the page: the grid forced onto one row.
    control = _measure(run_dir / "report.html", tmp_path, ".cells{flex-wrap:nowrap}")
    assert any(right > WIDTH for _, _, right, _ in control["cells"])  # type: ignore[attr-defined]


def test_compare_warns_when_the_runs_are_on_different_benchmarks(
    tmp_path: Path, minif2f: tuple[Path, str, tuple[str, ...]]
) -> None:
    run_dir, _, _ = minif2f
    putnam = tmp_path / "putnam"
    settings = RunSettings(putnam, lean_text_config(), Selection(LEAN_BENCH, problems=SIX[:2]), 1)
    assert solve(settings, None, lean_runner({SIX[0]: 1})).exit_code == ExitCode.SUCCESS
    result = runner.invoke(app, ["report", "--compare", str(run_dir), str(putnam), "-o", str(tmp_path / "c.html")])
    assert result.exit_code == 0, result.output
    assert "warning: the runs are on different benchmarks" in result.stderr
    assert "the comparison covers only the 0 problems both have" in result.stderr
    compared = _page(tmp_path / "c.html")
    compared.by_id("chart-compare-cost")  # one run has costs: the scatter is drawn (exactly one such element)
    warning = compared.by_id("benchmark-mismatch").text()
    assert warning.startswith("warning: the runs are on different benchmarks: minif2f on")
    same = tmp_path / "putnam-again"
    settings = RunSettings(same, lean_text_config(), Selection(LEAN_BENCH, problems=SIX[:3]), 1)
    assert solve(settings, None, lean_runner({})).exit_code == ExitCode.SUCCESS
    quiet = runner.invoke(app, ["report", "--compare", str(putnam), str(same), "-o", str(tmp_path / "d.html")])
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr, "the same benchmark: nothing to warn of"
    assert not [n for n in _page(tmp_path / "d.html").walk() if n.attrs.get("id") == "benchmark-mismatch"]
    assert not [n for n in _page(tmp_path / "d.html").walk() if n.attrs.get("id") == "judging-mismatch"]


def test_compare_warns_when_the_runs_were_judged_differently(tmp_path: Path) -> None:
    """The same benchmark and problems, but one run allowed candidate recursion: its count is not the
    other's measure, and both the command and the page say how they differ."""
    runs = {}
    for name, config in (
        ("plain", lean_text_config()),
        ("recursion", dataclasses.replace(lean_text_config(), allow_recursion=True)),
    ):
        runs[name] = tmp_path / name
        settings = RunSettings(runs[name], config, Selection(LEAN_BENCH, problems=SIX[:2]), 1)
        assert solve(settings, None, lean_runner({SIX[0]: 1})).exit_code == ExitCode.SUCCESS
    out = tmp_path / "c.html"
    result = runner.invoke(app, ["report", "--compare", str(runs["plain"]), str(runs["recursion"]), "-o", str(out)])
    assert result.exit_code == 0, result.output
    said = "the runs were not judged alike (recursion refused in plain, allowed in recursion)"
    assert said in result.stderr and "different benchmarks" not in result.stderr
    assert _page(out).by_id("judging-mismatch").text().startswith(f"warning: {said}")


def test_compare_of_runs_without_prices_says_so_instead_of_a_scatter_of_zeros(
    tmp_path: Path, minif2f: tuple[Path, str, tuple[str, ...]]
) -> None:
    run_dir, _, _ = minif2f
    result = runner.invoke(app, ["report", "--compare", str(run_dir), str(run_dir), "-o", str(tmp_path / "e.html")])
    assert result.exit_code == 0 and "warning" not in result.stderr, result.output
    page = _page(tmp_path / "e.html")
    [note] = page.all(cls="no-chart")
    assert note.attrs["data-chart"] == "chart-compare-cost"
    assert note.text().startswith("Neither run has a cost to compare. A: No price for scripted/worker")
    assert not [n for n in page.walk() if n.attrs.get("id") == "chart-compare-cost"]


def test_a_planted_plotly_beside_the_report_is_replaced_never_run_or_followed(
    tmp_path: Path, minif2f: tuple[Path, str, tuple[str, ...]]
) -> None:
    """The page runs the script beside it: one left there with other bytes (or a link to elsewhere) is
    replaced by the installed package's bundle, and a link's target is left untouched."""
    from plotly.offline import get_plotlyjs

    from putnam_solver.run.report.html import plotly_file_name

    run_dir, _, _ = minif2f
    folder = tmp_path / "shared"
    folder.mkdir()
    elsewhere = tmp_path / "elsewhere.js"
    elsewhere.write_text("fetch('http://example.invalid/')")
    (folder / plotly_file_name()).symlink_to(elsewhere)
    assert runner.invoke(app, ["report", str(run_dir), "-o", str(folder / "a.html")]).exit_code == 0
    bundle = folder / plotly_file_name()
    assert not bundle.is_symlink() and bundle.read_text() == get_plotlyjs()
    assert elsewhere.read_text() == "fetch('http://example.invalid/')", "the link's target is untouched"
    bundle.write_text("fetch('http://example.invalid/')")
    assert runner.invoke(app, ["report", str(run_dir), "-o", str(folder / "a.html")]).exit_code == 0
    assert bundle.read_text() == get_plotlyjs(), "other bytes under the bundle's name are replaced"
