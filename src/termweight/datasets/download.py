"""Obtain the raw files of a dataset: copy from a local mirror or download, verify, extract.

``fetch`` handles every ``FileSpec`` of a dataset:

1. a file already in ``dest`` is REHASHED on every call and kept only if its SHA-256 is an
   accepted one (idempotent: nothing is copied twice; a file changed in place, even with its size
   and mtime kept, is removed and obtained again);
2. otherwise it is copied from ``mirror / spec.mirror_subdir / name`` when that exists, else
   downloaded from its URLs (``urllib``, timeout, retries with exponential backoff, progress on
   stderr), else taken out of its canonical archive (``ArchiveSource``);
3. the SHA-256 is computed while the bytes are written to a temporary file beside the target and
   checked BEFORE the file is renamed into place: a mismatch raises
   ``ChecksumError`` and leaves nothing behind;
4. files with ``extract=True`` are unpacked into ``dest/<name without .tar.gz/.tgz/.zip>``: every
   member must stay inside the target directory, links/devices/FIFOs and duplicate or clashing
   names are refused, the expansion is bounded (``ExtractLimits``: number of members,
   total bytes, bytes per member, compression ratio), and the tree is built in a temporary
   directory ``.<dir>.<random>.extract`` that is renamed into place only when complete (such a
   directory left beside the target by a killed run is removed by the next extraction); a digest
   of the extracted tree is recorded and checked again before the tree is reused.

Canonical archives that a file is taken out of are cached in ``dest/.archives``. A cached archive
is rehashed before every use (against its pinned SHA-256, else the one recorded when it was
obtained); a cached archive that fails that, is corrupt, or yields a member whose hash is wrong
is deleted and obtained again once, so a bad copy is never reused.

A file whose checksum could not be confirmed (``sha256 == UNPINNED``: RCV1's token files and the
Forman ARFF sets missing from the mirror) is accepted on first use with a warning and its hash is
recorded; later runs check against it, such a file is never downloaded over plain http, and the
parsers list it under ``info["unverified_files"]``.
Set ``TERMWEIGHT_OFFLINE=1`` (or ``allow_download=False``) to forbid network access.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from termweight.datasets.registry import UNPINNED, ArchiveSource, DatasetSpec, FileSpec
from termweight.runner import io
from termweight.runner.errors import ArchiveLimitError, ChecksumError, DataError

STATE_FILE = ".verified.json"
ARCHIVE_DIR = ".archives"
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")
USER_AGENT = "termweight/0.1 (research pipeline; +https://github.com)"
_CHUNK = 1 << 20
_ARCHIVE_ERRORS = (tarfile.TarError, zipfile.BadZipFile, zipfile.LargeZipFile, EOFError,
                   zlib.error, NotImplementedError, RuntimeError, ValueError)


@dataclass(frozen=True)
class ExtractLimits:
    """Bounds on what an archive may expand to (all configurable; ``params.yaml`` key
    ``archive_limits`` with the same names).

    ``max_members``: entries (files and directories) in the archive, counted before anything
    is extracted; ``max_total_bytes``: all extracted members together; ``max_member_bytes``:
    one member; ``max_ratio``: extracted bytes per byte of the archive file (checked for the
    whole archive and, in a zip, per member) once more than ``ratio_floor_bytes`` were
    extracted, so small archives of highly compressible text are not refused. The defaults
    leave room for every declared dataset (the largest, 20 Newsgroups, expands 14 MB to 36 MB
    and holds 18,888 entries; the Pang & Lee tarball 5,015) and stop a zip bomb.
    """

    max_members: int = 100_000
    max_total_bytes: int = 4 << 30
    max_member_bytes: int = 2 << 30
    max_ratio: float = 100.0
    ratio_floor_bytes: int = 1 << 20

    @classmethod
    def from_params(cls, params: dict | None) -> ExtractLimits:
        return cls(**(params or {}))


class _Budget:
    """Counts the bytes extracted from one archive and refuses what breaks a limit."""

    def __init__(self, archive: Path, limits: ExtractLimits):
        self.archive, self.limits = archive, limits
        self.size = max(1, archive.stat().st_size)
        self.total = 0

    def check_count(self, n: int) -> None:
        """Refuse an archive of more than ``max_members`` entries (``n`` seen so far)."""
        if n > self.limits.max_members:
            raise ArchiveLimitError(self.archive, f"more than {self.limits.max_members} members "
                                                  "(the limit max_members); nothing extracted")

    def check_member(self, name: str, size: int, compressed: int | None = None) -> None:
        lim = self.limits
        if size > lim.max_member_bytes:
            raise ArchiveLimitError(self.archive, f"member {name!r}: {size} bytes exceed the "
                                                  f"per-member limit of {lim.max_member_bytes}")
        if compressed is not None and size > lim.ratio_floor_bytes and \
                size > lim.max_ratio * max(1, compressed):
            raise ArchiveLimitError(self.archive, f"member {name!r}: compression ratio "
                                                  f"{size / max(1, compressed):.0f} exceeds "
                                                  f"the limit of {lim.max_ratio:g}")
        self._check_total(name, self.total + size)

    def _check_total(self, name: str, total: int) -> None:
        lim = self.limits
        if total > lim.max_total_bytes:
            raise ArchiveLimitError(self.archive, f"member {name!r}: the archive expands to more "
                                                  f"than the limit of {lim.max_total_bytes} "
                                                  "bytes")
        if total > lim.ratio_floor_bytes and total > lim.max_ratio * self.size:
            raise ArchiveLimitError(self.archive, f"member {name!r}: the archive expands more "
                                                  f"than {lim.max_ratio:g} times its size of "
                                                  f"{self.size} bytes")


def _tar_members(tf: tarfile.TarFile, budget: _Budget) -> list[tarfile.TarInfo]:
    """All members of ``tf``, read header by header before any is extracted: refused once more
    than ``max_members``, or once their declared sizes break a byte limit (so that a bomb is not
    decompressed merely to be counted; the extraction then holds each member to its size)."""
    declared = _Budget(budget.archive, budget.limits)
    members = []
    while (member := tf.next()) is not None:
        members.append(member)
        budget.check_count(len(members))
        if member.isfile():
            declared.check_member(member.name, member.size)
            declared.total += member.size
    return members


def _zip_members(zf: zipfile.ZipFile, budget: _Budget) -> list[zipfile.ZipInfo]:
    """All entries of ``zf`` (its central directory), refused if more than ``max_members``."""
    infos = zf.infolist()
    budget.check_count(len(infos))
    return infos


def _copy_bounded(src, dst, budget: _Budget, name: str, declared: int, h=None) -> None:
    """Copy one member, counting its bytes against its declared size and the budget."""
    done = 0
    while block := src.read(_CHUNK):
        done += len(block)
        if done > declared:
            raise ArchiveLimitError(budget.archive, f"member {name!r}: more data than its "
                                                    f"declared size of {declared} bytes")
        budget._check_total(name, budget.total + done)
        if h is not None:
            h.update(block)
        dst.write(block)
    budget.total += done


def fetch(spec: DatasetSpec, dest: Path, mirror: Path | None = None, *,
          allow_download: bool | None = None, retries: int = 3, backoff: float = 1.0,
          timeout: float = 60.0, progress: bool = True,
          limits: ExtractLimits | None = None) -> Path:
    """Make every file of ``spec`` present and verified in ``dest``; return ``dest``."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    if allow_download is None:
        allow_download = os.environ.get("TERMWEIGHT_OFFLINE", "").lower() not in {"1", "true",
                                                                                  "yes"}
    limits = limits or ExtractLimits()
    mirror_dir = None
    if mirror is not None:
        mirror_dir = Path(mirror) / (spec.mirror_subdir or spec.name)
    net = _Net(retries=retries, backoff=backoff, timeout=timeout, progress=progress,
               allowed=allow_download)
    state = _load_state(dest)
    for f in spec.files:
        target = dest / _safe_relpath(f.name, where=spec.name)
        if not _is_verified(state, f, target):
            record = _obtain(f, target, dest, mirror_dir, net, state, limits)
            state["files"][f.name] = record
            io.write_json(dest / STATE_FILE, state)
        if f.extract:
            _extract_once(f, target, dest, state, limits)
    return dest


def accepted_hashes(f: FileSpec) -> set[str]:
    """Hashes a local copy may have: the canonical one and a documented mirror repack."""
    return {h for h in (f.sha256, f.mirror_sha256) if h}


def archive_dir_name(name: str) -> str:
    """Directory an archive is extracted into: its name without the archive suffix."""
    base = PurePosixPath(name).name
    for suffix in ARCHIVE_SUFFIXES:
        if base.endswith(suffix):
            return base[: -len(suffix)]
    raise DataError(name, f"cannot extract: unknown archive type (use one of {ARCHIVE_SUFFIXES})")


def mirror_dir_of(spec: DatasetSpec, mirror: Path | None) -> Path | None:
    """The folder of ``spec`` inside ``mirror`` (``mirror / spec.mirror_subdir``), as
    ``fetch`` reads it; None without a mirror."""
    return None if mirror is None else Path(mirror) / (spec.mirror_subdir or spec.name)


def locate(spec: DatasetSpec, dest: Path, mirror: Path | None = None) -> dict[str, Path | None]:
    """Where each raw file of ``spec`` would come from without a download, by file existence.

    The lookup of ``fetch`` in its order, without reading or
    hashing anything (cheap enough to run for every dataset): the copy in ``dest``, else the
    mirror's copy (``mirror / spec.mirror_subdir / name``), else the canonical archive that
    holds the file, cached in ``dest/.archives`` or in the mirror folder.

    Parameters
    ----------
    spec : DatasetSpec
        The dataset's declaration.
    dest : Path
        Its raw directory (the pipeline's ``data/raw/<name>``).
    mirror : Path or None, default=None
        The mirror directory (``params.yaml``'s ``mirror``, e.g. ``../shared/datasets``).

    Returns
    -------
    dict of str to Path or None
        File name -> the path it would be taken from, or None where only a download can
        provide it. A dataset without files (bundled in a Python package) gives ``{}``.

    Examples
    --------
    >>> from termweight.datasets import get_dataset
    >>> found = locate(get_dataset("spambase"), Path("no/such/dir"), mirror=None)
    >>> found
    {'spambase.data': None, 'spambase.names': None}
    """
    dest = Path(dest)
    mirror_dir = mirror_dir_of(spec, mirror)
    out: dict[str, Path | None] = {}
    for f in spec.files:
        candidates = [dest / f.name]
        if mirror_dir is not None:
            candidates.append(mirror_dir / f.name)
        if f.archive is not None:
            candidates.append(dest / ARCHIVE_DIR / f.archive.name)
            if mirror_dir is not None:
                candidates.append(mirror_dir / f.archive.name)
        out[f.name] = next((p for p in candidates if p.is_file()), None)
    return out


# ----------------------------------------------------------------------------- state

def _load_state(dest: Path) -> dict:
    path = dest / STATE_FILE
    if path.exists():
        state = io.read_json(path)
        if not isinstance(state, dict) or not all(
                isinstance(state.get(k, {}), dict) for k in ("files", "extracted", "archives")):
            raise DataError(path, "not a fetch state file (delete it to start again)")
        state.setdefault("files", {})
        state.setdefault("extracted", {})
        state.setdefault("archives", {})
        return state
    return {"files": {}, "extracted": {}, "archives": {}}


def _expected(state: dict, f: FileSpec) -> set[str]:
    """Accepted hashes: the pinned ones, else the one recorded when the file was first used."""
    pinned = accepted_hashes(f)
    if pinned:
        return pinned
    rec = state["files"].get(f.name)
    return {rec["sha256"]} if isinstance(rec, dict) and isinstance(rec.get("sha256"), str) \
        else set()


def _is_verified(state: dict, f: FileSpec, target: Path) -> bool:
    """Rehash ``target`` (never trust size and mtime); a copy that fails is removed."""
    if not target.is_file() or not isinstance(state["files"].get(f.name), dict):
        return False
    ok = _expected(state, f)
    if io.sha256_file(target) in ok:
        return True
    target.unlink()
    return False


def _record(target: Path, digest: str, source: str) -> dict:
    st = target.stat()
    return {"sha256": digest, "size": st.st_size, "source": source}


def _safe_relpath(name: str, where) -> PurePosixPath:
    rel = PurePosixPath(name)
    if rel.is_absolute() or ".." in rel.parts or not rel.parts or "\\" in name:
        raise DataError(where, f"unsafe file name {name!r} in dataset declaration")
    return rel


# ----------------------------------------------------------------------------- obtaining

def _check(path_name, digest: str, accepted: set[str], canonical: str) -> None:
    if accepted and digest not in accepted:
        raise ChecksumError(path_name, canonical or sorted(accepted)[0], digest)


def _warn_unpinned(name: str, digest: str) -> None:
    warnings.warn(f"{name}: no confirmed SHA-256 is declared; accepted on first use and recorded "
                  f"as {digest}", stacklevel=3)


def _obtain(f: FileSpec, target: Path, dest: Path, mirror_dir: Path | None, net: _Net,
            state: dict, limits: ExtractLimits) -> dict:
    expected = _expected(state, f)
    # A copy already in place (e.g. state file lost): hash it instead of copying again.
    if target.is_file():
        digest = io.sha256_file(target)
        if digest in expected:
            return _record(target, digest, "existing")
        target.unlink()  # a wrong or changed copy is never kept
    canonical = f.sha256 or min(expected, default="")
    if mirror_dir is not None:
        src = mirror_dir / f.name
        if src.is_file():
            digest = _stream_verified(src.open("rb"), target, expected, canonical,
                                      label=str(src))
            if not expected:
                _warn_unpinned(f.name, digest)
            return _record(target, digest, f"mirror:{src}")
    where = f"not in mirror {mirror_dir}" if mirror_dir is not None else "no mirror given"
    if not (f.urls or f.archive):
        raise DataError(f.name, f"{where} and no download URL is known for this file")
    if f.urls and net.allowed:
        try:
            digest, url = net.download(f.urls, target, expected, f.name, where=where,
                                       https_only=not expected)
        except ChecksumError:
            raise
        except DataError:
            if f.archive is None:
                raise
        else:
            if not expected:
                _warn_unpinned(f.name, digest)
            return _record(target, digest, url)
    if f.archive is not None and (net.allowed or _archive_at_hand(f.archive, dest, mirror_dir)):
        digest = _member_from_archive(f, target, dest, mirror_dir, net, where, state, limits,
                                      expected)
        if not expected:
            _warn_unpinned(f.name, digest)
        return _record(target, digest, f"archive:{f.archive.name}")
    raise DataError(f.name, f"{where} and no network (downloads disabled; "
                            f"get it from {_first_source(f)})")


def _member_from_archive(f: FileSpec, target: Path, dest: Path, mirror_dir: Path | None,
                         net: _Net, where: str, state: dict, limits: ExtractLimits,
                         expected: set[str]) -> str:
    """Take ``f`` out of its canonical archive; a cached archive that fails is obtained again."""
    a = f.archive
    for _ in range(2):
        archive, fresh = _obtain_archive(a, dest, mirror_dir, net, where, state,
                                         https_only=not (a.sha256 or expected))
        try:
            return _take_member(archive, f, target, expected, limits)
        except DataError:
            _forget_archive(archive, a, dest, state)
            if fresh:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _forget_archive(path: Path, a: ArchiveSource, dest: Path, state: dict) -> None:
    path.unlink(missing_ok=True)
    if state["archives"].pop(a.name, None) is not None:
        io.write_json(dest / STATE_FILE, state)


def _archive_at_hand(a: ArchiveSource, dest: Path, mirror_dir: Path | None) -> bool:
    return (dest / ARCHIVE_DIR / a.name).is_file() or (
        mirror_dir is not None and (mirror_dir / a.name).is_file())


def _first_source(f: FileSpec) -> str:
    if f.urls:
        return f.urls[0]
    return f.archive.urls[0] if f.archive and f.archive.urls else "the dataset's home page"


def _stream_verified(src, target: Path, accepted: set[str], canonical: str, label,
                     total: int | None = None, bar: _Progress | None = None,
                     budget: _Budget | None = None, member: tuple[str, int] | None = None) -> str:
    """Copy the open binary stream ``src`` to ``target`` via a temp file; hash-check first.

    With ``budget`` (an archive member ``(name, declared size)``), the copy stops with an
    ``ArchiveLimitError`` as soon as a limit of extraction would be broken.
    """
    h = hashlib.sha256()
    with src, io.atomic_path(target) as tmp:
        with open(tmp, "wb") as out:
            if budget is not None:
                _copy_bounded(src, out, budget, member[0], member[1], h)
            else:
                while block := src.read(_CHUNK):
                    h.update(block)
                    out.write(block)
                    if bar is not None:
                        bar.update(len(block))
        if bar is not None:
            bar.close()
        digest = h.hexdigest()
        _check(label, digest, accepted, canonical)
    return digest


def _obtain_archive(a: ArchiveSource, dest: Path, mirror_dir: Path | None, net: _Net,
                    where: str, state: dict, https_only: bool = False) -> tuple[Path, bool]:
    """The archive, rehashed if cached (else copied or downloaded), and whether it is new."""
    path = dest / ARCHIVE_DIR / _safe_relpath(a.name, where=a.name)
    pinned = {a.sha256} - {UNPINNED}
    rec = state["archives"].get(a.name)
    recorded = {rec["sha256"]} if isinstance(rec, dict) and isinstance(rec.get("sha256"), str) \
        else set()
    if path.is_file():
        if io.sha256_file(path) in (pinned or recorded):
            return path, False
        _forget_archive(path, a, dest, state)  # changed, truncated or never recorded
    if mirror_dir is not None and (mirror_dir / a.name).is_file():
        digest = _stream_verified((mirror_dir / a.name).open("rb"), path, pinned, a.sha256,
                                  label=str(mirror_dir / a.name))
    else:
        digest, _ = net.download(a.urls, path, pinned, a.name, where=where,
                                 https_only=https_only)
    state["archives"][a.name] = {"sha256": digest, "size": path.stat().st_size}
    io.write_json(dest / STATE_FILE, state)
    return path, True


def _find_member(names: list[str], wanted: str, archive: Path) -> str:
    norm = {n: n[2:] if n.startswith("./") else n for n in names}
    hits = [n for n, m in norm.items() if m == wanted or m.endswith("/" + wanted)]
    if len(hits) != 1:
        what = "no member" if not hits else f"{len(hits)} members"
        raise DataError(archive, f"{what} matching {wanted!r}")
    return hits[0]


def _take_member(archive: Path, f: FileSpec, target: Path, accepted: set[str],
                 limits: ExtractLimits) -> str:
    """Copy one regular member out of ``archive`` to ``target`` (bounded) and verify its hash."""
    wanted = f.archive.member or f.name
    budget = _Budget(archive, limits)
    canonical = f.sha256 or min(accepted, default="")
    name = wanted
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                infos = {i.filename: i for i in _zip_members(zf, budget)}
                name = _find_member(list(infos), wanted, archive)
                info = infos[name]
                if _check_zip_member(info, archive) != "file":
                    raise DataError(archive, f"member {name!r} is not a regular file")
                budget.check_member(name, info.file_size, info.compress_size)
                return _stream_verified(zf.open(info), target, accepted, canonical,
                                        label=f"{archive}:{name}", budget=budget,
                                        member=(name, info.file_size))
        with tarfile.open(archive) as tf:
            members = {m.name: m for m in _tar_members(tf, budget)}
            name = _find_member(list(members), wanted, archive)
            m = members[name]
            if not m.isfile():
                raise DataError(archive, f"member {name!r} is not a regular file")
            budget.check_member(name, m.size)
            return _stream_verified(tf.extractfile(m), target, accepted, canonical,
                                    label=f"{archive}:{name}", budget=budget,
                                    member=(name, m.size))
    except _ARCHIVE_ERRORS as exc:
        raise DataError(archive, f"corrupt archive (member {name!r}): "
                                 f"{type(exc).__name__}: {exc}") from None
    except OSError as exc:
        raise DataError(archive, f"cannot read member {name!r}: {exc}") from None


# ----------------------------------------------------------------------------- network

class _Progress:
    """A one-line progress bar on stderr: name, percentage (when the size is known), MB."""

    def __init__(self, name: str, total: int | None, enabled: bool):
        self.name, self.total, self.enabled = name, total, enabled
        self.done, self.last = 0, 0.0

    def update(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and now - self.last > 0.2:
            self.last = now
            self._draw()

    def _draw(self) -> None:
        mb = self.done / 1e6
        if self.total:
            frac = min(1.0, self.done / self.total)
            bar = "#" * int(30 * frac)
            sys.stderr.write(f"\r{self.name} [{bar:<30}] {100 * frac:5.1f}% {mb:.1f} MB")
        else:
            sys.stderr.write(f"\r{self.name} {mb:.1f} MB")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw()
            sys.stderr.write("\n")
            sys.stderr.flush()


class _Net:
    """Downloads with a timeout, retries with exponential backoff and a progress bar."""

    def __init__(self, retries: int, backoff: float, timeout: float, progress: bool,
                 allowed: bool):
        self.retries, self.backoff, self.timeout = max(1, retries), backoff, timeout
        self.progress, self.allowed = progress, allowed

    def download(self, urls, target: Path, expected: set[str], name: str,
                 where: str = "", https_only: bool = False) -> tuple[str, str]:
        """Download the first URL that works and whose content has an accepted hash.

        ``https_only``: a file without a pinned hash is never taken over plain http (nothing
        would catch a tampered transfer); such URLs are skipped and named in the error.
        """
        if not self.allowed:
            raise DataError(name, f"{where} and no network (downloads disabled)")
        errors: list[str] = []
        mismatch: ChecksumError | None = None
        for url in urls:
            if https_only and urllib.parse.urlsplit(url).scheme not in ("https", "file"):
                errors.append(f"{url}: refused, plain http for a file without a pinned SHA-256")
                continue
            for attempt in range(self.retries):
                try:
                    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
                    resp = urllib.request.urlopen(req, timeout=self.timeout)  # noqa: S310
                    total = resp.headers.get("Content-Length")
                    bar = _Progress(name, int(total) if total else None, self.progress)
                    digest = _stream_verified(resp, target, expected, min(expected, default=""),
                                              label=url, bar=bar)
                    return digest, url
                except ChecksumError as exc:
                    mismatch = ChecksumError(f"{name} from {url}", exc.expected, exc.actual)
                    break  # the server sent a complete but different file: try the next URL
                except urllib.error.HTTPError as exc:
                    errors.append(f"{url}: HTTP {exc.code}")
                    if 400 <= exc.code < 500 and exc.code not in (408, 429):
                        break
                except (urllib.error.URLError, OSError, ValueError) as exc:
                    errors.append(f"{url}: {getattr(exc, 'reason', exc)}")
                if attempt + 1 < self.retries:
                    time.sleep(self.backoff * 2 ** attempt)
        if mismatch is not None:
            raise mismatch
        detail = "; ".join(errors[-3:]) or "no URL"
        prefix = f"{where} and " if where else ""
        raise DataError(name, f"{prefix}download failed (no network?): {detail}")


# ----------------------------------------------------------------------------- extraction

def _extract_once(f: FileSpec, archive: Path, dest: Path, state: dict,
                  limits: ExtractLimits | None = None) -> None:
    """Extract ``archive`` unless its tree is in place, from this archive, and unchanged."""
    out = dest / archive_dir_name(f.name)
    digest = state["files"][f.name]["sha256"]
    rec = state["extracted"].get(f.name)
    if isinstance(rec, dict) and rec.get("sha256") == digest and out.is_dir() \
            and rec.get("tree") == tree_digest(out):
        return
    safe_extract(archive, out, limits)
    state["extracted"][f.name] = {"sha256": digest, "dir": out.name, "tree": tree_digest(out)}
    io.write_json(dest / STATE_FILE, state)


def tree_digest(root: Path) -> str:
    """SHA-256 over the sorted relative paths and contents of every file under ``root``."""
    h = hashlib.sha256()
    for path in sorted(Path(root).rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            h.update(f"{rel}\0other\n".encode())
        elif path.is_dir():
            h.update(f"{rel}\0dir\n".encode())
        else:
            h.update(f"{rel}\0{io.sha256_file(path)}\n".encode())
    return h.hexdigest()


def safe_extract(archive: Path, out: Path, limits: ExtractLimits | None = None) -> Path:
    """Extract a .tar(.gz) or .zip into ``out`` safely, boundedly and atomically; return ``out``.

    Every member must resolve inside ``out``; symbolic and hard links, devices and FIFOs, a name
    that occurs twice and a file and a directory of the same name are refused; the bytes written
    are bounded by ``limits`` (``ExtractLimits``; the member count is checked before
    anything is written). Each refusal is one ``DataError`` naming the archive and member.
    Members are written by this function (never ``extractall``) into a temporary directory
    ``.<out name>.<random>.extract`` that replaces ``out`` at the end; on any error it is
    removed, and one left by a killed run is removed before the next run starts.
    """
    archive, out = Path(archive), Path(out)
    budget = _Budget(archive, limits or ExtractLimits())
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(out)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".extract", dir=out.parent))
    kinds: dict[Path, str] = {}
    name = ""
    try:
        root = tmp.resolve()
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                for info in _zip_members(zf, budget):
                    name = info.filename
                    path = _member_path(root, name, archive)
                    kind = _check_zip_member(info, archive)
                    _claim(kinds, root, path, kind, name, archive)
                    if kind == "dir":
                        path.mkdir(parents=True, exist_ok=True)
                        continue
                    budget.check_member(name, info.file_size, info.compress_size)
                    path.parent.mkdir(parents=True, exist_ok=True)
                    with zf.open(info) as src, open(path, "wb") as dst:
                        _copy_bounded(src, dst, budget, name, info.file_size)
        else:
            with tarfile.open(archive) as tf:
                for member in _tar_members(tf, budget):
                    name = member.name
                    path = _member_path(root, name, archive)
                    if member.isdir():
                        _claim(kinds, root, path, "dir", name, archive)
                        path.mkdir(parents=True, exist_ok=True)
                        continue
                    if not member.isfile():
                        kind = ("link" if member.issym() or member.islnk() else
                                "device or FIFO")
                        raise DataError(archive, f"member {name!r} is a {kind}; refused")
                    _claim(kinds, root, path, "file", name, archive)
                    budget.check_member(name, member.size)
                    path.parent.mkdir(parents=True, exist_ok=True)
                    with tf.extractfile(member) as src, open(path, "wb") as dst:
                        _copy_bounded(src, dst, budget, name, member.size)
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
    except _ARCHIVE_ERRORS as exc:
        at = f" at member {name!r}" if name else ""
        raise DataError(archive, f"corrupt archive{at}: {type(exc).__name__}: {exc}") from None
    except OSError as exc:
        raise DataError(archive, f"member {name!r} cannot be written: "
                                 f"{exc.strerror or exc}") from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return out


def remove_stale_temporaries(out: Path) -> list[Path]:
    """Remove (and return) the temporary extraction directories of ``out`` that a killed run
    left beside it: real directories named exactly ``.<out name>.<8 random characters of
    tempfile.mkdtemp>.extract``; nothing else is touched. Assumes one extraction of a target at
    a time, as the fetch state file does."""
    out = Path(out)
    pattern = re.compile(re.escape(f".{out.name}.") + r"[a-z0-9_]{8}\.extract")
    stale = sorted(p for p in out.parent.iterdir() if pattern.fullmatch(p.name)
                   and p.is_dir() and not p.is_symlink())
    for path in stale:
        shutil.rmtree(path)
    return stale


def _claim(kinds: dict, root: Path, path: Path, kind: str, name: str, archive: Path) -> None:
    """Refuse a member whose path was already taken, or that clashes with a file member."""
    if path == root:
        if kind == "dir":
            return
        raise DataError(archive, f"member {name!r} names the extraction directory itself")
    before = kinds.get(path)
    if before == "file" or (before == "dir" and kind == "file"):
        what = "appears twice" if before == kind else "is both a file and a directory"
        raise DataError(archive, f"member {name!r} {what}; refused")
    for parent in path.parents:
        if parent == root:
            break
        if kinds.get(parent) == "file":
            raise DataError(archive, f"member {name!r} lies under a file member "
                                     f"{parent.relative_to(root).as_posix()!r}; refused")
        kinds.setdefault(parent, "dir")
    kinds[path] = kind


def _member_path(root: Path, name: str, archive: Path) -> Path:
    if not name or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise DataError(archive, f"member {name!r} has an absolute path; refused")
    path = (root / name).resolve()
    if path != root and root not in path.parents:
        raise DataError(archive, f"member {name!r} escapes the extraction directory; refused")
    return path


def _check_zip_member(info: zipfile.ZipInfo, archive: Path) -> str:
    mode = info.external_attr >> 16
    kind = stat.S_IFMT(mode)
    if info.is_dir():
        return "dir"
    if kind not in (0, stat.S_IFREG):
        what = "link" if kind == stat.S_IFLNK else "device or FIFO"
        raise DataError(archive, f"member {info.filename!r} is a {what}; refused")
    return "file"
