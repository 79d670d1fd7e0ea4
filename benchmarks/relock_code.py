"""Re-record dvc.lock after a change to the stages' CODE dependency lists only.

When dvc.yaml's derived code dependencies change (runner modules dropped, a module split), every
stage is out of date for DVC although no output can differ. Rerunning 1,138 stages (about 6 h)
to learn that is the cost this avoids. For each stage of dvc.yaml that has an entry in dvc.lock,
the new entry is the old one with the code dependencies (``src/...``) rehashed from the working
tree, and is written only when

- its command is the same words as recorded,
- each data dependency it lists was recorded, with its hash (reused as recorded),
- each params key it reads was recorded with the same value in params.yaml now,
- its outputs are the paths recorded (a stage renamed, as a group split off by ``code_by``,
  takes the entry of the stage that had its outputs) (their hashes are reused: outputs are not rehashed, so
  the data need not be on this machine).

A code dependency that is a directory (published numbers) is reused as recorded, as data is.

Any other stage is left as it is and named. Whether the code still computes the same bytes is
NOT something this script can know: run it only after a change whose code edits are moves and
runner-only edits, and check bytes against a real run of each stage kind (the quick start,
``dvc status`` of stages whose outputs are committed).

    python benchmarks/relock_code.py          # rewrite dvc.lock, print what was kept
"""

from __future__ import annotations

import copy
import hashlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _md5(path: Path) -> dict:
    blob = path.read_bytes()
    return {"hash": "md5", "md5": hashlib.md5(blob).hexdigest(), "size": len(blob)}


def _param_values(params: dict, keys) -> dict:
    out = {}
    for key in keys:
        node = params
        for part in key.split("."):
            node = node[part]
        out[key] = copy.deepcopy(node)  # no shared nodes: no YAML anchors in the lock
    return out


def relock() -> tuple[int, list[str]]:
    from dvc.repo import Repo
    from dvc.utils.serialize import dump_yaml, load_yaml

    from termweight.io import atomic_path

    lock = load_yaml(REPO / "dvc.lock")
    params = load_yaml(REPO / "params.yaml")
    recorded = lock["stages"]
    changed, refused = 0, []
    with Repo(str(REPO)) as repo:
        stages = list(repo.index.stages)
    by_outs = {tuple(sorted(o["path"] for o in e.get("outs", []))): n for n, e in recorded.items()}
    renamed = {}
    for stage in stages:
        name = stage.addressing
        old = recorded.get(name)
        if old is None:  # a stage renamed (split by code): the entry with the same outputs
            was = by_outs.get(tuple(sorted(str(o.def_path) for o in stage.outs)))
            if was is None or was in {s.addressing for s in stages}:
                continue
            old, renamed[was] = recorded[was], name
            recorded[name] = old
        why = None
        old_deps = {d["path"]: d for d in old.get("deps", [])}
        new_deps = []
        for dep in stage.deps:
            path = str(dep.def_path)
            if hasattr(dep, "params") or path == "params.yaml":  # params below
                continue
            if path.startswith("src/") and (REPO / path).is_file():
                new_deps.append({"path": path, **_md5(REPO / path)})
            elif path in old_deps:
                new_deps.append(old_deps[path])
            else:
                why = f"data dependency {path} was not recorded"
        pdeps = [dep for dep in stage.deps if hasattr(dep, "params")]
        keys = [k for dep in pdeps for k in (dep.params or [])]
        old_params = old.get("params", {}).get("params.yaml", {})
        try:
            if pdeps and not keys:  # ``params.yaml: null``: the whole file
                now = copy.deepcopy(dict(params))
            else:
                now = _param_values(params, keys)
        except (KeyError, TypeError):
            now, why = {}, "a params key is not in params.yaml"
        if any(k not in old_params or old_params[k] != v for k, v in now.items()) or (
                pdeps and not keys and set(old_params) != set(now)):
            why = why or "a params value differs from the recorded one"
        if stage.cmd != old.get("cmd"):
            why = why or "its command differs"
        if sorted(str(o.def_path) for o in stage.outs) != sorted(o["path"] for o in old.get("outs", [])):
            why = why or "its outputs differ"
        if why:
            refused.append(f"{name}: {why}")
            continue
        entry = {"cmd": old["cmd"], "deps": sorted(new_deps, key=lambda d: d["path"])}
        if now:
            # the recorded values (equal to today's, checked above), in their recorded order
            entry["params"] = {"params.yaml": {k: v for k, v in old_params.items() if k in now}}
        entry["outs"] = old["outs"]
        if entry != old:
            changed += 1
        recorded[name] = entry
    # a renamed stage's entry stays where the old one was
    lock["stages"] = {renamed.get(n, n): (recorded[renamed[n]] if n in renamed else e)
                      for n, e in recorded.items()}
    with atomic_path(REPO / "dvc.lock") as tmp:
        dump_yaml(tmp, lock)
    return changed, refused


def main() -> None:
    changed, refused = relock()
    print(f"{changed} lock entries rewritten; {len(refused)} left as they were")
    for line in refused:
        print("  " + line)
    sys.exit(0)


if __name__ == "__main__":
    main()
