"""An attempt's workspace and prompts: what the model is shown, written before any model is called.

The statement file holds what the model may see on the run's track; the challenge (with an inlined
answer) never enters a workspace. ``putnam solve --prepare-only`` writes these and stops.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.kits import get_kit
from putnam_solver.run.agent.sketch import earlier_sketch_text, informal_text
from putnam_solver.run.agent.tools import render, retrieval_tools
from putnam_solver.run.agent.types import CarryForward, ProvedLemma, Sketch, SolveConfig
from putnam_solver.run.agent.worker import carry_forward_text
from putnam_solver.safe_write import UnsafePath, write_under

PROMPT_FILE = "PROMPT.md"
TOOL_LINES = {
    "check": "- `check(proof)`: the fast gates on your file (statement kept, nothing forbidden, compiles). It "
    "answers PASSED, or the failing gate with the first errors (line, column, the offending line) and the "
    "unsolved goals; for a draft with holes, which holes remain. Use it often.",
    "goals": "- `goals(proof, line)`: the hypotheses and goals at the end of one line of your file (holes allowed).",
    "search": "- `search(pattern)`: a ripgrep regular expression over the library sources of {label} "
    "(read-only), for lemma names and their exact statements.",
    "library_search": "- `library_search(command, query)`: {label}'s own `Search`, `SearchPattern` or "
    "`SearchRewrite`, by type, with the statement's imports loaded: e.g. `SearchPattern (_ + _ = _ + _)` "
    "lists the lemmas whose conclusion has that shape, with their exact statements.",
    "find_declarations": "- `find_declarations(query)`: the library's declarations (name, statement, doc) "
    "ranked against a goal or a description, best first; paste the goal you are stuck on.",
    "prove_lemma": "- `prove_lemma(name)`: proves one helper lemma of the file you checked last, left there "
    "as a hole, in a separate sub-attempt with its own budget; it answers with the proved lemma to paste "
    "in place of the hole, or with why it was not proved.",
    "sketch": "- `sketch(informal_proof, skeleton)`: keeps your informal proof and your formal skeleton (the file "
    "with each step stated as a helper lemma before the theorem, its proof a hole, and the theorem proved from "
    "them), checks the skeleton and, when it compiles apart from its holes, proves every hole at once in "
    "separate sub-attempts; it answers with the check and each proved lemma to paste in place of its hole.",
    "submit": "- `submit(proof)`: the file, for acceptance by all the gates. If it is not accepted you are "
    "told why and may submit again; the attempt ends when a submission is accepted.",
}
PLAN_ADVICE = (
    "- Start your first reply with a short informal proof plan (the idea, the key steps, the library facts "
    "you expect to need), then make your first tool call in the same reply.\n"
)
RETRIEVAL_ADVICE = {
    "library_search": "- To find a lemma by what it states, not by its name: `library_search` with "
    "`SearchPattern` and the goal's shape (`(_ * _ <= _)`), or `SearchRewrite` with the subterm to rewrite.\n",
    "find_declarations": "- Stuck on a goal? `find_declarations` with the goal, or a description in words, "
    "ranks the library's lemmas against it; add words a lemma's name would hold (`comm`, `mod`, `le`).\n",
}
SKETCH_ADVICE = (
    "- Begin with the sketch stage: prove the statement informally first (read the problem in words and "
    "the formal statement; write every step), then turn the steps into a skeleton: one helper lemma per "
    "step, stated before the theorem with its proof left as a hole, and the theorem's proof from those "
    "lemmas. Give both to `sketch` in your first reply; its holes are then proved in parallel.\n"
)
GOALS_ADVICE = "- Before writing the next step of a proof, ask `goals` for the state at the line you are at.\n"
LEMMA_ADVICE = (
    "- Split a hard proof: state helper lemmas before the theorem with their proofs left as holes, "
    "`check` the file (it checks the main proof against the lemmas and lists the holes), then "
    "`prove_lemma(name)` each hole; several `prove_lemma` calls in one reply run in parallel. Put each "
    "proved lemma back in place of its hole. A lemma is proved from the challenge's header alone, so "
    "state it self-contained.\n"
)


def prepare_workspaces(
    problems: Sequence[Problem], benchmark: Benchmark, config: SolveConfig, work_dir: Path
) -> list[Path]:
    """Write each problem's workspace (statement file, project file, PROMPT.md); no model is called.

    The files are written under ``work_dir``'s parent (the run directory) without following links: a run
    directory resumed may be one handed over, with ``work`` a link elsewhere."""
    prover = get_prover(config.prover)
    return [_write_workspace(prover, problem, config, work_dir.parent, work_dir.name) for problem in problems]


def _write_workspace(prover: Prover, problem: Problem, config: SolveConfig, root: Path, work: str) -> Path:
    """One problem's workspace; a link planted on its way is named with the problem it would have held."""
    where = Path(work) / problem.id
    try:
        return _write_files(prover, problem, config, root, where)
    except UnsafePath as exc:
        raise UnsafePath(exc.errno, f"{exc} (on the way to {root / where}, the workspace of {problem.id})") from exc


def _write_files(prover: Prover, problem: Problem, config: SolveConfig, root: Path, where: Path) -> Path:
    statement = prover.model_statement(problem, config.track)
    write_under(root, where / f"{problem.module}{prover.suffix}", statement.encode("utf-8"), durable=True)
    for name, text in get_kit(prover.name).workspace_files(config.verify_options()).items():
        write_under(root, where / name, text.encode("utf-8"), durable=True)
    prompt = system_prompt(prover, config) + "\n\n---\n\n" + task_prompt(prover, problem, config, None)
    write_under(root, where / PROMPT_FILE, prompt.encode("utf-8"), durable=True)
    return root / where


def worker_tool_names(prover: Prover, config: SolveConfig, lemma: bool = False) -> list[str]:
    """The tools the react worker gets: ``goals`` and ``prove_lemma`` where the prover has an interactive
    piece and the part is on, the retrieval tools where they can run; a lemma sub-attempt never gets
    ``prove_lemma``."""
    interactive = get_kit(prover.name).interactive() is not None
    names = ["check", *(["goals"] if interactive and config.parts.goals else []), "search"]
    names += retrieval_tools(prover, config.parts)
    if interactive and config.parts.lemmas and not lemma:
        names += ["sketch", "prove_lemma"] if config.parts.sketch else ["prove_lemma"]
    return [*names, "submit"]


def system_prompt(prover: Prover, config: SolveConfig, lemma: bool = False) -> str:
    """The worker's standing instructions: its tools, how to work, the prover's policy, the turn budget."""
    tools = worker_tool_names(prover, config, lemma)
    return render(
        "worker_system.md",
        prover_label=prover.label,
        tools="\n".join(TOOL_LINES[t].replace("{label}", prover.label) for t in tools),
        plan=SKETCH_ADVICE if "sketch" in tools else PLAN_ADVICE if config.parts.plan and not lemma else "",
        goals_advice=GOALS_ADVICE if "goals" in tools else "",
        retrieval_advice="".join(advice for name, advice in RETRIEVAL_ADVICE.items() if name in tools),
        lemma_advice=LEMMA_ADVICE if "prove_lemma" in tools else "",
        prover_advice=_prover_advice(prover),
        policy=get_kit(prover.name).policy_brief(config.verify_options()),
        max_turns=str(config.budgets.lemma_turns if lemma else config.budgets.max_turns),
    )


def _prover_advice(prover: Prover) -> str:
    """Working advice for the prover's language (``prompts/tips_<name>.md``), if there is any."""
    tips = files("putnam_solver.run.agent").joinpath("prompts", f"tips_{prover.name}.md")
    return tips.read_text(encoding="utf-8") if tips.is_file() else ""


def task_prompt(
    prover: Prover,
    problem: Problem,
    config: SolveConfig,
    carried: CarryForward | None,
    lemmas: Sequence[ProvedLemma] = (),
    sketch: Sketch | None = None,
) -> str:
    """One problem's task: its statement as the model may see it (with the sketch stage, its informal
    statement as text too), the best earlier attempt if any, the latest earlier sketch, and the lemmas
    earlier attempts proved for it."""
    template = "worker_task.md" if config.agent == "react" else "codex_task.md"
    sketching = "sketch" in worker_tool_names(prover, config)
    return render(
        template,
        problem_id=problem.id,
        file_name=f"{problem.module}{prover.suffix}",
        statement=prover.model_statement(problem, config.track),
        informal=informal_text(problem.informal_statement) if sketching else "",
        policy=get_kit(prover.name).policy_text(config.verify_options()),
        carry_forward=carry_forward_text(carried),
        sketch=earlier_sketch_text(sketch) if sketching else "",
        lemmas=proved_lemmas_text(lemmas),
    )


def proved_lemmas_text(lemmas: Sequence[ProvedLemma]) -> str:
    if not lemmas:
        return ""
    return render("proved_lemmas.md", lemmas="\n\n".join(lemma.text.strip() for lemma in lemmas))


def lemma_task_prompt(problem: Problem, lemma: str, statement: str) -> str:
    """A lemma sub-attempt's task: the lemma's own statement file."""
    return render("lemma_task.md", lemma=lemma, problem_id=problem.id, statement=statement)
