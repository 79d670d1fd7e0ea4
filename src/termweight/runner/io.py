"""Atomic, pickle-free file I/O for every intermediate the pipeline writes.

Every writer writes to a temporary file in the target directory and renames it into place, so an
interrupted step never leaves a half-written output. Matrices are CSR ``.npz`` files loaded with
``allow_pickle=False``; tables are CSV or Parquet; everything else is JSON.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import tempfile
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from termweight.runner.errors import DataError

TMP_MARK = ".tmp-"  # temporary files are ".<name>.tmp-<random><suffix>" (.dvcignore'd)


def _umask() -> int:
    """The process umask (read without changing it where /proc allows)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: the open ``all_or_nothing`` transaction of this process: (pid, [(temporary, target)])
_PENDING: tuple[int, list[tuple[Path, Path]]] | None = None


@contextlib.contextmanager
def all_or_nothing() -> Iterator[None]:
    """Make a step's several outputs appear together or not at all.

    Inside the block, every ``atomic_path`` of this process keeps its finished temporary and
    renames nothing; at the end of the block all are renamed (the renames are quick and cannot
    run out of space), and on an error all are removed. Forked workers write as usual. A step
    must not read back an output it wrote inside the block.
    """
    global _PENDING
    if _PENDING is not None and _PENDING[0] == os.getpid():  # nested: the outer block commits
        yield
        return
    _PENDING = (os.getpid(), [])
    pending = _PENDING[1]
    try:
        yield
        for tmp, target in pending:
            os.replace(tmp, target)
    finally:
        _PENDING = None
        for tmp, _ in pending:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success.

    The file gets the mode a plain ``open`` would give (0666 minus the umask), not mkstemp's 0600.
    Temporaries of ``path`` left by a killed earlier run (``.<name>.tmp-*``) are removed first, so
    a DVC-tracked output directory never keeps one after a successful rerun.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    prefix = f".{path.name}{TMP_MARK}"
    for stale in path.parent.glob(f"{glob.escape(prefix)}*"):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix or path.suffix, dir=path.parent)
    os.close(fd)
    tmp = Path(tmp)
    deferred = _PENDING is not None and _PENDING[0] == os.getpid()
    try:
        try:
            yield tmp
        except OSError as exc:  # disk full, quota: name the output, not the temporary
            if exc.filename not in (None, str(tmp)):
                raise
            raise DataError(path, f"cannot write: {exc.strerror or exc}") from None
        if tmp.exists():
            os.chmod(tmp, 0o666 & ~_umask())
        if deferred:
            _PENDING[1][:] = [(t, p) for t, p in _PENDING[1] if p != path] + [(tmp, path)]
            return
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    finally:
        if not deferred and tmp.exists():
            tmp.unlink()


def write_text(path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path, obj) -> None:
    """Write ``obj`` as sorted, indented, strict JSON (stable bytes for DVC hashing).

    Strict: a NaN or infinity anywhere is refused (``DataError`` naming the file and the
    key) instead of being written as the non-standard ``NaN``; nothing is written then.
    """
    from termweight import formats

    try:
        text = formats.json_text(obj)
    except ValueError:
        where = _nonfinite_key(obj) or "(a value)"
        raise DataError(path, f"refusing to write a non-finite number (NaN or infinity) at "
                              f"{where}: JSON has no such value") from None
    write_text(path, text)


def _nonfinite_key(obj, prefix: str = "") -> str | None:
    """Key path (``a/b/0``) of the first NaN or infinity inside ``obj``."""
    if isinstance(obj, float | np.floating):
        return prefix or "(top level)" if not np.isfinite(obj) else None
    if isinstance(obj, np.ndarray):
        obj = obj.tolist()
    if isinstance(obj, Mapping):
        items = ((str(k), v) for k, v in obj.items())
    elif isinstance(obj, list | tuple):
        items = ((str(i), v) for i, v in enumerate(obj))
    else:
        return None
    for k, v in items:
        found = _nonfinite_key(v, f"{prefix}/{k}" if prefix else k)
        if found:
            return found
    return None


def _refuse_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def read_json(path):
    """Read strict JSON (no NaN/Infinity); any failure names the file (and line)."""
    try:
        blob = Path(path).read_bytes()
    except OSError as exc:
        raise DataError(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        return json.loads(blob.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError as exc:
        raise DataError(path, "not UTF-8", line=blob[: exc.start].count(b"\n") + 1) from None
    except json.JSONDecodeError as exc:
        raise DataError(path, f"invalid JSON: {exc.msg}", line=exc.lineno) from None
    except (ValueError, RecursionError) as exc:
        raise DataError(path, f"invalid JSON: {exc}") from None


def read_json_object(path) -> dict:
    """``read_json`` of a file that must hold a JSON object (a mapping)."""
    obj = read_json(path)
    if not isinstance(obj, dict):
        raise DataError(path, f"expected a JSON object, found a JSON {type(obj).__name__}")
    return obj


def read_lines(path) -> list[str]:
    """The lines of a UTF-8 text file written by ``write_text`` (one item per ``\\n``)."""
    try:
        blob = Path(path).read_bytes()
    except OSError as exc:
        raise DataError(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        return blob.decode("utf-8").split("\n")
    except UnicodeDecodeError as exc:
        raise DataError(path, "not UTF-8", line=blob[: exc.start].count(b"\n") + 1) from None


def save_arrays(path, **arrays) -> None:
    """Save dense arrays and CSR matrices to one ``.npz`` (layout: ``termweight.formats``).

    A sparse matrix ``name`` is stored as ``name.data``, ``name.indices``, ``name.indptr`` and
    ``name.shape`` so that the file opens with plain ``np.load(allow_pickle=False)``.
    """
    from termweight import formats

    flat = formats.flatten_arrays(arrays)
    with atomic_path(path, suffix=".npz") as tmp:
        formats.write_npz(tmp, flat)


class Arrays(dict):
    """The arrays of one ``.npz``; a missing name is a ``DataError`` naming the file."""

    def __init__(self, path, *args):
        super().__init__(*args)
        self.path = path

    def __missing__(self, key):
        raise DataError(self.path, f"no array {key!r} in this file (has: "
                                   f"{', '.join(sorted(self)) or 'none'})")


_NPZ_ERRORS = (OSError, ValueError, EOFError, KeyError, TypeError, zipfile.BadZipFile,
               zlib.error, NotImplementedError, RuntimeError)


#: environment variable: the most bytes the arrays read from one ``.npz`` may take, decompressed
MAX_ARRAY_BYTES_ENV = "TERMWEIGHT_MAX_ARRAY_BYTES"


def max_array_bytes() -> int:
    """The decompressed-size limit of one ``.npz`` read: ``$TERMWEIGHT_MAX_ARRAY_BYTES``, else
    half of this machine's physical memory (a larger file could not be worked on anyway)."""
    env = os.environ.get(MAX_ARRAY_BYTES_ENV)
    if env:
        try:
            return int(float(env))
        except ValueError:
            raise DataError(MAX_ARRAY_BYTES_ENV, f"not a number of bytes: {env!r}") from None
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError):
        return 8 << 30


def _check_declared_sizes(path, zf: zipfile.ZipFile, names) -> None:
    """Before anything is decompressed: every member's ``.npy`` header (read alone) must declare
    no more bytes than the zip says the member holds, and the members together no more than
    ``max_array_bytes``, so a header claiming 10^12 values or a deflate bomb is refused
    instead of allocated. (zipfile never inflates a member past its declared size.)"""
    limit, total = max_array_bytes(), 0
    for name in names:
        info = zf.getinfo(f"{name}.npy")
        with zf.open(info) as fh:
            version = np.lib.format.read_magic(fh)
            read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                    else np.lib.format.read_array_header_2_0)
            shape, _, dtype = read(fh)
        if dtype.hasobject:
            raise DataError(path, f"array {name!r} holds Python objects (pickle): refused")
        declared = dtype.itemsize * int(np.prod(shape, dtype=object))
        if declared > info.file_size:
            raise DataError(path, f"array {name!r}: its header declares {declared:,} bytes "
                                  f"{tuple(shape)}, the file holds {info.file_size:,}")
        total += info.file_size
        if total > limit:
            raise DataError(path, f"its arrays take more than {limit:,} bytes decompressed "
                                  f"({name!r} reaches {total:,}); raise {MAX_ARRAY_BYTES_ENV} "
                                  "if the file is genuine")


def load_arrays(path, keys=None) -> Arrays:
    """Load what ``save_arrays`` wrote; CSR matrices are reassembled and checked.

    ``keys``: load only these arrays or matrices (e.g. ``("X_test",)`` of an encoded split: the
    others are neither read nor checked); a missing one is a ``DataError`` naming the file.
    Any unreadable, truncated, corrupt or inconsistent file (including a pickled object array or
    a CSR matrix whose indices leave its shape) is a ``DataError`` naming the file.
    """
    try:
        with np.load(path, allow_pickle=False) as z:
            if not isinstance(z, np.lib.npyio.NpzFile):
                raise ValueError("a single .npy array, not an .npz archive")
            names = z.files
            if keys is not None:
                want = set(keys)
                names = [k for k in z.files if k in want or k.rsplit(".", 1)[0] in want]
                have = {k.rsplit(".", 1)[0] if k.endswith(".shape") else k for k in names}
                if want - have:
                    raise DataError(path, f"no array {sorted(want - have)[0]!r} in this file "
                                          f"(has: {', '.join(sorted(z.files))})")
            _check_declared_sizes(path, z.zip, names)
            raw = {k: z[k] for k in names}
    except OSError as exc:
        if exc.strerror is None:  # e.g. a gzip/zip layer's own error
            raise DataError(path, f"cannot read arrays: {type(exc).__name__}: {exc}") from None
        raise DataError(path, f"cannot read arrays: {exc.strerror}") from None
    except _NPZ_ERRORS as exc:
        raise DataError(path, f"cannot read arrays: {type(exc).__name__}: {exc}") from None
    out = Arrays(path)
    for key in sorted(raw):
        if key.endswith(".shape"):
            name = key[: -len(".shape")]
            try:
                shape = tuple(int(s) for s in raw[key])
                if len(shape) != 2 or min(shape) < 0:
                    raise ValueError(f"shape {shape}")
                m = sp.csr_matrix(
                    (raw[f"{name}.data"], raw[f"{name}.indices"], raw[f"{name}.indptr"]),
                    shape=shape)
                m.check_format(full_check=True)
            except _NPZ_ERRORS as exc:
                raise DataError(path, f"sparse matrix {name!r} is malformed: "
                                      f"{type(exc).__name__}: {exc}") from None
            out[name] = m
    for key, value in raw.items():
        if key.rsplit(".", 1)[-1] in {"data", "indices", "indptr", "shape"} and "." in key:
            continue
        out[key] = value
    return out


def sha256_file(path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            h.update(block)
    return h.hexdigest()


def write_table(path, frame) -> None:
    """Write a pandas DataFrame as CSV or Parquet, chosen by the file suffix."""
    from termweight import formats

    path = Path(path)
    with atomic_path(path) as tmp:
        formats.write_table(tmp, path.suffix, frame)


def read_table(path, required=()):
    """Read a CSV or Parquet table; unreadable files and missing ``required`` columns are a
    ``DataError`` naming the file."""
    import pandas as pd
    import pyarrow

    path = Path(path)
    try:
        if path.suffix == ".parquet":
            frame = pd.read_parquet(path)
        else:
            frame = pd.read_csv(path)
    except (OSError, ValueError, EOFError, pyarrow.ArrowException, pd.errors.ParserError) as exc:
        raise DataError(path, f"cannot read table: {type(exc).__name__}: {exc}") from None
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise DataError(path, f"missing column(s) {', '.join(map(repr, missing))}")
    return frame


def canonical_hash(obj: Mapping) -> str:
    """``termweight.formats.canonical_hash``: SHA-256 of a mapping with sorted keys."""
    from termweight import formats

    return formats.canonical_hash(obj)
