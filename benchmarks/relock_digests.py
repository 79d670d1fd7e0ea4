"""Move dvc.lock to a new way of grouping or hashing stages' code, exactly, against the revision
it was recorded at: nothing is rerun, nothing assumed.

A stage's code is one digest, ``data/code/<stage>.json`` (``termweight.pipeline.codedigest``),
written by ``code_<stage>`` from what the walk (``termweight.pipeline.codedeps``) reaches from
its entries. A change to the walker, to its declarations (``PER_ITEM``, ``PASS_OR_RAISE``,
``RUNNER``, ``DISCOVERS``) or to how dvc.yaml groups items into stages (``code_by``) gives new
digests, maybe new stage names (``benchmark_column@x`` -> ``benchmark_column_bns@x``), for code
that has not changed. For every lock entry of a stage that has code:

- its old digest must be what the base revision's code hashed to with the base revision's walker
  (``--base``: the revision whose dvc.lock and data/code/ are in the working tree), and the entry
  must have been up to date against it;
- the code the NEW walk reaches must be part of what the old walk reached (so the recorded
  outputs were computed with it), and those definitions must hash the same in the base
  revision's files (by today's hashing, in a worktree of ``--base``) as now.

Then the entry moves to its new stage name and digest (it stays up to date); otherwise it keeps
the old digest's md5 (out of date). Every digest is written from the working tree and its
``code_<stage>`` recorded with the files' md5s, as ``dvc repro`` of it would; lock entries of
digest stages that no longer exist are dropped.

    python -m termweight dvc-yaml                                 # the new dvc.yaml
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

#: run in a tree: ``{stage: [digest, reached]}`` for ``{stage: entries}`` on stdin
_WALK = ("import json, sys\n"
         "from termweight.pipeline.codedeps import parse_specs, reached\n"
         "from termweight.pipeline.codedigest import stage_md5s\n"
         "specs = json.load(sys.stdin)\n"
         "out = {k: [stage_md5s(v), {p: None if n is None else sorted(n)\n"
         "        for p, n in reached(*parse_specs(v)).items()}] for k, v in specs.items()}\n"
         "print(json.dumps(out))\n")
#: run in a tree: ``{stage: {path: defs_md5}}`` of the definitions given (``{stage: {path:
#: names}}`` on stdin, None for a whole module; a path missing there: None)
_HASH = ("import json, sys\n"
         "from pathlib import Path\n"
         "from termweight.pipeline.codedigest import defs_md5\n"
         "def h(p, n):\n"
         "    f = Path(p)\n"
         "    return defs_md5(f.read_bytes(), None if n is None else frozenset(n)) "
         "if f.exists() else None\n"
         "todo = json.load(sys.stdin)\n"
         "print(json.dumps({k: {p: h(p, n) for p, n in v.items()} for k, v in todo.items()}))\n")


def _entry(path: str, blob: bytes) -> dict:
    return {"path": path, "hash": "md5", "md5": hashlib.md5(blob).hexdigest(), "size": len(blob)}


def walks_at(rev: str, specs: dict, script: str = _WALK) -> dict:
    """``script`` run in a worktree of ``rev`` on ``specs``: ``_WALK``, each stage's digest and
    reach by ``rev``'s own walker; ``_HASH``, the digests of the given definitions in ``rev``'s
    files by today's hashing (today's walker files copied in)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(tree), rev], cwd=REPO,
                       check=True)
        try:
            if script == _HASH:
                for f in WALKER:
                    shutil.copy2(REPO / f, tree / f)
            out = subprocess.run([sys.executable, "-c", script], cwd=tree, text=True,
                                 input=json.dumps(specs), capture_output=True,
                                 env={"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"})
            if out.returncode:
                raise SystemExit(f"walking the code at {rev} failed:\n{out.stderr[-3000:]}")
            return json.loads(out.stdout)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO,
                           check=True)


def _within(new: dict, old: dict) -> bool:
    """Every definition ``new`` reaches is one ``old`` reached (None: the whole module)."""
    for path, names in new.items():
        if path not in old:
            return False
        if old[path] is not None and (names is None or not all(
                n in old[path] or n.split("/", 1)[0] in old[path] for n in names)):
            return False  # a row ``T/key`` is within a walk that reached all of table ``T``
    return True


def relock(base: str) -> dict[str, int]:
    import yaml
    from dvc.repo import Repo
    from dvc.utils.serialize import dump_yaml, load_yaml

    from termweight import io
    from termweight.pipeline import codedigest
    from termweight.pipeline.dvcyaml import digest_entries

    P = codedigest.STAGE_PREFIX
    stages = yaml.load((REPO / "dvc.yaml").read_text(), Loader=yaml.CSafeLoader)["stages"]
    lock = load_yaml(REPO / "dvc.lock")
    specs = {n[len(P):]: digest_entries(stages, n[len(P):]) for n in stages if n.startswith(P)}
    base_yaml = yaml.load(subprocess.run(["git", "show", f"{base}:dvc.yaml"], cwd=REPO,
                                         check=True, capture_output=True, text=True).stdout,
                          Loader=yaml.CSafeLoader)["stages"]
    old_specs = {n[len(P):]: digest_entries(base_yaml, n[len(P):]) for n in base_yaml
                 if n.startswith(P)}
    # every expanded stage of the new dvc.yaml: its digest's stage (the name before "@")
    new_names = {s.name for s in Repo(str(REPO)).index.stages}
    by_item: dict[str, list[str]] = {}
    for n in new_names:
        if "@" in n:
            by_item.setdefault(n.split("@", 1)[1], []).append(n)

    def new_name(old: str) -> str | None:
        if old in new_names:
            return old
        stem, _, item = old.partition("@")
        hits = [n for n in by_item.get(item, ()) if n.split("@", 1)[0].startswith(stem + "_")]
        return hits[0] if len(hits) == 1 else None

    from termweight.pipeline.codedeps import parse_specs, reached

    old_walk = walks_at(base, old_specs)
    # what each stage reaches NOW, hashed in the base revision's files by today's hashing: the
    # same digest means the code the stage computes with now is what its outputs were made with
    now_reached = {k: {p: None if n is None else sorted(n)
                       for p, n in reached(*parse_specs(v)).items()} for k, v in specs.items()}
    at_base = walks_at(base, now_reached, _HASH)
    new_walk = {k: [at_base[k], now_reached[k]] for k in specs}
    counts = {"kept": 0, "renamed": 0, "stale": 0, "already_stale": 0, "digests_same": 0,
              "digests": 0}
    blobs, now = {}, {}
    for name, entries in sorted(specs.items()):
        now[name] = codedigest.stage_md5s(entries)
        blobs[name] = codedigest.render(now[name], entries)
        counts["digests"] += 1
        counts["digests_same"] += new_walk[name][0] == now[name]
    old_ok = {}
    for name in old_specs:  # the old digest was what the base revision's code hashed to
        try:
            recorded = subprocess.run(["git", "show", f"{base}:{codedigest.digest_path(name)}"],
                                      cwd=REPO, check=True, capture_output=True).stdout
            old_ok[name] = (json.loads(recorded)["code"] == old_walk[name][0],
                            hashlib.md5(recorded).hexdigest())
        except (ValueError, KeyError, subprocess.CalledProcessError):
            old_ok[name] = (False, None)
    moved = {}
    for name, entry in lock["stages"].items():
        stem = name.split("@", 1)[0]
        if stem.startswith(P) or stem not in old_specs:
            moved[name] = entry
            continue
        target = new_name(name) or name
        tstem = target.split("@", 1)[0]
        old_path, new_path = codedigest.digest_path(stem), codedigest.digest_path(tstem)
        dep = next((d for d in entry.get("deps", []) if d["path"] == old_path), None)
        ok, old_md5 = old_ok[stem]
        if dep is None or not ok or dep["md5"] != old_md5:
            counts["already_stale"] += 1
        elif (tstem in specs and _within(new_walk[tstem][1], old_walk[stem][1])
              and new_walk[tstem][0] == now[tstem]):
            dep.update(_entry(new_path, blobs[tstem]))
            entry["deps"] = sorted(entry["deps"], key=lambda d: d["path"])
            counts["kept"] += 1
            counts["renamed"] += target != name
            name = target
        else:
            counts["stale"] += 1
        moved[name] = entry
    lock["stages"] = moved
    for name in specs:
        path = codedigest.digest_path(name)
        io.write_text(REPO / path, blobs[name].decode())
        stage = stages[P + name]
        lock["stages"][P + name] = {
            "cmd": stage["cmd"],
            "deps": sorted((_entry(p, (REPO / p).read_bytes()) for p in stage["deps"]),
                           key=lambda d: d["path"]),
            "outs": [_entry(path, blobs[name])]}
    for name in set(old_specs) - set(specs):
        lock["stages"].pop(P + name, None)
        (REPO / codedigest.digest_path(name)).unlink(missing_ok=True)
    with io.atomic_path(REPO / "dvc.lock") as tmp:
        dump_yaml(tmp, lock)
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the revision dvc.lock and data/code/ hold")
    c = relock(ap.parse_args().base)
    print(f"{c['digests']} digests written, {c['digests_same']} the same code as at the base; "
          f"lock entries: {c['kept']} kept up to date ({c['renamed']} under a new stage name), "
          f"{c['stale']} now out of date (their code changed), {c['already_stale']} out of date "
          "already")


if __name__ == "__main__":
    main()
