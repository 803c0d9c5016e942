"""Benchmarks described by data: the records, named lookups with variants and splits, tracks, errata, and
what `putnam list`, `check` and `verify` show of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.benchmark_catalog import catalog, tracks
from putnam_solver.benchmark_files import file_for, locate_benchmark, open_benchmark, parse_request, require_track
from putnam_solver.cli import app
from putnam_solver.core.benchmark import BenchmarkError
from putnam_solver.core.benchmarks import benchmark_names, get_spec, registered_file
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.errata import errata
from putnam_solver.problem_selection import problem_for_stem, select_problems
from tests.helpers import DATA_ROOT, LEAN_PROVER, lean_filled

runner = CliRunner()
pytestmark = pytest.mark.skipif(not (DATA_ROOT / "proofnet").is_dir(), reason="pinned data not found")


@pytest.fixture(autouse=True)
def _data_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_BENCHMARK", str(DATA_ROOT))
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))


def test_every_record_is_registered_with_its_files_pins_splits_and_toolchain() -> None:
    assert benchmark_names() == ("putnambench", "minif2f", "proofnet")
    minif2f = get_spec("minif2f")
    assert catalog("minif2f").splits == ("valid", "test")
    assert [(f.prover, f.variant, catalog("minif2f").listing(f).default) for f in minif2f.files] == [
        ("lean", "published", False),
        ("rocq", "adapted", True),
        ("rocq", "published", False),
    ]
    assert file_for(minif2f, "rocq").file == "minif2f_rocq_adapted.jsonl"
    assert file_for(minif2f, "rocq", "published").open_proof
    assert set(file_for(minif2f, "rocq").adaptations) == {"admitted", "stdlib-prefix"}
    stated = {(s, f.prover, f.variant): f.toolchain.version for s in benchmark_names() for f in get_spec(s).files}
    assert stated[("putnambench", "lean", "published")] == "v4.27.0"
    assert stated[("minif2f", "lean", "published")] == "v4.24.0"
    assert stated[("proofnet", "lean", "published")] == "v4.28.0"
    assert stated[("minif2f", "rocq", "adapted")] == "8.16", "adapted for the Coq installed here"
    assert stated[("minif2f", "rocq", "published")] == "8.20", "what upstream targets"
    putnam = registered_file("putnam_bench_lean4.jsonl")
    assert putnam is not None and putnam.pin_name == "PutnamBench Lean 4 @ 3c9b926"
    assert tracks(putnam) == ("with-answer", "no-answer")
    assert tracks(file_for(minif2f, "lean")) == ("with-answer",), "no answer holes: one track"
    for name in benchmark_names():
        for erratum in errata(name).entries:
            assert erratum.source and erratum.defect and erratum.provers, erratum


@pytest.mark.parametrize(
    ("value", "prover", "file", "split", "count"),
    [
        (None, "lean", "putnam_bench_lean4.jsonl", None, 672),
        ("putnambench", "rocq", "putnam_bench_coq.jsonl", None, 412),
        ("minif2f", "lean", "minif2f_lean4.jsonl", None, 488),
        ("minif2f:test", "lean", "minif2f_lean4.jsonl", "test", 244),
        ("minif2f", "rocq", "minif2f_rocq_adapted.jsonl", None, 488),
        ("minif2f@published:valid", "rocq", "minif2f_rocq.jsonl", "valid", 244),
        ("proofnet:valid", "lean", "proofnet_lean4.jsonl", "valid", 182),
        ("proofnet:test", "lean", "proofnet_lean4.jsonl", "test", 184),
    ],
)
def test_named_benchmarks_resolve_to_their_pinned_file_and_split(
    value: str | None, prover: str, file: str, split: str | None, count: int
) -> None:
    loaded = open_benchmark(value, prover)
    assert (loaded.path.name, loaded.split, loaded.pinned) == (file, split, True)
    assert len(select_problems(loaded)) == count
    assert loaded.file is not None and loaded.file.file == file


@pytest.mark.parametrize(
    ("value", "prover", "message"),
    [
        ("proofnet", "rocq", "ProofNet .* has no rocq statements; it has: lean"),
        ("putnambench:test", "lean", "PutnamBench has no split 'test'; it has no splits"),
        ("minif2f:train", "lean", "its splits are valid, test"),
        ("minif2f@fixed", "rocq", "no 'fixed' variant .* choose one of: adapted, published"),
    ],
)
def test_bad_requests_say_what_exists(value: str, prover: str, message: str) -> None:
    with pytest.raises(BenchmarkError, match=message):
        locate_benchmark(value, prover)


def test_a_path_keeps_working_and_takes_a_split(tmp_path: Path) -> None:
    path = DATA_ROOT / "minif2f" / "minif2f_lean4.jsonl"
    assert parse_request(str(path)).path == path
    assert parse_request(f"{path}:valid").split == "valid"
    loaded = open_benchmark(f"{path}:valid", "lean")
    assert loaded.file is not None and len(select_problems(loaded)) == 244, "a path to a pinned file is that file"
    other = tmp_path / "mine.jsonl"
    other.write_text(json.dumps({"problem_id": "a", "formal_statement": "theorem a : True := sorry\n"}) + "\n")
    assert open_benchmark(str(other), "lean").file is None


def test_a_split_restricts_selection_and_candidate_names() -> None:
    valid = open_benchmark("minif2f:valid", "lean")
    with pytest.raises(BenchmarkError, match="mathd_algebra_478 is in the test split, not valid"):
        select_problems(valid, ["mathd_algebra_478"])
    assert problem_for_stem(valid, "mathd_algebra_478") is None
    assert problem_for_stem(valid, "MathdAlgebra478") is None
    assert problem_for_stem(valid, "MathdAlgebra455") is not None


def test_a_benchmark_without_answer_holes_has_one_track() -> None:
    minif2f = open_benchmark("minif2f", "lean")
    require_track(minif2f, "with-answer")
    with pytest.raises(BenchmarkError, match=r"no no-answer track; .* its only track is with-answer"):
        require_track(minif2f, "no-answer")
    require_track(open_benchmark("putnambench", "lean"), "no-answer")


def test_cli_list_shows_splits_variants_adaptations_and_errata() -> None:
    result = runner.invoke(app, ["list", "--benchmark", "minif2f:test", "--max-problems", "3"])
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == ["aime_1983_p1", "aime_1983_p2", "aime_1983_p3"]
    result = runner.invoke(app, ["list", "--benchmark", "proofnet:valid"])
    assert len(result.stdout.splitlines()) == 182
    result = runner.invoke(
        app, ["list", "--prover", "rocq", "--benchmark", "minif2f", "--json", "--problem", "aimeII_2001_p3"]
    )
    record = json.loads(result.stdout)
    assert (record["name"], record["variant"], record["split"]) == ("minif2f", "adapted", "valid")
    assert list(record["adaptations"]) == ["admitted"] and "Admitted." in record["adaptations"]["admitted"]
    result = runner.invoke(
        app, ["list", "--prover", "rocq", "--problem", "putnam_1962_a6", "--problem", "putnam_1962_a5"]
    )
    lines = result.stdout.splitlines()
    assert lines[0] == "putnam_1962_a5"
    assert lines[1].startswith("putnam_1962_a6  (statement known defective: vacuous: ")
    result = runner.invoke(app, ["list", "--prover", "rocq", "--json", "--problem", "putnam_1962_a6"])
    erratum = json.loads(result.stdout)["errata"][0]
    assert erratum["kind"] == "vacuous" and erratum["defective"] and "yaqub1971/PutnamBench_ROCQ" in erratum["source"]
    lean = runner.invoke(app, ["list", "--problem", "putnam_1962_a6"])
    assert lean.stdout.strip() == "putnam_1962_a6", "the Rocq erratum does not concern the Lean statement"


def test_cli_check_checks_every_file_of_a_named_benchmark(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", "--benchmark", "minif2f", "--benchmark", "proofnet"])
    assert result.exit_code == 0, result.output
    for name in ("minif2f_lean4.jsonl  488", "minif2f_rocq_adapted.jsonl  488", "minif2f_rocq.jsonl  488"):
        assert name in result.stdout
    assert (
        "proofnet_lean4.jsonl  366 problems" in result.stdout and "ProofNet (ProofNet-Verified) Lean 4" in result.stdout
    )
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["OK"] * 4
    everything = runner.invoke(app, ["check"])
    assert everything.exit_code == 0 and everything.stdout.count("matches the pin") == 6
    variant = runner.invoke(app, ["check", "--benchmark", "minif2f@published"])
    assert variant.exit_code == 0 and len(variant.stdout.splitlines()) == 2, "Lean's only file, Rocq's published"
    assert "minif2f_lean4.jsonl" in variant.stdout and "minif2f_rocq.jsonl" in variant.stdout
    tampered = tmp_path / "minif2f_lean4.jsonl"
    tampered.write_bytes((DATA_ROOT / "minif2f" / "minif2f_lean4.jsonl").read_bytes().replace(b"sorry", b"sorry ", 1))
    refused = runner.invoke(app, ["check", "--benchmark", str(tampered)])
    assert refused.exit_code == 1 and refused.stdout.startswith("CHANGED ")
    assert "putnam dataset fetch --benchmark minif2f" in refused.stdout
    pinned = runner.invoke(app, ["check", "--benchmark", "minif2f", "--benchmark-sha256", "0" * 64])
    assert pinned.exit_code == 2 and "pins one file, but minif2f has 3" in pinned.stderr


def test_verify_shows_errata_and_counts_accepted_defective_statements_apart(tmp_path: Path) -> None:
    """A ProofNet statement with its own `local notation`, and one the errata list: both accepted by the
    text gates; the listed one is shown with its erratum (here a note, not a defect)."""
    bench = open_benchmark("proofnet", "lean")
    folder = tmp_path / "proofs"
    folder.mkdir()
    for problem in ("Rudin_exercise_3_5", "Rudin_exercise_1_4"):
        (folder / f"{problem}.lean").write_text(lean_filled(bench, problem))
    out = tmp_path / "verdicts.json"
    args = ["verify", "--benchmark", "proofnet:test", "--gates", "text", "--json", str(out), str(folder)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "statement note: ambiguous" in result.stdout
    document = json.loads(out.read_text())
    assert (document["benchmark"]["name"], document["benchmark"]["split"]) == ("proofnet", "test")
    by_problem = {r["problem"]: r for r in document["results"]}
    assert by_problem["Rudin_exercise_1_4"]["benchmark"]["errata"][0]["kind"] == "ambiguous"
    assert document["accepted_on_known_defects"] == [], "an ambiguous informal text is no defect of the proof"


def test_verify_counts_a_defective_statement_apart(tmp_path: Path) -> None:
    candidate = tmp_path / "putnam_2017_b3.lean"
    bench = open_benchmark("putnambench", "lean")
    candidate.write_text(lean_filled(bench, "putnam_2017_b3"))
    result = runner.invoke(app, ["verify", "--gates", "text", str(candidate)])
    assert result.exit_code == 0, result.output
    assert "statement known defective: false:" in result.stdout
    assert "1 accepted (1 of them on statements known defective, counted apart)" in result.stdout


def test_verify_refuses_a_track_the_benchmark_lacks(tmp_path: Path) -> None:
    candidate = tmp_path / "mathd_algebra_478.lean"
    candidate.write_text(lean_filled(open_benchmark("minif2f", "lean"), "mathd_algebra_478"))
    result = runner.invoke(
        app, ["verify", "--benchmark", "minif2f", "--track", "no-answer", "--gates", "text", str(candidate)]
    )
    assert result.exit_code == 2 and "its only track is with-answer" in result.stderr


def test_lean_gates_use_the_parsed_theorem_name_not_the_problem_id(tmp_path: Path) -> None:
    """A benchmark may name its theorem otherwise than its problem: G2 finds it by the challenge's name."""
    statement = "theorem the_theorem_inside : True := by sorry\n"
    path = tmp_path / "renamed.jsonl"
    path.write_text(json.dumps({"problem_id": "problem_one", "formal_statement": statement}) + "\n")
    bench = open_benchmark(str(path), "lean")
    problem = bench.problems["problem_one"]
    good = run_gates(LEAN_PROVER, bench, problem, b"theorem the_theorem_inside : True := trivial\n", Track.WITH_ANSWER,
                     VerifyOptions(profile=Profile.TEXT))  # fmt: skip
    assert good.accepted
    renamed = run_gates(LEAN_PROVER, bench, problem, b"theorem problem_one : True := trivial\n", Track.WITH_ANSWER,
                        VerifyOptions(profile=Profile.TEXT))  # fmt: skip
    assert renamed.status == "rejected"


@pytest.mark.parametrize(
    ("problem", "old", "new", "gate"),
    [
        ("Herstein_exercise_5_3_10", "set_option maxRecDepth 2048 in\n", "", "G2"),
        (
            "Munkres_exercise_23_4",
            "theorem Munkres",
            "set_option checkBinderAnnotations false in\ntheorem Munkres",
            "G3",
        ),
        ("Rudin_exercise_3_5", "Filter.limsup u Filter.atTop", "Filter.liminf u Filter.atTop", "G2"),
        # a candidate's own notation can act only through elaboration: G2 leaves it to G6, so text refuses it
        ("Rudin_exercise_3_5", "theorem Rudin", 'local notation "sup" => 1\ntheorem Rudin', "G2"),
    ],
)
def test_a_statements_own_options_and_notations_are_pinned_not_a_licence(
    problem: str, old: str, new: str, gate: str
) -> None:
    """ProofNet statements set options and declare a local notation themselves: the candidate must keep
    them as they are, and may not add more of the same."""
    bench = open_benchmark("proofnet", "lean")
    filled = lean_filled(bench, problem)
    assert run_gates(LEAN_PROVER, bench, bench.problems[problem], filled.encode(), Track.WITH_ANSWER,
                     VerifyOptions(profile=Profile.TEXT)).accepted  # fmt: skip
    assert old in filled
    edited = filled.replace(old, new, 1)
    verdict = run_gates(LEAN_PROVER, bench, bench.problems[problem], edited.encode(), Track.WITH_ANSWER,
                        VerifyOptions(profile=Profile.TEXT))  # fmt: skip
    assert verdict.status == "rejected"
    assert gate in {g.id for g in verdict.gates if not g.passed}


def test_bootstrap_installs_what_a_benchmark_states_per_prover() -> None:
    from putnam_solver.toolchains import benchmark_needs, bootstrap_plan

    assert benchmark_needs("minif2f", None, None) == [("lean", "v4.24.0"), ("rocq", "8.16")]
    assert benchmark_needs("proofnet", None, None) == [("lean", "v4.28.0")]
    assert benchmark_needs("minif2f", "lean", "v4.27.0") == [("lean", "v4.27.0")]
    with pytest.raises(InputError, match="has no statements for prover 'rocq'; it has: lean"):
        benchmark_needs("proofnet", "rocq", None)
    names = [s.name for s in bootstrap_plan("lean", Path("/nonexistent"), False, False, "v4.24.0")]
    assert "project v4.24.0" in names and "lean4export v4.24.0" in names
