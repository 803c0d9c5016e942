"""Honest spellings of PutnamBench's official answers, made by text rewriting (red team honest 27).

Each rewrite keeps the answer's meaning: a set literal as a set-builder of disjunctions, an interval as a
set-builder of bounds, a ``fun`` with renamed or typed binders, operands reordered, relations flipped, the
answer beside one operand of the question's chain, or beside a premise of the solution's use. They are what
a prover could write for the answer; none restates the question, so the copy rule must refuse none of them
(besides the classes ``test_lean_honest27`` lists as refused by design).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_extremal import handwritten_sides
from putnam_solver.core.provers.lean.syntax import lex_code

OPEN, CLOSE = "([{⟨", ")]}⟩"
_FLIP = {"≤": "≥", "<": ">", "≥": "≤", ">": "<"}


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets, each part stripped."""
    parts, depth, current, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        depth += (c in OPEN) - (c in CLOSE)
        if depth == 0 and text.startswith(sep, i):
            parts.append(current.strip())
            current, i = "", i + len(sep)
            continue
        current, i = current + c, i + 1
    return [*parts, current.strip()]


def _one_group(text: str) -> bool:
    depth = 0
    for i, c in enumerate(text):
        depth += (c in OPEN) - (c in CLOSE)
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def _unparen(text: str) -> str:
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and _one_group(text):
        text = text[1:-1].strip()
    return text


def _word(name: str) -> str:
    return r"(?<![\w'.])" + re.escape(name) + r"(?![\w'])"


def _renamed(text: str, old: str, new: str) -> str:
    return re.sub(_word(old), new, text)


def _fresh(text: str, base: str) -> str:
    return next(n for n in (base, f"{base}'", f"{base}₀", "zz") if not re.search(_word(n), text))


def official_answers(bench: Benchmark) -> Iterator[tuple[str, str, str, str]]:
    """``(problem, solution type, official answer, statement)`` of every no-answer problem."""
    pattern = re.compile(r"abbrev (\w+)_solution\s*:(.*?):=\s*sorry[ \t]*\n[ \t]*--([^\n]*)\n", re.S)
    for problem in bench.problems.values():
        found = pattern.search(problem.formal_statement)
        if found:
            yield problem.id, found.group(2).strip(), found.group(3).strip(), problem.formal_statement


def _set_builder(answer: str) -> tuple[str, str, str] | None:
    if not (answer.startswith("{") and answer.endswith("}") and _one_group(answer)):
        return None
    parts = split_top(answer[1:-1], "|")
    head = re.fullmatch(r"(\w[\w']*)\s*(?::\s*(.+))?", parts[0]) if len(parts) == 2 else None
    return (head.group(1), f" : {head.group(2)}" if head.group(2) else "", parts[1]) if head else None


def _literal(answer: str) -> list[str] | None:
    if not (answer.startswith("{") and answer.endswith("}") and _one_group(answer)):
        return None
    return None if len(split_top(answer[1:-1], "|")) > 1 else split_top(answer[1:-1], ",")


def _question(statement: str, solution: str) -> tuple[str, str] | None:
    """``(x, C)`` of a theorem concluding ``C ↔ x ∈ solution`` (either way round)."""
    text = statement[statement.index("theorem ") :]
    text = text[: text.rindex(":=")]
    depth, colon = 0, None
    for i, c in enumerate(text):
        depth += (c in OPEN) - (c in CLOSE)
        if c == ":" and depth == 0 and text[i + 1 : i + 2] != "=":
            colon = i
    sides = split_top(_unparen(text[colon + 1 :]), "↔") if colon is not None else []
    if len(sides) != 2:
        return None
    question, member = (_unparen(s) for s in (sides if solution in sides[1] else sides[::-1]))
    found = re.fullmatch(r"(\w[\w']*)\s*∈\s*" + solution, member)
    return (found.group(1), question) if found and solution not in question else None


def _set_spellings(typ: str, answer: str) -> dict[str, str]:
    out: dict[str, str] = {}
    elem = typ[4:] if typ.startswith("Set ") else None
    literal = _literal(answer)
    if literal and elem:
        v = _fresh(answer, "w")
        out["literal as disjunction"] = f"{{{v} | {' ∨ '.join(f'{v} = {e}' for e in literal)}}}"
        out["literal as typed disjunction"] = f"{{{v} : {elem} | {' ∨ '.join(f'{e} = {v}' for e in literal)}}}"
        out["literal reversed"] = "{" + ", ".join(reversed(literal)) + "}"
        out["literal through Finset"] = f"(({answer} : Finset {elem}) : Set {elem})"
        out["literal as a union"] = " ∪ ".join(f"{{{e}}}" for e in literal)
        if len(literal) > 1:
            out["literal by insert"] = "".join(f"insert ({e}) (" for e in literal[:-1]) + f"{{{literal[-1]}}}"
            out["literal by insert"] += ")" * (len(literal) - 1)
    if literal and typ.startswith("Finset "):
        out["finset literal ascribed"] = f"({answer} : {typ})"
    if elem:
        v = _fresh(answer, "x")
        out["membership in the answer"] = f"{{{v} | {v} ∈ ({answer} : {typ})}}"
    interval = re.fullmatch(r"(?:Set\.)?I(c|o)(c|o)\s+(\S+|\([^()]*\))\s+(\S+|\([^()]*\))", answer)
    if interval and elem:
        v = _fresh(answer, "x")
        low = f"{interval.group(3)} {'≤' if interval.group(1) == 'c' else '<'} {v}"
        high = f"{v} {'≤' if interval.group(2) == 'c' else '<'} {interval.group(4)}"
        out["interval as a set-builder"] = f"{{{v} : {elem} | {low} ∧ {high}}}"
        out["interval as a set-builder, ≥"] = f"{{{v} | {_flipped(high)} ∧ {_flipped(low)}}}"
    builder = _set_builder(answer)
    if builder:
        v, typed, body = builder
        conjuncts, disjuncts = split_top(body, "∧"), split_top(body, "∨")
        if len(conjuncts) > 1:
            out["conjuncts reordered"] = f"{{{v}{typed} | {' ∧ '.join(reversed(conjuncts))}}}"
        if len(disjuncts) > 1:
            out["disjuncts reordered"] = f"{{{v}{typed} | {' ∨ '.join(reversed(disjuncts))}}}"
            out["disjunction by De Morgan"] = f"{{{v}{typed} | ¬({' ∧ '.join(f'¬({d})' for d in disjuncts)})}}"
        u = _fresh(answer, "u")
        out["set-builder renamed"] = f"{{{u}{typed} | {_renamed(body, v, u)}}}"
        out["set-builder as setOf"] = f"setOf (fun {v}{typed} => {body})"
        flipped = [_flipped(c) for c in conjuncts]
        if flipped != conjuncts:
            out["relations flipped"] = f"{{{v}{typed} | {' ∧ '.join(flipped)}}}"
    return out


def _flipped(relation: str) -> str:
    found = re.fullmatch(r"([^≤<≥>]+?)\s*(≤|<|≥|>)\s*([^≤<≥>]+)", relation.strip())
    return f"{found.group(3)} {_FLIP[found.group(2)]} {found.group(1)}" if found else relation


def _function_spellings(typ: str, answer: str) -> dict[str, str]:
    out: dict[str, str] = {}
    found = re.fullmatch(r"\(?fun\s+(.+?)\s*(?:=>|↦)\s*(.*?)\)?", answer, re.S)
    if not found or not _one_group(f"({found.group(2)})"):
        return out
    head, body = found.groups()
    out["λ for fun"] = f"λ {head} => {body}"
    out["fun ascribed"] = f"(fun {head} => {body} : {typ})"
    out["fun ascribed around"] = f"((fun {head} => {body}) : {typ})"
    if re.fullmatch(r"[\w' ]+", head):
        names, new = head.split(), []
        for name in names:
            new.append("_" if name == "_" else _fresh(answer + " ".join(new), name + "₁"))
            body = body if name == "_" else _renamed(body, name, new[-1])
        out["fun renamed"] = f"fun {' '.join(new)} => {body}"
        domains = split_top(typ, "→")
        if len(domains) > len(names):
            out["fun typed"] = (
                "fun " + " ".join(f"({n} : {d})" for n, d in zip(new, domains, strict=False)) + f" ↦ {body}"
            )
    return out


def _question_spellings(pid: str, typ: str, answer: str, statement: str) -> dict[str, str]:
    """The answer beside one operand of the question's chain of ``∧`` (all operands but the question's own:
    a value holding an operand that asks alone is refused by design, see ``test_lean_honest27``), and beside
    a premise of the solution's use."""
    out: dict[str, str] = {}
    solution = f"{pid}_solution"
    question = _question(statement, solution)
    if question and typ.startswith("Set "):
        v, condition = question
        operands = split_top(condition, "∧")
        for i, operand in enumerate(operands if len(operands) > 1 else []):
            out[f"question operand {i} beside the answer"] = f"{{{v} | {operand} ∧ {v} ∈ ({answer} : {typ})}}"
            out[f"question operand {i} ∩ the answer"] = f"{{{v} | {operand}}} ∩ ({answer} : {typ})"
    theorem = [t.text for t in lex_code(statement[statement.index("theorem ") :])]
    for i, text in enumerate(theorem):
        for label, side in handwritten_sides(theorem, i, i + 1) if text == solution else []:
            if not label.startswith("∀ _, _ → _"):
                continue
            if side[0] == "{" and side[2] == "|" and typ.startswith("Set ") and f"{side[1]} ∈ {solution}" in statement:
                out["a premise beside the answer"] = (
                    f"{{{side[1]} | {' '.join(side[3:-1])} ∧ {side[1]} ∈ ({answer} : {typ})}}"
                )
            arrow = side.index("=>") if side[0] == "fun" else 0
            names, condition = " ".join(side[1:arrow]), " ".join(side[arrow + 1 :])
            if arrow and typ.endswith("→ Prop") and f"{solution} {names}" in statement:
                out["a premise beside the answer"] = f"fun {names} => {condition} ∧ ({answer} : {typ}) {names}"
    return out


def spellings(bench: Benchmark) -> dict[tuple[str, str], str]:
    """``{(problem, rewrite): value}`` over every no-answer problem."""
    out: dict[tuple[str, str], str] = {}
    for pid, typ, answer, statement in official_answers(bench):
        made = {"official": answer, "ascribed": f"({answer} : {typ})"}
        if answer in ("True", "False"):
            made["negated constant"] = "¬False" if answer == "True" else "¬True"
        if "≠" in answer:
            made["≠ as ¬ ="] = re.sub(r"([\w.']+|\([^()]*\))\s*≠\s*([\w.']+|\([^()]*\))", r"¬(\1 = \2)", answer)
        made |= _set_spellings(typ, answer) | _function_spellings(typ, answer)
        made |= _question_spellings(pid, typ, answer, statement)
        out |= {(pid, name): value for name, value in made.items()}
    return out
