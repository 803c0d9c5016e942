"""``putnam bootstrap``'s plan against fake elan, lake, git, curl and go that record their calls.

Nothing here touches the network: the fakes only create the files the real tools would leave behind.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.benchmarks import benchmark_names, get_spec
from putnam_solver.core.provers.lean.toolchain import (
    DEFAULT,
    LANDRUN_REV,
    LEAN4EXPORT_REVS,
    ToolchainPaths,
    installed_releases,
    lean_release,
    lean_releases,
    toolchain_root,
)
from putnam_solver.core.util import InputError
from putnam_solver.kits.lean import install as bootstrap
from putnam_solver.kits.lean.bootstrap_paths import elan_bin, manifest_path
from putnam_solver.kits.lean.install import (
    COMPARATOR_REV,
    plan,
)
from putnam_solver.kits.lean.status import toolchain_status
from putnam_solver.toolchains import run_bootstrap
from tests.fakes import install
from tests.fakes.fake_tool import INSTALLER

SYSTEM_PATH = "/usr/bin:/bin"


@pytest.fixture
def fakes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fake tools first on PATH, their calls logged to the returned JSONL file."""
    fake_bin = tmp_path / "fake-bin"
    for tool in ("git", "curl", "go", "cargo"):
        install("fake_tool.py", fake_bin / tool)
    log = tmp_path / "calls.jsonl"
    fake_installer = INSTALLER.format(tool=fake_bin / "curl").encode()
    monkeypatch.setattr(bootstrap, "ELAN_INSTALLER_SHA256", hashlib.sha256(fake_installer).hexdigest())
    monkeypatch.setenv("PATH", f"{fake_bin}:{SYSTEM_PATH}")
    monkeypatch.setenv("FAKE_LOG", str(log))
    monkeypatch.delenv("FAKE_FAIL", raising=False)
    return log


def calls(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def commands(log: Path) -> list[str]:
    return [" ".join([c["tool"], *c["argv"]]) for c in calls(log)]


def silent(message: str) -> None:
    return None


def test_plan_lists_every_component_with_where_it_goes(tmp_path: Path) -> None:
    steps = plan(tmp_path / "tc")
    assert [s.name for s in steps] == [
        "elan",
        "lean v4.27.0",
        "project v4.27.0",
        "mathlib-source v4.27.0",
        "mathlib-cache v4.27.0",
        "mathlib-warm v4.27.0",
        "import-closure v4.27.0",
        "comparator",
        "lean4export v4.27.0",
        "landrun",
    ]
    assert not any(s.done() for s in steps)
    by_name = {s.name: s for s in steps}
    assert str(tmp_path / "tc" / "elan") in by_name["elan"].description
    assert DEFAULT.toolchain in by_name["lean v4.27.0"].description
    assert COMPARATOR_REV in by_name["comparator"].description
    assert "Go" in by_name["landrun"].description
    assert [s.name for s in plan(tmp_path / "tc", build_mathlib=True)][4] == "mathlib-build v4.27.0"


def test_run_plan_installs_everything_with_the_pinned_revisions(fakes: Path, tmp_path: Path) -> None:
    root = tmp_path / "tc"
    messages: list[str] = []
    run_bootstrap(plan(root), messages.append)
    assert all(s.done() for s in plan(root))
    ran = commands(fakes)
    assert any(c.startswith("curl ") and "elan-init.sh" in c for c in ran)
    assert f"elan toolchain install {DEFAULT.toolchain}" in ran
    assert "lake update" in ran
    assert "lake exe cache get" in ran
    assert "lake build Mathlib" not in ran
    checkouts = [c for c in ran if " checkout " in c]
    assert [c.split()[-1] for c in checkouts] == [COMPARATOR_REV, DEFAULT.lean4export_rev, LANDRUN_REV]
    assert "lake build comparator" in ran and "lake build lean4export" in ran
    assert any(c.startswith("go build -o") for c in ran)
    paths = ToolchainPaths(root)
    lakefile = (paths.project / "lakefile.toml").read_text()
    assert f'rev = "{DEFAULT.mathlib_rev}"' in lakefile and "autoImplicit = false" in lakefile
    assert (paths.project / "lean-toolchain").read_text().strip() == DEFAULT.toolchain
    assert all(p.is_file() for p in (paths.comparator, paths.lean4export, paths.landrun))
    closure = json.loads((paths.project / "import_closure.json").read_text())["roots"]["Mathlib"]["modules"]
    assert {"Aesop", "Qq", "ImportGraph.Imports", "Mathlib.Tactic.Common"} <= closure.keys()  # from the sources
    assert any(m.startswith("import closure of Mathlib on v4.27.0:") for m in messages)
    manifest = json.loads(manifest_path(paths).read_text())
    assert manifest["steps"]["comparator"]["pin"] == COMPARATOR_REV
    assert set(manifest["steps"]["comparator"]["artifacts"]) == {"bin/comparator"}
    assert any("already done" not in m for m in messages)


def test_second_run_does_nothing(fakes: Path, tmp_path: Path) -> None:
    root = tmp_path / "tc"
    run_bootstrap(plan(root), silent)
    before = len(calls(fakes))
    messages: list[str] = []
    run_bootstrap(plan(root), messages.append)
    assert len(calls(fakes)) == before
    assert len(messages) == len(plan(root)) and all("already done" in m for m in messages)


def test_changed_artifact_reruns_only_its_step(fakes: Path, tmp_path: Path) -> None:
    root = tmp_path / "tc"
    run_bootstrap(plan(root), silent)
    ToolchainPaths(root).comparator.write_text("tampered\n")
    assert [s.name for s in plan(root) if not s.done()] == ["comparator"]
    before = len(calls(fakes))
    run_bootstrap(plan(root), silent)
    assert commands(fakes)[before:] == [
        f"git -C {root / 'src' / 'comparator'} checkout --quiet --force {COMPARATOR_REV}",
        "lake build comparator",
    ]
    assert all(s.done() for s in plan(root))


def test_failure_names_the_command_and_the_plan_resumes(
    fakes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "tc"
    monkeypatch.setenv("FAKE_FAIL", "lake exe")
    with pytest.raises(InputError, match=r"lake exe cache get failed with exit code 3") as failure:
        run_bootstrap(plan(root), silent)
    assert "simulated failure" in str(failure.value)
    assert [s.name for s in plan(root) if s.done()] == [
        "elan",
        "lean v4.27.0",
        "project v4.27.0",
        "mathlib-source v4.27.0",
    ]
    monkeypatch.delenv("FAKE_FAIL")
    before = len(calls(fakes))
    run_bootstrap(plan(root), silent)
    assert commands(fakes)[before] == "lake exe cache get"
    assert all(s.done() for s in plan(root))


def test_landrun_without_go_says_to_install_go(fakes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "tc"
    (tmp_path / "fake-bin" / "go").unlink()
    system = tmp_path / "system-bin"  # only what the elan installer script needs, whatever is installed
    system.mkdir()
    for tool in ("sh", "cp", "chmod", "mkdir"):
        found = shutil.which(tool, path=SYSTEM_PATH)
        assert found is not None
        (system / tool).symlink_to(found)
    monkeypatch.setenv("PATH", f"{tmp_path / 'fake-bin'}:{system}")
    with pytest.raises(InputError, match="install a Go toolchain"):
        run_bootstrap(plan(root), silent)
    assert [s.name for s in plan(root) if not s.done()] == ["landrun"]


def test_build_mathlib_builds_instead_of_downloading(fakes: Path, tmp_path: Path) -> None:
    root = tmp_path / "tc"
    run_bootstrap(plan(root, build_mathlib=True), silent)
    ran = commands(fakes)
    assert "lake build Mathlib" in ran and "lake exe cache get" not in ran


def test_status_reports_each_component(fakes: Path, tmp_path: Path) -> None:
    root = tmp_path / "tc"
    before = dict((name, ok) for name, ok, _ in toolchain_status(root))
    assert list(before) == [
        "elan",
        "lean v4.27.0",
        "project v4.27.0",
        "mathlib v4.27.0",
        "comparator",
        "lean4export v4.27.0",
        "landrun",
        "releases installed",
        "landlock",
    ]
    assert not any(ok for name, ok in before.items() if name != "landlock")
    run_bootstrap(plan(root), silent)
    after = {name: (ok, detail) for name, ok, detail in toolchain_status(root)}
    assert all(ok for name, (ok, _) in after.items() if name != "landlock")
    assert "4.27.0" in after["lean v4.27.0"][1]
    assert after["releases installed"][1] == "v4.27.0"


def test_toolchain_root_honours_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUTNAM_TOOLCHAIN_DIR", str(tmp_path / "elsewhere"))
    assert toolchain_root() == tmp_path / "elsewhere"
    monkeypatch.delenv("PUTNAM_TOOLCHAIN_DIR")
    assert toolchain_root().name == "lean"


def test_warm_up_builds_an_import_mathlib_module_while_packages_are_writable(fakes: Path, tmp_path: Path) -> None:
    root = tmp_path / "tc"
    run_bootstrap(plan(root), silent)
    ran = commands(fakes)
    assert ran.index("lake build Challenge") < ran.index("lake build comparator")
    assert (ToolchainPaths(root).project / "Challenge.lean").read_text() == "import Mathlib\n"


def test_a_pinned_commit_that_cannot_be_checked_out_fails_clearly(
    fakes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_FAIL", "git -C")
    with pytest.raises(InputError, match=f"pinned commit {COMPARATOR_REV} .* cannot be checked out"):
        run_bootstrap(plan(tmp_path / "tc"), silent)


def test_nanoda_is_built_with_cargo_only_when_asked(fakes: Path, tmp_path: Path) -> None:
    root = tmp_path / "tc"
    assert "nanoda" not in [s.name for s in plan(root)]
    run_bootstrap(plan(root, nanoda=True), silent)
    assert "cargo build --release" in commands(fakes)
    assert ToolchainPaths(root).nanoda.is_file()


def test_every_lean_benchmark_states_a_pinned_release_with_its_mathlib_and_lean4export() -> None:
    stated = {
        f.toolchain.version: f.toolchain.details["mathlib_rev"]
        for f in (f for name in benchmark_names() for f in get_spec(name).files)
        if f.prover == "lean"
    }
    assert stated == {r.version: r.mathlib_rev for r in lean_releases().values()}
    assert set(stated) == {"v4.24.0", "v4.27.0", "v4.28.0"} == set(LEAN4EXPORT_REVS)
    assert lean_release(None) == lean_release("v4.27.0")
    with pytest.raises(InputError, match=r"release 'v4\.0\.0'; choose one of: v4\.24\.0, v4\.27\.0, v4\.28\.0"):
        lean_release("v4.0.0")


def test_releases_install_side_by_side_sharing_elan_comparator_and_landrun(fakes: Path, tmp_path: Path) -> None:
    root = tmp_path / "tc"
    run_bootstrap(plan(root), silent)
    before = len(calls(fakes))
    minif2f = lean_release("v4.24.0")
    run_bootstrap(plan(root, release=minif2f), silent)
    ran = commands(fakes)[before:]
    assert f"elan toolchain install {minif2f.toolchain}" in ran
    assert not any("comparator" in c or "go build" in c or "elan-init" in c for c in ran), "shared steps run once"
    assert f"git -C {root / 'src' / 'lean4export-v4.24.0'} checkout --quiet --force {minif2f.lean4export_rev}" in ran
    old, new = ToolchainPaths(root), ToolchainPaths(root, minif2f)
    assert old.project != new.project and old.lean4export != new.lean4export
    assert f'rev = "{minif2f.mathlib_rev}"' in (new.project / "lakefile.toml").read_text()
    assert (new.project / "lean-toolchain").read_text().strip() == "leanprover/lean4:v4.24.0"
    assert installed_releases(root) == ["v4.24.0", "v4.27.0"]
    assert all(s.done() for s in plan(root)) and all(s.done() for s in plan(root, release=minif2f))
    manifest = json.loads(manifest_path(old).read_text())
    assert manifest["pins"]["v4.24.0"]["lean4export"] == minif2f.lean4export_rev
    assert manifest["pins"]["v4.27.0"]["lean4export"] == DEFAULT.lean4export_rev


def test_the_elan_installer_is_pinned_by_commit_and_hash_and_says_what_is_not(tmp_path: Path) -> None:
    elan = plan(tmp_path / "tc")[0]
    assert elan.name == "elan"
    assert bootstrap.ELAN_INSTALLER_COMMIT in bootstrap.ELAN_INSTALLER_URL and "/master/" not in elan.description
    assert bootstrap.ELAN_INSTALLER_URL in elan.description and "SHA-256" in elan.description
    assert "not pinned: the elan binary" in elan.description, "what cannot be pinned is said plainly"
    assert len(bootstrap.ELAN_INSTALLER_SHA256) == 64


def test_an_elan_installer_with_another_hash_is_never_run(
    fakes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "tc"
    monkeypatch.setattr(bootstrap, "ELAN_INSTALLER_SHA256", "0" * 64)
    with pytest.raises(
        InputError, match=r"elan installer .* has SHA-256 [0-9a-f]{64}, but 0{64} is pinned; it was not run"
    ):
        run_bootstrap(plan(root), silent)
    paths = ToolchainPaths(root)
    assert not (elan_bin(paths) / "elan").exists(), "the script did not run"
    assert not (root / "elan-init.sh").exists(), "the unverified script is not left behind"
    assert [c.split()[0] for c in commands(fakes)] == ["curl"]


def test_doctor_says_plainly_whether_lean_is_missing_or_unfinished(fakes: Path, tmp_path: Path) -> None:
    """Missing: run bootstrap. Present but not recorded by a finished step: say that, not both at once."""
    root = tmp_path / "tc"
    missing = dict((name, detail) for name, _, detail in toolchain_status(root))["lean v4.27.0"]
    assert missing.endswith("missing; run putnam bootstrap") and "not installed by bootstrap" not in missing
    run_bootstrap(plan(root), silent)
    manifest = json.loads(manifest_path(ToolchainPaths(root)).read_text())
    del manifest["steps"]["lean v4.27.0"]
    manifest_path(ToolchainPaths(root)).write_text(json.dumps(manifest))
    ok, detail = next((ok, detail) for name, ok, detail in toolchain_status(root) if name == "lean v4.27.0")
    assert not ok and "missing" not in detail
    assert "4.27.0" in detail and "no finished bootstrap step records it" in detail and "run putnam bootstrap" in detail
