"""Caches that share one candidate's tokens among the text gates of one verification.

G2, G3 and the answer record read the same candidate, so each prover lexes it once and keeps the result
in a small cache (two entries: a candidate and a normalised form of it). In the text gates' worker the
cached tokens of a verification are of no use to the next one, and while they live, every garbage
collection walks them (up to a million tokens for a file at the size cap): :func:`forget` empties every
such cache, and the gate worker calls it after each reply (``gate_worker``), so the tokens are freed at
once, by reference count, without the caller waiting for it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

T = TypeVar("T")
_CACHES: list[_lru_cache_wrapper[Any]] = []


def candidate_cache(function: Callable[..., T]) -> _lru_cache_wrapper[T]:
    """``lru_cache(maxsize=2)`` of ``function``, emptied by :func:`forget`."""
    cached = lru_cache(maxsize=2)(function)
    _CACHES.append(cached)
    return cached


def forget() -> None:
    """Empty every candidate cache (after a gate worker's reply)."""
    for cached in _CACHES:
        cached.cache_clear()
