"""AXLE, the Axiom Lean Engine's ``verify_proof`` over HTTP: the client behind G7, outside the trusted
package (which holds no network code) and registered as the ``axle`` external check."""

from putnam_solver.axle.gate import AXLE_CHECK, AxleCheck, axle_gate, axle_readiness, axle_serves

__all__ = ["AXLE_CHECK", "AxleCheck", "axle_gate", "axle_readiness", "axle_serves"]
