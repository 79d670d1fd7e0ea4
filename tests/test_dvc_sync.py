"""workflow/scripts/dvc_sync.py on a tiny real DVC project: outputs go into DVC's cache only when
their recomputed hashes equal dvc.lock's; dvc.lock and the workspace are never touched; the lock
between Snakemake and DVC is DVC's own."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from workflow_utils import REPO, run

sys.path.insert(0, str(REPO / "workflow" / "scripts"))
import dvc_sync  # noqa: E402

DVC_YAML = """\
stages:
  make:
    cmd: python make.py
    deps: [make.py]
    outs:
      - data/one.txt
      - data/dir
      - reports/r.txt:
          cache: false
"""
MAKE = """\
import pathlib
pathlib.Path("data/dir/sub").mkdir(parents=True, exist_ok=True)
pathlib.Path("reports").mkdir(exist_ok=True)
pathlib.Path("data/one.txt").write_text("one\\n")
pathlib.Path("data/dir/a.txt").write_text("a\\n")
pathlib.Path("data/dir/sub/b.bin").write_bytes(bytes(range(256)) * 10)
pathlib.Path("reports/r.txt").write_text("report\\n")
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("dvcsync")
    (root / "dvc.yaml").write_text(DVC_YAML)
    (root / "make.py").write_text(MAKE)
    shutil.copy2(REPO / ".dvcignore", root / ".dvcignore")
    run(["dvc", "init", "--no-scm", "-q"], root)
    run(["dvc", "config", "core.analytics", "false"], root)
    run(["dvc", "repro", "-q"], root)
    return root


def status(root: Path) -> dict:
    return json.loads(run(["dvc", "status", "--json"], root).stdout or "{}")


def snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p.relative_to(root)): (p.stat().st_mtime_ns, p.read_bytes())
            for p in [root / "dvc.lock", *(root / "data").rglob("*"), *(root / "reports").rglob("*")]
            if p.is_file()}


def test_matching_outputs_are_cached_and_nothing_else_changes(project):
    shutil.rmtree(project / ".dvc/cache")
    assert status(project)  # "not in cache" now
    before = snapshot(project)
    result = dvc_sync.cache_verified_outputs(project)
    assert result == {"stored": ["make"], "cached": [], "differs": []}
    assert status(project) == {}  # DVC agrees: hashes and cache layout are DVC's own
    assert snapshot(project) == before  # dvc.lock and every workspace file untouched
    # a second pass finds everything cached and rehashes nothing
    assert dvc_sync.cache_verified_outputs(project)["cached"] == ["make"]


def test_modified_output_is_never_cached(project):
    shutil.rmtree(project / ".dvc/cache", ignore_errors=True)
    victim = project / "data/dir/sub/b.bin"
    original = victim.read_bytes()
    try:
        victim.write_bytes(original + b"garbage")  # same name, other content
        before = snapshot(project)
        assert dvc_sync.cache_verified_outputs(project) == {
            "stored": [], "cached": [], "differs": ["make"]}
        assert snapshot(project) == before
        assert not (project / ".dvc/cache/files").exists()
    finally:
        victim.write_bytes(original)


def test_missing_output_is_never_cached(project):
    shutil.rmtree(project / ".dvc/cache", ignore_errors=True)
    (project / "data/one.txt").rename(project / "one.bak")
    try:
        assert dvc_sync.cache_verified_outputs(project)["differs"] == ["make"]
    finally:
        (project / "one.bak").rename(project / "data/one.txt")


def test_temporaries_of_killed_writes_are_outside_the_hash(project):
    # termweight.io.atomic_path's temporaries are .dvcignore'd: a leftover does not change the
    # directory's hash (and atomic_path removes it on the next write of that file)
    stray = project / "data/dir/.a.txt.tmp-x1y2.txt"
    stray.write_text("half")
    try:
        shutil.rmtree(project / ".dvc/cache", ignore_errors=True)
        assert dvc_sync.cache_verified_outputs(project)["stored"] == ["make"]
    finally:
        stray.unlink()


def test_failure_is_reported_not_raised(project, capsys, monkeypatch):
    monkeypatch.setattr(dvc_sync, "cache_verified_outputs",
                        lambda root: (_ for _ in ()).throw(OSError("disk full")))
    dvc_sync.report_to_dvc(project)
    assert "not stored in DVC's cache (OSError: disk full)" in capsys.readouterr().err


def test_checkout_lock_is_dvcs_own(project):
    # while held, a real `dvc repro` is refused before it touches anything
    assert dvc_sync.hold_checkout_lock(project)
    try:
        res = run(["dvc", "repro", "-f"], project, check=False)
        assert res.returncode != 0 and "Unable to acquire lock" in res.stderr + res.stdout
    finally:
        dvc_sync.release_checkout_lock()
    run(["dvc", "status"], project)  # released: DVC works again


def test_snakemake_refuses_while_a_dvc_stage_runs(project):
    # DVC releases its lock while a stage's command runs but records it in .dvc/tmp/rwlock
    rw = project / ".dvc/tmp/rwlock"
    rw.write_text(json.dumps({"write": {"data/one.txt": {"pid": os.getpid(),
                                                         "cmd": "dvc repro"}}, "read": {}}))
    try:
        with pytest.raises(dvc_sync.CheckoutBusy, match=r"`dvc repro` \(PID \d+\) is running"):
            dvc_sync.hold_checkout_lock(project)
    finally:
        rw.write_text("{}")
    assert dvc_sync.hold_checkout_lock(project)  # a dead or absent entry does not block
    dvc_sync.release_checkout_lock()
