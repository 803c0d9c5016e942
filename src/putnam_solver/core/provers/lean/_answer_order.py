"""One reading per term before the copy rule compares: notation for its function form, padding that
changes nothing taken off, and the operands of commutative operations in one order (red team 22).

``_answer_canonical.canonical_kept`` puts both the no-answer value and the statement's side in canonical
form; this is its last step, so the copy rule's equality and its search inside the value (``_answer_copy``,
``_answer_contains``) read the same normal form. Three classes of copy passed before, at any depth:

* the question's operands commuted: ``b + a`` for ``a + b``, ``B ∧ A``, ``b = a``, ``B ↔ A``, ``b > a``
  for ``a < b``. The operands of ``+ * ∧ ∨ ∪ ∩`` (associative and commutative: a chain is read flat) and
  of ``= ↔`` are put in one order; ``a > b`` is ``b < a`` and ``a ≥ b`` is ``b ≤ a`` (src/Init/Prelude.lean:
  ``GT.gt a b := LT.lt b a``, ``GE.ge a b := LE.le b a``, reducible); ``a ≠ b`` is ``¬a = b`` (``Ne a b :=
  ¬(a = b)``) and ``a ∉ b`` is ``¬a ∈ b`` (src/Init/Notation.lean: ``notation:50 a:50 " ∉ " b:50 => ¬ (a ∈
  b)``). Nothing else is reordered: not ``- / % ^ ∘ \\`` nor an application's arguments, but for the
  commutative functions ``max``, ``min``, ``gcd``, ``lcm`` (red team 27).
* the function form of a notation: ``HAdd.hAdd a b``, ``Add.add a b``, ``Eq a b``, ``And a b``, ``Not a``,
  ``Membership.mem s a``... (:data:`FUNCTIONS`), also with the implicit arguments an ``@`` gave
  (src/Init/Prelude.lean, src/Init/Core.lean and src/Init/Notation.lean: ``infixl:65 " + " =>
  HAdd.hAdd``, ``infixr:35 " ∧ " => And``, ``notation:max "¬" p:40 => Not p``, ``infix:20 " ↔ " => Iff``,
  ``notation:50 a:50 " ∈ " b:50 => Membership.mem b a``: the collection first since Lean 4.12).
* padding inside an argument or a body: ``x + 0``, ``0 + x``, ``x - 0``, ``x * 1``, ``1 * x``, ``x / 1``,
  ``x ^ 1``, ``P ∧ True``, ``P ∨ False``, ``¬¬P``, ``- -x``, ``id x``, ``S ∩ Set.univ``, ``S ∪ ∅``,
  ``if True then a else b``, and ``e = e``, ``e ↔ e`` read as ``True``. Each is an identity in every
  type Lean elaborates it at in these statements (``Nat.sub_zero``, ``Nat.div_one``, ``Int.ediv_one``,
  ``pow_one``, ``Real.rpow_one``...); ``0 - x``, ``0 / x``, ``x ^ 0`` and ``0 * x`` are left. ``Nat.add``,
  ``Nat.mul``... are the notation on ``ℕ`` (:data:`NAT`).

Red team 27 added negation pushed to the atoms (De Morgan, ``¬∀``, ``¬∃``), ``A → B`` read as ``¬A ∨ B``,
the units and absorbing elements of the logical and set operators, idempotent chains read once, the
commutative functions and ``List.nil``. The identities themselves are ``_answer_commute``'s (this module
reads the term and applies them as it builds each node; ``_answer_nodes`` holds the nodes).

The term is parsed by Lean's precedences (``INFIX``, ``PREFIX``; application binds tighter than any
operator; a binder's body runs to the end, a big operator's is read at 67, ``⋃``/``⨆``/``∫``'s at 60:
``_answer_nodes.BODY``, from Mathlib's declarations), and
written back with the parentheses that reading needs and no others (both sides alike). A stretch it
cannot read (an operator it does not know, ``let``, ``match``, a tactic block) is kept as written, with
only its bracketed groups read, so an unknown precedence never reorders anything. Equal operands up to
the names of bound variables are ordered by where their first bound variable is bound, so that two
readings of one term renamed alike come out alike. Linear: each node is built once, its key hashed from
its children's; nesting deeper than :data:`MAX_DEPTH` raises :class:`TooDeep` (the copy rule then refuses
the value unread rather than compare it unread).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from putnam_solver.core.provers.lean._answer_binders import HEADER_ENDS
from putnam_solver.core.provers.lean._answer_bounds import range_head
from putnam_solver.core.provers.lean._answer_commute import (
    NIL,
    NORMAL,
    applied,
    binary,
    chain,
    conditional,
    ordered,
    prefix,
)
from putnam_solver.core.provers.lean._answer_dots import (
    constant_field,
    field_name,
    fields,
    last_name,
    placed,
    receiver_first,
)
from putnam_solver.core.provers.lean._answer_nodes import (
    AC,
    APP,
    BODY,
    INFIX,
    MAX,
    NUMBERED,
    OPEN_CLOSE,
    PREFIX,
    Node,
    closers,
    projected,
    render,
)
from putnam_solver.core.provers.lean._answer_nodes import node as _node
from putnam_solver.core.provers.lean._answer_quantifiers import quantified
from putnam_solver.core.provers.lean._answer_sets import (
    bounded_builder,
    complemented,
    separated,
    set_eta,
    univ_difference,
)
from putnam_solver.core.provers.lean._answer_types import TYPES, Types, inferred, typed
from putnam_solver.core.provers.lean._idchars import starts_term

BINDERS: Final = frozenset({"∀", "∃", "∃!", "fun", "λ", "∀ᶠ", "∃ᶠ", *BODY})
SEPARATORS: Final = frozenset({",", "|", "//", ":", ":=", ";", "=>"})
POSTFIX: Final = frozenset({"ᶜ", "!", "⁻¹", "ᵀ", "ᴴ", "†"})
KEYWORDS: Final = frozenset({"then", "else", "if", "in", "from", "do", "return", "with", "fun", "by", "let", "have"})
NAT: Final = (("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "/"), ("mod", "%"), ("pow", "^"))
"""The functions ``+ - * / % ^`` are on ``ℕ`` (src/Init/Prelude.lean: ``instance instAddNat : Add Nat where
add := Nat.add``...), the first three on ``ℤ`` too (src/Init/Data/Int/Basic.lean: ``instance : Add Int :=
⟨Int.add⟩``; ``/`` and ``%`` on ``ℤ`` are ``Int.ediv``, ``Int.emod``, not ``Int.div``)."""
FUNCTIONS: Final = {
    **{name: ("+", 2, implicit) for name, implicit in (("HAdd.hAdd", 4), ("Add.add", 2))},
    **{name: ("-", 2, implicit) for name, implicit in (("HSub.hSub", 4), ("Sub.sub", 2))},
    **{name: ("*", 2, implicit) for name, implicit in (("HMul.hMul", 4), ("Mul.mul", 2))},
    **{name: ("/", 2, implicit) for name, implicit in (("HDiv.hDiv", 4), ("Div.div", 2))},
    **{name: ("%", 2, implicit) for name, implicit in (("HMod.hMod", 4), ("Mod.mod", 2))},
    **{name: ("^", 2, implicit) for name, implicit in (("HPow.hPow", 4), ("Pow.pow", 3))},
    **{name: ("•", 2, implicit) for name, implicit in (("HSMul.hSMul", 4), ("SMul.smul", 3))},
    **{f"Nat.{name}": (symbol, 2, 0) for name, symbol in NAT},
    **{f"Int.{name}": (symbol, 2, 0) for name, symbol in NAT[:3]},
    "Int.neg": ("-", 1, 0),
    **{name: ("↑", 1, k) for name, k in (("Nat.cast", 2), ("Int.cast", 2), ("Int.ofNat", 0), ("Finset.toSet", 1))},
    "HAppend.hAppend": ("++", 2, 4),
    "Eq": ("=", 2, 1),
    "Ne": ("≠", 2, 1),
    "Iff": ("↔", 2, 0),
    "And": ("∧", 2, 0),
    "Or": ("∨", 2, 0),
    "Not": ("¬", 1, 0),
    "Neg.neg": ("-", 1, 2),
    "LE.le": ("≤", 2, 2),
    "LT.lt": ("<", 2, 2),
    "GE.ge": ("≥", 2, 2),
    "GT.gt": (">", 2, 2),
    "Dvd.dvd": ("∣", 2, 2),
    "Union.union": ("∪", 2, 2),
    "Inter.inter": ("∩", 2, 2),
    "SDiff.sdiff": ("\\", 2, 2),
    "HasSubset.Subset": ("⊆", 2, 2),
    "HasSSubset.SSubset": ("⊂", 2, 2),
    "Function.comp": ("∘", 2, 3),
    "Set.image": ("''", 2, 2),
    "Set.preimage": ("⁻¹'", 2, 2),
    "crossProduct": ("×₃", 2, 2),
    "Membership.mem": ("∈", 2, 3),
    "id": ("", 1, 1),
}
"""A function and the notation it is: its symbol, its explicit and implicit arguments' counts (module
doc). ``Membership.mem s a`` is ``a ∈ s``; ``id a`` is ``a``."""
FIELD_FUNCTIONS: Final = {
    name.rpartition(".")[2]: name
    for name in reversed(FUNCTIONS)
    if name.partition(".")[0] in ("Set", "Finset", "Function", "Nat", "Int")
}
"""A field called on a term of a type not written (``f.comp g``, ``s.toSet``, ``n.cast``) read as the function
of :data:`FUNCTIONS` of that last name, its receiver at that function's place, so as the notation it is
(copy red team 35: ``f.comp g`` read ``comp f g`` beside the statement's ``f ∘ g``). Like every applied
constant it is read by its last name (``_answer_dots``); ``s.image f`` is a set-builder before this reading
(``_answer_images``)."""
MAX_DEPTH: Final = 100


class TooDeep(Exception):
    """The term nests deeper than :data:`MAX_DEPTH`: it is not read."""


def normal_order(texts: Sequence[str]) -> list[str]:
    """``texts`` (canonical tokens, parentheses kept) in the normal form of the module doc."""
    return list(_normal(tuple(texts), TYPES.get()))


def terms(texts: Sequence[str]) -> list[Node]:
    """``texts`` (tokens already in normal form) read as the terms and separators they are, for a
    comparison that needs the tree rather than its tokens (``_answer_cover``)."""
    return _Reader(list(texts)).sequence(0, len(texts))


@lru_cache(maxsize=16)
def _normal(texts: tuple[str, ...], types: Types) -> tuple[str, ...]:
    """The copy rule reads one value several times (each reading of the solution's applications): once each
    per statement's types (``_answer_types``), which the identities read; read again where a bound
    variable no binder types is typed by what it stands beside (``_answer_types.inferred``)."""
    parts = _Reader(list(texts)).sequence(0, len(texts))
    if more := inferred(parts):
        with typed(tuple(sorted({**dict(types), **dict(more)}.items()))):
            parts = _Reader(list(texts)).sequence(0, len(texts))
    out: list[str] = []
    for part in parts:
        render(part, out)
    return tuple(out)


def _applied(head: Node, args: list[Node]) -> Node:
    """``head args``, a function form read as its notation (:data:`FUNCTIONS`)."""
    if head.kind == "app":  # `(HAdd.hAdd a) b` is `HAdd.hAdd a b`
        head, args = head.kids[0], [*head.kids[1:], *args]
    if head.kind == "atom" and head.text in FUNCTIONS:
        symbol, arity, implicit = FUNCTIONS[head.text]
        if len(args) in (arity, arity + implicit):
            explicit = args[len(args) - arity :]
            if not symbol:
                return explicit[0]
            if arity == 1:
                return prefix(symbol, explicit[0])
            return binary(symbol, *(explicit[::-1] if symbol == "∈" else explicit))
    if (interval := range_head(head, args)) is not None:  # `Finset.range n` is `Set.Iio n` (``_answer_bounds``)
        return interval
    if head.kind == "atom" and args and head.text not in FUNCTIONS:  # `Nat.choose n k` is `choose n k`
        head, args = _node("atom", last_name(head.text)), receiver_first(head.text, args)
    if (read := applied(head, args) or separated(head, args)) is not None:  # `max b a` is `max a b`, by its
        return read  # last name; `s.filter p` is `{x | x ∈ s ∧ p x}` (``_answer_sets``)
    return _node("app", "", [head, *args], APP) if args else head


class _Fail(Exception):
    pass


class _Reader:
    """A recursive-descent reading of ``texts`` by Lean's precedences (module doc); each bracketed group
    is read once (memoized), whatever reading of its surroundings is tried."""

    def __init__(self, texts: list[str]) -> None:
        self.texts, self.at, self.end, self.depth = texts, 0, len(texts), 0
        self.field: Node | None = None  # the last term :meth:`_primary` read as a field call (`s.image`)
        self.partner = closers(texts)
        self.groups: dict[int, Node] = {}
        self.contents: dict[tuple[int, int], list[Node]] = {}

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TooDeep

    def sequence(self, start: int, end: int) -> list[Node]:
        """``texts[start:end]`` read term by term between separators; from a stretch it cannot read on, as
        written with its groups read."""
        if (start, end) in self.contents:
            return self.contents[start, end]
        saved = self.at, self.end, self.depth
        self._enter()
        parts: list[Node] = []
        self.at, self.end = start, end
        while self.at < end:
            begin = self.at
            try:
                node = self._expr(0)
                if self.at < end and self.texts[self.at] not in SEPARATORS:
                    raise _Fail
            except _Fail:
                parts += self._verbatim(begin, end)
                break
            parts.append(node)
            if self.at < end:
                parts.append(_node("part", self.texts[self.at]))
                self.at += 1
        self.at, self.end, self.depth = saved
        self.contents[start, end] = parts
        return parts

    def _verbatim(self, start: int, end: int) -> list[Node]:
        parts: list[Node] = []
        i = start
        while i < end:
            close = self.partner.get(i, end)
            if self.texts[i] in OPEN_CLOSE and close < end:
                group = self._group(i, close)  # a term read out of its parentheses gets them back here
                wrap = group.kind != "group" and group.prec < MAX  # unless it is an atom: `f (x)` is `f x`
                parts.append(_node("group", "(", [group, _node("part", ")")]) if wrap else group)
                i = close + 1
            else:
                parts.append(_node("part", self.texts[i]))
                i += 1
        return parts

    def _group(self, start: int, close: int) -> Node:
        if start in self.groups:
            return self.groups[start]
        opener = self.texts[start]
        node = None
        if opener == "(" and close > start + 1 and "·" not in self.texts[start + 1 : close]:
            saved = self.at, self.end, self.depth
            self.at, self.end = start + 1, close
            try:
                read = self._expr(0)
                node = read if self.at == close else None
            except _Fail:
                node = None
            self.at, self.end, self.depth = saved
        if node is None:
            node = _node("group", opener, [*self.sequence(start + 1, close), _node("part", self.texts[close])])
            node = bounded_builder(node, self.texts[start + 1 : min(start + 3, close)])  # `{x ∈ s | C}` is
            node = set_eta(node)  # `{x | x ∈ s ∧ C}`, `{x | x ∈ S}` is `S` (``_answer_sets``)
        self.groups[start] = node
        return node

    def _peek(self) -> str | None:
        return self.texts[self.at] if self.at < self.end else None

    def _expr(self, level: int) -> Node:
        self._enter()
        left, reach = self._leading()  # `reach`: how the term read so far binds, whatever it simplified to
        while (op := self._peek()) is not None and op in INFIX:
            precedence, assoc = INFIX[op]
            if precedence < level or reach < (precedence if assoc == "l" else precedence + 1):
                break
            self.at += 1
            reach = precedence
            operands = [left, self._expr(precedence + 1)]
            while assoc != "n" and self._peek() == op:  # a chain, read in a loop
                self.at += 1
                operands.append(self._expr(precedence + 1))
            if op == "\\" and (read := univ_difference(*operands)) is not None:  # `Set.univ \ s` is `sᶜ`
                left = read
                continue
            left = chain(op, operands) if op in AC else binary(op, *operands) if assoc == "n" else ordered(op, operands)
        self.depth -= 1
        return left

    def _leading(self) -> tuple[Node, int]:
        text = self._peek()
        if text is None:
            raise _Fail
        if text in PREFIX:
            self.at += 1
            return prefix(text, self._expr(PREFIX[text])), PREFIX[text]
        if text in BINDERS:
            return self._binder(text), BODY.get(text, 0)
        if text == "if":
            self.at += 1
            cond = self._expr(0)
            self._expect("then")
            then = self._expr(0)
            self._expect("else")
            other = self._expr(0)
            if cond.kind == "atom" and cond.text in ("True", "False"):  # `if True then a else b` is `a`
                return (then if cond.text == "True" else other), 0
            return conditional(cond, then, other), 0
        if (called := constant_field(text)) is not None:  # `Set.univ.image f` is `Set.image f Set.univ`
            start, self.at = self.at, self.at + 1  # (``_answer_dots``)
            explicit = placed(called[0], _node("atom", called[1]), self._arguments(True))
            if explicit is not None:
                return _applied(_node("atom", called[0]), explicit), APP
            self.at = start  # too few arguments to reach the receiver's place: read as written
        head = self._primary()
        field, self.field = self.field, None
        args = self._arguments(head.kind == "app")
        if field is head and (name := FIELD_FUNCTIONS.get(head.kids[0].text)) is not None:
            explicit = placed(name, head.kids[1], args)  # `s.image f` is `Set.image f s` (FIELD_FUNCTIONS)
            if explicit is not None:
                return _applied(_node("atom", name), explicit), APP
        return _applied(head, args), APP if args else MAX

    def _arguments(self, applied: bool) -> list[Node]:
        """The arguments from here, of a head that is ``applied`` already or not."""
        args = []
        while (nxt := self._peek()) is not None and (_starts_atom(nxt) or nxt in OPEN_CLOSE):
            args.append(self._primary())
        trailing = self._peek() if args or applied else None  # `s.filter fun x => C`: a `fun` as the
        if trailing in ("fun", "λ"):  # last argument, unbracketed
            args.append(self._binder(trailing))
        return args

    def _expect(self, text: str) -> None:
        if self._peek() != text:
            raise _Fail
        self.at += 1

    def _binder(self, text: str) -> Node:
        separator = "=>" if text in ("fun", "λ") else ","
        start = i = self.at + 1
        relation = None
        while i < self.end and self.texts[i] != separator:
            if self.texts[i] in OPEN_CLOSE:
                i = self.partner.get(i, self.end)
            elif relation is None and self.texts[i] in HEADER_ENDS:  # `∀ x > 0`, `∑ j ∈ s`: the rest is a term
                relation = i
            i += 1
        if i >= self.end:
            raise _Fail
        header = self._verbatim(start, relation if relation is not None else i)
        if relation is not None:
            saved = self.at, self.end
            header += [_node("part", self.texts[relation]), *self.sequence(relation + 1, i)]
            self.at, self.end = saved
        self.at = i + 1
        level = BODY.get(text, 0)
        body = self._expr(level)
        return quantified(NORMAL, text, header, _node("part", separator), body, level)

    def _primary(self) -> Node:
        text = self._peek()
        if text is None:
            raise _Fail
        if text in OPEN_CLOSE:
            close = self.partner.get(self.at, self.end)
            if close >= self.end:
                raise _Fail
            node = self._group(self.at, close)
            self.at = close + 1
        elif _starts_atom(text):
            head, *names = fields(text)  # `s.card` is `card s`, `Set.univ.image f` is `image Set.univ f` (_answer_dots)
            node = NIL if head == "List.nil" else _node("atom", head)
            for name in names:  # `p.fst` is `p.1` (``_answer_nodes.projected``)
                if name in NUMBERED:
                    node = projected(node, name)
                else:
                    node = self.field = _node("app", "", [_node("atom", name), node], APP)
            self.at += 1
        else:
            raise _Fail
        while (nxt := self._peek()) is not None and (nxt in POSTFIX or nxt in (".", "⁻")):
            if nxt == "⁻":  # the lexer splits `⁻¹` in two
                if self.at + 1 >= self.end or self.texts[self.at + 1] != "¹":
                    break
                self.at += 1
                nxt = "⁻¹"
            elif nxt == ".":
                if self.at + 1 >= self.end or not _starts_atom(self.texts[self.at + 1]):
                    raise _Fail
                self.at += 1
                nxt = "." + self.texts[self.at]
            self.at += 1
            called = field_name(nxt)  # `(f n).succ` is `succ (f n)`, `(f x).1` stays
            if called and called not in NUMBERED:
                node = self.field = _node("app", "", [_node("atom", called), node], APP)
            elif nxt == "ᶜ":  # `{x | C}ᶜ` is `{x | ¬C}` (``_answer_sets``)
                node = complemented(node)
            else:  # `(a, b).1` is `a`, `(f x).fst` is `(f x).1` (``_answer_nodes.projected``)
                node = projected(node, nxt[1:]) if nxt[:1] == "." else _node("post", nxt, [node])
        return node


SYMBOL_ATOMS: Final = frozenset({"∅", "⊥", "⊤", "∞"})
"""Constants spelled by a symbol (red team 27: ``S ∪ ∅`` was no term to the reader, so its unit stayed)."""


def _starts_atom(text: str) -> bool:
    return (
        (starts_term(text) or text[:1] in "#'\"·" or text in SYMBOL_ATOMS)
        and text not in KEYWORDS
        and text not in BINDERS
    )
