"""What a compiled candidate module would make Lean run when a harness file imports it.

Every harness file that reads the candidate's compiled module (G5's ``#print axioms``, the statement
check, the yes/no decision, the answer check) is a Lean file that ``import``s it, and `lean` imports with
initializers enabled: its C++ ``lean_main`` calls ``lean_enable_initializer_execution`` before it reads
any option (leanprover/lean4 src/util/shell.cpp), and the ``[init]`` attribute's ``afterImport`` then
evaluates, in the interpreter, each ``IO Unit`` declaration an imported module tagged ``@[init]``
(src/Lean/Compiler/InitAttr.lean, ``registerInitAttrUnsafe``: ``if runAfterImport && (←
isInitializerExecutionEnabled)`` ... ``evalConst (IO Unit) ctx.opts decl``). Such code runs before the
harness file's first command, in the harness's own process: it can print the very ``--json`` line the gate
reads (a forged "does not depend on any axioms" at the ``#print axioms`` line) and exit 0. Checked on the
real Lean 4.35 kernel of the tests (red team 28): a module with one ``@[init]`` declaration made G5 pass a
theorem proved from an ``axiom``. G3 refuses every way of writing such a declaration it knows
(``initialize``, ``@[init]``, the library commands that expand to ``initialize``); this module is the check
by meaning behind those words: the ``.olean`` is read as data, before anything imports it, and a module
with entries for an extension whose import runs the module's code is never imported (``axioms.compiled_module``).

The reader knows the one format Lean has written since 4.12 (header version 2, leanprover/lean4
src/library/module.cpp ``olean_header``: the marker ``olean``, a version byte, a flags byte, 33 bytes of
Lean version, 40 of githash, the 8-byte address the file is mapped at), followed by the compacted object
graph (src/runtime/compact.cpp, ``compacted_region::read``: the root's address first, then the objects,
every pointer an address in that mapping). The root is ``ModuleData`` (src/Lean/Environment.lean; its
five object fields end with ``entries : Array (Name × Array EnvExtensionEntry)``, one pair per extension
with entries, a ``Bool`` ``isModule`` being a scalar after them where it exists). Anything else (another
version, a pointer outside the file, an object of an unexpected kind) raises OleanError: never imported.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import Final

HEADER: Final = 5 + 1 + 1 + 33 + 40
"""Bytes before the mapping address (``olean_header``'s marker, version, flags, Lean version, githash)."""
VERSION: Final = 2
_CTOR_MAX_TAG: Final = 244  # LeanMaxCtorTag (src/include/lean/lean.h)
_ARRAY: Final = 246  # LeanArray
_STRING: Final = 249  # LeanString
_MODULE_DATA_FIELDS: Final = 5
_NAME_DEPTH: Final = 64

LOAD_TIME_EXTENSIONS: Final = {
    "Lean.regularInitAttr": "`[init]` declarations, run when the module is imported (`initialize`)",
    "Lean.builtinInitAttr": "`[builtin_init]` declarations (`builtin_initialize`): code for load time",
    "Lean.Parser.parserExtension": "parsers, evaluated when the module is imported (`syntax`)",
    "parserExt": "parsers, evaluated when the module is imported (`syntax`)",
    "Lean.Elab.macroAttribute": "macros, evaluated when the module is imported (`macro`, `@[macro]`)",
    "Lean.Elab.Term.termElabAttribute": "term elaborators, evaluated when the module is imported",
    "Lean.Elab.Command.commandElabAttribute": "command elaborators, evaluated when the module is imported",
    "Lean.Elab.Tactic.tacticElabAttribute": "tactics, evaluated when the module is imported",
    "Lean.PrettyPrinter.Delaborator.delabAttribute": "delaborators, evaluated when the module is imported",
    "Lean.PrettyPrinter.Delaborator.appUnexpanderAttribute": "unexpanders, evaluated when the module is imported",
    "simproc": "simplification procedures, evaluated when the module is imported",
    "Lean.Meta.Simp.simprocExtension": "simplification procedures, evaluated when the module is imported",
    "Mathlib.Meta.NormNum.normNumExt": "`norm_num` extensions, evaluated when the module is imported",
    "Mathlib.Meta.Positivity.positivityExt": "`positivity` extensions, evaluated when the module is imported",
    # round 30: the pretty printer's keyed attributes are `KeyedDeclsAttribute`s as the delaborators are
    # (src/Lean/PrettyPrinter/Formatter.lean `mkFormatterAttribute`; Parenthesizer.lean
    # `mkParenthesizerAttribute`, `mkCategoryParenthesizerAttribute`), and so are quotation prechecks
    # (src/Lean/Elab/Quotation/Precheck.lean `mkPrecheckAttribute`). Not listed: the combinator attributes
    # (src/Lean/ParserCompiler/Attribute.lean), where Lean's parser compiler itself records the printers it
    # makes for every `syntax` and `notation`, a `local notation` of a published proof included; they run
    # only when such syntax is printed, and G3 refuses writing the attribute by hand
    "Lean.PrettyPrinter.formatterAttribute": "formatters, evaluated when the module is imported",
    "Lean.PrettyPrinter.parenthesizerAttribute": "parenthesizers, evaluated when the module is imported",
    "Lean.PrettyPrinter.categoryParenthesizerAttribute": "parenthesizers, evaluated when the module is imported",
    "Lean.Elab.Term.Quotation.precheckAttribute": "quotation prechecks, evaluated when the module is imported",
    # code actions: the hole and command ones are evaluated by the extension's `addImportedFn`
    # (src/Lean/Server/CodeActions/Attr.lean `mkHoleCodeAction`, `mkCommandCodeAction`: `evalConstCheck`),
    # Batteries' tactic ones likewise (Batteries/CodeAction/Attr.lean:41,46,74,86 at 45f65c8b), the
    # providers by the server (src/Lean/Server/CodeActions/Basic.lean `codeActionProviderExt`, named by
    # `decl_name%` now, by `name :=` before)
    "Lean.CodeAction.holeCodeActionExt": "hole code actions, evaluated when the module is imported",
    "Lean.CodeAction.cmdCodeActionExt": "command code actions, evaluated when the module is imported",
    "Batteries.CodeAction.tacticSeqCodeActionExt": "tactic code actions, evaluated when the module is imported",
    "Batteries.CodeAction.tacticCodeActionExt": "tactic code actions, evaluated when the module is imported",
    "Lean.Server.codeActionProviderExt": "code action providers, evaluated by the language server",
    "codeActionProviderExt": "code action providers, evaluated by the language server",
    # Mathlib's other extensions whose `addImportedFn` runs `evalConstCheck` (at f4a75053 of a mirror):
    # Mathlib/Tactic/GCongr/ForwardAttr.lean:27,30; Mathlib/Tactic/TacticAnalysis.lean:111,120;
    # Mathlib/Tactic/Polynomial/Core.lean:56,59
    "Mathlib.Tactic.GCongr.forwardExt": "`gcongr_forward` extensions, evaluated when the module is imported",
    "Mathlib.TacticAnalysis.tacticAnalysisExt": "tactic analysis passes, evaluated when the module is imported",
    "Mathlib.Tactic.Polynomial.polynomialExt": "`polynomial` extensions, evaluated when the module is imported",
}
"""Extensions whose entries make an import run code of the module that has them, by the name Lean
registers them under (the declaration's, ``with_decl_name%`` / ``decl_name%``; older parser extensions
``parserExt``): the ``init`` attribute (above), the parser extension (src/Lean/Parser/Extension.lean:
``OLeanEntry.toEntry`` calls ``mkParserOfConstant``, which evaluates the parser), and the keyed attributes
of macros, elaborators and delaborators (src/Lean/KeyedDeclsAttribute.lean: ``ofOLeanEntry`` calls
``evalConstCheck``), simplification procedures (src/Lean/Meta/Tactic/Simp/Simproc.lean: ``toSimprocEntry``
calls ``getSimprocFromDecl``, an ``evalConstCheck``; ``simproc`` the older name) and Mathlib's ``norm_num``
and ``positivity`` extensions (Mathlib/Tactic/NormNum/Core.lean: ``ofOLeanEntry`` calls ``mkNormNumExt``,
an ``evalConstCheck``; Positivity likewise). The list names what Lean and Mathlib register, so a library
extension it does not name is not covered: the ``init`` attribute, whose import runs ``IO`` unasked, is
the one checked on the real kernel of the tests (red team 28); G3's words stay the first line for all.
No module that G2 and G3 admit has entries in any of them."""


class OleanError(Exception):
    """The file is not a compiled module in the format this reader knows."""


class _Region:
    """The object graph of one ``.olean``: objects addressed as Lean wrote them (``base`` + offset)."""

    def __init__(self, data: bytes) -> None:
        if len(data) < HEADER + 16 or data[:5] != b"olean":
            raise OleanError("not a compiled Lean module (no `olean` header)")
        if data[5] != VERSION:
            raise OleanError(f".olean header version {data[5]}, this reader knows version {VERSION}")
        self.data = data
        self.base, self.root = struct.unpack_from("<QQ", data, HEADER)

    def _header(self, pointer: int, size: int = 8) -> tuple[int, int, int]:
        """(offset, m_other, m_tag) of the object at ``pointer``, which must lie inside the file."""
        offset = pointer - self.base
        if pointer & 1 or pointer & 7 or not HEADER + 16 <= offset <= len(self.data) - size:
            raise OleanError(f"a pointer outside the module's objects ({pointer:#x})")
        _rc, _size, other, tag = struct.unpack_from("<iHBB", self.data, offset)
        return offset, other, tag

    def fields(self, pointer: int, count: int | None = None) -> tuple[int, ...]:
        """The object fields of the constructor object at ``pointer`` (exactly ``count`` when given)."""
        offset, other, tag = self._header(pointer)
        if tag > _CTOR_MAX_TAG or (count is not None and other != count):
            raise OleanError(f"expected a constructor with {count} fields, found tag {tag} with {other}")
        self._header(pointer, 8 + 8 * other)
        return struct.unpack_from(f"<{other}Q", self.data, offset + 8)

    def array(self, pointer: int) -> tuple[int, ...]:
        offset, _other, tag = self._header(pointer, 24)
        if tag != _ARRAY:
            raise OleanError(f"expected an array, found an object with tag {tag}")
        (size,) = struct.unpack_from("<Q", self.data, offset + 8)
        self._header(pointer, 24 + 8 * size)
        return struct.unpack_from(f"<{size}Q", self.data, offset + 24)

    def string(self, pointer: int) -> str:
        offset, _other, tag = self._header(pointer, 32)
        if tag != _STRING:
            raise OleanError(f"expected a string, found an object with tag {tag}")
        (size,) = struct.unpack_from("<Q", self.data, offset + 8)  # bytes, with the final NUL
        self._header(pointer, 32 + size)
        try:
            return self.data[offset + 32 : offset + 31 + size].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise OleanError("a name that is not UTF-8") from exc

    def name(self, pointer: int) -> str:
        """A ``Lean.Name`` (``anonymous`` is the scalar 0; ``str p s`` tag 1, ``num p n`` tag 2), dotted."""
        parts: list[str] = []
        while pointer != 1:  # lean_box(0): Name.anonymous
            if len(parts) >= _NAME_DEPTH:
                raise OleanError("a name nested deeper than any extension's")
            _offset, _other, tag = self._header(pointer)
            prefix, last = self.fields(pointer, 2)
            if tag == 1:
                parts.append(self.string(last))
            elif tag == 2 and last & 1:
                parts.append(str(last >> 1))
            else:
                raise OleanError(f"expected a name, found tag {tag}")
            pointer = prefix
        return ".".join(reversed(parts))


def extension_entries(data: bytes) -> Iterator[tuple[str, int]]:
    """Each extension the module has entries for, with how many (``ModuleData.entries``)."""
    region = _Region(data)
    entries = region.fields(region.root, _MODULE_DATA_FIELDS)[-1]
    for pair in region.array(entries):
        name, items = region.fields(pair, 2)
        yield region.name(name), len(region.array(items))


def load_time_code(data: bytes) -> list[str]:
    """What importing the module would run, one line per extension of :data:`LOAD_TIME_EXTENSIONS` it has
    entries for (empty when nothing); OleanError when the file cannot be read."""
    return [
        f"{count} {LOAD_TIME_EXTENSIONS[name]} ({name})"
        for name, count in extension_entries(data)
        if count and name in LOAD_TIME_EXTENSIONS
    ]


def imported_modules(data: bytes) -> list[str]:
    """The modules the compiled module imports (``ModuleData.imports``; each ``Import``'s first object field
    is the module's name, its flags are scalars), ``Init`` included where Lean added it to a header."""
    region = _Region(data)
    imports = region.fields(region.root, _MODULE_DATA_FIELDS)[0]
    found = []
    for entry in region.array(imports):
        fields = region.fields(entry)
        if not fields:
            raise OleanError("an import without a module name")
        found.append(region.name(fields[0]))
    return found
