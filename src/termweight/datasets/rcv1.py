"""RCV1-v2 / LYRL2004 token files (Lewis, Yang, Rose & Li, JMLR 5, 2004), topic categories.

Source: the JMLR online appendix, http://www.ai.mit.edu/projects/jmlr/papers/volume5/lewis04a/
(same tree at jmlr.csail.mit.edu):

- ``a12-token-files/lyrl2004_tokens_train.dat.gz`` (23,149 documents, the LYRL2004 training set)
  and ``lyrl2004_tokens_test_pt{0,1,2,3}.dat.gz`` (781,265 test documents in four parts);
- ``a08-topic-qrels/rcv1-v2.topics.qrels.gz``: lines ``<topic> <docid> 1`` (103 topics used).

Token format: records ``.I <docid>`` then ``.W`` then the document's tokens (already lower-cased,
stop-worded and Porter-stemmed by the authors) on the following lines, records separated by blank
lines. The text of a document is its tokens joined by single spaces; re-tokenise it by splitting
on white space only (stemming again would change the authors' stems).

Checksums: no published SHA-256 was found for the five token files, and they are not in the
shared mirror, so their hashes could not be computed here; they are declared UNPINNED: accepted
on first download (over https only) with a warning, the hash recorded in ``.verified.json`` and
checked from then on, and every corpus built from them says so in ``info["unverified_files"]``
(file name -> the SHA-256 found on first use), which the ``count`` step copies into the corpus
metadata. For the qrels file, the SHA-256 is the one scikit-learn pins for its figshare
copy (``fetch_rcv1``), which scikit-learn presents as the same file as the JMLR original; that
identity could not be confirmed here. The files are not in the shared mirror and cannot be
downloaded in this environment: the parser is tested on a small sample in the same format.
"""

from __future__ import annotations

import gzip
import zlib
from collections import defaultdict
from pathlib import Path

from termweight.datasets.documents import Documents, bad_label
from termweight.datasets.registry import UNPINNED, DatasetSpec, FileSpec, register
from termweight.runner.errors import DataError

# https only: the old www.ai.mit.edu address of the same tree is plain http, and the token
# files have no pinned SHA-256 to catch a tampered transfer.
JMLR = ("https://jmlr.csail.mit.edu/papers/volume5/lewis04a/",)
TOKEN_FILES = ("lyrl2004_tokens_train.dat.gz",) + tuple(
    f"lyrl2004_tokens_test_pt{k}.dat.gz" for k in range(4))
QRELS = "rcv1-v2.topics.qrels.gz"
QRELS_SHA256 = "2a98e5e5d8b770bded93afc8930d88299474317fe14181aee1466cc754d0d1c1"
FILES = tuple(FileSpec(name, tuple(f"{base}a12-token-files/{name}" for base in JMLR), UNPINNED)
              for name in TOKEN_FILES) + (
    FileSpec(QRELS, tuple(f"{base}a08-topic-qrels/{QRELS}" for base in JMLR)
             + ("https://ndownloader.figshare.com/files/5976048",), QRELS_SHA256),)
PUBLISHED_SIZES = {"train": 23149, "test": 781265, "topics": 103}
_BOM = "\xef\xbb\xbf"  # a UTF-8 byte-order mark read as Latin-1


def _open_text(path: Path):
    if not path.is_file():
        raise DataError(path, "file missing (run the fetch step first)")
    if path.name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="latin-1", newline="\n")
    return open(path, encoding="latin-1", newline="\n")


def _lines(path: Path):
    """``(line number, line)`` of a (gzip) Latin-1 file, a leading UTF-8 byte-order mark
    dropped; a corrupt gzip names the file."""
    lineno = 0
    try:
        with _open_text(path) as fh:
            for lineno, raw in enumerate(fh, 1):  # noqa: B007 (used after the loop on error)
                yield lineno, raw.removeprefix(_BOM) if lineno == 1 else raw
    except (OSError, EOFError, zlib.error) as exc:
        raise DataError(path, f"corrupt or truncated gzip data after line {lineno}: "
                              f"{exc}") from None


def unverified_files(raw_dir: Path, names) -> dict[str, str]:
    """``name -> SHA-256 recorded on first use`` (or ``"not recorded"``) of unpinned files."""
    from termweight.datasets.download import STATE_FILE
    from termweight.runner.io import read_json

    state = Path(raw_dir) / STATE_FILE
    files = read_json(state).get("files", {}) if state.is_file() else {}
    return {n: (files.get(n) or {}).get("sha256", "not recorded") for n in names}


def read_lyrl_tokens(path: Path):
    """Yield ``(docid, text)`` from a LYRL2004 token file (``.gz`` or plain)."""
    path = Path(path)
    doc_id, tokens, state, start = None, [], "start", 0
    for lineno, raw in _lines(path):
        line = raw.strip()
        if line.startswith(".I"):
            if doc_id is not None:
                if state != "W":
                    raise DataError(path, f"document {doc_id} has no .W line", line=start)
                yield doc_id, " ".join(tokens)
            parts = line.split()
            if len(parts) != 2 or not (parts[1].isascii() and parts[1].isdigit()):
                raise DataError(path, "expected '.I <numeric docid>'", line=lineno)
            doc_id, tokens, state, start = parts[1], [], "I", lineno
        elif line == ".W":
            if state != "I":
                raise DataError(path, "'.W' without a preceding '.I <docid>'", line=lineno)
            state = "W"
        elif line:
            if state != "W":
                raise DataError(path, "tokens outside a '.I' / '.W' record", line=lineno)
            tokens.extend(line.split())
    if doc_id is not None:
        if state != "W":
            raise DataError(path, f"document {doc_id} has no .W line", line=start)
        yield doc_id, " ".join(tokens)


def read_qrels(path: Path) -> dict[str, list[str]]:
    """``docid -> sorted topics`` from ``<topic> <docid> 1`` lines; a topic (class label)
    with a control character is an error naming its first line."""
    path = Path(path)
    topics: dict[str, set[str]] = defaultdict(set)
    for lineno, raw in _lines(path):
        parts = raw.split()
        if not parts:
            continue
        if len(parts) != 3 or not (parts[1].isascii() and parts[1].isdigit()):
            raise DataError(path, "expected '<topic> <docid> 1'", line=lineno)
        topics[parts[1]].add(parts[0])
    distinct = sorted({t for ts in topics.values() for t in ts})
    found = bad_label(distinct)
    if found is not None:  # read again for the line: nothing is kept per line on the way
        k, reason = found
        lineno = next(n for n, raw in _lines(path) if raw.split()[:1] == [distinct[k]])
        raise DataError(path, reason, line=lineno)
    return {d: sorted(t) for d, t in topics.items()}


def parse_rcv1(raw_dir: Path, options: dict | None = None) -> Documents:
    """RCV1-v2 topics, LYRL2004 split; option ``test_parts`` (default all four: 0,1,2,3)."""
    raw_dir = Path(raw_dir)
    parts = tuple((options or {}).get("test_parts", (0, 1, 2, 3)))
    qrels = read_qrels(raw_dir / QRELS)
    doc_ids, texts, labels, subset = [], [], [], []
    sources = [("train", TOKEN_FILES[0])] + [("test", TOKEN_FILES[1 + k]) for k in parts]
    for sub, fname in sources:
        for doc_id, text in read_lyrl_tokens(raw_dir / fname):
            doc_ids.append(doc_id)
            texts.append(text)
            labels.append(qrels.get(doc_id, []))
            subset.append(sub)
    classes = sorted({t for labs in qrels.values() for t in labs})
    return Documents(name="rcv1", doc_ids=doc_ids, texts=texts, labels=labels, subset=subset,
                     classes=classes, multilabel=True,
                     info={"source": "RCV1-v2 LYRL2004 token files", "test_parts": list(parts),
                           "tokens": "pre-stemmed; split on white space only",
                           "published_sizes": PUBLISHED_SIZES,
                           "docs_without_topics": sum(not lab for lab in labels),
                           "unverified_files": unverified_files(
                               raw_dir, [f for _, f in sources])})


register(DatasetSpec(
    name="rcv1", kind="text", parser=parse_rcv1, files=FILES, mirror_subdir="rcv1",
    description="RCV1-v2 (LYRL2004 token files): 23,149 train / 781,265 test, 103 topics",
    citation="D. D. Lewis, Y. Yang, T. G. Rose and F. Li. RCV1: a new benchmark collection for "
             "text categorization research. JMLR 5:361-397, 2004.",
    options={"test_parts": (0, 1, 2, 3)},
))
