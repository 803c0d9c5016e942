"""Typer plumbing for the ``putnam`` command, kept out of the ``cli`` package so that it stays flags and calls.

- Help: Typer 0.29 renders every boolean flag as if it took a value (``--axle <bool>``) and a required
  argument as ``{candidates}...`` in the usage line. :class:`PutnamCommand` shows flags bare and
  arguments the way Click does (``FILE...``, ``[FILE]...`` when optional).
- No traceback reaches a user: :class:`PutnamGroup` turns an exception no command turned into a message
  into one line on stderr and exit code 2 (``PUTNAM_TRACEBACK=1`` shows the traceback, for bug reports).
- Options whose value may be left out (``--ray [ADDRESS]``): Typer's Click requires a value, so
  :func:`fill_optional_values` writes the default in before Click parses the command line.
"""

from __future__ import annotations

import gc
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, get_args

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.models import CommandFunctionType

from putnam_solver.core.sandbox import stopping
from putnam_solver.extras import missing_extra_message
from putnam_solver.terminal import terminal_text


@contextmanager
def interrupts_stop_sandboxes() -> Iterator[None]:
    """While the body runs, a SIGINT first kills every live sandbox and refuses new ones
    (``core.sandbox.stopping``), then raises ``KeyboardInterrupt`` as Python's default handler does.
    Only in the main thread and only over the default handler; a command that installs its own while
    it runs (``solve``, the servers) wraps it with ``stopping`` meanwhile."""
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    previous = signal.signal(signal.SIGINT, stopping(signal.default_int_handler))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _shown_object(value: Any) -> Any:
    if isinstance(value, str):
        return terminal_text(value)
    if isinstance(value, Text) and not value.spans:  # one style for the whole line (the live view's lines)
        shown = value.copy()
        shown.plain = terminal_text(value.plain)
        return shown
    return value


class TerminalConsole(Console):
    """A rich console whose strings (and one-style ``Text`` lines) reach the terminal as text only
    (``terminal.terminal_text``)."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        super().print(*(_shown_object(o) for o in objects), **kwargs)


TRACEBACK_VARIABLE = "PUTNAM_TRACEBACK"
_stderr = TerminalConsole(stderr=True, highlight=False, soft_wrap=True)


def error(message: str) -> None:
    """Print ``error: message`` on stderr, as every command reports what stopped it."""
    _stderr.print(f"[red]error:[/red] {escape(message)}")


def warning(message: str) -> None:
    """Print ``warning: message`` on stderr."""
    _stderr.print(f"[yellow]warning:[/yellow] {escape(message)}")


METAVARS: dict[type, str] = {int: "N", float: "N", str: "TEXT"}
"""The value shown for an option whose declaration names none: one word per kind of value, the same on
every command (a path is PATH; a choice shows its choices; a name, a key or an address says so itself)."""


def _metavar(param: TyperOption) -> str | None:
    """What an option's help shows as its value: nothing for a flag, else by the value's type."""
    if param.is_flag:
        return ""
    desc = param.type_descriptor
    if desc.is_choice:
        return None
    if desc.is_path:
        return "PATH"
    annotation = get_args(desc.annotation)[0] if desc.is_list else desc.annotation
    return METAVARS.get(annotation) if isinstance(annotation, type) else None


def _bare_flags(params: list[Any]) -> list[Any]:
    """Options that name no metavar get the project's: flags show none (an empty metavar renders as
    nothing), numbers N, paths PATH, text TEXT; choices keep their list. Arguments show their metavar
    alone."""
    for param in params:
        if isinstance(param, TyperOption) and param.metavar is None:
            param.metavar = _metavar(param)
        elif isinstance(param, TyperArgument):
            param.display_type_rich = _no_type  # type: ignore[method-assign]  # RUN_DIR, FILE... say what they are
    return params


def _no_type(ctx: Any) -> None:
    """An argument's help shows its metavar and no Typer type name (``<path>``, ``<list[Path]>``)."""
    return None


def _argument_usage(argument: TyperArgument) -> str:
    name = argument.metavar or (argument.name or "ARG").upper()
    if argument.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name if argument.required else f"[{name}]"


def _unwrapped(text: str | None) -> str | None:
    """Help text with the line breaks of a wrapped docstring joined, so the terminal wraps it (Typer's
    rich help keeps every newline); paragraphs stay apart."""
    if text is None:
        return None
    paragraphs = (" ".join(line.strip() for line in p.splitlines()) for p in text.strip().split("\n\n"))
    return "\n\n".join(paragraphs)


def summary(text: str) -> str:
    """The first sentence of a command's help: its one line in ``putnam --help``'s list of commands."""
    first = text.split("\n\n", 1)[0]
    sentence = re.split(r"(?<=[^.][.;:])\s", first, maxsplit=1)[0]
    return sentence.rstrip(".;:")


class PutnamCommand(TyperCommand):
    """A command whose help shows flags without a value type and arguments by their metavar, and its
    description as paragraphs the terminal wraps."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = _unwrapped(self.help)
        if self.short_help is None and self.help:
            self.short_help = summary(self.help)

    def get_params(self, ctx: Any) -> list[Any]:
        return _bare_flags(super().get_params(ctx))

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                pieces.append(_argument_usage(param))
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces


OPTIONAL_VALUES: dict[str, tuple[str, re.Pattern[str]]] = {
    "--ray": ("auto", re.compile(r"auto|local|ray://\S+|[^\s/:]+:\d+")),
}
"""Option -> (its value when none is given, what a value of it looks like)."""


def fill_optional_values(args: Sequence[str]) -> list[str]:
    """``args`` with the default written after each option of ``OPTIONAL_VALUES`` given without a value:
    at the end, before another option, or before a word that is not such a value (``--ray proofs/``
    is ``--ray auto proofs/``: a file, not an address). Everything after ``--`` is left alone."""
    filled: list[str] = []
    for index, arg in enumerate(args):
        filled.append(arg)
        if arg == "--":
            return filled + list(args[index + 1 :])
        if arg in OPTIONAL_VALUES:
            default, value = OPTIONAL_VALUES[arg]
            following = args[index + 1] if index + 1 < len(args) else None
            if following is None or not value.fullmatch(following):
                filled.append(default)
    return filled


class PutnamGroup(TyperGroup):
    """The ``putnam`` group: the same help rendering, and the last guard against tracebacks."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _bare_flags(super().get_params(ctx))

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        """Typer's own ``main`` handles usage errors, exits and broken pipes; what is left is a crash.
        A Ctrl-C stops every sandbox at once (the gates' worker threads are not left compiling)."""
        try:
            with interrupts_stop_sandboxes():
                return super().main(fill_optional_values(sys.argv[1:] if args is None else args), *rest, **kwargs)
        except Exception as exc:
            if os.environ.get(TRACEBACK_VARIABLE):
                raise
            error(_unexpected(exc, _command(sys.argv[1:] if args is None else args)))
            sys.exit(2)


def _command(args: Sequence[str]) -> str | None:
    """``putnam solve`` for ``solve --model ...``: the command the user ran (its first word), if any."""
    word = next((a for a in args if not a.startswith("-")), None)
    return f"putnam {word}" if word else None


def _unexpected(exc: Exception, command: str | None = None) -> str:
    missing = missing_extra_message(exc, command)
    if missing is not None:
        return missing
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror} (the command stopped here; check the path and its permissions)"
    return (
        f"unexpected {type(exc).__name__}: {exc}. This is a bug in putnam; please report it with the "
        f"output of the same command run with {TRACEBACK_VARIABLE}=1"
    )


HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
"""``-h`` as well as ``--help``, on every command and group."""


class PutnamTyper(typer.Typer):
    """A Typer app whose commands are :class:`PutnamCommand` and whose groups are :class:`PutnamGroup`."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", PutnamGroup)
        kwargs.setdefault("context_settings", HELP_OPTIONS)
        kwargs.setdefault("rich_markup_mode", "markdown")  # NAME[@VARIANT] is text, not a Rich style tag
        super().__init__(**kwargs)

    def command(self, name: str | None = None, **kwargs: Any) -> Callable[[CommandFunctionType], CommandFunctionType]:
        kwargs.setdefault("cls", PutnamCommand)
        kwargs.setdefault("context_settings", HELP_OPTIONS)
        return super().command(name, **kwargs)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Import a large stack and build what a long-running command serves with Python's cycle collector
    off, then keep what was built out of every later collection (``gc.freeze``) and turn the collector
    back on.

    An import of the MCP SDK builds some 600 pydantic model classes; the collector, run every few hundred
    new objects, walks the growing heap each time (about a fifth of the import's time, mostly in full
    collections of objects that live as long as the process). Nothing is freed later than it would be
    otherwise except cyclic garbage made in here (some 900 objects for the SDK), which stays for the
    life of the process."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
