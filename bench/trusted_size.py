"""How big the trusted package is: source lines per part of ``putnam_solver/core`` and in total, beside the
rest of the project, so that the figure the README states can be checked; how many of its lines are
code (neither blank, nor comment, nor docstring), what a reader who skips the prose still has to read; and
how many of them only the no-answer track runs (the rules that judge a candidate's own answer value, and
the answer check), which a sceptic of a with-answer count (the leaderboard's track) may leave unread.

Usage: ``python bench/trusted_size.py``.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter, defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "putnam_solver"
TRUSTED = PACKAGE / "core"
NO_ANSWER_ROOTS = frozenset(
    {
        "provers.lean._answer_value",  # G2 calls it on the solution hole, which only no-answer challenges keep
        "provers.lean.answers",  # the answer check: no-answer only
        "provers.rocq.answers",  # the answer check: no-answer only
        "provers.rocq.answer_env",  # these three and `restated`: G4's answer steps, run under Track.NO_ANSWER
        "provers.rocq.answer_reals",
        "provers.rocq.answer_tests",
        "provers.rocq.restated",
    }
)
"""Where the pipeline enters the no-answer value rules; every module reached only through one of them is
counted as no-answer only."""


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


def module_name(path: Path) -> str:
    relative = path.relative_to(TRUSTED).with_suffix("")
    return ".".join(relative.parts[:-1] if relative.name == "__init__" else relative.parts)


def imports(path: Path, known: set[str]) -> set[str]:
    """The trusted modules ``path`` imports, at module or function level."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("putnam_solver.core."):
            base = node.module.removeprefix("putnam_solver.core.")
            found.update(name for name in (base, *(f"{base}.{a.name}" for a in node.names)) if name in known)
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("putnam_solver.core.") for a in node.names)
    return found & known


def no_answer_only(paths: dict[str, Path]) -> set[str]:
    """Modules no import chain from the package's entry points reaches without passing a no-answer root."""
    edges: defaultdict[str, set[str]] = defaultdict(set)
    for name, path in paths.items():
        edges[name] = imports(path, set(paths))
    imported = set().union(*edges.values())
    todo = [name for name in paths if name not in imported or name in {"", "provers.lean", "provers.rocq"}]
    reached: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in reached and name not in NO_ANSWER_ROOTS:
            reached.add(name)
            todo.extend(edges[name])
    return set(paths) - reached


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
    paths = {module_name(path): path for path in TRUSTED.rglob("*.py")}
    value_rules = no_answer_only(paths)
    only = sum(lines(paths[name]) for name in value_rules)
    print(f"{only:7,d}  run only on the no-answer track ({len(value_rules)} modules: answer value rules, answer check)")
    with_answer_code = sum(code_lines(path) for name, path in paths.items() if name not in value_rules)
    print(f"{trusted - only:7,d}  decide a with-answer verdict ({with_answer_code:,d} of them code)")


if __name__ == "__main__":
    main()
