"""Rocq toolchain helpers for bootstrap and doctor, and the axiom allow-list's name matching."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq import toolchain
from putnam_solver.core.provers.rocq.coqchk import read_coqchk
from putnam_solver.core.provers.rocq.statement import read_assumptions
from putnam_solver.core.provers.rocq.toolchain import (
    DEBIAN_PACKAGES,
    allowed_full_name,
    allowed_printed_name,
    library_state,
    toolchain_fingerprint,
)
from putnam_solver.core.verify import VerifyOptions
from putnam_solver.kits.rocq.install import OPAM_ROUTE, install_commands
from putnam_solver.kits.rocq.status import rocq_status


def test_install_commands_use_apt_with_the_four_packages() -> None:
    assert install_commands()[-1] == ["apt-get", "install", "-y", *DEBIAN_PACKAGES]
    assert set(DEBIAN_PACKAGES) == {"coq", "libcoq-mathcomp", "libcoq-mathcomp-analysis", "libcoq-coquelicot"}
    assert "opam install coq.8.16.1" in OPAM_ROUTE


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")
def test_status_reports_tools_version_and_libraries() -> None:
    checks = {name: (ok, detail) for name, ok, detail in rocq_status(VerifyOptions())}
    assert checks["coqc"][0] and "8.16" in checks["coqc"][1]
    assert checks["coqchk"][0]
    assert all(checks[lib][0] for lib in ("mathcomp (ssreflect)", "mathcomp-analysis", "Coquelicot", "Coq Reals"))


def test_full_names_on_the_allow_list() -> None:
    assert allowed_full_name("Coq.Logic.Classical_Prop.classic")
    assert allowed_full_name("Coq.Reals.Rdefinitions.RbaseSymbolsImpl.Rplus")
    assert allowed_full_name("Coq.Numbers.Cyclic.Int63.PrimInt63.add")
    assert not allowed_full_name("Putnam.Candidate.classic")
    assert not allowed_full_name("Coq.Logic.Classical_Prop.cheat")


def test_printed_names_of_the_candidate_never_match() -> None:
    reserved = ("Candidate", "Putnam")
    assert allowed_printed_name("Classical_Prop.classic", reserved)
    assert allowed_printed_name("boolp.propositional_extensionality", reserved)
    assert allowed_printed_name("Imset.imset", reserved)
    assert not allowed_printed_name("Candidate.Classical_Prop.classic", reserved)
    assert not allowed_printed_name("Putnam.Candidate.classic", reserved)
    assert not allowed_printed_name("cheat", reserved)


def test_read_assumptions_only_after_the_marker() -> None:
    out = (
        "Axioms:\nforged.axiom\nMARK\nAxioms:\nCandidate.R : realType\nClassical_Prop.classic : forall P : Prop,\n"
        "  P \\/ ~ P\nCandidate.loop is assumed to be guarded.\nCandidate.cheat : False\n"
    )
    found = read_assumptions(out, "MARK", ["R"])
    assert found is not None
    assert (found.plugged, found.allowed) == (["R"], ["Classical_Prop.classic"])
    assert found.unsafe == ["Candidate.loop is assumed to be guarded."]
    assert found.other == ["Candidate.cheat"]
    assert read_assumptions("no marker here", "MARK", []) is None


def test_read_coqchk_sections() -> None:
    out = (
        "\nCONTEXT SUMMARY\n===============\n\n* Theory: Set is predicative\n  \n* Axioms:\n    A.b\n    C.d\n  \n"
        "* Constants/Inductives relying on type-in-type: <none>\n  \n"
        "* Constants/Inductives relying on unsafe (co)fixpoints:\n    Putnam.Candidate.loop\n  \n"
    )
    sections = read_coqchk(out)
    assert sections is not None
    assert sections["Axioms"] == ["A.b", "C.d"]
    assert sections["Constants/Inductives relying on unsafe (co)fixpoints"] == ["Putnam.Candidate.loop"]
    assert sections["Constants/Inductives relying on type-in-type"] == []


def test_the_library_state_changes_with_any_file_of_the_library(tmp_path: Path) -> None:
    deep = tmp_path / "user-contrib" / "mathcomp" / "algebra"
    deep.mkdir(parents=True)
    (deep / "ssralg.vo").write_bytes(b"one")
    before = library_state(tmp_path)
    assert library_state(tmp_path) == before
    (deep / "ssralg.vo").write_bytes(b"two!")
    resized = library_state(tmp_path)
    os.utime(deep / "ssralg.vo", ns=(1, 1))
    retimed = library_state(tmp_path)
    (deep / "poly.vo").write_bytes(b"")
    added = library_state(tmp_path)
    assert len({before, resized, retimed, added}) == 4
    assert library_state(None) != library_state(tmp_path)


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")
def test_the_fingerprint_follows_every_file_of_the_library_coqc_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cached verdict or kept reference build is never reused after a library package changed: the key
    holds the fingerprint, which changes with any library file, not only each library's top file."""
    (tmp_path / "Lemma.vo").write_bytes(b"one")
    monkeypatch.setattr(toolchain, "coq_library", lambda coqc: tmp_path)
    before = toolchain_fingerprint(VerifyOptions())
    (tmp_path / "Lemma.vo").write_bytes(b"rebuilt")
    assert toolchain_fingerprint(VerifyOptions()) != before
