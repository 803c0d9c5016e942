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

from putnam_solver.core.util import InputError
from putnam_solver.terminal import shown_path

MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9_.:@+=~,-]+)+")
"""``provider/model``, a part per slash (``openai-api/vllm/qwen3`` has a service between them): ASCII
letters, digits and the punctuation of real names (``ollama/llama3.1:8b``, ``vertex/claude@20241022``,
``bedrock/us.anthropic.claude-v2:0``); no blank, control character, markup or quote."""
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
"""Inspect providers (0.3.285) that read the model from the name's path when one is there: ``hf`` and
``nnterp`` hand the name to ``from_pretrained``, which loads a folder of that name (relative to the working
directory) before the Hugging Face hub; ``vllm`` and ``sglang`` start a server with it as the model path, and
``vllm`` also loads the LoRA adapter named after its first ``:`` from a path that exists. Others send the
name to a server as text (``llama-cpp-python``, ``ollama``, ``openai-api``: the server chooses) or take the
model object from ``model_args`` (``transformer_lens``), which a resume refuses (``resume_checks``)."""


def local_model_path(name: str) -> str | None:
    """The path in the working directory from which ``name``'s provider would load code or weights
    (``LOCAL_PROVIDERS``), or None: another provider, or no such path here."""
    provider, _, model = name.partition("/")
    if provider not in LOCAL_PROVIDERS or not model:
        return None
    paths = [model]
    if provider.startswith("vllm") and ":" in model:  # base:adapter, split at the first colon (parse_vllm_model)
        paths += model.split(":", 1)
    return next((path for path in paths if os.path.lexists(path)), None)
