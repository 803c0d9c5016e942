"""requirements.lock pins exactly one version of every dependency, inside the range pyproject.toml declares."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement

from tests.helpers import REPO

PROJECT = "putnambench-solver"


def _locked() -> dict[str, str]:
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", (REPO / "requirements.lock").read_text(), re.M)
    return {_name(name): version for name, version in pins}


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_declared_dependency_is_locked_within_its_range() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
    locked = _locked()
    for line in declared:
        requirement = Requirement(line)
        if _name(requirement.name) == PROJECT:
            continue
        assert _name(requirement.name) in locked, f"{requirement.name} is not in requirements.lock"
        version = locked[_name(requirement.name)]
        assert requirement.specifier.contains(version, prereleases=True), f"{requirement.name}=={version} vs {line}"


def test_the_lock_names_no_path_or_url() -> None:
    pins = [line for line in (REPO / "requirements.lock").read_text().splitlines() if not line.lstrip().startswith("#")]
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==\S+|", line) for line in pins), "only name==version lines"
