"""Move dvc.lock to per-definition code digests exactly, against the revision it was recorded at.

Each stage's ``data/code/<stage>.json`` now hashes, per module, only the code the stage reaches
(``termweight.pipeline.codedigest.stage_md5s``) instead of the whole file. For every digest:

- the digest of the code at ``--base`` (the revision whose dvc.lock and data/code/ are in the
  working tree, checked: its digests must be what its files hashed to) is computed with the same
  walk in a worktree of ``--base``, and the digest of the code now in the working tree;
- when they are equal, the code the stage computes with is the same, definition by definition,
  as the code it was recorded with: each lock entry that was up to date against the old digest
  is moved to the new one (it stays up to date);
- otherwise, or for an entry already out of date, the entry keeps its old md5: out of date.

Then every digest is written from the working tree and its ``code_<stage>`` recorded with the
files' md5s, as ``dvc repro`` of it would. Nothing is assumed about the code.

    python benchmarks/relock_digests.py --base HEAD   # rewrite dvc.lock and data/code/
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WALKER = ("src/termweight/pipeline/codedeps.py", "src/termweight/pipeline/codedigest.py")


def _entry(path: str, blob: bytes) -> dict:
    return {"path": path, "hash": "md5", "md5": hashlib.md5(blob).hexdigest(), "size": len(blob)}


def digests_at(rev: str, specs: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    """``{stage: stage_md5s}`` of the code at ``rev``, walked by today's walker."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(tree), rev], cwd=REPO,
                       check=True)
        try:
            for f in WALKER:
                shutil.copy2(REPO / f, tree / f)
            code = ("import json, sys\n"
                    "from termweight.pipeline.codedigest import stage_md5s\n"
                    "specs = json.load(sys.stdin)\n"
                    "print(json.dumps({k: stage_md5s(v) for k, v in specs.items()}))\n")
            out = subprocess.run([sys.executable, "-c", code], cwd=tree, check=True, text=True,
                                 input=json.dumps(specs), capture_output=True,
                                 env={"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"})
            return json.loads(out.stdout)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO,
                           check=True)


def relock(base: str) -> dict[str, int]:
    import yaml
    from dvc.utils.serialize import dump_yaml, load_yaml

    from termweight import io
    from termweight.pipeline import codedigest

    stages = yaml.load((REPO / "dvc.yaml").read_text(), Loader=yaml.CSafeLoader)["stages"]
    lock = load_yaml(REPO / "dvc.lock")
    specs = {}
    for name, stage in stages.items():
        if name.startswith(codedigest.STAGE_PREFIX):
            words = stage["cmd"].split()
            specs[name[len(codedigest.STAGE_PREFIX):]] = [
                words[i + 1] for i, w in enumerate(words) if w == "--entry"]
    before = digests_at(base, specs)
    counts = {"kept": 0, "stale": 0, "already_stale": 0, "digests_same": 0, "digests": 0}
    for base_name, entries in sorted(specs.items()):
        path = codedigest.digest_path(base_name)
        old = (REPO / path).read_bytes() if (REPO / path).exists() else b""
        try:  # the old digest was what the base revision's files hashed to
            recorded = json.loads(old)
            files = {p: subprocess.run(["git", "show", f"{base}:{p}"], cwd=REPO, check=True,
                                       capture_output=True).stdout for p in recorded}
            old_ok = recorded == {p: codedigest.code_md5(b) for p, b in files.items()}
        except (ValueError, subprocess.CalledProcessError):
            old_ok = False
        now = codedigest.stage_md5s(entries)
        same = old_ok and before[base_name] == now
        counts["digests"] += 1
        counts["digests_same"] += same
        blob = codedigest.render(now, entries)
        io.write_text(REPO / path, blob.decode())
        old_md5 = hashlib.md5(old).hexdigest()
        for name, entry in lock["stages"].items():
            if name.split("@", 1)[0] != base_name:
                continue
            dep = next((d for d in entry.get("deps", []) if d["path"] == path), None)
            if dep is None or dep["md5"] != old_md5:
                counts["already_stale"] += 1
            elif same:
                dep.update(_entry(path, blob))
                counts["kept"] += 1
            else:
                counts["stale"] += 1
        stage = stages[codedigest.STAGE_PREFIX + base_name]
        lock["stages"][codedigest.STAGE_PREFIX + base_name] = {
            "cmd": stage["cmd"],
            "deps": sorted((_entry(p, (REPO / p).read_bytes()) for p in stage["deps"]),
                           key=lambda d: d["path"]),
            "outs": [_entry(path, blob)]}
    with io.atomic_path(REPO / "dvc.lock") as tmp:
        dump_yaml(tmp, lock)
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the revision dvc.lock and data/code/ hold")
    c = relock(ap.parse_args().base)
    print(f"{c['digests']} digests written, {c['digests_same']} the same code as at the base; "
          f"lock entries: {c['kept']} kept up to date, {c['stale']} now out of date (their code "
          f"changed), {c['already_stale']} out of date already")


if __name__ == "__main__":
    main()
