"""Reading a proof bundle is handling untrusted input: archives whose members point outside, links,
devices, bombs and manifests that do not match are refused with the file (and problem) named, and a
bundle written by ``write_bundle`` reads back exactly, whatever way it was packed."""

from __future__ import annotations

import gzip
import io
import json
import os
import tarfile
from pathlib import Path

import pytest

from putnam_solver.bundles import BundleError, check_manifest, load_bundle, read_bundle_files, write_bundle
from putnam_solver.bundles import files as bundle

PROOF = b"Theorem t : True.\nProof. exact I. Qed.\n"


def files(problem: str = "sample_true") -> dict[str, bytes]:
    index = {
        "format": bundle.FORMAT,
        "version": bundle.VERSION,
        "prover": "rocq",
        "track": "with-answer",
        "benchmark": {"name": "benchmark.jsonl", "sha256": "a" * 64, "pin": None},
        "toolchain": {"fingerprints": ["coq"]},
        "problems": [{"problem": problem, "toolchain": "coq"}],
    }
    verdicts = {"problem": problem, "submission": {"status": "accepted", "candidate_sha256": "0" * 64}, "audit": None}
    return {
        "bundle.json": json.dumps(index).encode(),
        f"proofs/{problem}.v": PROOF,
        f"verdicts/{problem}.json": json.dumps(verdicts).encode(),
    }


def archive(path: Path, members: list[tuple[tarfile.TarInfo, bytes]], compressed: bool = True) -> Path:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            info.size = len(data) if info.isreg() else 0
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    raw = buffer.getvalue()
    path.write_bytes(gzip.compress(raw) if compressed else raw)
    return path


def member(name: str, kind: bytes = tarfile.REGTYPE, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


@pytest.mark.parametrize("name", ["bundle", "bundle.tar.gz", "bundle.tgz", "bundle.tar"])
def test_a_written_bundle_reads_back_exactly_with_its_manifest(tmp_path: Path, name: str) -> None:
    write_bundle(tmp_path / name, files())
    read = read_bundle_files(tmp_path / name)
    manifest = json.loads(read.pop("manifest.json"))
    assert read == files()
    assert set(manifest["files"]) == set(files())
    check_manifest(tmp_path / name, {**read, "manifest.json": json.dumps(manifest).encode()})
    loaded = load_bundle(tmp_path / name)
    assert [(e.problem, e.candidate, e.claimed) for e in loaded.entries] == [
        ("sample_true", PROOF, "accepted (for other bytes)")
    ]
    with pytest.raises(BundleError, match="already exists"):
        write_bundle(tmp_path / name, files())


def test_archives_are_reproducible_and_a_bundle_packed_in_its_folder_is_read(tmp_path: Path) -> None:
    write_bundle(tmp_path / "a.tar.gz", files())
    write_bundle(tmp_path / "b.tar.gz", files())
    assert (tmp_path / "a.tar.gz").read_bytes() == (tmp_path / "b.tar.gz").read_bytes()
    write_bundle(tmp_path / "folder", files())
    with tarfile.open(tmp_path / "packed.tgz", "w:gz") as tar:  # what `tar czf packed.tgz folder` makes
        tar.add(tmp_path / "folder", arcname="folder")
    assert load_bundle(tmp_path / "packed.tgz").entries[0].candidate == PROOF


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (member("../outside.v"), "a name with '..'"),
        (member("proofs/../../outside.v"), "a name with '..'"),
        (member("/tmp/outside.v"), "an absolute path"),
        (member("proofs/sample_true.v", tarfile.SYMTYPE, "/etc/passwd"), "a symbolic link"),
        (member("proofs/sample_true.v", tarfile.LNKTYPE, "bundle.json"), "a hard link"),
        (member("proofs/fifo.v", tarfile.FIFOTYPE), "a device or FIFO"),
        (member("proofs/dev.v", tarfile.CHRTYPE), "a device or FIFO"),
    ],
    ids=["dotdot", "nested-dotdot", "absolute", "symlink", "hardlink", "fifo", "device"],
)
def test_archive_members_that_are_not_plain_files_inside_the_bundle_are_refused(
    tmp_path: Path, bad: tarfile.TarInfo, message: str
) -> None:
    good = [(member(n), d) for n, d in files().items()]
    path = archive(tmp_path / "evil.tar.gz", [*good, (bad, b"x")])
    with pytest.raises(BundleError, match=message) as caught:
        load_bundle(path)
    assert str(path) in str(caught.value)
    assert not (tmp_path / "outside.v").exists() and not Path("/tmp/outside.v").exists()


def test_size_and_count_caps_hold_even_for_what_gzip_inflates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bundle, "MAX_FILE_BYTES", 100)
    big = archive(tmp_path / "big.tar.gz", [(member("proofs/sample_true.v"), b"x" * 101)])
    with pytest.raises(BundleError, match=r"proofs/sample_true.v \(problem sample_true\): 101 bytes, over the cap"):
        read_bundle_files(big)
    monkeypatch.setattr(bundle, "MAX_FILES", 3)
    many = archive(tmp_path / "many.tar.gz", [(member(f"f{i}"), b"") for i in range(5)])
    with pytest.raises(BundleError, match="more than 3 entries"):
        read_bundle_files(many)
    # A header that announces megabytes (here a pax header, which tarfile reads whole) of zeros that
    # compress to almost nothing: reading stops at the cap, not at the end of the bomb.
    monkeypatch.setattr(bundle, "MAX_TOTAL_BYTES", 1 << 20)
    monkeypatch.setattr(bundle, "_TAR_OVERHEAD", 0)
    header = tarfile.TarInfo("././@PaxHeader")
    header.type, header.size = tarfile.XHDTYPE, 64 << 20
    bomb = tmp_path / "bomb.tar.gz"
    with gzip.open(bomb, "wb") as out:
        out.write(header.tobuf(format=tarfile.USTAR_FORMAT))
        for _ in range(64):
            out.write(bytes(1 << 20))
    assert bomb.stat().st_size < 200_000
    with pytest.raises(BundleError, match=f"more than {1 << 20} bytes"):
        read_bundle_files(bomb)


def test_duplicate_members_and_unreadable_archives_are_refused(tmp_path: Path) -> None:
    twice = archive(tmp_path / "twice.tar", [(member("proofs/p.v"), b"a"), (member("proofs/p.v"), b"b")], False)
    with pytest.raises(BundleError, match=r"proofs/p.v \(problem p\): appears twice"):
        read_bundle_files(twice)
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(gzip.compress(b"not a tar archive at all" * 100))
    with pytest.raises(BundleError, match="not a readable bundle archive"):
        read_bundle_files(junk)
    with pytest.raises(BundleError, match="no such bundle"):
        read_bundle_files(tmp_path / "missing")


def test_a_directory_bundle_with_a_link_or_a_fifo_is_refused(tmp_path: Path) -> None:
    write_bundle(tmp_path / "linked", files())
    proof = tmp_path / "linked" / "proofs" / "sample_true.v"
    proof.unlink()
    proof.symlink_to("/etc/passwd")
    with pytest.raises(BundleError, match=r"proofs/sample_true.v: a symbolic link"):
        read_bundle_files(tmp_path / "linked")
    write_bundle(tmp_path / "fifo", files())
    os.mkfifo(tmp_path / "fifo" / "proofs" / "extra.v")
    with pytest.raises(BundleError, match=r"proofs/extra.v \(problem extra\): refused to read a FIFO"):
        read_bundle_files(tmp_path / "fifo")


def test_a_bundle_that_does_not_match_its_manifest_names_the_file_and_the_problem(tmp_path: Path) -> None:
    write_bundle(tmp_path / "b", files())
    (tmp_path / "b" / "proofs" / "sample_true.v").write_bytes(PROOF.replace(b"exact I", b"admit"))
    (tmp_path / "b" / "proofs" / "sneaked.v").write_bytes(PROOF)
    (tmp_path / "b" / "verdicts" / "sample_true.json").unlink()
    with pytest.raises(BundleError) as caught:
        load_bundle(tmp_path / "b")
    message = str(caught.value)
    assert "does not match its manifest" in message
    assert "proofs/sample_true.v (problem sample_true): SHA-256" in message and "changed after export" in message
    assert "proofs/sneaked.v (problem sneaked): not in the manifest" in message
    assert "verdicts/sample_true.json (problem sample_true): in the manifest, missing from the bundle" in message
    (tmp_path / "b" / "manifest.json").unlink()
    with pytest.raises(BundleError, match=r"manifest\.json: missing"):
        load_bundle(tmp_path / "b")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"problem": "../../etc/passwd"}, "not a valid problem id"),
        ({"problem": "sample_missing"}, r"proofs/sample_missing.v \(problem sample_missing\): missing"),
    ],
)
def test_a_claim_that_names_a_bad_or_absent_problem_is_refused(
    tmp_path: Path, edit: dict[str, str], message: str
) -> None:
    content = files()
    index = json.loads(content["bundle.json"])
    index["problems"][0].update(edit)
    write_bundle(tmp_path / "b", {**content, "bundle.json": json.dumps(index).encode()})
    with pytest.raises(BundleError, match=message):
        load_bundle(tmp_path / "b")


def test_an_empty_candidate_is_refused_naming_its_file_and_problem(tmp_path: Path) -> None:
    write_bundle(tmp_path / "b", {**files(), "proofs/sample_true.v": b"  \n"})
    with pytest.raises(BundleError, match=r"proofs/sample_true.v \(problem sample_true\): the candidate file is empty"):
        load_bundle(tmp_path / "b")


@pytest.mark.parametrize("version", [True, float(bundle.VERSION), str(bundle.VERSION)], ids=repr)
def test_a_bundle_version_in_another_spelling_is_refused(tmp_path: Path, version: object) -> None:
    """``true == 1`` and ``1.0 == 1`` in Python: only the integer ``write_bundle``'s caller writes is a version."""
    content = files()
    index = json.loads(content["bundle.json"])
    index["version"] = version
    write_bundle(tmp_path / "b", {**content, "bundle.json": json.dumps(index).encode()})
    with pytest.raises(BundleError, match="is not a version"):
        load_bundle(tmp_path / "b")
