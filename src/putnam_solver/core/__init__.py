"""The trusted core: pinned benchmarks, the sandbox, the provers' gates and the pipeline that folds them
into a Verdict. It is everything a verdict depends on, and nothing else: it imports no other part of
the project, no agent, no Inspect AI, no asyncio and no network client (G7's AXLE client is registered
from outside as an external check), in no circle (tests/unit/test_trust_boundary.py), so
``putnam verify`` works, and can be audited, without the run machinery.

Given these assumptions:

1. The benchmark file's bytes match their pinned SHA-256 (G1 checks it), and the challenge is derived
   here from that record, never read from a model's workspace.
2. The tool binaries (``lean``, ``coqc``, ``coqchk``, comparator and what it runs) are the ones resolved,
   hashed and recorded in the toolchain fingerprint, and their kernels are correct except for the known
   critical bugs the provers list per version (and work around).
3. bubblewrap, the kernel's namespaces, rlimits, cgroups and Landlock confine what they promise to.
4. Whoever can write the toolchain, the cache directory or this package's code is trusted.

an ``accepted`` verdict guarantees that:

1. Every gate of the chosen profile ran to completion and passed; a gate that timed out, hit a cap,
   crashed, could not start or read anything it did not expect is ``error`` or ``unavailable``, never a
   pass, and such a verdict is never cached.
2. The candidate's bytes (hashed in the verdict) keep the pinned statement: the text gates compare it
   token by token with the challenge and refuse what could change its meaning unless a semantic check of
   the same acceptance decides it (Lean G6 comparator, Rocq G5 trusted type check).
3. It contains no forbidden construct (G3) and compiles in a fresh sandbox (G4); its theorem rests only
   on the permitted axioms (G5) and passes an independent kernel check (G6).
4. Nothing the candidate printed was read as a result: statuses come from exit codes and from files the
   harness reads itself (without following links, regular files only, under a size cap).

What serves the core lives outside it and may import it, never the reverse: the prover kits
(``putnam_solver.kits``: installers, warm sessions for the agent, policy texts, doctor's rows), the
verifier front (``putnam_solver.verifier``: batches of candidate files, where gate work runs), proof
bundles, the selftest runner and the AXLE client.
"""
