"""The trusted package holds only what decides a verdict, and imports nothing else.

Two checks, both over every module of ``putnam_solver.core`` found on disk (never a list kept by hand):
its sources are read, and every import in them (at module level, inside functions, under
``TYPE_CHECKING``, or by name through ``importlib.import_module``/``__import__``) must name the
trusted package itself or a library that cannot reach the network, an event loop, an agent or a
model; and a fresh interpreter imports all of those modules, after which no module of the project
outside the trusted package and no such library may be loaded. The probes at the end show that each way
of breaking the boundary that was once missed fails the check.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO

SRC = REPO / "src"
TRUSTED = "putnam_solver.core"
TRUSTED_DIR = SRC / "putnam_solver" / "core"
FORBIDDEN_ROOTS = frozenset(
    {
        # network, HTTP and sockets
        "socket", "ssl", "http", "urllib", "urllib3", "httpx", "httpcore", "requests", "aiohttp", "h11", "h2",
        "websockets", "uvicorn", "starlette", "fastapi", "socketserver", "xmlrpc", "ftplib", "smtplib",
        "multiprocessing",  # its connection module loads socket (the gate worker frames its own pipes)
        # event loops
        "asyncio", "anyio", "trio",
        # agents, models and clusters
        "inspect_ai", "inspect_swe", "openai", "anthropic", "mcp", "ray", "axle", "genai_prices",
    }
)  # fmt: skip
"""Top-level names the trusted package may not import. (``subprocess`` itself uses the standard
``selectors``, which opens nothing, so that one is allowed.)"""


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_names(path: Path, root: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports anywhere in its text, absolute, with its line."""
    module = _module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join([*base, node.module] if node.module else base)
            names.append((node.lineno, target))
            names += [(node.lineno, f"{target}.{alias.name}") for alias in node.names if target == "putnam_solver"]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in {"import_module", "__import__"} and isinstance(node.args[0].value, str):
                names.append((node.lineno, node.args[0].value))
    return names


def _outside(name: str) -> bool:
    """Whether importing ``name`` crosses the boundary."""
    if name == "putnam_solver" or name == TRUSTED or name.startswith(TRUSTED + "."):
        return False
    return name.startswith("putnam_solver.") or name.split(".")[0] in FORBIDDEN_ROOTS


def boundary_violations(package_dir: Path) -> list[str]:
    """``file:line imports name`` for every import in the package's sources that crosses the boundary."""
    root = package_dir.parents[1]
    return [
        f"{path.relative_to(root)}:{line} imports {name}"
        for path in sorted(package_dir.rglob("*.py"))
        for line, name in _imported_names(path, root)
        if _outside(name)
    ]


def trusted_modules(package_dir: Path = TRUSTED_DIR) -> list[str]:
    """Every module of the trusted package, found on disk."""
    return sorted(_module_name(path, package_dir.parents[1]) for path in package_dir.rglob("*.py"))


IMPORT_ALL = """
import importlib, json, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
print(json.dumps(sorted(sys.modules)))
"""


def loaded_after_importing(modules: list[str], src: Path = SRC) -> list[str]:
    """The modules a fresh interpreter holds after importing ``modules`` from ``src``."""
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, json.dumps(modules)],
        cwd=src,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_the_trusted_sources_import_only_the_trusted_package_and_harmless_libraries() -> None:
    assert len(trusted_modules()) > 40, "the discovery found the package"
    assert boundary_violations(TRUSTED_DIR) == []


def crossing(loaded: list[str]) -> list[str]:
    """The loaded modules that cross the boundary, less what the standard library's entry-point reader
    loads by itself (``importlib.metadata`` parses metadata with ``email``, whose ``utils`` imports
    ``socket`` and ``urllib.parse`` and opens nothing): measured in a fresh interpreter, not listed."""
    baseline = set(loaded_after_importing(["importlib.metadata"]))
    return [m for m in loaded if _outside(m) and m not in baseline]


def test_a_fresh_interpreter_importing_every_trusted_module_loads_nothing_else() -> None:
    loaded = loaded_after_importing(trusted_modules())
    assert set(trusted_modules()) <= set(loaded)
    assert crossing(loaded) == []


def test_every_prover_builds_its_gates_without_leaving_the_trusted_package() -> None:
    """Registered provers are loaded through entry points; their gates are trusted code too."""
    code = (
        "import json, sys\nfrom putnam_solver.core.provers import get_prover, prover_names\n"
        "[get_prover(n).gates() for n in prover_names()]\nprint(json.dumps(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert crossing(json.loads(done.stdout)) == []


# ------------------------------------------------------------------------------------------------ probes

PROBES = {
    "run.ledger at module level of a prover module": (
        "provers/lean/syntax.py", "from putnam_solver.run.ledger import Ledger\n", "module"),
    "inspect_ai in a prover module": ("provers/rocq/syntax.py", "import inspect_ai\n", "module"),
    "run.ledger inside a function of the pipeline": (
        "verify.py", "def _probe():\n    from putnam_solver.run import ledger\n    return ledger\n", "module"),
    "cluster in the cache": ("cache.py", "def _probe():\n    import putnam_solver.cluster\n", "module"),
    "listen in the cache": ("cache.py", "from putnam_solver import listen\n", "module"),
    "socket in the cache": ("cache.py", "import socket\n", "module"),
    "a relative import out of the package": ("cache.py", "from ..run import ledger\n", "module"),
    "an import by name": ("cache.py", "import importlib\nimportlib.import_module('putnam_solver.serve')\n", "module"),
    "a type-only import of an agent session": (
        "verify.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import putnam_solver.kits.sessions\n",
        "module"),
}  # fmt: skip


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_each_probe_that_crosses_the_boundary_fails_the_check(probe: str, tmp_path: Path) -> None:
    """A copy of the trusted package with one probe added: the source check names the file and line."""
    relative, text, _ = PROBES[probe]
    copy = tmp_path / "src" / "putnam_solver" / "core"
    shutil.copytree(TRUSTED_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / relative
    target.write_text(target.read_text(encoding="utf-8") + "\n" + text, encoding="utf-8")
    found = set(boundary_violations(copy)) - set(boundary_violations(TRUSTED_DIR))
    assert found and all(f.startswith(f"putnam_solver/core/{relative}:") for f in found), found


def test_the_runtime_check_catches_a_module_that_loads_the_network_indirectly(tmp_path: Path) -> None:
    """What the source check cannot see (a module loaded through another library) the fresh interpreter
    does: a trusted module importing ``concurrent.futures.process`` loads ``multiprocessing``."""
    src = tmp_path / "src"
    shutil.copytree(SRC / "putnam_solver", src / "putnam_solver", ignore=shutil.ignore_patterns("__pycache__"))
    (src / "putnam_solver" / "core" / "probe.py").write_text("import concurrent.futures.process\n", encoding="utf-8")
    loaded = loaded_after_importing([*trusted_modules(src / "putnam_solver" / "core")], src)
    assert "multiprocessing" in crossing(loaded)


# ------------------------------------------------------------------------------------------- structure


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (``from pkg import module`` counts as the module)."""
    root = package_dir.parents[1]
    modules = {_module_name(path, root): path for path in package_dir.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = {
            f"{node.module}.{alias.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and not node.level
            for alias in node.names
        }
        for _, name in _imported_names(path, root):
            submodules = {n for n in named if n.rpartition(".")[0] == name and n in modules}
            for target in submodules or {name}:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != module:
                    targets.add(target)
        graph[module] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_trusted_package_imports_in_no_circle_and_never_back_up() -> None:
    """Type-only and function-level imports included: a circle held together by them is still one."""
    graph = import_graph(TRUSTED_DIR)
    assert circles(graph) == []
    assert [(m, t) for m, targets in graph.items() for t in targets if m.startswith(t + ".")] == []


def test_the_circle_check_finds_a_circle_made_through_a_type_only_import(tmp_path: Path) -> None:
    copy = tmp_path / "src" / "putnam_solver" / "core"
    shutil.copytree(TRUSTED_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    util = copy / "util.py"
    util.write_text(
        util.read_text(encoding="utf-8")
        + "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from putnam_solver.core.verify import Verdict\n",
        encoding="utf-8",
    )
    assert any("putnam_solver.core.util" in group for group in circles(import_graph(copy)))
