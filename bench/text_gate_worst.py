"""Time the text gates (G1-G3 via run_gates, profile text) on the worst inputs we know, 1 MiB each.

Each input is a valid sample candidate with one pathological payload repeated up to the 1 MiB size cap,
once after the theorem and once inside its proof: deep and unclosed brackets of every kind, nested and
unterminated comments, strings, long identifiers and numbers, many commands or sentences, attribute lists,
``... in`` prefixes, bullets. Every verification must end within the goal (2 s) with a verdict; the
script prints each time, its ratio to the goal and the verdict, then the slowest, and exits 1 if any
input missed the goal or crashed. The time bound of the gates is set far above the goal, so that a slow
gate shows as slow instead of as an ``error``. Beside the wall time it prints the CPU time the harness
and its gate worker spent (Linux ``/proc``): on a loaded machine the wall time is mostly waiting.
Usage: ``python bench/text_gate_worst.py [lean|rocq ...]``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from putnam_solver.core.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.verify import DEFAULT_MAX_CANDIDATE_BYTES, Profile, Track, VerifyOptions, run_gates

ROOT = Path(__file__).resolve().parents[1]
GOAL_S = 2.0
CAP = DEFAULT_MAX_CANDIDATE_BYTES

COMMON = {
    "deep (": "(",
    "balanced ( )": "(\n)",
    "deep {": "{",
    "deep [": "[",
    "long identifier": "a",
    "long dotted name": "a.",
    "long number": "1",
    "dotted number": "1.",
    "many strings": '"a" ',
    "spaces": " ",
    "line breaks": "\n",
}
LEAN = {
    "nested /-": "/-",
    "balanced /- -/": "/- -/",
    "unterminated /-": "/-" + "x" * 64,
    "many line comments": "-- x\n",
    "many doc comments": "/-- x -/\n",
    "unterminated string": '"' + "a" * 64,
    "string escapes": '"\\n',
    "many commands": "theorem t : True := trivial\n",
    "deep @[": "@[",
    "many ⟨": "⟨",
    "« escape": "«" + "x" * 64,
    "char literals": "'a' ",
    "open ... in prefixes": "open Nat in\n",
    "set_option ... in prefixes": "set_option maxHeartbeats 0 in\n",
    "namespace/end": "namespace A\nend A\n",
    "fun binders": "fun x => ",
    "tactic lines": "  simp\n",
    "configuration items": " simp (maxSteps := 1) +arith (zeta := {a := (b := 1)})\n",
    "trace words": " trace x\n",
    "Aesop rule lists": "@[aesop safe] ",  # red team 31: a declaration's lists judged together
    "unclosed Aesop clauses": " aesop (add safe zz ",
}
ROCQ = {
    "nested (*": "(*",
    "balanced (* *)": "(* *)",
    "unterminated (*": "(*" + "x" * 64,
    "unterminated string": '"' + "a" * 64,
    'string with ""': '""',
    "many sentences": "Check nat. ",
    "many definitions": "Definition x := 0.\n",
    "bullets": "- ",
    "braces { }": "{ } ",
    "modules": "Module M. End M.\n",
    "match arms": "match x with | _ => ",
    "Ltac sequences": "idtac; ",
    "attributes #[": "#[",
}


def repeat_to(unit: str, room: int) -> str:
    """``unit`` repeated to fill ``room`` bytes of UTF-8 (at most)."""
    return unit * max(1, room // len(unit.encode()))


def cases(prover_name: str) -> Iterator[tuple[str, Prover, Benchmark, Problem, bytes]]:
    """(label, prover, benchmark, problem, candidate) for each payload, after the theorem and in its proof."""
    samples = ROOT / "samples" / prover_name
    bench = load_benchmark(samples / "benchmark.jsonl")
    problem_id = "sample_sum_odds" if prover_name == "rocq" else min(bench.problems)
    problem, prover = bench.problems[problem_id], get_prover(prover_name)
    valid = (samples / "proofs" / f"{problem_id}{prover.suffix}").read_text(encoding="utf-8")
    proof_mark = "Proof.\n" if prover_name == "rocq" else ":= "
    room = CAP - len(valid.encode()) - 64
    for label, unit in {**COMMON, **(ROCQ if prover_name == "rocq" else LEAN)}.items():
        payload = repeat_to(unit, room)
        yield f"{label} (after)", prover, bench, problem, (valid + "\n" + payload).encode()
        inside = valid.replace(proof_mark, proof_mark + payload + "\n", 1)
        yield f"{label} (in the proof)", prover, bench, problem, inside.encode()


def cpu_seconds() -> float:
    """CPU time of this process and of its live children (the gate worker), from ``/proc``."""
    me, total = os.getpid(), time.process_time()
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me:
                total += (int(fields[11]) + int(fields[12])) / tick
    return total


def main(provers: list[str]) -> int:
    options = VerifyOptions(profile=Profile.TEXT, text_gate_seconds=600.0)
    rows: list[tuple[float, str, str]] = []
    for prover_name in provers:
        for label, prover, bench, problem, candidate in cases(prover_name):
            assert len(candidate) <= CAP, (label, len(candidate))
            start, cpu = time.perf_counter(), cpu_seconds()
            try:
                status = run_gates(prover, bench, problem, candidate, Track.WITH_ANSWER, options).status
            except Exception as exc:  # a crash is a finding, reported as such
                status = f"CRASH {type(exc).__name__}: {exc}"
            seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
            rows.append((seconds, f"{prover_name}: {label}", status))
            print(f"{prover_name:5} {label:40} {len(candidate) / 2**20:4.2f} MiB {seconds:6.2f} s "
                  f"(cpu {cpu:5.2f} s) time/goal = {seconds / GOAL_S:4.2f}  {status}", flush=True)  # fmt: skip
    missed = [r for r in rows if r[0] > GOAL_S or r[2].startswith("CRASH")]
    worst = max(rows)
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{len(rows)} inputs; slowest {worst[1]}: {worst[0]:.2f} s (time/goal = {worst[0] / GOAL_S:.2f}); "
          f"{len(missed)} over the {GOAL_S:g} s goal or crashed")  # fmt: skip
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["lean", "rocq"]))
