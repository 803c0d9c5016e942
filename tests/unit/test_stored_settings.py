"""A run's stored settings: read back only as the typed ``StoredSettings``, checked field by field.

Current settings round-trip exactly (the ledger's JSON format is unchanged); settings an earlier version
recorded open with the later fields at their defaults and resume as the same run; a malformed field is an
``InputError`` naming the run directory and the field. Last, the sources are read (their syntax trees) for
any reading of the raw dict by key, or of the ledger's raw settings, outside the settings module.
"""

from __future__ import annotations

import ast
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.benchmark_view import benchmark_record
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile, Track
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.types import AgentParts, Budgets
from putnam_solver.run.campaign import StoredSettings, required_settings, stored_run
from putnam_solver.run.campaign._settings import check_resume
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from putnam_solver.run.report.data import NoRunRecorded, load_run
from putnam_solver.run.report.html import report_after_run
from putnam_solver.run.stored_settings import parse_settings
from tests.helpers import LEAN_BENCH, REPO
from tests.integration.campaign_driver import recorded_lean_settings

pytestmark = pytest.mark.skipif(not LEAN_BENCH.is_file(), reason=f"{LEAN_BENCH} is missing")
SIX = [f"putnam_1962_a{i}" for i in range(1, 7)]
SETTINGS_MODULE = REPO / "src" / "putnam_solver" / "run" / "stored_settings.py"


def current() -> dict[str, Any]:
    """Settings as this version records them, as JSON."""
    return recorded_lean_settings(SIX[:2]).to_json()


def first_version() -> dict[str, Any]:
    """Settings as the first campaign layer recorded them: no split, benchmark description or toolchain;
    a config without the fields added since (parts, kernels, the reviewer's veto, lemma budgets ...), and
    one field since removed."""
    bench = load_benchmark(LEAN_BENCH)
    return {
        "config": {"prover": "lean", "track": "with-answer", "model": "scripted/worker", "reviewer_model": "r/m",
                   "reasoning_effort": None, "agent": "react", "sandbox": "local", "jobs": 4, "fallback_jobs": 1,
                   "budgets": {"max_turns": 10}, "acceptance_profile": "text", "retired_option": 3},
        "benchmark_sha256": bench.sha256,
        "selected": SIX[:2],
        "fresh": False,
        "selection": {"benchmark": str(LEAN_BENCH.resolve()), "requested_sha256": None,
                      "benchmark_sha256": bench.sha256, "pin": bench.pin_name, "problems": SIX[:2],
                      "max_problems": None},
        "campaigns": 2,
        "limits": {"max_tokens": None, "max_cost_dollars": 5},
        "suffix": ".lean",
    }  # fmt: skip


def test_current_settings_round_trip_in_the_ledger_s_format(tmp_path: Path) -> None:
    data = current()
    assert list(data) == [
        "config", "benchmark_sha256", "selected", "fresh", "selection", "benchmark", "campaigns", "limits",
        "suffix", "toolchain", "splits",
    ]  # fmt: skip
    assert list(data["selection"]) == [
        "benchmark",
        "requested_sha256",
        "benchmark_sha256",
        "pin",
        "problems",
        "max_problems",
        "split",
    ]
    parsed = parse_settings(json.loads(json.dumps(data)), tmp_path)
    assert parsed == recorded_lean_settings(SIX[:2])
    assert parsed.to_json() == data, "written back unchanged"
    assert parsed.config.track is Track.WITH_ANSWER and parsed.config.acceptance_profile is Profile.TEXT
    assert parsed.selected == tuple(SIX[:2]) and parsed.selection.benchmark == LEAN_BENCH.resolve()
    assert parsed.benchmark.label and parsed.benchmark.name == "putnambench"
    assert parsed.benchmark.recorded == benchmark_record(load_benchmark(LEAN_BENCH))
    # Through a real ledger, as every reader gets it.
    ledger = Ledger.open(tmp_path / LEDGER_NAME)
    assert ledger.settings() is None
    with pytest.raises(InputError, match=f"{tmp_path}: the ledger holds no run settings; nothing to export"):
        required_settings(ledger, "export")
    with pytest.raises(NoRunRecorded, match="the run never started"):
        load_run(tmp_path)
    assert report_after_run(tmp_path) == "", "a run refused before it started leaves no report (and no warning)"
    ledger.record_settings(data)
    assert required_settings(ledger, "export") == parsed
    ledger.close()
    resumed = stored_run(tmp_path)
    assert resumed is not None and resumed.resume
    assert (resumed.config, resumed.selection, resumed.campaigns, resumed.fresh) == (
        parsed.config,
        parsed.selection,
        parsed.campaigns,
        parsed.fresh,
    )


def test_errata_and_notes_are_typed_as_the_run_recorded_them(tmp_path: Path) -> None:
    data = current()
    data["benchmark"]["record"]["notes"] = ["a note"]
    data["benchmark"]["record"]["errata"] = [
        {"problem": SIX[0], "provers": ["lean"], "kind": "wrong-statement", "defective": True,
         "defect": "says too much", "source": "upstream issue"},
    ]  # fmt: skip
    parsed = parse_settings(data, tmp_path)
    assert parsed.benchmark.notes == ("a note",)
    [erratum] = parsed.benchmark.errata
    assert (erratum.problem, erratum.defective, erratum.short()) == (SIX[0], True, "wrong-statement: says too much")


def test_an_earlier_version_s_settings_open_with_the_later_fields_at_their_defaults(tmp_path: Path) -> None:
    old = parse_settings(first_version(), tmp_path)
    assert old.config.parts == AgentParts() and old.config.kernels == ("lean",)
    assert old.config.budgets == Budgets(max_turns=10)
    assert old.config.reviewer_veto, "a run started before the reviewer advised: its veto counted then"
    assert (old.selection.split, old.toolchain, old.benchmark.errata, old.benchmark.label) == (None, None, (), None)
    assert old.limits == RunLimits(max_cost_dollars=5) and old.campaigns == 2
    assert "retired_option" not in old.to_json()["config"]
    # Resumed by this version (the same run, recorded in today's form): the same identity, so it goes on.
    same = parse_settings({**old.to_json(), "toolchain": "new", "benchmark": current()["benchmark"]}, tmp_path)
    check_resume(tmp_path, old, same, resume=True, allow=False)
    other = parse_settings({**old.to_json(), "fresh": True}, tmp_path)
    with pytest.raises(InputError, match=r"was started with other settings \(fresh: False -> True\)"):
        check_resume(tmp_path, old, other, resume=True, allow=False)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """An edit of the settings: the field at the dotted ``path`` set to ``value`` (``DROP``: removed)."""

    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[key]
        if value is DROP:
            del data[last]
        else:
            data[last] = value

    return edit


DROP = object()
MALFORMED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "no config": (_set("config", DROP), "`config` is missing"),
    "config not an object": (_set("config", ["lean"]), '`config` must be an object, not ["lean"]'),
    "track unknown": (_set("config.track", "sideways"), "`config.track` must be one of with-answer, no-answer"),
    "model missing": (_set("config.model", DROP), "`config.model` is missing"),
    "jobs as text": (_set("config.jobs", "4"), '`config.jobs` must be a whole number, not "4"'),
    "jobs zero": (_set("config.jobs", 0), "`config`: --jobs 0 and --fallback-jobs 1 must be at least 1"),
    "turns as a boolean": (_set("config.budgets.max_turns", True), "`config.budgets.max_turns` must be a whole number"),
    "a tool path as a number": (_set("config.tools", {"coqc": 3}), "`config.tools.coqc` must be text, not 3"),
    "kernels not a list": (_set("config.kernels", "lean"), '`config.kernels` must be a list, not "lean"'),
    "axle as text": (_set("config.axle", "yes"), '`config.axle` must be true or false, not "yes"'),
    "no selection": (_set("selection", DROP), "`selection` is missing"),
    "no benchmark file": (_set("selection.benchmark", DROP), "`selection.benchmark` is missing"),
    "pin as a number": (_set("selection.pin", 7), "`selection.pin` must be text, not 7"),
    "two hashes": (_set("selection.benchmark_sha256", "0" * 64), "`selection.benchmark_sha256` differs from"),
    "hash not a hash": (_set("benchmark_sha256", "../x"), '`benchmark_sha256` must be a SHA-256 in hex, not "../x"'),
    "a path as a problem id": (_set("selected", ["../../x"]), "`selected` holds '../../x', which is not a problem id"),
    "selected not a list": (_set("selected", "putnam_1962_a1"), "`selected` must be a list"),
    "fresh as text": (_set("fresh", "no"), '`fresh` must be true or false, not "no"'),
    "negative campaigns": (_set("campaigns", -1), "`campaigns` must be 0 (no limit) or more, not -1"),
    "limit as text": (_set("limits.max_tokens", "many"), '`limits.max_tokens` must be a whole number, not "many"'),
    "errata not objects": (_set("benchmark.record.errata", ["x"]), "`benchmark.record.errata[0]` must be an object"),
    "notes not text": (_set("benchmark.record.notes", [1]), "`benchmark.record.notes[0]` must be text, not 1"),
    "toolchain as a list": (_set("toolchain", ["a"]), "`toolchain` must be text"),
}
VALID: dict[str, Callable[[dict[str, Any]], None]] = {
    "no campaign limit": _set("campaigns", 0),
    "a whole number of dollars": _set("limits.max_cost_dollars", 5),
    "a pin asked for": _set("selection.requested_sha256", "a" * 64),
    "a split": _set("selection.split", "test"),
    "no toolchain recorded": _set("toolchain", None),
    "a tool named": _set("config.tools", {"coqc": "/usr/bin/coqc"}),
    "an unknown config key": _set("config.from_the_future", 1),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_field_is_refused_naming_the_run_directory_and_the_field(tmp_path: Path, case: str) -> None:
    edit, message = MALFORMED[case]
    data = copy.deepcopy(current())
    edit(data)
    with pytest.raises(InputError) as refused:
        parse_settings(data, tmp_path / "run")
    text = str(refused.value)
    assert text.startswith(f"{tmp_path / 'run'}: the run's stored settings cannot be read: "), text
    assert message in text and "the ledger was edited" in text, text


@pytest.mark.parametrize("case", sorted(VALID))
def test_the_values_putnam_records_are_accepted(tmp_path: Path, case: str) -> None:
    data = copy.deepcopy(current())
    VALID[case](data)
    assert isinstance(parse_settings(data, tmp_path), StoredSettings)


def test_settings_that_are_not_an_object_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="`settings` must be an object, not \\[\\]"):
        parse_settings([], tmp_path)


# -- nobody else reads the raw dict -------------------------------------------------------------------------


def raw_reads(source: str) -> list[str]:
    """Where ``source`` reads stored settings raw: a subscript or ``.get`` of a variable or attribute named
    ``settings``, or a call of a ledger's ``settings()`` / ``settings_history()``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        target: ast.expr | None = None
        raw_call = False
        if isinstance(node, ast.Subscript):
            target = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value if node.func.attr == "get" else None
            raw_call = node.func.attr in ("settings", "settings_history") and not node.args and not node.keywords
        named = isinstance(target, ast.Name) and target.id == "settings"
        if raw_call or named or (isinstance(target, ast.Attribute) and target.attr == "settings"):
            assert isinstance(node, ast.expr)
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize(
    "source",
    [
        'x = settings.get("config")',
        'x = settings["selected"]',
        'x = run.settings.get("selection", {}).get("pin")',
        'x = self.settings["config"]["track"]',
        "x = ledger.settings()",
        "x = self.ledger.settings_history()",
    ],
)
def test_the_probe_finds_a_raw_read(source: str) -> None:
    assert raw_reads(source), source


@pytest.mark.parametrize(
    "source",
    [
        "x = settings.config.track",
        "x = run.settings.selected[0]",
        'x = values.get("prices")',
        "x = required_settings(ledger, 'audit')",
        "x = self.settings.num_cpus",
    ],
)
def test_the_probe_passes_typed_reads(source: str) -> None:
    assert raw_reads(source) == [], source


def test_no_module_but_the_settings_module_reads_stored_settings_raw() -> None:
    sources = sorted((REPO / "src" / "putnam_solver").rglob("*.py"))
    assert SETTINGS_MODULE in sources
    assert raw_reads(SETTINGS_MODULE.read_text(encoding="utf-8")), "the one reader reads the ledger's raw settings"
    found = {
        str(path.relative_to(REPO)): hits
        for path in sources
        if path != SETTINGS_MODULE and (hits := raw_reads(path.read_text(encoding="utf-8")))
    }
    assert found == {}, found
