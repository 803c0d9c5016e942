"""What ``--ray`` and its resource flags say, apart from the Ray machinery (``cluster.ray``), so that the
commands that declare these flags (``serve``, ``verify``, ``solve``, ``audit``) and share a module with
``putnam mcp`` do not import the cluster's code to show or default them."""

from __future__ import annotations

from dataclasses import dataclass

RAY_EXTRA = "putnambench-solver[ray]"
"""The extra every node of the cluster installs (``--ray``'s help and its error when Ray is missing)."""


@dataclass(frozen=True)
class RaySettings:
    """How to reach the cluster and what each task may hold (``--ray``, ``--ray-cpus`` ...)."""

    address: str = "auto"
    """``auto`` (a cluster started with ``ray start`` on this machine), ``host:port`` of its head, a
    ``ray://`` client address, or ``local`` (a private one-node cluster for this run)."""
    num_cpus: float = 1.0
    """CPUs each task reserves on its node (a Lean build is single-threaded per file)."""
    memory_mb: int = 4096
    """Memory each task reserves on its node (Ray's ``memory`` resource), so a node with M MB runs at
    most M / memory_mb verifications at once."""
    max_retries: int = 2
    """Times a task is sent again after its worker or node died (then the verdict is an error)."""
