"""Prover kits: what a proof language offers beyond its gates (installers, doctor's rows, the agent's
workspace, warm sessions, policy texts, selftest canaries), outside the trusted package (``kit``)."""

from putnam_solver.kits.installing import InstallError, InstallRequest, InstallStep
from putnam_solver.kits.kit import KITS_GROUP, ProverKit, Readiness, get_kit

__all__ = ["KITS_GROUP", "InstallError", "InstallRequest", "InstallStep", "ProverKit", "Readiness", "get_kit"]
