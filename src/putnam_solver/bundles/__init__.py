"""Proof bundles: a run's accepted proofs with their challenges and verdicts, portable and checkable by
anyone with ``putnam verify --bundle`` (every proof verified again on the checker's own machine).

``files`` writes and reads the bundle's bytes under bounds; ``bundle`` names its files, loads its
entries and checks them. Neither decides a verdict: the check calls the trusted pipeline.
"""

from putnam_solver.bundles.bundle import (
    INDEX,
    Bundle,
    BundleCheck,
    BundleEntry,
    challenge_name,
    check_bundle,
    check_manifest,
    load_bundle,
    proof_name,
    table_lines,
    verdict_name,
)
from putnam_solver.bundles.files import (
    FORMAT,
    VERSION,
    BundleError,
    is_archive_name,
    read_bundle_files,
    write_bundle,
)

__all__ = [
    "FORMAT",
    "INDEX",
    "VERSION",
    "Bundle",
    "BundleCheck",
    "BundleEntry",
    "BundleError",
    "challenge_name",
    "check_bundle",
    "check_manifest",
    "is_archive_name",
    "load_bundle",
    "proof_name",
    "read_bundle_files",
    "table_lines",
    "verdict_name",
    "write_bundle",
]
