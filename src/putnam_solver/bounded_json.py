"""JSON from someone else (a bundle's manifest, a ledger's JSON columns, a file a user hands over), parsed
with a size and a nesting limit.

Python's ``json`` recurses once per nesting level: a document a hundred thousand ``[`` deep ends in a
``RecursionError`` (or worse, a crashed interpreter on a small stack) long before it is found invalid. The
nesting depth is therefore measured first, by a linear scan that never recurses (``core.json_depth``, which
the benchmark loader uses too), and a document over either limit is refused with an ``InputError`` (exit
code 2) that says which limit and where.
"""

from __future__ import annotations

import json
from typing import Any

from putnam_solver.core.json_depth import MAX_DEPTH, nesting_depth
from putnam_solver.core.util import InputError

MAX_BYTES = 64 << 20
"""The default size cap: larger than any ledger row or manifest putnam writes."""


def check_depth(text: str, where: str, max_depth: int = MAX_DEPTH) -> None:
    """InputError when ``text`` nests deeper than ``max_depth`` (before ``json`` recurses into it)."""
    depth = nesting_depth(text)
    if depth > max_depth:
        raise InputError(f"{where}: JSON nested {depth} levels deep, over the limit of {max_depth}; refused")


def loads(data: str | bytes, where: str, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse ``data`` as JSON, refusing (InputError, naming ``where``) what is over ``max_bytes``, nested
    deeper than ``max_depth``, not UTF-8 or not JSON."""
    if len(data) > max_bytes:
        raise InputError(f"{where}: {len(data)} bytes of JSON, over the limit of {max_bytes}; refused unread")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise InputError(f"{where}: not UTF-8 (byte {exc.start}); refused") from exc
    check_depth(text, where, max_depth)
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InputError(f"{where}: not valid JSON ({exc})") from exc
