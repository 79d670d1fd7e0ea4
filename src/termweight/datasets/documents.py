"""Parsed text documents before tokenising: ids, raw text, labels and predefined split.

Also the checks every dataset parser shares: ``decode_text`` (a leading UTF-8 byte-order
mark removed, a non-UTF-8 byte named by file and line) and ``check_labels`` /
``bad_label`` (no control character in a class label).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from termweight.runner import io
from termweight.runner.errors import DataError, blame

if TYPE_CHECKING:  # pandas (the workflow extra) is imported by to_frame only: parsing needs none
    import pandas as pd

BOM = b"\xef\xbb\xbf"
_LINE_END = re.compile(rb"\r\n?|\n")  # universal newlines, as text mode splits lines
# Unicode category Cc (U+0000-U+001F, U+007F-U+009F: NUL, tab and line breaks included, since a
# saved label list is tab-joined) and a byte-order mark left inside a file (Cf, invisible).
_LABEL_FAULT = re.compile(r"[\x00-\x1f\x7f-\x9f\ufeff]")


def decode_text(path, blob: bytes, encoding: str = "utf-8") -> str:
    """``blob`` decoded without a leading UTF-8 byte-order mark (what ``utf-8-sig`` does).

    ``"utf-8"``: a byte that is not UTF-8 is a ``DataError`` naming ``path`` and its line
    (lines end with LF, CRLF or CR).
    Another encoding (Latin-1, which never fails) also loses the mark, which would otherwise
    stick to the first field as three Latin-1 characters.
    """
    body = blob[len(BOM):] if blob.startswith(BOM) else blob
    if encoding != "utf-8":
        return body.decode(encoding)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(path, f"not UTF-8 (byte 0x{body[exc.start]:02x})",
                        line=len(_LINE_END.findall(body, 0, exc.start)) + 1) from None


def bad_label(labels) -> tuple[int, str] | None:
    """``(index, reason)`` of the first label holding a control character (Unicode Cc) or a
    byte-order mark, else ``None``; each distinct label is searched once."""
    faulty = {lab for lab in set(labels) if _LABEL_FAULT.search(lab)}
    if not faulty:
        return None
    k = next(i for i, lab in enumerate(labels) if lab in faulty)
    char = _LABEL_FAULT.search(labels[k]).group()
    what = "a byte-order mark" if char == "\ufeff" else "a control character"
    return k, f"class label {labels[k]!r} contains U+{ord(char):04X} ({what})"


def check_labels(path, labels, lines=None) -> None:
    """Refuse the first label ``bad_label`` finds: a ``DataError`` naming ``path``
    and the label's line (``lines[k]``; default: label ``k`` is on line ``k + 1``)."""
    found = bad_label(labels)
    if found is not None:
        k, reason = found
        raise DataError(path, reason, line=k + 1 if lines is None else lines[k])


@dataclass
class Documents:
    """Raw documents of a text dataset.

    ``labels`` holds, per document, the list of its class names (one for single-label data);
    ``classes`` fixes the class order (ordinal order for ordinal data); ``subset`` is the
    predefined split membership per document (``train``/``test``/``valid``, or ``all``).
    """

    name: str
    doc_ids: list[str]
    texts: list[str]
    labels: list[list[str]]
    subset: list[str]
    classes: list[str]
    multilabel: bool = False
    ordinal: bool = False
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        n = len(self.doc_ids)
        if n == 0:
            raise DataError(self.name, "no documents parsed")
        for what, seq in (("texts", self.texts), ("labels", self.labels), ("subset", self.subset)):
            if len(seq) != n:
                raise DataError(self.name, f"{what} has {len(seq)} entries for {n} documents")
        found = bad_label(self.classes)
        if found is not None:
            raise DataError(self.name, found[1])
        known = set(self.classes)
        for doc_id, labs in zip(self.doc_ids, self.labels, strict=True):
            unknown = set(labs) - known
            if unknown:
                raise DataError(self.name, f"document {doc_id}: unknown classes {sorted(unknown)}")
            if not self.multilabel and len(labs) != 1:
                raise DataError(self.name, f"document {doc_id}: {len(labs)} labels in single-label data")
        from termweight.corpus import check_two_classes

        index = {c: k for k, c in enumerate(self.classes)}
        rows = [i for i, labs in enumerate(self.labels) for _ in labs]
        cols = [index[c] for labs in self.labels for c in labs]
        Y = sp.csr_matrix((np.ones(len(rows), np.uint8), (rows, cols)),
                          shape=(n, len(self.classes)))
        check_two_classes(self.name, Y, self.classes, self.info)

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame({"doc_id": self.doc_ids, "text": self.texts,
                             "labels": ["\t".join(labs) for labs in self.labels],
                             "subset": self.subset})

    def save(self, directory) -> None:
        directory = Path(directory)
        io.write_table(directory / "documents.parquet", self.to_frame())
        io.write_json(directory / "documents.json", {
            "name": self.name, "classes": self.classes, "multilabel": self.multilabel,
            "ordinal": self.ordinal, "n_docs": len(self.doc_ids), "info": self.info})

    @classmethod
    def load(cls, directory) -> Documents:
        """Read what ``save`` wrote; any missing or malformed part names its file."""
        from termweight.corpus import require_keys

        directory = Path(directory)
        meta_path, table = directory / "documents.json", directory / "documents.parquet"
        meta = require_keys(meta_path, io.read_json(meta_path),
                            {"name": str, "classes": list, "multilabel": bool, "ordinal": bool,
                             "info": dict})
        frame = io.read_table(table, required=("doc_id", "text", "labels", "subset"))
        for col in ("text", "labels", "subset"):
            bad = [i for i, v in enumerate(frame[col]) if not isinstance(v, str)]
            if bad:
                raise DataError(table, f"column {col!r}: row {bad[0] + 1} is not a string")
        with blame(directory, meta["name"]):  # inconsistent parts: name the directory
            return cls(name=meta["name"], doc_ids=frame["doc_id"].astype(str).tolist(),
                       texts=frame["text"].tolist(),
                       labels=[s.split("\t") if s else [] for s in frame["labels"]],
                       subset=frame["subset"].tolist(), classes=meta["classes"],
                       multilabel=meta["multilabel"], ordinal=meta["ordinal"],
                       info=meta["info"])
