"""The live view of `putnam solve` as a terminal of a fixed width shows it: bars, spend, ETA, a row per
attempt in flight, every line wrapped at the width (nothing cut), and cost "unknown" (never $0.00) for a
model without a price; the log view stays one line per event."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from putnam_solver.run.agent.live_run import RunningAttempt
from putnam_solver.run.campaign._recorder import finish_estimate
from putnam_solver.run.report.progress import AttemptEvent, LogLineProgress, RichProgress, Totals, live_view

NOW = 1_000_000.0
UNPRICED = "openai-api/local/my-finetune"
LONG_ID = "mathd_numbertheory_a_problem_id_longer_than_the_terminal_is_wide"
RUN_DIR = Path("/runs/a-run-directory-whose-path-is-longer-than-a-narrow-terminal")
IN_FLIGHT = (
    RunningAttempt("putnam_1962_a1", 3, "check", 4_000, NOW - 62),
    RunningAttempt(LONG_ID, 1, None, 0, NOW - 5),
)


def _totals(**changes: object) -> Totals:
    fields: dict[str, object] = dict(
        selected=10, solved=2, unresolved=8, campaign=1, running=6, attempts=4, turns=9, tokens=12_345,
        cost_dollars=1.5, attempted=4, campaign_size=10, in_flight=IN_FLIGHT, elapsed_seconds=125.0,
        eta_seconds=250.0, run_dir=RUN_DIR,
    )  # fmt: skip
    fields.update(changes)
    return Totals(**fields)  # type: ignore[arg-type]


def _screen(totals: Totals, width: int) -> list[str]:
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(live_view(totals, width, NOW))
    return console.export_text().splitlines()


def _squeezed(text: str) -> str:
    """``text`` without whitespace: a wrapped line and the unwrapped one compare equal."""
    return "".join(text.split())


def test_bars_spend_eta_and_a_row_per_attempt_in_flight() -> None:
    lines = _screen(_totals(), 100)
    text = "\n".join(lines)
    assert lines[0].startswith("solved") and "2 of 10 problems" in lines[0]
    assert lines[1].startswith("attempted") and "4 of 10 problems" in lines[1]
    assert lines[2].startswith("campaign 1") and "4 of 10 attempts done, 2 running, 4 queued" in lines[2]
    assert "spent 12,345 tokens, cost $1.50 over 4 attempts; elapsed 2m05s, ETA ~4m10s for campaign 1" in text
    [head] = [line for line in lines if line.startswith("running")]
    assert head.split() == ["running", "turn", "last", "tool", "tokens", "for"]
    [row] = [line for line in lines if line.startswith("putnam_1962_a1")]
    assert row.split() == ["putnam_1962_a1", "3", "check", "4,000", "1m02s"]
    assert LONG_ID in text and "-" in text.split(LONG_ID)[1].split()[1], "no tool yet shows as -"
    quiet = "\n".join(_screen(_totals(in_flight=(), eta_seconds=None), 100))
    assert "running" not in quiet.split("\n")[-1] and "ETA after the first attempt ends" in quiet


def test_lines_wrap_at_a_narrow_width_instead_of_being_cut() -> None:
    width = 40
    lines = _screen(_totals(rate_limit="3 rate-limited requests in the last minute, 4 of 8 connections"), width)
    assert all(len(line) <= width for line in lines)
    joined = _squeezed("\n".join(lines))
    for whole in (
        f"`putnam report {RUN_DIR}` writes it any time",
        "3 rate-limited requests in the last minute, 4 of 8 connections",
        "ETA ~4m10s for campaign 1",
    ):
        assert _squeezed(whole) in joined, whole
    assert "…" not in "".join(lines) and "..." not in "".join(lines), "nothing is cut with an ellipsis"
    rows = lines[next(i for i, line in enumerate(lines) if line.startswith("running")) + 1 :]
    assert "".join(line.split()[0] for line in rows) == "putnam_1962_a1" + LONG_ID, "ids fold, whole"
    wide = _screen(_totals(), 200)
    assert len(lines) > len(wide), "at 40 columns the same view takes more lines"


def test_a_model_without_a_price_shows_cost_unknown_never_zero_dollars() -> None:
    lines = _screen(_totals(cost_dollars=0.0, unpriced=(UNPRICED,)), 60)
    joined = " ".join(line.strip() for line in lines)
    assert f"cost unknown (no price for {UNPRICED}; --prices FILE gives one)" in joined
    assert "$0.00" not in joined
    priced = " ".join(_screen(_totals(cost_dollars=0.0), 60))
    assert "$0.00" in priced, "a priced model that spent nothing did cost $0.00"


def test_the_terminal_view_prints_each_attempt_and_notice_above_the_live_part() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, width=50, color_system=None, soft_wrap=True)
    view = RichProgress(console)  # soft wrap, as the CLI's console: the live part still wraps
    view.campaign_started(1, ["putnam_1962_a1", "putnam_1962_a2"], _totals())
    event = AttemptEvent(1, "putnam_1962_a1", "passed", 2, 1_214, 0.0, "accepted", (UNPRICED,))
    view.attempt_done(event, _totals(cost_dollars=0.0, unpriced=(UNPRICED,), in_flight=()))
    view.notice("the provider is rate-limiting: " + "x" * 80)
    view.close()
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "campaign 1 started: 2 problems" in shown
    assert "putnam_1962_a1 (campaign 1, 2 turns, 1,214 tokens, unknown; verdict accepted)" in shown
    assert "x" * 80 in shown, "a line above the live part is the terminal's to wrap: a path in it stays whole"
    final = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.split("x" * 80)[-1]).replace("\r", "\n")
    assert _squeezed(f"(no price for {UNPRICED}; --prices FILE gives one)") in _squeezed(final), "no line is cut"
    assert all(len(line) <= 50 for line in final.splitlines()), "the live part wraps at the width"


def test_the_log_view_stays_one_line_per_event() -> None:
    stream = io.StringIO()
    view = LogLineProgress(stream)
    view.campaign_started(1, ["putnam_1962_a1"], _totals())
    view.update(_totals())  # the terminal view's refresh: nothing in a log
    view.attempt_done(AttemptEvent(1, "putnam_1962_a1", "rejected", 2, 100, 0.0, "rejected:G4", (UNPRICED,)), _totals())
    view.notice("model requests are failing: " + "y" * 300)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4, lines
    assert lines[0] == "campaign 1 started: 1 problems" and lines[1].startswith("report: ")
    assert lines[2].startswith("rejected      putnam_1962_a1 (campaign 1, 2 turns, 100 tokens, unknown;")
    assert lines[3].endswith("y" * 300), "a log line is never wrapped or cut"


def test_an_attempt_that_ended_in_an_error_says_why_on_its_line() -> None:
    """An ``error`` line named no cause (a model that could not be reached, a tokenizer it downloads at first
    use): the reason stood only in the ledger and the ``.eval`` log. It is shown on one line, clipped, its
    control characters escaped; an attempt with a verdict keeps its line as it was."""
    stream = io.StringIO()
    view = LogLineProgress(stream)
    cause = "ConnectionError: host\nnot\x1b[2K found " + "z" * 400
    view.attempt_done(AttemptEvent(1, "putnam_1962_a1", "error", 1, 0, 0.0, "", (), cause), _totals())
    view.attempt_done(AttemptEvent(1, "putnam_1962_a2", "rejected", 1, 0, 0.0, "rejected:G4", (), "x"), _totals())
    errored, rejected = stream.getvalue().splitlines()[-2:]
    assert "verdict none): ConnectionError: host not\\x1b[2K found zzz" in errored and "\x1b" not in errored
    assert "z" * 400 not in errored and "..." in errored
    assert "verdict rejected:G4) |" in rejected


def test_the_eta_counts_the_attempts_that_run_side_by_side() -> None:
    assert finish_estimate(60.0, [59.0] * 8, 0) == 1.0, "eight attempts near the mean: a second left"
    assert finish_estimate(60.0, [10.0], 3) == 230.0, "one slot: 50 s left, then three more of 60 s"
    assert finish_estimate(60.0, [0.0, 0.0], 2) == 120.0, "two slots share the queue"
    assert finish_estimate(60.0, [300.0], 0) == 0.0, "an attempt past the mean is due now, never negative"
