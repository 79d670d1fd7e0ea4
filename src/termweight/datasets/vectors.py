"""Ready-made vector datasets of the l0-selection paper: Spambase, SVM-light example1, Dexter.

- Spambase (UCI id 94; Hopkins, Reeber, Forman, Suermondt 1999): ``spambase.data``, 4,601 rows of
  57 comma-separated real attributes + class (1 = spam: 1,813), CRLF line ends as in the UCI
  original; attribute names from ``spambase.names``. All 57 columns are kept (float64); columns
  1-54 (``word_freq_*``, ``char_freq_*``) are the bag-of-words part, recorded in ``info``
  (Ferreira & Figueiredo use those 54). Classes ``["0", "1"]`` (non-spam, spam); subset ``all``.
- SVM-light example1 (Joachims; http://download.joachims.org/svm_light/examples/example1.tar.gz):
  ``train.dat`` 2,000 / ``test.dat`` 600 lines ``<+1|-1> idx:val ... [# comment]``, 1-based
  indices up to 9,947, the feature words in ``words`` (line i = feature i). float64 values;
  classes ``["-1", "+1"]``.
- Dexter (UCI id 168; NIPS 2003 feature-selection challenge): ``dexter_{train,valid,test}.data``,
  rows of ``idx:val`` (1-based, 20,000 features), labels ``+1/-1`` in
  ``dexter_{train,valid}.labels``.
  Test labels were never released, so the dataset is the 300 train + 300 valid rows (subsets
  ``train``/``valid``, int32 counts, terms ``f1``..``f20000``); ``read_dexter_test`` returns
  the unlabelled 2,000 test rows separately, as a CSR matrix, for users who need them.

The UCI zips' SHA-256 are not pinned (not confirmed); every file is pinned by its own SHA-256 and
downloaded from the UCI directory listing (or taken out of the canonical archive).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import scipy.sparse as sp

from termweight.corpus import Corpus, indicator
from termweight.datasets.documents import decode_text
from termweight.datasets.numeric import parse_tokens
from termweight.datasets.registry import ArchiveSource, DatasetSpec, FileSpec, register
from termweight.runner.errors import DataError, blame

UCI_OLD = "https://archive.ics.uci.edu/ml/machine-learning-databases/"
SPAMBASE_FILES = (
    FileSpec("spambase.data", (UCI_OLD + "spambase/spambase.data",),
             "b1ef93de71f97714d3d7d4f58fc9f718da7bbc8ac8a150eff2778616a8097b12"),
    FileSpec("spambase.names", (UCI_OLD + "spambase/spambase.names",),
             "df418fab7923f929237b81efa0987ddfaf2d68cf61291243625aadc684d5ab6a"),
)
SVMLIGHT_ARCHIVE = ArchiveSource(
    "example1.tar.gz", ("http://download.joachims.org/svm_light/examples/example1.tar.gz",))
SVMLIGHT_FILES = tuple(FileSpec(name, (), sha, archive=SVMLIGHT_ARCHIVE) for name, sha in (
    ("train.dat", "8cf98f7f2472d966fb474266b49c14a1ec0dcbd2a90361bf7533c7bfa281a238"),
    ("test.dat", "a1ccd518cbe2a22db71973bdf3adf05b89630a2c614e355d320200d1fc786b7c"),
    ("words", "0bb06c10fb10846a7b2e55ced52c2a317d723786e87d7c1eda854bf6935f4402"),
))
DEXTER_ARCHIVE = ArchiveSource(
    "dexter.zip", ("https://archive.ics.uci.edu/static/public/168/dexter.zip",))
_DEXTER_URL = {
    "dexter_train.data": UCI_OLD + "dexter/DEXTER/dexter_train.data",
    "dexter_train.labels": UCI_OLD + "dexter/DEXTER/dexter_train.labels",
    "dexter_valid.data": UCI_OLD + "dexter/DEXTER/dexter_valid.data",
    "dexter_valid.labels": UCI_OLD + "dexter/dexter_valid.labels",
    "dexter_test.data": UCI_OLD + "dexter/DEXTER/dexter_test.data",
}
DEXTER_FILES = tuple(FileSpec(name, (_DEXTER_URL[name],), sha, archive=DEXTER_ARCHIVE)
                     for name, sha in (
    ("dexter_train.data", "19f6a64c41bedd198f61b919f8b8bca98ee1173ca60db45f3aa980f1294d1fd0"),
    ("dexter_train.labels", "903477b77d8a81cc56828bb25626cd05a7fc95e3b67b6358faeee7cbdd85dbbc"),
    ("dexter_valid.data", "5c105202f7e870130d168f04932ed8ba7be511e73723fd9895984344f600a7f9"),
    ("dexter_valid.labels", "fe7c62dbf436183511b7d745dc356e91ccea33d1855913dd0185944da2a673c5"),
    ("dexter_test.data", "d360ef25d0c8d2379fdba2525a40cd74635961cdb4b3b90dd7891e37399256f7"),
))
DEXTER_FEATURES = 20000


def _lines(path: Path) -> list[str]:
    if not path.is_file():
        raise DataError(path, "file missing (run the fetch step first)")
    text = decode_text(path, path.read_bytes(), "latin-1").replace("\r\n", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_spambase(raw_dir: Path, options: dict | None = None) -> Corpus:
    """Spambase: 4,601 x 57 float64, classes ``["0", "1"]`` (1 = spam)."""
    raw_dir = Path(raw_dir)
    names = [ln.split(":", 1)[0].strip() for ln in _lines(raw_dir / "spambase.names")
             if ln and not ln.startswith("|") and ":" in ln and "continuous" in ln]
    path = raw_dir / "spambase.data"
    rows = []
    for i, line in enumerate(_lines(path)):
        fields = line.split(",")
        if len(fields) != 58:
            raise DataError(path, f"{len(fields)} fields, expected 58 (57 attributes + class)",
                            line=i + 1)
        rows.append(fields)
    if not rows:
        raise DataError(path, "no data lines")
    flat, bad = parse_tokens(np.asarray(rows, dtype=str).ravel(), "float")
    if bad is not None:
        raise DataError(path, f"field {bad % 58 + 1}: {rows[bad // 58][bad % 58]!r} is not a "
                              "finite number", line=bad // 58 + 1)
    table = flat.reshape(len(rows), 58)
    neg = np.flatnonzero((table[:, :57] < 0).ravel())
    if neg.size:
        r, c = divmod(int(neg[0]), 57)
        raise DataError(path, f"field {c + 1} ({rows[r][c]}): attributes are frequencies, "
                              "run lengths and counts, never negative", line=r + 1)
    y = table[:, -1]
    if not np.isin(y, (0.0, 1.0)).all():
        raise DataError(path, "class column must be 0 or 1",
                        line=int(np.flatnonzero(~np.isin(y, (0.0, 1.0)))[0]) + 1)
    if len(names) != 57:
        raise DataError(raw_dir / "spambase.names", f"found {len(names)} attribute names, "
                                                    "expected 57")
    n = table.shape[0]
    with blame(path, "spambase"):
        return Corpus(name="spambase", X=sp.csr_matrix(table[:, :57]),
                      Y=indicator(y.astype(np.int64), 2), classes=["0", "1"], terms=names,
                      doc_ids=[str(i + 1) for i in range(n)], subset=np.full(n, "all"),
                      info={"source": "UCI Spambase", "bag_of_words_columns": [1, 54],
                            "note": "columns 1-54 (word_freq_*, char_freq_*) are the bag-of-words "
                                    "part; 55-57 are capital_run_length_* statistics"})


def read_svmlight(path: Path, n_features: int | None = None, labelled: bool = True,
                  counts: bool = False):
    """Parse SVM-light / Dexter sparse lines into (CSR float64, labels or None).

    Line format ``[<label>] idx:val idx:val ... [# comment]``, 1-based increasing indices;
    ``qid:`` pairs are ignored; lines that are empty or start with ``#`` are skipped. Indices
    and values must be plain ASCII numbers and values finite (``nan``/``inf`` are refused with
    file and line); ``counts=True`` also refuses negative values.
    """
    path = Path(path)
    labels, idx, vals, indptr, line_of = [], [], [], [0], []
    for i, line in enumerate(_lines(path)):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        toks = line.split()
        if labelled:
            lab, toks = toks[0], toks[1:]
            if lab not in {"1", "+1", "-1"}:
                raise DataError(path, f"label {lab!r} is not +1/-1", line=i + 1)
            labels.append(1 if lab != "-1" else 0)
        for t in toks:
            k, sep, v = t.partition(":")
            if not sep:
                raise DataError(path, f"token {t!r} is not index:value", line=i + 1)
            if k == "qid":
                continue
            idx.append(k)
            vals.append(v)
        indptr.append(len(idx))
        line_of.append(i + 1)
    if len(indptr) == 1:
        raise DataError(path, "no data lines")
    indptr = np.asarray(indptr)
    row_of = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    ind, bad = parse_tokens(idx, "int")
    if bad is None:
        val, bad = parse_tokens(vals, "float")
    if bad is not None:
        raise DataError(path, f"bad entry {idx[bad]}:{vals[bad]} (expected index:value, a "
                              "positive integer and a finite number)",
                        line=line_of[row_of[bad]])
    if counts:
        bad = np.flatnonzero(val < 0)
        if bad.size:
            raise DataError(path, f"negative count {idx[bad[0]]}:{vals[bad[0]]}",
                            line=line_of[row_of[bad[0]]])
    limit = n_features if n_features is not None else int(ind.max(initial=1))
    bad = np.flatnonzero((ind < 1) | (ind > limit))
    if bad.size:
        raise DataError(path, f"feature index {ind[bad[0]]} outside 1..{limit}",
                        line=line_of[row_of[bad[0]]])
    bad = np.flatnonzero((np.diff(ind) <= 0) & (np.diff(row_of) == 0))
    if bad.size:
        raise DataError(path, "feature indices not strictly increasing",
                        line=line_of[row_of[bad[0]]])
    X = sp.csr_matrix((val, ind - 1, indptr), shape=(len(indptr) - 1, limit))
    return X, (np.asarray(labels) if labelled else None)


def parse_svmlight_example1(raw_dir: Path, options: dict | None = None) -> Corpus:
    """SVM-light example1: 2,000 train + 600 test rows, 9,947 features (``words``)."""
    raw_dir = Path(raw_dir)
    words = _lines(raw_dir / "words")
    Xtr, ytr = read_svmlight(raw_dir / "train.dat", len(words))
    Xte, yte = read_svmlight(raw_dir / "test.dat", len(words))
    X = sp.vstack([Xtr, Xte], format="csr")
    y = np.concatenate([ytr, yte])
    subset = np.array(["train"] * Xtr.shape[0] + ["test"] * Xte.shape[0])
    doc_ids = [f"train/{i + 1}" for i in range(Xtr.shape[0])] + \
              [f"test/{i + 1}" for i in range(Xte.shape[0])]
    return Corpus(name="svmlight_example1", X=X, Y=indicator(y, 2), classes=["-1", "+1"],
                  terms=[w.strip() for w in words], doc_ids=doc_ids, subset=subset,
                  info={"source": "SVM-light example1 (Reuters acq)",
                        "values": "SVM-light's own TF-IDF-like weights (float)"})


def _dexter_part(raw_dir: Path, part: str):
    X, _ = read_svmlight(raw_dir / f"dexter_{part}.data", DEXTER_FEATURES, labelled=False,
                         counts=True)
    path = raw_dir / f"dexter_{part}.labels"
    labels = []
    for i, line in enumerate(_lines(path)):
        if line.strip() not in {"1", "+1", "-1"}:
            raise DataError(path, f"label {line.strip()!r} is not +1/-1", line=i + 1)
        labels.append(0 if line.strip() == "-1" else 1)
    if len(labels) != X.shape[0]:
        raise DataError(path, f"{len(labels)} labels for {X.shape[0]} rows of dexter_{part}.data")
    return X, np.asarray(labels)


def parse_dexter(raw_dir: Path, options: dict | None = None) -> Corpus:
    """Dexter train (300) + valid (300), 20,000 integer features; test is unlabelled."""
    raw_dir = Path(raw_dir)
    Xtr, ytr = _dexter_part(raw_dir, "train")
    Xva, yva = _dexter_part(raw_dir, "valid")
    X = sp.vstack([Xtr, Xva], format="csr")
    if not np.all(X.data == np.round(X.data)):
        raise DataError(raw_dir / "dexter_train.data", "non-integer values in Dexter data")
    X = X.astype(np.int32)
    subset = np.array(["train"] * Xtr.shape[0] + ["valid"] * Xva.shape[0])
    doc_ids = [f"train/{i + 1}" for i in range(Xtr.shape[0])] + \
              [f"valid/{i + 1}" for i in range(Xva.shape[0])]
    return Corpus(name="dexter", X=X, Y=indicator(np.concatenate([ytr, yva]), 2),
                  classes=["-1", "+1"], terms=[f"f{i}" for i in range(1, DEXTER_FEATURES + 1)],
                  doc_ids=doc_ids, subset=subset,
                  info={"source": "UCI Dexter (NIPS 2003)",
                        "test": "2,000 unlabelled rows left out; see read_dexter_test()"})


def read_dexter_test(raw_dir: Path) -> sp.csr_matrix:
    """The 2,000 unlabelled Dexter test rows (int32 CSR, 20,000 columns)."""
    X, _ = read_svmlight(Path(raw_dir) / "dexter_test.data", DEXTER_FEATURES, labelled=False,
                         counts=True)
    return X.astype(np.int32)


register(DatasetSpec(
    name="spambase", kind="vectors", parser=parse_spambase, files=SPAMBASE_FILES,
    mirror_subdir="spambase",
    description="UCI Spambase: 4,601 e-mails x 57 attributes (1-54 bag of words), 1,813 spam",
    citation="M. Hopkins, E. Reeber, G. Forman, J. Suermondt. Spambase. UCI ML Repository, "
             "1999. https://doi.org/10.24432/C53G6X",
))
register(DatasetSpec(
    name="svmlight_example1", kind="vectors", parser=parse_svmlight_example1,
    files=SVMLIGHT_FILES, mirror_subdir="svmlight-example1",
    description="SVM-light example1 (Reuters acq): 2,000 train / 600 test, 9,947 features",
    citation="T. Joachims. Making large-scale SVM learning practical. In Advances in Kernel "
             "Methods, MIT Press, 1999.",
))
register(DatasetSpec(
    name="dexter", kind="vectors", parser=parse_dexter, files=DEXTER_FILES,
    mirror_subdir="dexter",
    description="Dexter (NIPS 2003): 300 train + 300 valid labelled rows, 20,000 features",
    citation="I. Guyon, S. Gunn, A. Ben-Hur, G. Dror. Result analysis of the NIPS 2003 feature "
             "selection challenge. NIPS 2004.",
))
