"""What ``putnam solve --resume`` takes from a run directory: what the run is about, never what runs here.

A run directory can come from anyone, and its ledger is text an editor can rewrite with ``sqlite3``. A
resume obeys the stored settings that say what the run is (model, track, problems, budgets), since that
is what resuming means; but some of them would make the resuming user's machine run or load what the
directory's author chose, and then count passes that no honest gate judged, or send the user's API key
where the author chose:

- ``tools``: executables the gates run. A wrapper shipped beside the ledger that calls the real ``coqc``
  passes every selftest canary and can still print Coq's "Closed under the global context" for one chosen
  candidate. A resume runs only tools its caller names on its own command line (``--tool NAME=PATH``,
  the same as the run's), never a path because the ledger holds it;
- ``acceptance_profile`` below full and ``allow_recursion``: a pass would be counted without a compile or a
  kernel check, or with candidate recursion through which Coq 8.16's guard checker bugs prove ``False``. No
  flag records the first (refused); the second is used only when the resume says ``--allow-recursion`` too;
- ``unsafe_no_sandbox``: no ``putnam solve`` flag records it (the sandbox is never off in a run the CLI
  started), so a ledger that holds it was written by something else; a resume refuses it;
- the benchmark file: a path inside the run directory is a file the directory ships (a statement restated
  as ``True``, with its own hash recorded as the pin); a resume never loads one;
- ``model_base_url``: the model server every call goes to, with the resuming user's API key in its
  headers. A resume sends calls to a server only when its caller names one (``--model-base-url``: the
  run's own again, or where the server moved);
- ``model_args``: arguments for the model's client, which no ``putnam solve`` flag records (a
  ``base_url`` or ``api_key`` there redirects the calls as well); only the offline mock model (``mockllm``,
  which makes no call) is resumed with them;
- a model name that Inspect's local providers load on this machine (``hf/org/model``, ``vllm/base:adapter``):
  code and weights from a folder of that name in the working directory, else downloaded from the Hugging
  Face hub (``model_names.LOCAL_PROVIDERS``). A resume takes such a name only when its caller says it again
  (``--model``, ``--reviewer-model``), as a new run takes it from the command line, whether or not such a
  folder is here: the answer depends on the name alone, so no folder made or swapped after the check can
  change it (red team round 13: ``hf/some-org/model`` was downloaded and loaded when no folder was here);
  and never when the name's folder lies inside the run directory (a resume from within it);
- ``sandbox``: Inspect's ``docker`` sandbox builds or pulls and runs what it finds in the working directory
  (a ``compose.yaml`` there, which can mount any path of the host into the container, or a ``Dockerfile``),
  else pulls Inspect's default image. A resume runs it only when its caller says ``--sandbox docker``
  again, as a new run takes it from the command line. ``local``, the default, runs no container;
- the working directory: no resume runs from inside the run directory, whose files the directory's author
  chose (by place alone, so no file made after the check changes the answer): Inspect builds containers
  from its ``compose.yaml`` and loads its ``.env`` into the environment (a model server for the user's API
  key, ``PYTHONPATH``: red team 18).

Each refusal names the run directory, the setting and what to do.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile
from putnam_solver.run.agent.model_names import NO_MODEL, is_mock_model, loads_here, local_model_path
from putnam_solver.run.campaign import RunSettings
from putnam_solver.run.ledger import LEDGER_NAME
from putnam_solver.terminal import shown_path


def check_resumable(
    stored: RunSettings,
    given_tools: Mapping[str, Path],
    given_base_url: str | None,
    given_recursion: bool = False,
    given_models: Mapping[str, str] | None = None,
    given_sandbox: str | None = None,
) -> None:
    """Refuse to resume ``stored`` when it would run a tool its caller did not name (``given_tools``: the
    resume's own ``--tool`` values), turn the sandbox off, accept below the full profile, lift the recursion
    rule its caller did not lift (``given_recursion``: the resume's ``--allow-recursion``), load a benchmark
    its directory ships, or send model calls to a server its caller did not name (``given_base_url``: the
    resume's ``--model-base-url``), or load a model from a path here or run a container its caller did not
    name (``given_models``: the resume's ``--model`` and ``--reviewer-model``, by flag; ``given_sandbox``: its
    ``--sandbox``)."""
    _check_working_directory(stored)
    _check_models(stored, given_models or {})
    _check_sandbox(stored, given_sandbox)
    run_dir = stored.run_dir
    config = stored.config
    named = dict(config.tools)
    if named != dict(given_tools):
        run_side = shown_path(" ".join(f"--tool {n}={p}" for n, p in sorted(named.items()))) or "no --tool"
        given = " ".join(f"--tool {n}={p}" for n, p in sorted(given_tools.items())) or "no --tool"
        raise InputError(
            f"{run_dir}: the run's settings name the tools {run_side}, and this resume gives {given}; a resume runs "
            f"only the tools you name, never a path because the ledger holds it (a run directory can come from "
            f"anyone). Resume with {run_side} if you trust those files, or start a new run with --run-dir"
        )
    if (url := config.model_base_url) is not None and given_base_url is None:
        raise InputError(
            f"{run_dir}: the run's settings send the model calls, with your API key, to {shown_path(url)}; "
            "a resume sends them only to a server you name (a run directory can come from anyone). Resume with "
            f"--model-base-url {shown_path(url)} if you trust it, or start a new run with --run-dir"
        )
    if config.model_args and not is_mock_model(config.model):
        raise InputError(
            f"{run_dir}: the run's settings hold model client arguments "
            f"({shown_path(', '.join(sorted(config.model_args)))}), "
            "which no `putnam solve` flag records and which can send your API key elsewhere; the ledger was "
            "written by something else. Start a new run with --run-dir"
        )
    if config.unsafe_no_sandbox:
        raise InputError(
            f"{run_dir}: the run's settings turn the sandbox off (`config.unsafe_no_sandbox`), which no `putnam "
            "solve` records; the ledger was edited or written by something else. Start a new run with --run-dir "
            "(`putnam audit` checks this one's passes in the sandbox)"
        )
    _check_acceptance(stored, given_recursion)
    benchmark = stored.selection.benchmark
    if not benchmark.is_absolute() or _inside(benchmark, run_dir):
        raise InputError(
            f"{run_dir}: the run's settings name the benchmark file {shown_path(benchmark)}, which "
            f"{'is a relative path' if not benchmark.is_absolute() else 'lies inside the run directory'}; a "
            "resume never loads a benchmark a run directory ships. Check the run's passes with `putnam audit "
            "RUN_DIR --benchmark PATH` (your own copy), or start a new run with --run-dir"
        )


def _inside(path: Path, directory: Path) -> bool:
    """Whether ``path``, or the file it leads to through links, lies under ``directory`` (links resolved)."""
    roots = {directory.absolute(), directory.resolve()}
    return any(p == root or root in p.parents for p in (path.absolute(), path.resolve()) for root in roots)


def _check_acceptance(stored: RunSettings, given_recursion: bool) -> None:
    """What would weaken the resumed run's acceptance: a profile below full (no ``putnam solve`` flag records
    one: a pass there is never compiled or kernel-checked), or the recursion rule lifted by the ledger alone
    (through candidate recursion Coq 8.16's guard checker bugs prove ``False``): red team round 10."""
    run_dir, config = stored.run_dir, stored.config
    if config.acceptance_profile is not Profile.FULL:
        raise InputError(
            f"{run_dir}: the run's settings accept passes at the {config.acceptance_profile.value} profile "
            "(`config.acceptance_profile`), which no `putnam solve` records (it accepts at full: compiled and "
            "kernel-checked); the ledger was edited or written by something else. Start a new run with --run-dir "
            "(`putnam audit` checks this one's passes at the full profile)"
        )
    if config.allow_recursion != given_recursion:
        said = "lift" if config.allow_recursion else "keep"
        raise InputError(
            f"{run_dir}: the run's settings {said} the recursion rule (--allow-recursion), and this resume "
            f"{'does not' if config.allow_recursion else 'does'}; a resume accepts candidate recursion only when "
            "you ask for it, never because the ledger does (through it Coq 8.16's guard checker bugs prove False). "
            f"Resume {'with' if config.allow_recursion else 'without'} --allow-recursion, or start a new run with "
            "--run-dir"
        )


MODEL_FIELDS = (("--model", "config.model", "worker"), ("--reviewer-model", "config.reviewer_model", "reviewer"))
"""The flags that name a run's models, the stored field each says again, and the model's role."""


def _check_models(stored: RunSettings, given: Mapping[str, str]) -> None:
    """A resume's ``--model`` or ``--reviewer-model`` must be the run's own (a resume never changes what the
    run is); a stored name whose provider loads the model on this machine is used only when the resume's
    command line says it again, and never from a folder inside the run directory."""
    config = stored.config
    names = {"--model": config.model, "--reviewer-model": config.reviewer_model}
    ledger = stored.run_dir / LEDGER_NAME
    said = set(given.values())  # a reviewer of the worker's model is said with --model too
    for flag, field, role in MODEL_FIELDS:
        name = names[flag]
        if flag in given and given[flag] != (name or NO_MODEL):
            raise _not_the_runs_own(flag, given[flag], name or NO_MODEL, f"{role} model", field, ledger)
        if name is None or not loads_here(name):
            continue
        path = local_model_path(name)
        if path is not None and _inside(Path(path), stored.run_dir):
            raise InputError(
                f"{ledger}: the run's {role} model {shown_path(name)} (`{field}`) names {shown_path(path)}, which "
                f"lies inside the run directory: Inspect's {name.split('/')[0]} provider would load the code and "
                "weights the directory ships. Resume from a working directory outside the run directory"
            )
        if name not in said:
            source = (
                f"from {shown_path(path)} in this directory ({shown_path(os.getcwd())})"
                if path is not None
                else "from the Hugging Face hub (downloaded, unless a folder of that name appears here)"
            )
            raise InputError(
                f"{ledger}: the run's {role} model {shown_path(name)} (`{field}`) is one Inspect's "
                f"{name.split('/')[0]} provider loads on this machine, code and weights, {source}; a resume "
                "loads or downloads a model only when you name it (a run directory can come from anyone). "
                f"Resume with {flag} {shown_path(name)} if you want that model, or start a new run with --run-dir"
            )


def _not_the_runs_own(flag: str, given: str, own: str, what: str, field: str, ledger: Path) -> InputError:
    """A resume's ``flag`` that names other than the run's own: a resume never changes what the run is."""
    return InputError(
        f"{flag} {shown_path(given)}: the run's {what} is {shown_path(own)} (`{field}` of {ledger}); a resume "
        f"takes {flag} only to say the run's own again. Resume with {flag} {shown_path(own)} or without it, or "
        "start a new run with --run-dir"
    )


def _check_working_directory(stored: RunSettings) -> None:
    """No resume from a working directory inside the run directory, whose files its author chose, judged by
    place alone (a file made after the check changes nothing): Inspect reads the working directory's (and
    its parents') ``.env`` into the environment as an evaluation starts, so one there set the model server
    (``OPENAI_BASE_URL``: the resuming user's API key and every model call of the run to the author's
    server, which answers as the model and so makes the run's solved count its own) or ``PYTHONPATH``
    (trust paths red team 18); and its ``docker`` sandbox builds from a ``compose.yaml`` or ``Dockerfile``
    there."""
    if _inside(Path.cwd(), stored.run_dir):
        raise InputError(
            f"{stored.run_dir / LEDGER_NAME}: the working directory ({shown_path(os.getcwd())}) lies inside the "
            "run directory, whose files Inspect would take as this machine's: a `.env` there (API keys, the "
            "model server your key and the run's model calls go to) and, for a `docker` sandbox, its compose.yaml "
            "or Dockerfile; the directory's author would choose them. Resume from a working directory outside "
            "the run directory"
        )


def _check_sandbox(stored: RunSettings, given: str | None) -> None:
    """A resume's ``--sandbox`` must be the run's own; a stored sandbox that runs a container (``docker``)
    is used only when the resume says it again (never from inside the run directory:
    ``_check_working_directory``)."""
    sandbox, run_dir = stored.config.sandbox, stored.run_dir
    ledger = run_dir / LEDGER_NAME
    if given is not None and given != sandbox:
        raise _not_the_runs_own("--sandbox", given, sandbox, "sandbox", "config.sandbox", ledger)
    if sandbox == "local":
        return
    if given is None:
        raise InputError(
            f"{ledger}: the run's sandbox is {sandbox} (`config.sandbox`): Inspect builds or pulls and runs a "
            f"container for it (from a compose.yaml or Dockerfile in {shown_path(os.getcwd())}, else its default "
            "image); a resume runs a container only when you name the sandbox (a run directory can come from "
            f"anyone). Resume with --sandbox {sandbox} if you want that, or start a new run with --run-dir"
        )
