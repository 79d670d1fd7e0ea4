"""Move dvc.lock to code digests exactly: each stage's recorded code entries become one entry.

dvc.yaml's stages depend on ``data/code/<stage>.json`` (``termweight.pipeline.codedigest``)
instead of their source files. For every stage entry of dvc.lock whose dvc.yaml stage has a
digest, the recorded ``src/**.py`` entries are replaced by one entry for the digest:

- when the recorded files are the stage's code files now, each with the md5 recorded, the digest
  of those files as written now (the stage stays up to date: its code is byte for byte the code
  it ran);
- otherwise a digest of the recorded md5s themselves, which never equals one written now (a
  digest holds code hashes, ``codedigest.code_md5``): the stage stays out of date.

Nothing is assumed about the code. Then every digest is written from the working tree (the
function ``python -m termweight code-digest`` runs) and its stage ``code_<stage>`` recorded with
the files' md5s, as ``dvc repro`` of it would.

    python benchmarks/relock_digests.py      # rewrite dvc.lock and data/code/, print counts
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _entry(path: str, blob: bytes) -> dict:
    return {"path": path, "hash": "md5", "md5": hashlib.md5(blob).hexdigest(), "size": len(blob)}


def relock() -> tuple[int, int, int]:
    import yaml
    from dvc.utils.serialize import dump_yaml, load_yaml

    from termweight import io
    from termweight.pipeline import codedigest
    from termweight.pipeline.dvcyaml import digested_code

    stages = yaml.load((REPO / "dvc.yaml").read_text(), Loader=yaml.CSafeLoader)["stages"]
    lock = load_yaml(REPO / "dvc.lock")
    moved = kept = 0
    for name, entry in lock["stages"].items():
        base = name.split("@", 1)[0]
        if codedigest.STAGE_PREFIX + base not in stages or name.startswith(codedigest.STAGE_PREFIX):
            continue
        deps = entry.get("deps", [])
        code = {d["path"]: d["md5"] for d in deps
                if d["path"].startswith("src/") and d["path"].endswith(".py")}
        if not code and any(d["path"] == codedigest.digest_path(base) for d in deps):
            continue  # recorded against a digest already: as it is
        files = digested_code(stages, base)
        same = sorted(code) == sorted(files) and all(
            hashlib.md5((REPO / p).read_bytes()).hexdigest() == md5 for p, md5 in code.items())
        blob = codedigest.render(codedigest.file_md5s(files, REPO) if same else code)
        digest = _entry(codedigest.digest_path(base), blob)
        kept += same
        entry["deps"] = sorted([d for d in deps if d["path"] not in code] + [digest],
                               key=lambda d: d["path"])
        moved += 1
    written = 0
    for name, stage in stages.items():
        if not name.startswith(codedigest.STAGE_PREFIX):
            continue
        base = name[len(codedigest.STAGE_PREFIX):]
        files = digested_code(stages, base)
        path = codedigest.digest_path(base)
        blob = codedigest.render(codedigest.file_md5s(files, REPO))
        io.write_text(REPO / path, blob.decode())
        lock["stages"][name] = {
            "cmd": stage["cmd"],
            "deps": sorted((_entry(p, (REPO / p).read_bytes()) for p in stage["deps"]),
                           key=lambda d: d["path"]),
            "outs": [_entry(path, blob)]}
        written += 1
    with io.atomic_path(REPO / "dvc.lock") as tmp:
        dump_yaml(tmp, lock)
    return moved, kept, written


def main() -> None:
    moved, kept, written = relock()
    print(f"{moved} lock entries now depend on a digest ({kept} recorded against today's code, "
          f"{moved - kept} against other code: still out of date); {written} digests written")
    sys.exit(0)


if __name__ == "__main__":
    main()
