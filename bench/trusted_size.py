"""How big the trusted package is: source lines per part of ``putnam_solver/core`` and in total, beside the
rest of the project, so that the figure the README states can be checked; and how many of its lines are
code (neither blank, nor comment, nor docstring), what a reader who skips the prose still has to read.

Usage: ``python bench/trusted_size.py``.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "putnam_solver"
TRUSTED = PACKAGE / "core"


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def code_lines(path: Path) -> int:
    """Lines holding a token that is neither a comment nor part of a docstring."""
    source = path.read_text(encoding="utf-8")
    prose: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            prose.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    layout = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in layout:
            code.update(range(token.start[0], token.end[0] + 1))
    return len(code - prose)


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
    code = sum(code_lines(path) for path in TRUSTED.rglob("*.py"))
    print(f"{code:7,d}  of them code (no blank line, comment or docstring)")


if __name__ == "__main__":
    main()
