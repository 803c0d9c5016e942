"""The contract between the campaign layer and the agent layer.

The campaign decides *which* problems run and records everything in the ledger; the agent layer runs one
Inspect evaluation over those problems (a ``CampaignJob``) and reports each finished attempt through
``on_attempt`` as soon as its verdict is known (so that a ``kill -9`` loses at most the attempts still
running). While attempts run, the agent layer feeds every model call's spend and the provider's rate
limiting into the job's ``LiveRun`` (``live_run.py``), which holds the run-wide budget: once it is spent,
the agent layer stops the attempts in flight (they are recorded with what they spent) and starts no more
(they stay unattempted).
An interruption (Ctrl-C) stops the run the same way, except that the attempts in flight are reported as
``interrupted``: they have no outcome and run again on ``--resume``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions
from putnam_solver.run.agent.budget_numbers import check_budgets, check_prices
from putnam_solver.run.agent.live_run import LiveRun
from putnam_solver.run.agent.model_names import check_model_name, check_reasoning_effort
from putnam_solver.run.ledger_rows import MAX_SAMPLES
from putnam_solver.run.ledger_sketches import SketchCallback
from putnam_solver.verifier.dispatch import LOCAL, Verifier
from putnam_solver.verifier.options import GateFlags

Agent = Literal["react", "codex", "claude-code"]
"""The agents ``putnam solve --agent`` can run: our react loop, or a CLI agent in the sandbox."""
AGENTS: tuple[str, ...] = get_args(Agent)
Sandbox = Literal["local", "docker"]
SANDBOXES: tuple[str, ...] = get_args(Sandbox)


@dataclass(frozen=True)
class Budgets:
    """Limits of one attempt (turns, time) and of one problem over the whole run (tokens, dollars);
    None = unlimited. The run-wide limits are ``RunLimits``. A lemma sub-attempt (``prove_lemma``) has its
    own turns and tokens (``lemma_turns``, ``lemma_token_limit``), spent within its attempt's.
    ``history_tokens``: the most tokens of history a model call of the react worker is sent; a longer
    history is compacted first (``history.py``), keeping the prompt, the plan and the latest errors,
    goals and file (None: never compacted)."""

    max_turns: int = 50
    worker_timeout_seconds: float | None = None
    reviewer_timeout_seconds: float | None = None
    token_limit: int | None = None
    cost_limit_dollars: float | None = None
    lemma_turns: int = 12
    lemma_token_limit: int | None = None
    history_tokens: int | None = 64_000

    def __post_init__(self) -> None:
        check_budgets(self)  # finite and in range, from flags or a ledger alike (``budget_numbers``)


AGENT_PARTS = ("warm", "goals", "lemmas", "plan", "sketch", "compact", "retrieval")
"""The parts of the react worker's workflow ``putnam solve --without PART,...`` can turn off."""


@dataclass(frozen=True)
class AgentParts:
    """Which parts of the react worker's workflow are on (all by default).

    ``warm``: ``check`` compiles in warm sessions (else the cold gates). ``goals``: the ``goals`` tool.
    ``lemmas``: drafts with holes, ``prove_lemma`` sub-attempts and the lemma cache. ``plan``: the prompts
    ask for an informal proof plan first. ``sketch``: the informal statement as text, and the ``sketch``
    stage (an informal proof, then a skeleton whose holes become concurrent lemma sub-attempts; it needs
    ``lemmas``), kept in the ledger for later campaigns. ``compact``: long histories are compacted under
    ``Budgets.history_tokens``. ``retrieval``: the prover's own library search (``library_search``) and the
    ranked search over declarations (``find_declarations``). None of them takes part in acceptance."""

    warm: bool = True
    goals: bool = True
    lemmas: bool = True
    plan: bool = True
    sketch: bool = True
    compact: bool = True
    retrieval: bool = True

    @classmethod
    def without(cls, names: Sequence[str]) -> AgentParts:
        """All parts but ``names`` (the user's input error for a name that is not a part)."""
        unknown = [n for n in names if n not in AGENT_PARTS]
        if unknown:
            raise InputError(f"--without {','.join(unknown)}: choose among {', '.join(AGENT_PARTS)}")
        return cls(**{name: name not in names for name in AGENT_PARTS})

    def off(self) -> list[str]:
        return [name for name in AGENT_PARTS if not getattr(self, name)]


REVIEWER_MODES = ("off", "advise", "veto")
"""``--reviewer``: no reviewer; its opinion recorded beside the verdict; its VETO un-counts a proof."""


def recorded_opinion(record: str | None) -> str | None:
    """The opinion a ledger's ``reviewer_feedback`` starts with (None: no review, or an older run's text)."""
    head = (record or "").split(":", 1)[0]
    return head if head in ("approve", "veto", "none") else None


@dataclass(frozen=True)
class SolveConfig:
    """Everything ``putnam solve`` was asked to do, as the agent layer needs it."""

    prover: str
    track: Track
    model: str
    reviewer_model: str | None  # None = no reviewer (``--reviewer off``)
    reasoning_effort: str | None
    agent: str  # one of AGENTS
    sandbox: str  # one of SANDBOXES
    jobs: int
    fallback_jobs: int
    budgets: Budgets
    acceptance_profile: Profile = Profile.FULL
    axle: bool = False
    tools: dict[str, Path] = field(default_factory=dict)  # --tool NAME=PATH: executables the gates run
    unsafe_no_sandbox: bool = False
    allow_recursion: bool = False  # Rocq: accept candidate recursion on a Coq with guard checker bugs
    kernels: tuple[str, ...] = ("lean",)  # Lean G6: the kernels comparator must have accept the proof
    prices: dict[str, dict[str, float]] = field(default_factory=dict)  # model -> {"input": $/Mtok, "output": ...}
    model_base_url: str | None = None
    model_args: dict[str, Any] = field(default_factory=dict)
    toolchain: str | None = None  # the toolchain release to judge with (Lean: the benchmark's, or --toolchain)
    parts: AgentParts = field(default_factory=AgentParts)
    reviewer_veto: bool = False  # --reviewer veto: a VETO un-counts a gate-accepted proof (else it advises)
    samples: int = 1  # --samples: independent attempts per problem in each campaign, run concurrently

    def __post_init__(self) -> None:
        """Refuse a config no layer could run, once, in the flags' words (``replace`` checks again)."""
        check_model_name("--model", self.model, none=True)  # a ledger's names too (``model_names``)
        check_model_name("--reviewer-model", self.reviewer_model)
        check_reasoning_effort(self.reasoning_effort)
        if self.agent not in AGENTS:
            raise InputError(f"--agent {self.agent!r}: choose one of {', '.join(AGENTS)}")
        if self.sandbox not in SANDBOXES:
            raise InputError(f"--sandbox {self.sandbox!r}: choose one of {', '.join(SANDBOXES)}")
        if min(self.jobs, self.fallback_jobs) < 1:
            raise InputError(f"--jobs {self.jobs} and --fallback-jobs {self.fallback_jobs} must be at least 1")
        if self.fallback_jobs > self.jobs:
            raise InputError(f"--fallback-jobs {self.fallback_jobs} exceeds --jobs {self.jobs}")
        if not 1 <= self.samples <= MAX_SAMPLES:
            raise InputError(f"--samples {self.samples}: give 1 to {MAX_SAMPLES} samples per problem")
        check_prices(self.prices)

    def verify_options(self, check: bool = False) -> VerifyOptions:
        """The gate settings of this run, derived here only, so that what ``solve`` checks before the
        first model call (the gates can run, the selftest passed) is what judges every attempt.

        ``check=False``: the acceptance (the run's profile, AXLE if asked). ``check=True``: the agent's
        ``check`` tool, profile ``fast`` under the acceptance profile's rules and never AXLE."""
        return GateFlags(
            profile=Profile.FAST if check else self.acceptance_profile,
            acceptance=self.acceptance_profile if check else None,
            axle=self.axle and not check,
            tools=self.tools,
            unsafe_no_sandbox=self.unsafe_no_sandbox,
            allow_recursion=self.allow_recursion,
            kernels=self.kernels,
            toolchain=self.toolchain,
        ).options()


@dataclass(frozen=True)
class CarryForward:
    """The best earlier candidate of a problem and why it failed, shown to the next campaign's worker."""

    candidate: str
    diagnostics: str


@dataclass(frozen=True)
class Sketch:
    """An attempt's informal proof and formal skeleton (lemma statements with holes), offered to the
    later campaigns of its problem."""

    informal_proof: str
    skeleton: str
    campaign: int


@dataclass
class AttemptResult:
    """One finished attempt of one problem in one campaign."""

    problem: str
    status: str  # "passed" | "rejected" | "disputed" | "no_submission" | "vetoed" | "budget" | "error" | "interrupted"
    turns: int
    input_tokens: int
    output_tokens: int
    cost_dollars: float
    candidate: str | None
    verdict: Verdict | None
    reviewer_feedback: str | None = None
    error: str | None = None
    transcript: Path | None = None
    turn_log: list[dict[str, Any]] = field(default_factory=list)  # per turn: tool, args digest, result summary
    key: str | None = None  # this run of the attempt (its sub-attempts name it as their parent)
    plan: str | None = None  # the informal proof plan the worker wrote first
    sample: int = 1  # which of the campaign's independent samples of the problem (``--samples``)


AttemptCallback = Callable[[AttemptResult], None]


@dataclass
class SubAttemptResult:
    """One finished lemma sub-attempt (``prove_lemma``): the lemma's statement file, the file its worker
    submitted last and the verdict of the acceptance gates on it; ``lemma_text`` is what of a proved
    lemma file goes into the main file. ``status`` is an attempt's, or ``cached`` (a lemma proved before,
    taken from the ledger without a model call)."""

    problem: str
    parent: str
    lemma: str
    status: str
    turns: int
    input_tokens: int
    output_tokens: int
    cost_dollars: float
    statement: str
    candidate: str | None = None
    verdict: Verdict | None = None
    lemma_text: str | None = None
    error: str | None = None
    turn_log: list[dict[str, Any]] = field(default_factory=list)


SubAttemptCallback = Callable[[SubAttemptResult], None]
SpendCallback = Callable[[str, int, int, tuple[int, int], float], None]
"""(problem, sample, turns, (input, output tokens), dollars): what an attempt in flight has spent so far."""


@dataclass(frozen=True)
class ProvedLemma:
    """A lemma of a problem the gates accepted on its own statement file, offered to later attempts."""

    name: str
    statement: str
    statement_sha256: str
    text: str
    campaign: int


@dataclass(frozen=True)
class Allowance:
    """What one problem's attempt may spend: its per-problem budget less what its earlier attempts spent
    (None = unlimited)."""

    tokens: int | None = None
    cost_dollars: float | None = None

    def spent(self) -> bool:
        """Nothing is left: the problem must not be attempted again."""
        return (self.tokens is not None and self.tokens <= 0) or (
            self.cost_dollars is not None and self.cost_dollars <= 0
        )


def slot_label(problem: str, sample: int) -> str:
    """How one sample of a problem is named where one name must do (an Inspect sample id, the live view):
    the problem id for sample 1, as before ``--samples``, ``<problem>#<sample>`` for the others."""
    return problem if sample == 1 else f"{problem}#{sample}"


@dataclass(frozen=True)
class CampaignJob:
    """One campaign as the agent layer runs it.

    ``carried`` holds each problem's best earlier candidate (empty with ``--fresh``); ``allowances`` what
    each of a problem's samples may still spend (a problem not in it gets its full per-problem budget);
    ``lemmas`` the lemmas each problem's earlier sub-attempts proved and ``sketches`` its latest earlier
    sketch (both empty with ``--fresh``). ``on_subattempt`` hears of
    every finished lemma sub-attempt at once, before its attempt ends; ``on_sketch`` of every ``sketch``
    call when it is made and as it goes on (it stores it at once: a sketch outlives its attempt);
    ``on_spend`` of what an attempt has spent after each of its model calls (stored at once likewise).
    """

    problems: Sequence[Problem]
    benchmark: Benchmark
    config: SolveConfig
    number: int
    work_dir: Path
    log_dir: Path
    on_attempt: AttemptCallback
    live: LiveRun
    carried: Mapping[str, CarryForward] = field(default_factory=dict)
    allowances: Mapping[str, Allowance] = field(default_factory=dict)
    lemmas: Mapping[str, Sequence[ProvedLemma]] = field(default_factory=dict)
    sketches: Mapping[str, Sketch] = field(default_factory=dict)
    on_subattempt: SubAttemptCallback | None = None
    on_sketch: SketchCallback | None = None
    on_spend: SpendCallback | None = None
    verifier: Verifier = LOCAL
    """Where the gates of ``check`` and ``submit`` run (``verifier.dispatch``)."""
    samples: Mapping[str, Sequence[int]] = field(default_factory=dict)
    """Which samples of each problem to run (``--samples``; on resume only those without an outcome); a
    problem not in it runs samples 1 to ``config.samples``."""
    toolchain: str | None = None
    """The fingerprint of the toolchain the run started on after its selftest (``toolchain_guard``)."""
    model_sources: Mapping[str, str] = field(default_factory=dict)
    """What each model loaded on this machine was found to be when the run was checked
    (``model_names.model_sources``); the campaign loads it only while it still is."""

    def slots(self) -> list[tuple[Problem, int]]:
        """Every (problem, sample) this campaign runs, problem by problem."""
        every = tuple(range(1, self.config.samples + 1))
        return [(p, s) for p in self.problems for s in self.samples.get(p.id, every)]
