"""The names of the models a run calls (``provider/model`` as Inspect AI names them, and nothing else) and the
reasoning effort it asks them for.

A name reaches a run from two doors: ``putnam solve --model`` / ``--reviewer-model``, and the settings a
ledger stores, which ``--resume``, ``report``, ``audit`` and ``export`` read back. Before, only the flags
were checked, and with a pattern that took any character but a slash or a blank in a name's parts. A ledger
handed over could so carry a model name with control characters, markup or a path into every output (the
terminal's lines, SUMMARY.md, the report) and into the Inspect call a resume makes: ``hf/../../models/x``
or ``vllm/../x`` have Inspect's local providers load a model from a path the directory's author chose
(red team round 11 of the trust paths). ``SolveConfig`` checks its names and reasoning effort as it is made,
so both doors refuse the same values with the same words.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Mapping

from putnam_solver.core.util import InputError
from putnam_solver.terminal import shown_path

MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9_.:@+=~,-]+)+")
"""``provider/model``, a part per slash (``openai-api/vllm/qwen3`` has a service between them): ASCII
letters, digits and the punctuation of real names (``ollama/llama3.1:8b``, ``vertex/claude@20241022``,
``bedrock/us.anthropic.claude-v2:0``); no blank, control character, markup or quote."""
MOCK_PROVIDER = "mockllm"
"""Inspect's offline mock model, which calls nothing (``run.agent.mock_model``)."""
NO_MODEL = "none"
"""The model of a ``putnam solve --list-only`` without ``--model`` (nothing is called), and the
``--reviewer-model`` that turns the reviewer off."""


REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
"""The reasoning efforts Inspect's ``GenerateConfig`` takes (``--reasoning-effort``)."""


def check_reasoning_effort(effort: str | None) -> None:
    """InputError unless ``effort`` is None or one of ``REASONING_EFFORTS``: Inspect refuses any other as the
    campaign starts (a ledger's ``reasoning_effort`` was not checked: a resume ran the model and selftest
    checks, then ended in a ValidationError of Inspect's)."""
    if effort is not None and effort not in REASONING_EFFORTS:
        raise InputError(
            f"--reasoning-effort {shown_path(repr(effort))}: choose auto or one of {', '.join(REASONING_EFFORTS)}"
        )


def model_name_problem(name: str) -> str | None:
    """Why ``name`` is not a model name (None: it is one). A part made of dots only (``..``) is a path."""
    if not isinstance(name, str) or not MODEL_NAME.fullmatch(name):
        return "name a model as provider/model"
    if any(part.strip(".") == "" for part in name.split("/")):
        return "a part of the name is a path (`.` or `..`), not a model"
    return None


def check_model_name(flag: str, name: str | None, none: bool = False) -> None:
    """InputError naming ``flag`` when ``name`` (None: no model; ``NO_MODEL`` too when ``none``) is not a model
    name (``model_name_problem``)."""
    if name is None or (none and name == NO_MODEL):
        return
    if (problem := model_name_problem(name)) is not None:
        raise InputError(
            f"{flag} {shown_path(repr(name))}: {problem}, e.g. openai/gpt-5.5, anthropic/claude-sonnet-4-5 or "
            "openai-api/SERVICE/MODEL for an OpenAI-compatible server"
        )


LOCAL_PROVIDERS = ("hf", "vllm", "vllm-completions", "sglang", "nnterp")
"""Inspect providers (0.3.285) that load the model's code and weights on this machine: ``hf`` and ``nnterp``
hand the name to ``from_pretrained``, which loads a folder of that name (relative to the working directory)
and else downloads it from the Hugging Face hub; ``vllm`` and ``sglang`` start a server with it as the model
path (a folder, else the hub), and ``vllm`` also loads the LoRA adapter named after its first ``:`` from a
path that exists. Others send the name to a server as text (``llama-cpp-python``, ``ollama``,
``openai-api``: the server chooses) or take the model object from ``model_args`` (``transformer_lens``),
which a resume refuses (``resume_checks``)."""


def loads_here(name: str) -> bool:
    """Whether ``name``'s provider loads (or downloads) the model's code and weights on this machine."""
    provider, _, model = name.partition("/")
    return provider in LOCAL_PROVIDERS and bool(model)


def _model_paths(name: str) -> list[str]:
    """The paths ``name``'s provider reads when they exist (``LOCAL_PROVIDERS``), in the order it tries them."""
    if not loads_here(name):
        return []
    provider, _, model = name.partition("/")
    paths = [model]
    if provider.startswith("vllm") and ":" in model:  # base:adapter, split at the first colon (parse_vllm_model)
        paths += model.split(":", 1)
    return paths


def local_model_path(name: str) -> str | None:
    """The path in the working directory from which ``name``'s provider would load code or weights
    (``LOCAL_PROVIDERS``), or None: another provider, or no such path here."""
    return next((path for path in _model_paths(name) if os.path.lexists(path)), None)


MAX_LISTED = 4096
"""The most entries of a model folder a source names (a model folder holds tens); more are counted."""


def model_source(name: str) -> str:
    """What ``name``'s provider would load here, as text to compare with a later look (empty for a provider
    that loads nothing here): each path it reads, absent (then the hub) or the file or folder there now, by
    device, inode, size and times, with each entry of a folder likewise. A folder that appears, goes, is
    replaced or has a file replaced between a run's check and a load changes it."""
    return "; ".join(f"{path}: {_identity(path)}" for path in _model_paths(name))


def _identity(path: str) -> str:
    try:
        info = os.stat(path)
    except OSError:
        return "absent" if not os.path.lexists(path) else "unreadable"
    own = f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}"
    if not stat.S_ISDIR(info.st_mode):
        return own
    try:
        with os.scandir(path) as entries:
            listed = sorted(entries, key=lambda e: e.name)
    except OSError:
        return f"{own} unlisted"
    shown = [f"{e.name}={_entry(e)}" for e in listed[:MAX_LISTED]]
    return f"{own} [{', '.join(shown)}] of {len(listed)}"


def _entry(entry: os.DirEntry[str]) -> str:
    try:
        info = entry.stat(follow_symlinks=True)
    except OSError:
        return "unreadable"
    return f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}"


def model_sources(names: Iterable[str | None]) -> dict[str, str]:
    """``model_source`` of each of ``names`` whose provider loads it here: what a run checks its loads by."""
    return {name: model_source(name) for name in names if name is not None and loads_here(name)}


def require_same_sources(checked: Mapping[str, str], names: Iterable[str | None]) -> None:
    """ValueError, before a load, when what a model of ``names`` would load here is not what it was when the
    run was checked (``checked``, ``model_sources`` then): the check said yes to those files, a folder
    swapped in the seconds or hours until Inspect loads the model (code and weights) is not what it judged."""
    for name, now in model_sources(names).items():
        if checked.get(name) != now:
            paths = " or ".join(_model_paths(name))
            raise ValueError(
                f"the model {name}: what Inspect's {name.split('/')[0]} provider would load from {paths} (in "
                f"{os.getcwd()}) changed after the run checked it (a folder appeared, went, or had a file "
                "replaced); nothing was loaded from it. Check that folder, then start again (`putnam solve "
                "--resume RUN_DIR` goes on from here)"
            )


def is_mock_model(model: str) -> bool:
    """Whether ``model`` is the offline mock model (``mockllm/...``)."""
    return model.split("/")[0] == MOCK_PROVIDER
