"""Obtain the raw files of a dataset: copy from a local mirror or download, verify, extract.

:func:`fetch` handles every :class:`~termweight.datasets.registry.FileSpec` of a dataset:

1. a file already in ``dest`` and recorded in ``dest/.verified.json`` (same size and mtime, hash
   accepted) is left alone (idempotent; nothing is copied twice);
2. otherwise it is copied from ``mirror / spec.mirror_subdir / name`` when that exists, else
   downloaded from its URLs (``urllib``, timeout, retries with exponential backoff, progress on
   stderr), else taken out of its canonical archive (:class:`ArchiveSource`);
3. the SHA-256 is computed while the bytes are written to a temporary file beside the target and
   checked BEFORE the file is renamed into place: a mismatch raises
   :class:`~termweight.errors.ChecksumError` and leaves nothing behind;
4. files with ``extract=True`` are unpacked into ``dest/<name without .tar.gz/.tgz/.zip>``: every
   member must stay inside the target directory, links/devices/FIFOs are refused, and the tree is
   built in a temporary directory that is renamed into place only when complete.

A file whose checksum could not be confirmed (``sha256 == UNPINNED``, only RCV1's token files) is
accepted on first use with a warning and its hash is recorded; later runs check against it.
Set ``TERMWEIGHT_OFFLINE=1`` (or ``allow_download=False``) to forbid network access.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import warnings
import zipfile
from pathlib import Path, PurePosixPath

from termweight import io
from termweight.datasets.registry import UNPINNED, ArchiveSource, DatasetSpec, FileSpec
from termweight.errors import ChecksumError, DataError

STATE_FILE = ".verified.json"
ARCHIVE_DIR = ".archives"
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")
USER_AGENT = "termweight/0.1 (research pipeline; +https://github.com)"
_CHUNK = 1 << 20


def fetch(spec: DatasetSpec, dest: Path, mirror: Path | None = None, *,
          allow_download: bool | None = None, retries: int = 3, backoff: float = 1.0,
          timeout: float = 60.0, progress: bool = True) -> Path:
    """Make every file of ``spec`` present and verified in ``dest``; return ``dest``."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    if allow_download is None:
        allow_download = os.environ.get("TERMWEIGHT_OFFLINE", "").lower() not in {"1", "true",
                                                                                  "yes"}
    mirror_dir = None
    if mirror is not None:
        mirror_dir = Path(mirror) / (spec.mirror_subdir or spec.name)
    net = _Net(retries=retries, backoff=backoff, timeout=timeout, progress=progress,
               allowed=allow_download)
    state = _load_state(dest)
    for f in spec.files:
        target = dest / _safe_relpath(f.name, where=spec.name)
        if not _is_verified(state, f, target):
            record = _obtain(f, target, dest, mirror_dir, net)
            state["files"][f.name] = record
            io.write_json(dest / STATE_FILE, state)
        if f.extract:
            _extract_once(f, target, dest, state)
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


# ----------------------------------------------------------------------------- state

def _load_state(dest: Path) -> dict:
    path = dest / STATE_FILE
    if path.exists():
        state = io.read_json(path)
        state.setdefault("files", {})
        state.setdefault("extracted", {})
        return state
    return {"files": {}, "extracted": {}}


def _is_verified(state: dict, f: FileSpec, target: Path) -> bool:
    rec = state["files"].get(f.name)
    if rec is None or not target.is_file():
        return False
    st = target.stat()
    if st.st_size != rec.get("size") or st.st_mtime_ns != rec.get("mtime_ns"):
        return False
    ok = accepted_hashes(f) or {rec.get("sha256")}  # unpinned: the hash recorded on first use
    return rec.get("sha256") in ok


def _record(target: Path, digest: str, source: str) -> dict:
    st = target.stat()
    return {"sha256": digest, "size": st.st_size, "mtime_ns": st.st_mtime_ns, "source": source}


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


def _obtain(f: FileSpec, target: Path, dest: Path, mirror_dir: Path | None, net: _Net) -> dict:
    # A copy already in place (e.g. state file lost): hash it instead of copying again.
    if target.is_file():
        digest = io.sha256_file(target)
        if digest in accepted_hashes(f):
            return _record(target, digest, "existing")
    if mirror_dir is not None:
        src = mirror_dir / f.name
        if src.is_file():
            digest = _stream_verified(src.open("rb"), target, accepted_hashes(f), f.sha256,
                                      label=str(src))
            if not f.sha256:
                _warn_unpinned(f.name, digest)
            return _record(target, digest, f"mirror:{src}")
    where = f"not in mirror {mirror_dir}" if mirror_dir is not None else "no mirror given"
    if not (f.urls or f.archive):
        raise DataError(f.name, f"{where} and no download URL is known for this file")
    if f.urls and net.allowed:
        try:
            digest, url = net.download(f.urls, target, {f.sha256} - {UNPINNED}, f.name,
                                       where=where)
        except ChecksumError:
            raise
        except DataError:
            if f.archive is None:
                raise
        else:
            if not f.sha256:
                _warn_unpinned(f.name, digest)
            return _record(target, digest, url)
    if f.archive is not None and (net.allowed or _archive_at_hand(f.archive, dest, mirror_dir)):
        archive = _obtain_archive(f.archive, dest, mirror_dir, net, where)
        digest = _take_member(archive, f, target)
        if not f.sha256:
            _warn_unpinned(f.name, digest)
        return _record(target, digest, f"archive:{f.archive.name}")
    raise DataError(f.name, f"{where} and no network (downloads disabled; "
                            f"get it from {_first_source(f)})")


def _archive_at_hand(a: ArchiveSource, dest: Path, mirror_dir: Path | None) -> bool:
    return (dest / ARCHIVE_DIR / a.name).is_file() or (
        mirror_dir is not None and (mirror_dir / a.name).is_file())


def _first_source(f: FileSpec) -> str:
    if f.urls:
        return f.urls[0]
    return f.archive.urls[0] if f.archive and f.archive.urls else "the dataset's home page"


def _stream_verified(src, target: Path, accepted: set[str], canonical: str, label,
                     total: int | None = None, bar: _Progress | None = None) -> str:
    """Copy the open binary stream ``src`` to ``target`` via a temp file; hash-check first."""
    h = hashlib.sha256()
    with src, io.atomic_path(target) as tmp:
        with open(tmp, "wb") as out:
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
                    where: str) -> Path:
    path = dest / ARCHIVE_DIR / _safe_relpath(a.name, where=a.name)
    expected = {a.sha256} - {UNPINNED}
    if path.is_file() and (not expected or io.sha256_file(path) in expected):
        return path
    if mirror_dir is not None and (mirror_dir / a.name).is_file():
        _stream_verified((mirror_dir / a.name).open("rb"), path, expected, a.sha256,
                         label=str(mirror_dir / a.name))
        return path
    net.download(a.urls, path, expected, a.name, where=where)
    return path


def _find_member(names: list[str], wanted: str, archive: Path) -> str:
    norm = {n: n[2:] if n.startswith("./") else n for n in names}
    hits = [n for n, m in norm.items() if m == wanted or m.endswith("/" + wanted)]
    if len(hits) != 1:
        what = "no member" if not hits else f"{len(hits)} members"
        raise DataError(archive, f"{what} matching {wanted!r}")
    return hits[0]


def _take_member(archive: Path, f: FileSpec, target: Path) -> str:
    """Copy one regular member out of ``archive`` to ``target`` and verify its hash."""
    wanted = f.archive.member or f.name
    accepted = accepted_hashes(f)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            infos = {i.filename: i for i in zf.infolist()}
            name = _find_member(list(infos), wanted, archive)
            _check_zip_member(infos[name], archive)
            return _stream_verified(zf.open(name), target, accepted, f.sha256,
                                    label=f"{archive}:{name}")
    with tarfile.open(archive) as tf:
        members = {m.name: m for m in tf.getmembers()}
        name = _find_member(list(members), wanted, archive)
        if not members[name].isfile():
            raise DataError(archive, f"member {name!r} is not a regular file")
        return _stream_verified(tf.extractfile(members[name]), target, accepted, f.sha256,
                                label=f"{archive}:{name}")


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
                 where: str = "") -> tuple[str, str]:
        """Download the first URL that works and whose content has an accepted hash."""
        if not self.allowed:
            raise DataError(name, f"{where} and no network (downloads disabled)")
        errors: list[str] = []
        mismatch: ChecksumError | None = None
        for url in urls:
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

def _extract_once(f: FileSpec, archive: Path, dest: Path, state: dict) -> None:
    out = dest / archive_dir_name(f.name)
    digest = state["files"][f.name]["sha256"]
    rec = state["extracted"].get(f.name)
    if rec is not None and rec.get("sha256") == digest and out.is_dir():
        return
    safe_extract(archive, out)
    state["extracted"][f.name] = {"sha256": digest, "dir": out.name}
    io.write_json(dest / STATE_FILE, state)


def safe_extract(archive: Path, out: Path) -> Path:
    """Extract a .tar(.gz) or .zip into ``out`` safely and atomically; return ``out``.

    Every member must resolve inside ``out``; symbolic and hard links, devices and FIFOs are
    refused (:class:`DataError` naming the archive and member). Members are written by this
    function (never ``extractall``) into a temporary directory that replaces ``out`` at the end.
    """
    archive, out = Path(archive), Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".extract", dir=out.parent))
    try:
        root = tmp.resolve()
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                for info in zf.infolist():
                    path = _member_path(root, info.filename, archive)
                    if _check_zip_member(info, archive) == "dir":
                        path.mkdir(parents=True, exist_ok=True)
                        continue
                    path.parent.mkdir(parents=True, exist_ok=True)
                    with zf.open(info) as src, open(path, "wb") as dst:
                        shutil.copyfileobj(src, dst, _CHUNK)
        else:
            with tarfile.open(archive) as tf:
                for member in tf:
                    path = _member_path(root, member.name, archive)
                    if member.isdir():
                        path.mkdir(parents=True, exist_ok=True)
                        continue
                    if not member.isfile():
                        kind = ("link" if member.issym() or member.islnk() else
                                "device or FIFO")
                        raise DataError(archive, f"member {member.name!r} is a {kind}; refused")
                    path.parent.mkdir(parents=True, exist_ok=True)
                    with tf.extractfile(member) as src, open(path, "wb") as dst:
                        shutil.copyfileobj(src, dst, _CHUNK)
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
    except (tarfile.TarError, zipfile.BadZipFile, EOFError) as exc:
        raise DataError(archive, f"corrupt archive: {exc}") from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return out


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
