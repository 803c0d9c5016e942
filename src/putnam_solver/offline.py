"""What to do without the network, said where a download fails: ``putnam dataset fetch`` and ``putnam
bootstrap`` are the only commands that need one, and each has an offline way to the same end."""

from __future__ import annotations

import re

NETWORK_FAILURE = re.compile(
    r"could not resolve host|temporary failure in name resolution|name or service not known|"
    r"network is unreachable|no route to host|failed to connect|could not connect|connection (refused|timed out)|"
    r"curl: \((6|7|28|35)\)|unable to access",
    re.IGNORECASE,
)
"""What git, curl, elan and Lake print when the network is not there (git's ``unable to access`` always
comes with the cause; curl's exit codes 6, 7, 28, 35: resolve, connect, timeout, TLS handshake)."""

DATASET_OFFLINE = (
    "no network needed for the benchmark files: they ship with putnam byte for byte as pinned (`putnam check` "
    "shows the copy used); to rebuild them without the network, clone the upstream elsewhere and pass "
    "--source ID=PATH (with --revision ID=REV if the clone lacks the pinned commit)"
)
BOOTSTRAP_OFFLINE = (
    "without the network: Rocq needs no download beyond your system's packages (apt or opam, docs/rocq.md); "
    "Lean's text gates run without a toolchain (`putnam verify --gates text`); an installed `lean` serves "
    "G4/G5 through --tool lean=PATH (or PUTNAM_LEAN) with its LEAN_PATH; or run `putnam bootstrap` on a "
    "machine with the network and copy its toolchain directory here to the same path (PUTNAM_TOOLCHAIN_DIR)"
)


def with_offline_hint(message: str, alternatives: str) -> str:
    """``message``, followed by ``alternatives`` when it says the network could not be reached."""
    return f"{message}\n{alternatives}" if NETWORK_FAILURE.search(message) else message


__all__ = ["BOOTSTRAP_OFFLINE", "DATASET_OFFLINE", "with_offline_hint"]
