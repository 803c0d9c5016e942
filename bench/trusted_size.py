"""How big the trusted package is: source lines per part of ``putnam_solver/core`` and in total, beside the
rest of the project, so that the figure the README states can be checked.

Usage: ``python bench/trusted_size.py``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "putnam_solver"
TRUSTED = PACKAGE / "core"


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def main() -> None:
    parts: Counter[str] = Counter()
    for path in TRUSTED.rglob("*.py"):
        relative = path.relative_to(TRUSTED)
        part = (
            "/".join(relative.parts[:2])
            if relative.parts[0] == "provers" and len(relative.parts) > 2
            else relative.parts[0]
        )
        parts[part.removesuffix(".py")] += lines(path)
    trusted = sum(parts.values())
    everything = sum(lines(path) for path in PACKAGE.rglob("*.py"))
    for part, count in parts.most_common():
        print(f"{count:7,d}  core/{part}")
    print(f"{trusted:7,d}  the trusted package ({trusted / everything:.0%} of {everything:,d} source lines)")


if __name__ == "__main__":
    main()
