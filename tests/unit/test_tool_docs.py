"""Our worker's tools and ``putnam mcp``'s tools describe themselves in the same words (``tool_docs``): a
model reads the same summary, argument and result texts whichever way it reaches the gates."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

pytest.importorskip("mcp")
pytest.importorskip("inspect_ai")

from inspect_ai.tool import ToolDef

from putnam_solver import get_prover, load_benchmark
from putnam_solver.mcp import McpSettings, PutnamTools, build_server
from putnam_solver.run.agent.tool_docs import CHECK, FIND_DECLARATIONS, GOALS, SEARCH, ToolDoc
from putnam_solver.run.agent.tools import check_tool, find_declarations_tool, goals_tool, search_tool
from tests.helpers import ROCQ_SAMPLES


def mcp_descriptions() -> dict[str, str]:
    """Each tool's description as an MCP client lists it (Rocq: every tool; no session pool needed)."""
    tools = PutnamTools(McpSettings(get_prover("rocq"), load_benchmark(ROCQ_SAMPLES)), pool=None)
    listed = anyio.run(build_server(tools).list_tools)
    return {t.name: t.description or "" for t in listed}


def inspect_view(tool: object) -> tuple[str, dict[str, str]]:
    """A worker tool's description and its arguments' descriptions, as Inspect gives them to the model."""
    definition = ToolDef(tool)  # type: ignore[arg-type]
    return definition.description, {n: p.description or "" for n, p in definition.parameters.properties.items()}


def test_the_worker_and_an_mcp_client_read_the_same_tool_texts() -> None:
    mcp = mcp_descriptions()
    roots = (Path("/nonexistent"),)
    worker = {
        "check": (inspect_view(check_tool(None)), CHECK),  # type: ignore[arg-type]  # built, never called
        "goals": (inspect_view(goals_tool(None)), GOALS),  # type: ignore[arg-type]
        "search": (inspect_view(search_tool(roots, "*.v")), SEARCH),
        "find_declarations": (inspect_view(find_declarations_tool(roots, ".v")), FIND_DECLARATIONS),
    }
    for name, ((summary, args), doc) in worker.items():
        assert summary == doc.summary, name
        for arg, text in doc.args:
            assert args[arg] == text, (name, arg)
            assert f"{arg}: {text}" in mcp[name], (name, arg)
        assert mcp[name].startswith(doc.summary) and doc.returns in mcp[name], name
    # the searches are the same tool both ways; check and goals add what each side's caller needs
    assert mcp["search"] == SEARCH.docstring() and mcp["find_declarations"] == FIND_DECLARATIONS.docstring()
    assert set(worker["check"][0][1]) == {"proof", "line", "alternatives"}
    assert "problem: A problem id" in mcp["check"] and "track: " in mcp["check"] and "alternatives" not in mcp["check"]


def test_a_tool_doc_renders_as_a_google_docstring_in_order() -> None:
    doc = ToolDoc("Do it.", (("a", "First."),), "Done.").extended({"b": "Second."}, returns="Or not.")
    assert doc.docstring() == "Do it.\n\nArgs:\n    a: First.\n    b: Second.\n\nReturns:\n    Done. Or not.\n"
    assert [name for name, _ in doc.on_problem().args] == ["problem", "a", "b", "track"]
