"""Snakemake and DVC in one checkout: a lock between the two, and verified outputs into DVC's cache.

Workflow glue imported by the Snakefile (the library in src/ knows nothing of either tool).

``hold_checkout_lock`` -- the two tools never run at once in one checkout. A running Snakemake
holds DVC's own repository lock (``.dvc/tmp/lock``, the zc.lockfile DVC takes), so a ``dvc repro``
started meanwhile is refused by DVC before it touches a file ("Unable to acquire lock"). Snakemake
refuses to start while DVC holds that lock, or while DVC runs a stage command (DVC releases its
lock then, but records the command and its PID in ``.dvc/tmp/rwlock``).

``cache_verified_outputs`` -- after a successful Snakemake run, a stage of ``dvc.lock`` whose every
output exists with exactly the lock's content hash (recomputed here: DVC's "not in cache" is never
trusted) gets its ``data/`` outputs copied into DVC's cache, as ``dvc commit`` would. It never
writes ``dvc.lock`` and never touches a workspace file (no modification time changes, so
Snakemake does not rebuild). Afterwards ``dvc status`` is clean for those stages whose
dependencies also match, and ``dvc push`` can share them. ``reports/`` outputs are ``cache: false``
(they live in git) and are only compared.

Hashes are DVC 3's: MD5 of a file's bytes; a directory is the MD5 of the JSON list of its files'
``{"md5", "relpath"}`` (sorted by path, ``.dvcignore`` applied) plus ``.dir``.
"""

from __future__ import annotations

import configparser
import contextlib
import hashlib
import json
import os
import sys
from pathlib import Path

import yaml

CACHED_ROOT = "data"  # outputs under here are cached; everything else is `cache: false`


class CheckoutBusy(RuntimeError):
    """The other tool is running in this checkout."""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _dvc_stage_running(root: Path) -> str | None:
    """The ``dvc repro`` command (and PID) currently running a stage here, from DVC's rwlock."""
    from termweight.checkout import rwlock_entries

    for e in rwlock_entries(root):
        if _pid_alive(e["pid"]):
            return f"`{e.get('cmd', 'dvc')}` (PID {e['pid']})"
    return None


_HELD = []  # the lock objects held for the life of this process


def hold_checkout_lock(root: str | os.PathLike = ".") -> bool:
    """Take DVC's repository lock for the life of this process; raise CheckoutBusy if DVC runs.

    Returns False (and holds nothing) outside a DVC project.
    """
    root = Path(root)
    if not (root / ".dvc").is_dir():
        return False
    import zc.lockfile

    busy = _dvc_stage_running(root)
    if busy is None:
        (root / ".dvc/tmp").mkdir(parents=True, exist_ok=True)
        try:
            _HELD.append(zc.lockfile.LockFile(str(root / ".dvc/tmp/lock"),
                                              content_template="{pid} snakemake"))
        except zc.lockfile.LockError:
            busy = "DVC (it holds .dvc/tmp/lock)"
        else:
            busy = _dvc_stage_running(root)  # started between the two checks
            if busy is not None:
                release_checkout_lock()
    if busy is not None:
        raise CheckoutBusy(
            f"{busy} is running in this checkout; Snakemake and DVC must not run at once "
            "(each would delete or rewrite the other's outputs). Wait for it to finish.")
    return True


def release_checkout_lock() -> None:
    while _HELD:
        _HELD.pop().close()


# --- hashing and the cache ------------------------------------------------------------------------

def md5_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.md5()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def _ignore_spec(root: Path):
    import pathspec

    lines = []
    with contextlib.suppress(OSError):
        lines = (root / ".dvcignore").read_text().splitlines()
    return pathspec.GitIgnoreSpec.from_lines(lines)


def dir_manifest(root: Path, rel: str, spec=None) -> tuple[bytes, dict[str, str]]:
    """DVC's ``.dir`` manifest of directory ``rel`` and its files' MD5s (by path from root)."""
    spec = spec if spec is not None else _ignore_spec(root)
    base = root / rel
    entries, files = [], {}
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for name in filenames:
            p = Path(dirpath) / name
            rel_root = p.relative_to(root).as_posix()
            if spec.match_file(rel_root):
                continue
            md5 = md5_file(p)
            files[rel_root] = md5
            entries.append({"md5": md5, "relpath": p.relative_to(base).as_posix()})
    entries.sort(key=lambda e: e["relpath"])
    return json.dumps(entries, sort_keys=True).encode("utf-8"), files


def cache_dir(root: Path) -> Path:
    """DVC's cache directory (``cache.dir`` from .dvc/config(.local), else .dvc/cache)."""
    found = None
    for name in ("config", "config.local"):
        cp = configparser.ConfigParser(strict=False, interpolation=None)
        with contextlib.suppress(OSError, configparser.Error):
            cp.read(root / ".dvc" / name)
            if cp.has_option("cache", "dir"):
                found = (root / ".dvc" / cp.get("cache", "dir")).resolve()
    return found or root / ".dvc/cache"


def _object(cache: Path, md5: str) -> Path:
    return cache / "files" / "md5" / md5[:2] / md5[2:]


def _store(cache: Path, md5: str, source: Path | None = None, data: bytes | None = None) -> None:
    """Put one object into the cache (read-only, written atomically); no-op if present."""
    dest = _object(cache, md5)
    if dest.exists():
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
    try:
        if data is None:
            with open(source, "rb") as src, open(tmp, "wb") as out:
                while block := src.read(1 << 20):
                    out.write(block)
        else:
            tmp.write_bytes(data)
        os.chmod(tmp, 0o444)
        os.replace(tmp, dest)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _lock_outs(lock: dict):
    for stage, body in (lock.get("stages") or {}).items():
        outs = [(o["path"], o.get("md5")) for o in (body.get("outs") or []) if "path" in o]
        yield stage, outs


def cache_verified_outputs(root: str | os.PathLike = ".") -> dict[str, list[str]]:
    """Cache the ``data/`` outputs of every dvc.lock stage whose outputs all match the lock.

    Returns the stages by outcome: ``stored`` (verified now, objects copied into the cache),
    ``cached`` (nothing to store: every data/ output already in the cache, not rehashed; other
    outputs verified), ``differs`` (an output
    missing here or with another hash: left alone).
    """
    root = Path(root)
    result = {"stored": [], "cached": [], "differs": []}
    if not (root / ".dvc").is_dir() or not (root / "dvc.lock").is_file():
        return result
    lock = yaml.safe_load((root / "dvc.lock").read_text()) or {}
    cache, spec = cache_dir(root), _ignore_spec(root)
    for stage, outs in _lock_outs(lock):
        plan, ok = [], bool(outs)
        for rel, md5 in outs:
            path = root / rel
            if not md5 or not path.exists():
                ok = False
                break
            cached = rel.split("/", 1)[0] == CACHED_ROOT
            if md5.endswith(".dir"):
                if not path.is_dir():
                    ok = False
                    break
                if cached and _dir_cached(cache, md5):
                    continue  # verified when it was stored; the workspace is DVC's to compare
                manifest, files = dir_manifest(root, rel, spec)
                if hashlib.md5(manifest).hexdigest() + ".dir" != md5:
                    ok = False
                    break
                if cached:
                    plan.append((md5, None, manifest))
                    plan.extend((m, root / p, None) for p, m in files.items())
            else:
                if not path.is_file():
                    ok = False
                    break
                if cached and _object(cache, md5).exists():
                    continue
                if md5_file(path) != md5:
                    ok = False
                    break
                if cached:
                    plan.append((md5, path, None))
        if not ok:
            result["differs"].append(stage)
            continue
        # files before the manifest that names them: an interrupted run leaves no dangling .dir
        for md5, source, data in sorted(plan, key=lambda t: t[0].endswith(".dir")):
            _store(cache, md5, source, data)
        result["stored" if plan else "cached"].append(stage)
    return result


def _dir_cached(cache: Path, md5: str) -> bool:
    obj = _object(cache, md5)
    if not obj.exists():
        return False
    try:
        entries = json.loads(obj.read_text())
    except (OSError, ValueError):
        return False
    return all(_object(cache, e["md5"]).exists() for e in entries)


def report_to_dvc(root: str | os.PathLike = ".", stream=None) -> None:
    """Run :func:`cache_verified_outputs` and say what it did; never raise (the run succeeded)."""
    stream = stream or sys.stderr
    try:
        result = cache_verified_outputs(root)
    except Exception as exc:  # noqa: BLE001 - a failure here must not fail a finished run
        print(f"dvc_sync: outputs not stored in DVC's cache ({type(exc).__name__}: {exc}); "
              "`dvc commit` can do it by hand.", file=stream)
        return
    if result["stored"]:
        print(f"dvc_sync: {len(result['stored'])} dvc.lock stages have every output byte-identical "
              "to the lock; their data/ outputs are now in the DVC cache (dvc.lock unchanged).",
              file=stream)
    if result["differs"]:
        print(f"dvc_sync: {len(result['differs'])} dvc.lock stages have outputs missing here or "
              "different from the lock; left to `dvc repro`.", file=stream)


if __name__ == "__main__":
    report_to_dvc(sys.argv[1] if len(sys.argv) > 1 else ".")
