"""One format for every prover's submission policy: what ``putnam policy`` prints and agents are shown.

Each prover keeps its rules as data next to the gates that apply them (in the trusted package); its kit
fills a :class:`PolicyDocument` from them, and rendering lives here so that two provers can never print
their policies in two formats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

VERDICTS = ("harmless", "elaboration", "refused")
"""How G2 judges a kind of difference from the challenge, the same words for every prover."""


@dataclass(frozen=True)
class Difference:
    """A kind of difference from the challenge, its verdict (one of ``VERDICTS``) and why."""

    kind: str
    verdict: str
    reason: str


@dataclass(frozen=True)
class Forbidden:
    """A construct G3 refuses, the kind of rule it falls under, and why."""

    construct: str
    rule: str
    reason: str


@dataclass(frozen=True)
class Section:
    """A titled block of Markdown lines (paragraph text or ``- `` bullets)."""

    title: str
    lines: Sequence[str]


@dataclass(frozen=True)
class PolicyDocument:
    """A prover's policy, in the order every prover's is printed."""

    language: str
    intro: Sequence[str]
    semantic_check: str
    """The gate (and profile) that decides an ``elaboration`` difference, e.g. ``G6 (profile `full`)``."""
    differences: Sequence[Difference]
    permitted: Section
    forbidden_where: str
    forbidden: Sequence[Forbidden]
    sections: Sequence[Section] = ()
    """Prover-specific sections, after the permitted helpers."""
    notes: Sequence[Section] = ()
    """Sections after the forbidden table (conditions under which more is forbidden, say)."""

    def render(self) -> str:
        for d in self.differences:
            if d.verdict not in VERDICTS:
                raise ValueError(f"policy row {d.kind!r}: verdict {d.verdict!r} is not one of {VERDICTS}")
        lines = [
            f"# {self.language} submission policy",
            "",
            *self.intro,
            "",
            "## Differences from the challenge, by whether they can change the statement",
            "",
            "`harmless`: accepted on every profile. `elaboration`: accepted only when the same acceptance",
            f"runs {self.semantic_check}; other profiles refuse it and name the profile that would decide.",
            "`refused`: never accepted. The agent's `check` applies the rules of the profile that will judge",
            "its submission.",
            "",
            "| difference | verdict | reason |",
            "|---|---|---|",
            *(f"| {d.kind} | {d.verdict} | {d.reason} |" for d in self.differences),
            "",
            *_section(self.permitted),
            *(line for s in self.sections for line in _section(s)),
            f"## Forbidden {self.forbidden_where}",
            "",
            "| construct | rule | reason |",
            "|---|---|---|",
            *(f"| `{f.construct}` | {f.rule} | {f.reason} |" for f in self.forbidden),
            "",
            *(line for s in self.notes for line in _section(s)),
        ]
        return "\n".join(lines)


def _section(section: Section) -> list[str]:
    return [f"## {section.title}", "", *section.lines, ""]


__all__ = ["VERDICTS", "Difference", "Forbidden", "PolicyDocument", "Section"]
