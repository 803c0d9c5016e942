"""The mutation operators of the Rocq sweep (``tests/rocq_mutations.py``), one per attack class of DESIGN
section 7, plus the valid changes; and :func:`mutants`, every operator on every published proof."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tests.rocq_mutations import (
    OPERATORS,
    USE,
    Mutant,
    Published,
    Shape,
    command_points,
    declared,
    each,
    operator,
    published,
    shape,
    splice,
    with_proof,
)

HOLES = {
    "Admitted": "Admitted.",
    "admit Admitted": "admit.\nAdmitted.",
    "give_up Admitted": "give_up.\nAdmitted.",
    "admit Qed": "admit.\nQed.",
    "exact ltac admit": "exact ltac:(admit).\nAdmitted.",
    "Time Admitted": "Time Admitted.",
    "Fail Qed Admitted": "Fail Qed.\nAdmitted.",
    "Abort": "Abort.",
}


@operator
def proof_holes(p: Published, s: Shape) -> Iterator[Mutant]:
    """``Admitted``, ``admit``, ``give_up`` in the theorem's proof or in a helper's."""
    for spelling, script in HOLES.items():
        tactics, _, end = script.rpartition("\n")
        yield Mutant(p, "proof_holes", spelling, "theorem", True, with_proof(p, s, tactics, end))
        if s.helper_body is not None:
            start, stop = s.helper_body
            stop_end = p.text.index(".", stop) + 1
            text = f"{p.text[:start]}\n{tactics}\n{end}{p.text[stop_end:]}"
            yield Mutant(p, "proof_holes", spelling, "helper", True, text)


@operator
def abort_and_redeclare(p: Published, s: Shape) -> Iterator[Mutant]:
    """The theorem abandoned by ``Abort`` and its name declared again as an assumption."""
    statement = p.text[s.theorem : s.statement_end]
    body = statement.split(None, 1)[1]
    for keyword in ("Axiom", "Parameter", "Conjecture", "Hypothesis", "Local Axiom", "#[local] Axiom"):
        for ending in ("Abort.", "Abort All.", f"Abort {p.problem_id}."):
            text = f"{p.text[: s.proof_start]}\n{ending}\n{keyword} {body}{p.text[s.proof_end[1] :]}"
            yield Mutant(p, "abort_and_redeclare", f"{ending} {keyword}", "theorem", True, text)
        text = f"{p.text[: s.theorem]}{keyword} {body}{p.text[s.proof_end[1] :]}"
        yield Mutant(p, "abort_and_redeclare", f"{keyword} instead", "theorem", True, text)


AXIOMS = {
    k: (f"{k} zz_ax : False.", USE)
    for k in (
        "Axiom",
        "Parameter",
        "Hypothesis",
        "Conjecture",
        "Variable",
        "Local Axiom",
        "#[local] Axiom",
        "Local Parameter",
        "Polymorphic Axiom",
        "Monomorphic Axiom",
    )
} | {
    "Axioms": ("Axioms zz_ax zz_ay : False.", USE),
    "Parameters": ("Parameters (zz_ax : False) (zz_ay : True).", USE),
    "Hypotheses": ("Hypotheses zz_ax zz_ay : False.", USE),
    "Variables": ("Variables zz_ax zz_ay : False.", USE),
    "Context": ("Context (zz_ax : False).", USE),
    "Context backquote": ("Context `(zz_ax : False).", USE),
    "Axiom forall": ("Axiom zz_all : forall P : Prop, P.", "exact (zz_all _)."),
    "Declare Instance": ("Class zz_C := { zz_f : False }.\nDeclare Instance zz_i : zz_C.", "exfalso; exact zz_f."),
    "Primitive": ("Primitive zz_ax : False := #int63_type.", USE),
}


@operator
def assumptions(p: Published, s: Shape) -> Iterator[Mutant]:
    """``Axiom`` and its kin declared and used by the theorem's proof."""
    yield from each(p, s, "assumptions", AXIOMS)


SIGNATURE = "Module Type zz_T.\n  Axiom zz_ax : False.\nEnd zz_T."
MODULES = {
    "Declare Module": (f"{SIGNATURE}\nDeclare Module zz_X : zz_T.", "exfalso; exact zz_X.zz_ax."),
    "functor applied to a declared module": (
        f"{SIGNATURE}\nModule zz_F (X : zz_T).\n  Definition zz_b : False := X.zz_ax.\nEnd zz_F.\n"
        "Declare Module zz_X : zz_T.\nModule zz_Y := zz_F zz_X.",
        "exfalso; exact zz_Y.zz_b.",
    ),
    "opaque ascription of an admitted field": (
        f"{SIGNATURE}\nModule zz_X : zz_T.\n  Lemma zz_ax : False.\n  Proof. Admitted.\nEnd zz_X.",
        "exfalso; exact zz_X.zz_ax.",
    ),
    "Module Type included": (f"{SIGNATURE}\nModule zz_X.\n  Include zz_T.\nEnd zz_X.", "exfalso; exact zz_X.zz_ax."),
    "Module with Parameter": ("Module zz_X.\n  Parameter zz_ax : False.\nEnd zz_X.", "exfalso; exact zz_X.zz_ax."),
}


@operator
def module_assumptions(p: Published, s: Shape) -> Iterator[Mutant]:
    """Assumptions behind module signatures, functors and ``Declare Module``."""
    yield from each(p, s, "module_assumptions", MODULES)


ENCLOSING = {
    f"{kind} {decl.split()[0]}": (f"{kind} zz_S.\n{decl}", "End zz_S.")
    for kind in ("Section", "Module")
    for decl in (
        "Variable zz_ax : False.",
        "Hypothesis zz_ax : False.",
        "Context (zz_ax : False).",
        "Let zz_ax : False. Admitted.",
    )
} | {f"unclosed {kind}": (f"{kind} zz_S.\nVariable zz_ax : False.", "") for kind in ("Section", "Module")}


@operator
def enclosed_theorem(p: Published, s: Shape) -> Iterator[Mutant]:
    """The theorem inside a section or module whose own assumption its proof uses (closed or not)."""
    for spelling, (before, after) in ENCLOSING.items():
        text = with_proof(p, s, USE)
        end = text.index("Qed.", s.proof_start) + len("Qed.")
        text = f"{text[: s.theorem]}{before}\n{text[s.theorem : end]}\n{after}\n{text[end:]}"
        yield Mutant(p, "enclosed_theorem", spelling, "theorem", True, text)


PROGRAM = {
    "Admit Obligations": ("Program Definition zz_ax : False := _.\nAdmit Obligations.", USE),
    "Admit Obligations of": ("Program Definition zz_ax : False := _.\nAdmit Obligations of zz_ax.", USE),
    "Next Obligation Admitted": ("Program Definition zz_ax : False := _.\nNext Obligation. Admitted.", USE),
    "#[program] Admit Obligations": ("#[program] Definition zz_ax : False := _.\nAdmit Obligations.", USE),
    "Obligation Tactic admit": ("Obligation Tactic := admit.\nProgram Definition zz_ax : False := _.", USE),
    "Local Obligation Tactic give_up": (
        "Local Obligation Tactic := give_up.\nProgram Definition zz_ax : False := _.",
        USE,
    ),
    "Program Lemma Admit": ("Program Lemma zz_ax : False.\nAdmit Obligations.", USE),
}


@operator
def program_obligations(p: Published, s: Shape) -> Iterator[Mutant]:
    yield from each(p, s, "program_obligations", PROGRAM)


LOOP = "Fixpoint zz_f (n : nat) : False := zz_f n.\nDefinition zz_ax : False := zz_f 0."
BAD = (
    "Inductive zz_bad : Prop := zz_c : (zz_bad -> False) -> zz_bad.\n"
    "Definition zz_nb (b : zz_bad) : False := match b with zz_c f => f b end.\n"
    "Definition zz_ax : False := zz_nb (zz_c zz_nb)."
)
CHECKS = {
    f"{prefix}Unset {what} Checking": (f"{prefix}Unset {what} Checking.\n{body}", USE)
    for prefix in ("", "Local ", "#[local] ", "Global ", "Export ")
    for what, body in (("Guard", LOOP), ("Positivity", BAD), ("Universe", "Definition zz_ax : False. Admitted."))
} | {
    "#[bypass_check(guard)]": (f"#[bypass_check(guard)] {LOOP}", USE),
    "#[bypass_check(guard=yes)]": (f"#[bypass_check(guard=yes)] {LOOP}", USE),
    "#[ bypass_check ( guard , universes ) ]": (f"#[ bypass_check ( guard , universes ) ] {LOOP}", USE),
    "#[bypass_check(positivity)]": (f"#[bypass_check(positivity)] {BAD}", USE),
    "Unset then Set Guard Checking": (f"Unset Guard Checking.\n{LOOP}\nSet Guard Checking.", USE),
    "Set Guard Checking off via Unset Local": (f"Local Unset Guard Checking.\n{LOOP}", USE),
}


@operator
def kernel_checks(p: Published, s: Shape) -> Iterator[Mutant]:
    """Kernel checks switched off by options and attributes, and the term that needs it."""
    yield from each(p, s, "kernel_checks", CHECKS)


ISSUE = """Definition zz_not_zero n := match n with 0 => False | S _ => True end.
Definition zz_not_one n := match n with 0 => False | S n => zz_not_zero n end.
{head}
  refine
  match m with
  | 0 => fun h => h
  | S subn => fun h =>
    let f (b : bool) (e : b = true) (x : nat) (Hx : zz_not_one x) :=
      let arg := (match (if b then x else subn) with 0 => subn | S subsubn => subsubn end) in
      zz_issue arg _
    in
    f true eq_refl 5 I
  end.
  subst b.
  destruct x; cbn in Hx.
  - now exfalso.
  - assumption.
Defined.
Definition zz_ax : False := zz_issue 1 I."""
KERNEL_BUG = {
    "Fixpoint in proof mode": (
        ISSUE.format(head="Fixpoint zz_issue (m : nat) {struct m} : zz_not_zero m -> False."),
        USE,
    ),
    "fix tactic": (
        ISSUE.format(
            head="Lemma zz_issue : forall (m : nat), zz_not_zero m -> False.\n  fix zz_issue 1; intro m."
        ).replace("Defined.\nDefinition", "Defined.\nDefinition"),
        USE,
    ),
    "mutual Lemma with": (
        ISSUE.format(
            head="Lemma zz_issue (m : nat) : zz_not_zero m -> False\nwith zz_other (m : nat) : True.\nProof."
        ).replace("Defined.\n", "  exact I.\nDefined.\n", 1),
        USE,
    ),
}


@operator
def kernel_bug(p: Published, s: Shape) -> Iterator[Mutant]:
    """rocq#20455 (Coq 8.16's guard checker) proving ``False``, in several spellings."""
    yield from each(p, s, "kernel_bug", KERNEL_BUG)


PLUGINS = {
    "Declare ML Module": ('Declare ML Module "zz_plugin".', "idtac."),
    "Declare ML Module loaded": ('Declare ML Module "ltac_plugin".', "idtac."),
    "Local Declare ML Module": ('Local Declare ML Module "coq-core.plugins.ltac".', "idtac."),
    "Elpi add-axiom": (
        "From elpi Require Import elpi.\nElpi Command zz_c.\n"
        'Elpi Accumulate lp:{{ main _ :- coq.env.add-axiom "zz_ax" {{ False }} _. }}.\nElpi zz_c.',
        USE,
    ),
    "Elpi Query add-axiom": (
        'From elpi Require Import elpi.\nElpi Query lp:{{ coq.env.add-axiom "zz_ax" {{ False }} _ }}.',
        USE,
    ),
    "Ltac admit": ("Ltac zz_t := admit.", "zz_t.\nAdmitted."),
    "Local Ltac give_up": ("Local Ltac zz_t := give_up.", "zz_t.\nAdmitted."),
    "Tactic Notation admit": ('Tactic Notation "zz_t" := admit.', "zz_t.\nAdmitted."),
    "Ltac redefinition": ("Ltac exfalso ::= admit.", "exfalso.\nAdmitted."),
}


@operator
def plugins_and_tactics(p: Published, s: Shape) -> Iterator[Mutant]:
    """Plugin loads, Elpi programs declaring axioms, tactics that hide ``admit``."""
    yield from each(p, s, "plugins_and_tactics", PLUGINS)


PREFIXES = ("Time ", "Fail ", "Succeed ", "Timeout 10 ", 'Redirect "zz_out" ', "Time Timeout 10 ", "Fail Fail ")
WRAPPED = {
    "Axiom": ("Axiom zz_ax : False.", USE),
    "Unset Guard Checking": (f"Unset Guard Checking.\n{LOOP}", USE),
    "Declare ML Module": ('Declare ML Module "ltac_plugin".', "idtac."),
    "Admit Obligations": ("Program Definition zz_ax : False := _.\nAdmit Obligations.", USE),
}


@operator
def control_prefixes(p: Published, s: Shape) -> Iterator[Mutant]:
    """``Time``, ``Fail``, ``Succeed``, ``Timeout``, ``Redirect`` before forbidden commands."""
    for prefix in PREFIXES:
        for spelling, (decl, use) in WRAPPED.items():
            head, _, rest = decl.partition("\n")
            wrapped = f"{prefix}{head}" + (f"\n{rest}" if rest else "")
            yield from declared(p, s, "control_prefixes", f"{prefix.strip()} {spelling}", wrapped, use)
    for prefix in PREFIXES:
        text = with_proof(p, s, "admit.", f"{prefix}Admitted.")
        yield Mutant(p, "control_prefixes", f"{prefix.strip()} Admitted", "theorem", True, text)


def statement_words(p: Published, s: Shape) -> list[str]:
    """The identifiers the theorem's statement uses, in order, its own name and binders' keywords aside."""
    words = re.findall(r"[A-Za-z_][A-Za-z_0-9']*", p.text[s.theorem : s.statement_end])
    skip = {"Theorem", "Lemma", "forall", "exists", "fun", "in", "let", "match", "with", "end", p.problem_id}
    return list(dict.fromkeys(w for w in words if w not in skip and len(w) > 1))


@operator
def redefinitions(p: Published, s: Shape) -> Iterator[Mutant]:
    """Names of the statement given another meaning before the theorem: notations, modules, coercions..."""
    words = [w for w in statement_words(p, s) if not re.match(r"h|H|[a-z]$", w)][:3]
    for word in words:
        table = {
            "Notation": f"Notation {word} := True (only parsing).",
            "Local Notation": f"Local Notation {word} := True.",
            "Module Import Definition": f"Module Import zz_M.\n  Definition {word} := True.\nEnd zz_M.",
            "Module Import Notation": f"Module zz_M.\n  Notation {word} := True.\nEnd zz_M.\nImport zz_M.",
            "Definition": f"Definition {word} := True.",
            "Let": f"Let {word} := True.",
            "Arguments": f"Arguments {word} : clear implicits.",
            "Opaque": f"Opaque {word}.",
            "Strategy": f"Strategy opaque [{word}].",
            "Typeclasses Opaque": f"Typeclasses Opaque {word}.",
        }
        for spelling, decl in table.items():
            text = splice(with_proof(p, s, "exact I."), s.theorem, decl)
            yield Mutant(p, "redefinitions", f"{spelling} {word}", "before theorem", True, text)
    for spelling, decl in {
        "Infix": 'Infix "=" := (fun _ _ => True) : type_scope.',
        "Notation =": 'Notation "x = y" := (True) : type_scope.',
        "Coercion": "Coercion zz_c (b : bool) : Prop := True.",
        "Canonical": "Record zz_R := { zz_T : Type }.\nCanonical zz_cs := Build_zz_R nat.",
        "Instance": "#[export] Instance zz_i : Inhabited False := {}.",
        "Existing Instance": "Existing Instance zz_i.",
        "Reserved Notation": 'Reserved Notation "zz_x ~~ y" (at level 70).',
        "where notation": "Inductive zz_t := zz_k : zz_t where \"'zz_q'\" := (zz_t).",
    }.items():
        yield Mutant(p, "redefinitions", spelling, "before theorem", True, splice(p.text, s.theorem, decl))


LOOK_ALIKE = {"a": "\u0430", "e": "\u0435", "o": "\u043e"}
"""Cyrillic letters drawn as Latin ones."""


@operator
def statement_edits(p: Published, s: Shape) -> Iterator[Mutant]:
    """The theorem's statement changed: a hypothesis dropped or added, a numeral, relation or type changed,
    the theorem renamed, wrapped in a module or gone."""
    stmt = p.text[s.theorem : s.statement_end]

    def edited(spelling: str, new: str, tactics: str | None = None) -> Mutant:
        text = p.text[: s.theorem] + new + p.text[s.statement_end :]
        if tactics is not None:
            text = text.replace(p.text[s.proof_start : s.proof_end[1]], f"\n{tactics}\nQed.", 1)
        return Mutant(p, "statement_edits", spelling, "theorem", True, text)

    name_end = stmt.index(p.problem_id) + len(p.problem_id)
    yield edited("hypothesis False added", f"{stmt[:name_end]} (zz_h : False){stmt[name_end:]}", "case zz_h.")
    binder = re.search(r"\(\s*[A-Za-z_]\w*\s*:", stmt[name_end:])
    if binder:
        start = name_end + binder.start()
        depth, i = 0, start
        while True:
            depth += {"(": 1, ")": -1}.get(stmt[i], 0)
            i += 1
            if depth == 0:
                break
        yield edited("first binder dropped", stmt[:start] + stmt[i:])
    digit = re.search(r"(?<![\w.])(\d+)(?![\w.])", stmt[name_end:])
    if digit:
        at = name_end + digit.start()
        yield edited("numeral changed", f"{stmt[:at]}{int(digit.group(1)) + 1}{stmt[name_end + digit.end() :]}")
    for old, new in (("<=", "<"), (">=", ">"), (" < ", " <= "), (" > ", " >= "), (" = ", " <> "), ("/\\", "\\/")):
        if old in stmt[name_end:]:
            yield edited(f"{old.strip()} to {new.strip()}", stmt[:name_end] + stmt[name_end:].replace(old, new, 1))
    for old, new in (("nat", "Z"), ("Q", "R"), ("R", "Q"), ("int", "nat"), ("Z", "nat")):
        found = re.search(rf"\b{old}\b", stmt[name_end:])
        if found:
            at = name_end + found.start()
            yield edited(f"type {old} to {new}", stmt[:at] + new + stmt[at + len(old) :])
    yield edited("renamed", stmt.replace(p.problem_id, f"{p.problem_id}_zz", 1))
    yield edited(
        "look-alike name",
        stmt.replace(p.problem_id, re.sub("[aeo]", lambda c: LOOK_ALIKE[c.group()], p.problem_id, count=1), 1),
    )
    yield (
        edited("forall to exists", stmt.replace("forall", "exists", 1))
        if "forall" in stmt
        else edited("statement True", f"{stmt[:name_end]} : True.", "exact I.")
    )
    module = f"Module zz_M.\n{p.text[s.theorem : s.proof_end[1]]}\nEnd zz_M.\n"
    yield Mutant(
        p,
        "statement_edits",
        "inside a module",
        "theorem",
        True,
        splice(p.text, s.theorem, "").replace(p.text[s.theorem : s.proof_end[1]], module, 1),
    )
    yield Mutant(
        p, "statement_edits", "theorem removed", "theorem", True, p.text[: s.theorem] + p.text[s.proof_end[1] :]
    )


@operator
def answer_edits(p: Published, s: Shape) -> Iterator[Mutant]:
    """The official answer (with-answer track) changed: a numeral of it, or all of it replaced by a copy
    of the claim the proof can close; files without an answer get the same edits on their first
    definition, if any."""
    found = re.search(r"Definition (\w+_solution)\b[^.]*?:=(.*?)\.\s*\n", p.text[: s.theorem], re.S)
    if found is None:
        return
    body_at, body = found.start(2), found.group(2)
    digit = re.search(r"(?<![\w.])(\d+)(?![\w.])", body)
    if digit:
        at = body_at + digit.start()
        new = f"{p.text[:at]}{int(digit.group(1)) + 1}{p.text[body_at + digit.end() :]}"
        yield Mutant(p, "answer_edits", "numeral changed", "answer", True, new)
    name = found.group(1)
    for spelling, decl in {
        "Strategy opaque": f"Strategy opaque [{name}].",
        "Global Opaque": f"Global Opaque {name}.",
        "Module shadowing": f"Module zz_M.\n  Definition {name} := 0.\nEnd zz_M.\nImport zz_M.",
    }.items():
        yield Mutant(p, "answer_edits", spelling, "before theorem", True, splice(p.text, s.theorem, decl))


OTHER_LIBRARIES = {
    "float axiom used": ("Require Import Coq.Floats.Floats.", "pose proof @FloatAxioms.Prim2SF_valid as zz_e."),
    "Uint63 axiom used": ("Require Coq.Numbers.Cyclic.Int63.Uint63.", "pose proof @Uint63.of_to_Z as zz_e."),
    "PArray axiom used": ("Require Import Coq.Array.PArray.", "pose proof @PArray.get_set_same as zz_e."),
    "a library not installed": ("Require Import zz_lib.", ""),
    "From a path not installed": ("From zz_root Require Import zz_lib.", ""),
    "Load": ('Load "zz_file".', ""),
}
"""(the command, a tactic run before the published proof: ``pose proof`` keeps the axiom in the proof term)."""


@operator
def other_libraries(p: Published, s: Shape) -> Iterator[Mutant]:
    """Libraries the toolchain does not pin, or axioms of installed ones the allow-list leaves out."""
    for spelling, (decl, tactic) in OTHER_LIBRARIES.items():
        proof = splice(p.text, s.proof_start, tactic) if tactic else p.text
        for point, at in command_points(p, s).items():
            yield Mutant(p, "other_libraries", spelling, point, True, splice(proof, at, decl))


VALID = {
    "comment": '(* zz: a comment (* nested *) with "*)" in a string *)',
    "blank lines": "\n\n\n",
    "helper lemma": "Lemma zz_helper : True.\nProof. exact I. Qed.",
    "helper in a closed section": "Section zz_S.\nLemma zz_helper : True.\nProof. exact I. Qed.\nEnd zz_S.",
    "Check": "Check 0.",
    "Locate": 'Locate "+".',
    "About": "About nat.",
    "Set Warnings": 'Set Warnings "-deprecated".',
}


@operator
def valid_changes(p: Published, s: Shape) -> Iterator[Mutant]:
    """Changes that leave the statement and its proof sound: they must still be accepted."""
    points = command_points(p, s) | {"end of file": len(p.text)}
    for spelling, snippet in VALID.items():
        for point, at in points.items():
            yield Mutant(p, "valid_changes", spelling, point, False, splice(p.text, at, snippet))
    for spelling, snippet in {"comment": "(* zz *)", "Check": "Check 0."}.items():
        yield Mutant(
            p, "valid_changes", spelling, "inside the proof", False, splice(p.text, s.first_tactic_end, snippet)
        )
    yield Mutant(p, "valid_changes", "idtac", "proof start", False, splice(p.text, s.proof_start, "idtac."))
    allowed = splice(p.text, s.proof_start, "pose proof Coq.Logic.Classical_Prop.classic as zz_e.")
    text = splice(allowed, s.theorem, "Require Coq.Logic.Classical_Prop.")
    yield Mutant(p, "valid_changes", "an allowed axiom used", "before theorem", False, text)
    tail = p.text.rstrip() + "\n"
    yield Mutant(
        p, "valid_changes", "Print Assumptions", "end of file", False, f"{tail}Print Assumptions {p.problem_id}.\n"
    )
    yield Mutant(p, "valid_changes", "Check theorem", "end of file", False, f"{tail}Check {p.problem_id}.\n")
    for scope in own_scopes(p, s):
        text = splice(p.text, s.theorem, f"Local Open Scope {scope}.")
        yield Mutant(p, "valid_changes", f"Local Open Scope {scope}", "before theorem", False, text)


def own_scopes(p: Published, s: Shape) -> list[str]:
    """The scopes the file itself opens before its theorem (opening one again changes nothing)."""
    found = re.findall(r"Open Scope (\w+)\.", p.text[: s.theorem])
    if "Open Scope R." in p.text[: s.theorem]:
        found.append("R_scope")
    return list(dict.fromkeys(found))[-1:]


def mutants(proofs: tuple[Published, ...] | None = None) -> list[Mutant]:
    """Every operator on every published proof, in a fixed order (ids unique)."""
    out: dict[str, Mutant] = {}
    for p in published() if proofs is None else proofs:
        s = shape(p)
        for fn in OPERATORS.values():
            for m in fn(p, s):
                out.setdefault(m.id, m)
    return list(out.values())
