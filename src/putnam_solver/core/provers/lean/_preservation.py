"""G2, statement preservation: the candidate against the challenge, and the helpers that judge its
namespaces, ``open``s, no-answer values and layout.

The candidate must be the challenge with its holes filled. The holes are the theorem's proof (all
tokens after the theorem's top-level ``:=``) and, on the no-answer track, the value of every
``*_solution`` declaration. Everything else is compared token by token, gluing included. The only
additions allowed are the helpers listed in :data:`POLICY`, placed after the header, before the theorem
or after its proof (:func:`_after_theorem`). Where the proof ends: it runs to the end of the file, or to
the first token that can only begin a command (``theorem``, ``end``, ``notation``, ``seal``, a
modifier...) or command-starting token at column 0: Lean would parse a new command there, which is
judged as an addition after the theorem.
The same holds inside every hole (a helper's body, a no-answer value): there an ``open`` or
``set_option`` without its ``... in`` would be a new command in force for the theorem. A helper's name
may not be one the challenge uses anywhere, not even as a variable: the statement's identifiers could
resolve to it. Strict token equality is the rule: ``«putnam_x»`` for ``putnam_x``, ``Real`` for ``ℝ`` or
a renamed binder is a difference, although Lean would read the same statement. Layout is not compared
(line breaks and indentation may change); the few column-sensitive constructs a statement could contain
(``match`` alternatives, tactic blocks, newline-separated fields) are left to G6. On the no-answer track
a value may not name a choice operator or the theorem (see :data:`POLICY`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Final

from putnam_solver.core.benchmark import module_name
from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._answer_value import answer_violations
from putnam_solver.core.provers.lean._attributes import ONLY_SIMP, attribute_violations, helper_prefix_violations
from putnam_solver.core.provers.lean._blocks import (
    SECTION_VARIABLES,
    Block,
    Walk,
    close_block,
    local_block,
    opens_block,
    pinned_command,
    scopes_of,
    variables_in_scope,
)
from putnam_solver.core.provers.lean._declarations import (
    instance_violations,
    local_instance_violations,
    notation_violations,
    scoped_violations,
)
from putnam_solver.core.provers.lean._grind_attribute import grind_pattern_violations
from putnam_solver.core.provers.lean._helpers import (
    candidate_name_parts,
    class_violations,
    declared_names,
    deriving_violations,
    helper_name_violations,
    layout_violations,
    local_attribute,
    local_attribute_in_end,
    local_instance,
    local_notation,
    needs_g6,
    show,
)
from putnam_solver.core.provers.lean._open_decl import open_in_end
from putnam_solver.core.provers.lean._opens_in_force import answer_reads, answers_at
from putnam_solver.core.provers.lean._opens_in_force import command_key as _key
from putnam_solver.core.provers.lean._opens_in_force import open_violations as _open_violations
from putnam_solver.core.provers.lean._option_values import strict_group, strict_setting, strict_violations
from putnam_solver.core.provers.lean._policy import POLICY, LeanPolicy, elaboration_option, option_allowed
from putnam_solver.core.provers.lean._signature_options import helper_option
from putnam_solver.core.provers.lean.imports import ImportClosure
from putnam_solver.core.provers.lean.layout import first_difference, same_tokens
from putnam_solver.core.provers.lean.syntax import (
    DOC,
    IDENT,
    SYMBOL,
    Command,
    LexError,
    Statement,
    Token,
    commands_of,
    name_parts,
    parse_statement,
)
from putnam_solver.core.verify import Track


def check_preservation(
    challenge: str,
    candidate: str,
    track: Track,
    policy: LeanPolicy = POLICY,
    semantic: bool = False,
    closure: ImportClosure | None = None,
) -> list[Violation]:
    """G2: every way ``candidate`` differs from ``challenge`` other than filled holes and additions the
    policy accepts. ``semantic``: the same acceptance runs G6 (comparator), so additions that can change
    the statement only through elaboration are left to it (``kits.lean.policy_text.ADDITIONS`` lists them
    for people).

    ``challenge`` is harness-made; if it does not parse, that is a harness error and this raises.
    """
    return check_statement(parse_statement(challenge), candidate, track, policy, semantic, closure)


def check_statement(
    expected: Statement,
    candidate: str,
    track: Track,
    policy: LeanPolicy,
    semantic: bool = False,
    closure: ImportClosure | None = None,
) -> list[Violation]:
    """G2 against a parsed challenge (:func:`check_preservation` parses it first). ``closure``: what the
    challenge's imports load on the benchmark's release (:mod:`imports`); an added ``import`` of one of
    those modules changes nothing."""
    try:  # Lean reads \r\n as \n, inside doc comments and strings too
        commands = commands_of(candidate.replace("\r\n", "\n"))
    except LexError as exc:
        return [Violation(exc.line, "unreadable source", f"lexing: {exc.reason}")]
    holes = _holes(expected, track)
    defined = candidate_name_parts(commands, expected)
    theorem_key = _key(expected.theorem)
    want = [c for c in expected.commands if c.keyword != "open"]
    keys = [_key(c) for c in want]
    imports = sum(c.keyword == "import" for c in want)
    walk = Walk([], [], [], defined)
    position, answers = 0, answers_at(expected, track, keys)
    theorem_seen = False
    around: list[Block] = []  # the blocks open at the theorem
    pinned = {tuple(t.text for t in c.tokens) for c in expected.commands if c is not expected.theorem}
    for command in commands:
        here = semantic and position > answers  # before a no-answer value G6 reads nothing (_opens_in_force)
        if tuple(t.text for t in command.tokens) not in pinned:  # the statement's own commands are pinned
            walk.violations += layout_violations(command)
        key = _key(command)
        walk.header_done = walk.header_done or command.keyword != "import"
        if theorem_seen:
            walk.violations += _after_theorem(command, walk, expected, policy, here)
        elif key in keys[position:]:
            found = keys.index(key, position)
            skipped = [c for c in want[position:found] if not _resource_option(c, policy)]
            walk.violations += [Violation(command.line, show(c), "missing from the candidate") for c in skipped]
            if any(block.opener.keyword == "namespace" for block in walk.blocks):
                walk.violations.append(Violation(command.line, show(command), "inside a namespace: renamed"))
            in_force = walk.in_force()
            walk.violations += _compare(want[found], command, holes.get(key), expected, policy, here, defined, in_force)
            position = found + 1
            theorem_seen = key == theorem_key
            around = list(walk.blocks) if theorem_seen else around
            if want[found].name is None and not _resource_option(want[found], policy):
                walk.violations += pinned_command(command, walk)
            if want[found].name is not None:  # every pinned declaration is read in the scope it stands in
                at = "the theorem" if theorem_seen else f"`{want[found].name}`"
                # the answer rules read the opens in force at a value (_opens_in_force.answer_reads)
                read = here or (semantic and answer_reads(in_force))
                walk.violations += _open_violations(expected, want[found], in_force, command.line, read, at)
                walk.violations += variables_in_scope(walk, command.line, at, here)
        elif command.keyword == "import":
            walk.violations += _import_violations(command, walk, closure)
        elif position < imports:
            walk.violations.append(Violation(command.line, show(command), "not allowed inside the header"))
        else:
            walk.violations += _scope_command(command, walk, expected, policy, here)
    if not theorem_seen:
        walk.violations.append(Violation(_last_line(commands), f"theorem {expected.theorem_name}", "missing"))
    unclosed = {id(b.opener): b.opener for b in walk.blocks if b.opener.keyword == "namespace" and b in around}
    walk.violations += [
        Violation(b.line, show(b), "namespace not closed before the theorem") for b in unclosed.values()
    ]
    return walk.violations


def _scope_command(
    command: Command, walk: Walk, expected: Statement, policy: LeanPolicy, semantic: bool, after: bool = False
) -> list[Violation]:
    """A command the challenge does not have: a block opener or closer, a global ``open`` (recorded;
    judged at the theorem), an allowed global option, or a helper. ``after`` the theorem, a helper's
    namespace no longer matters: the statement was elaborated before it existed."""
    if opens_block(command):
        walk.blocks += scopes_of(command)
        return []
    if command.keyword == "end":
        return close_block(command, walk)
    if walk.blocks and walk.blocks[-1].opener.keyword == "mutual" and command.keyword not in policy.helper_keywords:
        return [Violation(command.line, show(command), "only helper declarations stand in a `mutual` block")]
    if command.keyword == "open" and command.head == 0 and _combinator_free(command):
        (walk.blocks[-1].opens if walk.blocks else walk.opens).append(command)
        return []
    if strict_setting(command):
        return strict_violations(command.tokens[1], expected, semantic)
    if command.keyword == "set_option" and command.head == 0 and len(command.tokens) == 3:
        return _option_violations(command, policy, semantic)
    if command.keyword in policy.read_only_commands and command.head == 0:
        return []
    if command.keyword in SECTION_VARIABLES and command.head == 0 and (walk.blocks or after):
        if walk.blocks:  # judged at the theorem: its block must be closed by then (after it: nothing to reach)
            walk.scoped.append(walk.blocks[-1])
        return []
    if local_attribute(command):
        return scoped_violations(command, walk)
    if local_instance(command) and after:  # elaborated after the theorem, and its instance is not exported
        return helper_prefix_violations(command.prefix, policy, ONLY_SIMP)
    if command.keyword == "universe" and command.head == 0 and local_block(walk):  # popped at the block's `end`
        walk.universes.append(walk.blocks[-1])
        return []
    if command.keyword == "universe" and command.head == 0:
        return [] if semantic else [Violation(command.line, show(command), needs_g6("a `universe` declaration"))]
    if local_notation(command):
        return notation_violations(command, semantic or after)
    if command.keyword == "instance":
        prefix = helper_prefix_violations(command.prefix, policy, ONLY_SIMP)
        return prefix + instance_violations(command, walk.defined, semantic)
    namespace = [b.header for b in walk.blocks if b.opener.keyword == "namespace"] + _dotted_prefix(command)
    reachable = set(namespace) & (expected.name_parts_used | _opened(walk))  # components, never split again
    if namespace and not semantic and not after and (reachable or not _fresh_namespace(namespace[0], expected)):
        why = "which the statement names or opens" if reachable else "which may already exist in the library"
        what = f"a helper in namespace `{'.'.join(namespace)}`, {why},"
        deferred = [Violation(command.line, show(command), needs_g6(what))]
        return deferred + _addition_violations(command, expected, policy, namespace, walk)  # G6 cannot lift them
    return _addition_violations(command, expected, policy, namespace, walk, after)


def _dotted_prefix(command: Command) -> list[str]:
    """The namespace a dotted declaration name puts a helper in (``RunMove.append_left``: ``RunMove``):
    Lean declares it exactly as inside ``namespace RunMove``, so the same rules apply."""
    parts = name_parts(command.name) if command.name is not None else []
    return parts[:-1] if len(parts) > 1 and parts[0] != "_root_" else []


def _fresh_namespace(root: str, expected: Statement) -> bool:
    """Whether a namespace whose first component is ``root`` is surely new: named after the problem, any
    benchmark's (``Putnam1968A6``, ``MunkresExercise322b``; ``putnam_1968_a6`` is a name the statement uses,
    so it counts as reachable).

    Any other namespace may already exist in Mathlib, and a declaration added to it can become what dot
    notation in the statement finds (``x.f`` looks in the namespace of ``x``'s type and of the types it
    unfolds to), so only comparator can tell that it changed nothing. ``root`` is one component as Lean
    reads it: ``namespace «Putnam1962A1.Real»`` opens the one component ``Putnam1962A1.Real`` (round 34).
    """
    return root in (expected.theorem_name, module_name(expected.theorem_name))


def _opened(walk: Walk) -> set[str]:
    """Every name part of every namespace opened by a global ``open`` in force."""
    return {p for c in walk.in_force() for t in c.tokens[c.head + 1 :] for p in name_parts(t.text)}


def _combinator_free(command: Command) -> bool:
    return not any(t.text == "in" for t in command.tokens)


def _after_theorem(
    command: Command, walk: Walk, expected: Statement, policy: LeanPolicy, semantic: bool
) -> list[Violation]:
    """A command after the theorem's proof: judged as an addition before it is (helpers, blocks, read-only
    commands, allowed options), except that a helper may stand in any namespace. Lean elaborates commands
    in order, each in the environment the commands before it made (leanprover/lean4
    src/Lean/Language/Lean.lean, ``doElab``: one ``elabCommandTopLevel`` per parsed command; a proof
    elaborated in a background task keeps that environment), so nothing declared after the theorem can
    change what it states or how it was proved (a section ``variable`` or a ``local notation`` there is
    not even exported: harmless on every profile); the gates that read the theorem
    later (G5's harness file, G6) name it by its full name, which a later helper cannot take (a second
    declaration of a name is an error, and G2 refuses a helper named like a challenge declaration).
    Forbidden constructs stay forbidden there (G3). Which tokens end the proof is the splitter's
    reading (``_commands``): a column-0 command keyword or one that can only begin a command."""
    if command.keyword == "end":
        return close_block(command, walk, theorem_seen=True)
    if command.keyword == "import":
        return [Violation(command.line, show(command), "an `import` after the header (Lean refuses it)")]
    return _scope_command(command, walk, expected, policy, semantic, after=True)


def _resource_option(command: Command, policy: LeanPolicy) -> bool:
    """A challenge ``set_option NAME VALUE`` of a resource or warning option, which a candidate may drop
    or change: such an option can make elaboration fail, never succeed differently."""
    tokens = command.tokens
    return command.keyword == "set_option" and len(tokens) == 3 and option_allowed(tokens[1].text, policy)


def _option_violations(command: Command, policy: LeanPolicy, semantic: bool) -> list[Violation]:
    """A global ``set_option`` the candidate adds: resource, warning and printing options are harmless,
    options that steer elaboration (``tactic.hygienic``) are left to G6, the rest are refused."""
    name = command.tokens[1].text
    if option_allowed(name, policy):
        return []
    if elaboration_option(name, policy):
        return [] if semantic else [Violation(command.line, f"set_option {name}", needs_g6(f"`{name}`"))]
    return [Violation(command.line, f"set_option {name}", "option not allowed")]


def _import_violations(command: Command, walk: Walk, closure: ImportClosure | None) -> list[Violation]:
    """An ``import`` the challenge does not have: accepted only in the header, in the plain form, of a
    module the challenge's imports already load (:mod:`imports`)."""
    tokens = command.tokens
    if walk.header_done:
        return [Violation(command.line, show(command), "an `import` after the header (Lean refuses it)")]
    if command.head != 0 or len(tokens) != 2 or tokens[1].kind != IDENT:
        return [Violation(command.line, show(command), "only a plain `import M` may be added")]
    if closure is not None and closure.reason(tokens[1].text) is not None:
        return []
    release = f" on {closure.release}" if closure is not None else ""
    rule = (
        f"a new import: `{tokens[1].text}` is not known to be loaded by the challenge's imports{release}, "
        "so it can add declarations, instances or notations"
    )
    return [Violation(command.line, show(command), rule)]


STATEMENT_DIFFERS: Final = "differs from the challenge: the statement is not the pinned one"


def _differs(theorem: bool) -> str:
    """Why a changed command is refused; for the theorem, what to do when it was written against another
    version of the benchmark (older miniF2F wrote `∑ x in s`, `Real.pi`, `abs`)."""
    if not theorem:
        return "differs from the challenge"
    return (
        f"{STATEMENT_DIFFERS} as text (if it was written against "
        "another version of the benchmark, `--statement-by-elaboration` lets G6 accept it when it elaborates "
        "to exactly the pinned statement's type, on a profile that runs G6)"
    )


def _holes(expected: Statement, track: Track) -> dict[tuple[str, ...], int]:
    """Command key -> number of leading tokens that must match; the rest is the hole."""
    holes = {_key(expected.theorem): expected.proof_assign + 1}
    if track is Track.NO_ANSWER:
        for solution in expected.solutions:
            holes[_key(solution.command)] = len(solution.command.tokens) - 1
    return holes


def _last_line(commands: Sequence[Command]) -> int:
    return commands[-1].tokens[-1].line if commands else 1


def _combinator_prefix_end(
    tokens: Sequence[Token], policy: LeanPolicy, helper: bool = False
) -> tuple[int, list[Token]]:
    """Skip leading ``set_option NAME VALUE in`` and ``open ... in`` groups. Returns the index after
    them and the ``open`` tokens skipped (a caller decides what an ``open ... in`` may precede); options
    off the allow-list are not skipped, so that they stay visible to the caller, but for the settings that
    leave the statement as it was (``_option_values.strict_group``). Before a ``helper``
    ``autoImplicit``, a tactic's search option and ``attribute [local simp] x in`` may stand as well: they
    act on that helper only (``_signature_options``)."""
    i, opens = 0, []
    while i < len(tokens):
        if tokens[i].text == "set_option" and i + 3 < len(tokens) and tokens[i + 3].text == "in":
            name = tokens[i + 1].text
            if not (option_allowed(name, policy) or (helper and helper_option(name)) or strict_group(tokens, i)):
                break
            i += 4
        elif helper and (after := local_attribute_in_end(tokens, i)) is not None:
            i = after
        elif tokens[i].text == "open" and (after := open_in_end(tokens, i)) is not None:
            opens.append(tokens[i])
            i = after
        else:
            break
    return i, opens


def _statement_prefix(tokens: Sequence[Token]) -> Sequence[Token]:
    """The challenge theorem's own leading ``set_option NAME VALUE in`` and ``open ... in`` groups (a
    benchmark may write ``set_option maxRecDepth 2048 in theorem ...``): part of the pinned statement,
    whatever the option, so the candidate must keep them as they are."""
    i = 0
    while i < len(tokens):
        if tokens[i].text == "set_option" and i + 3 < len(tokens) and tokens[i + 3].text == "in":
            i += 4
        elif tokens[i].text == "open" and (after := open_in_end(tokens, i)) is not None:
            i = after
        else:
            break
    return tokens[:i]


def _without_docs(tokens: Sequence[Token], drop: frozenset[str] = frozenset()) -> list[Token]:
    """The tokens without doc comments (and without the prefix words in ``drop``): what a comparison
    of a declaration's meaning looks at."""
    return [t for t in tokens if t.kind != DOC and t.text not in drop]


def _compare(
    want: Command,
    got: Command,
    hole: int | None,
    expected: Statement,
    policy: LeanPolicy,
    semantic: bool,
    defined: frozenset[str],
    in_force: Sequence[Command] = (),
) -> list[Violation]:
    """A challenge command against the candidate's: equal up to doc comments, except a hole's tail; the
    theorem may carry allowed ``set_option ... in`` (and, under G6, ``open ... in``) prefixes; a solution
    may gain or lose ``noncomputable`` (it only turns off code generation)."""
    tokens: Sequence[Token] = got.tokens
    violations: list[Violation] = []
    fixed: Sequence[Token] = want.tokens if hole is None else want.tokens[:hole]
    if want is expected.theorem:
        own = _statement_prefix(want.tokens)
        start, opens = _combinator_prefix_end(tokens, policy)
        if own and start >= len(own) and same_tokens(own, tokens[start - len(own) : start]):
            start -= len(own)  # the challenge's own `... in` groups, which the candidate's prefix swallowed
        opens = [t for t in opens if t.offset < tokens[start].offset] if start < len(tokens) else opens
        for i in filter(partial(strict_group, tokens), range(start)):  # what a global setting would be
            violations += strict_violations(tokens[i + 1], expected, semantic)
        tokens = tokens[start:]
        if opens and not semantic:
            violations.append(Violation(opens[0].line, "`open ... in` the theorem", needs_g6("`open ... in`")))
        ours = bool(own) and same_tokens(own, tokens[: len(own)])
        if tokens and tokens[0].text == "set_option" and len(tokens) > 1 and not ours:
            violations.append(Violation(tokens[0].line, f"set_option {tokens[1].text}", "option not allowed"))
    drop = frozenset({"noncomputable"}) if want is not expected.theorem else frozenset()
    fixed = _without_docs(fixed[: want.head], drop) + list(fixed[want.head :])
    keyword_at = got.head - (len(got.tokens) - len(tokens))
    tokens = _without_docs(tokens[:keyword_at], drop) + list(tokens[keyword_at:])
    label = f"`{want.name}`" if want.name else show(want)
    if not same_tokens(fixed, tokens[: len(fixed)]) or (hole is None and len(tokens) != len(fixed)):
        index = first_difference(fixed, tokens)
        line = tokens[min(index if index is not None else len(fixed), len(tokens) - 1)].line if tokens else 1
        violations.append(Violation(line, label, _differs(want is expected.theorem)))
    elif hole is not None and len(tokens) == len(fixed):
        violations.append(Violation(got.tokens[-1].line, label, "the hole after `:=` is empty"))
    elif hole is not None and want is not expected.theorem:
        value = tokens[len(fixed) :]
        violations += answer_violations(value, label, expected, policy, defined, want.name or "", in_force)
        violations += attribute_violations(value, ONLY_SIMP)  # its `where` declarations
    return violations


def _addition_violations(
    command: Command,
    expected: Statement,
    policy: LeanPolicy,
    namespace: Sequence[str],
    walk: Walk,
    after_theorem: bool = False,
) -> list[Violation]:
    """A command the challenge does not have: allowed only if it is a permitted helper, declared at top
    level or inside the candidate's ``namespace`` blocks (``namespace``, the names of those open). After the
    theorem (``after_theorem``) a helper's name is free but for the challenge's own (:func:`_after_theorem`)."""
    if local_instance(command):
        prefix = helper_prefix_violations(command.prefix, policy, ONLY_SIMP)
        return prefix + local_instance_violations(command, walk, expected, namespace)
    start, _ = _combinator_prefix_end(command.tokens, policy, helper=True)
    if command.keyword == "example":  # elaborated, then dropped with all it declared (`withoutModifyingEnv`)
        return helper_prefix_violations(command.tokens[start : command.head], policy)
    if command.keyword == "grind_pattern":  # read by `grind` only (round 28)
        return grind_pattern_violations(command)
    if command.keyword not in policy.helper_keywords:
        rule = "not a permitted addition (a candidate adds helper declarations, blocks, `open`s and the options"
        return [Violation(command.line, show(command), f"{rule} `putnam policy` lists); remove this command")]
    violations = helper_prefix_violations(command.tokens[start : command.head], policy)
    violations += deriving_violations(command) + class_violations(command)
    name = command.name
    after = command.tokens[command.head + 2] if command.head + 2 < len(command.tokens) else None
    if name is None:
        violations.append(Violation(command.line, show(command), "a helper needs a name"))
    elif after is not None and not after.spaced and after.kind == SYMBOL and after.text.isalpha():  # Unicode's
        # letters on purpose: a symbol token is never a Lean letter (``_idchars``), so this finds look-alikes
        violations.append(
            Violation(
                after.line,
                f"`{name}{after.text}`",
                f"{after.text!r} (U+{ord(after.text[0]):04X}) cannot appear in a Lean identifier: look-alike name",
            )
        )
    elif name_parts(name)[0] == "_root_":
        violations.append(Violation(command.line, f"`{name}`", "helper names may not escape to `_root_`"))
    else:
        for declared in declared_names(command):
            violations += helper_name_violations(command, name_parts(declared)[-1], expected, namespace, after_theorem)
    return violations
