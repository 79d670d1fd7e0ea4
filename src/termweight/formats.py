"""The bytes of every file the pipeline writes: JSON text, ``.npz`` layout, CSV and Parquet.

``termweight.runner.io`` wraps these in atomic writes and checks (runner code, which cannot change a
result's bytes); what decides the bytes is here, a file every stage that writes one lists in
dvc.yaml.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Mapping

import numpy as np
import scipy.sparse as sp


def json_default(o):
    """NumPy scalars and arrays as plain JSON numbers and lists."""
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def json_text(obj) -> str:
    """Sorted, indented, strict JSON and a final newline (stable bytes for DVC hashing); a NaN or
    infinity raises ``ValueError``."""
    return json.dumps(obj, indent=2, sort_keys=True, default=json_default, allow_nan=False) + "\n"


def flatten_arrays(arrays: Mapping) -> dict[str, np.ndarray]:
    """Dense arrays as they are; a CSR matrix ``name`` as ``name.data``, ``name.indices``
    (int32), ``name.indptr`` (int64) and ``name.shape``, sorted indices (plain ``np.load``)."""
    flat: dict[str, np.ndarray] = {}
    for name, value in arrays.items():
        if sp.issparse(value):
            m = sp.csr_matrix(value)
            m.sort_indices()
            flat[f"{name}.data"] = m.data
            flat[f"{name}.indices"] = m.indices.astype(np.int32, copy=False)
            flat[f"{name}.indptr"] = m.indptr.astype(np.int64, copy=False)
            flat[f"{name}.shape"] = np.asarray(m.shape, dtype=np.int64)
        else:
            arr = np.asarray(value)
            if arr.dtype == object:
                raise TypeError(f"array {name!r} has dtype object; store strings as str arrays")
            flat[name] = arr
    return flat


def write_npz(path, arrays: Mapping[str, np.ndarray]) -> None:
    """Like ``np.savez_compressed`` but byte-stable: fixed member order and timestamps.

    NumPy stamps each zip member with the current time, so two runs producing equal arrays give
    different bytes and DVC would see a change. Here every member is dated 1980-01-01.
    """
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with zf.open(info, "w", force_zip64=True) as fh:
                np.lib.format.write_array(fh, np.asarray(arrays[name], order="C"),
                                          allow_pickle=False)


def write_table(path, suffix: str, frame) -> None:
    """A pandas DataFrame as Parquet or CSV (``suffix``; ``\\n`` lines, ``%.10g`` floats)."""
    if suffix == ".parquet":
        frame.to_parquet(path, index=False)
    elif suffix == ".csv":
        frame.to_csv(path, index=False, lineterminator="\n", float_format="%.10g")
    else:
        raise ValueError(f"{path}: unknown table suffix (use .csv or .parquet)")


def canonical_hash(obj: Mapping) -> str:
    """SHA-256 of a JSON-serialisable mapping with sorted keys (params hashes, provenance)."""
    blob = json.dumps(obj, sort_keys=True, default=json_default).encode()
    return hashlib.sha256(blob).hexdigest()
