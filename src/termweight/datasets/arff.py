"""Forman's 19 multi-class text datasets: sparse ARFF word counts (Han & Karypis 2000).

Source: WEKA datasets page, ``19MclassTextWc.zip`` ("19 multi-class (1-of-n) text datasets donated
by George Forman / HP Labs"; https://waikato.github.io/weka-wiki/datasets/, file on SourceForge).
Files inside: ``<name>.wc.arff`` with names fbis, la1s, la2s, new3s, oh0, oh10, oh15, oh5, ohscal,
re0, re1, tr11, tr12, tr21, tr23, tr31, tr41, tr45, wap. The zip's SHA-256 could not be confirmed;
each member is taken out of it and checked against its own SHA-256. The shared mirror holds 11 of
the 19 files (pinned); fbis, la1, la2, new3, ohscal, re0, re1 and tr21 are declared with the
archive as their only source and no confirmed checksum (accepted on first use, hash recorded):
without the archive or a network they fail with "not in mirror ... and no network".

Format: UTF-8 text (a leading byte-order mark is dropped), ``@RELATION``, one
``@ATTRIBUTE <word> integer`` per word (names unique), a final nominal
``@ATTRIBUTE class {a,b,...}`` (values non-empty, unique, without control characters), then
``@DATA`` with one sparse record per document, ``{i v,j w,...,k label}`` (0-based attribute
indices, increasing; an omitted class entry means the first nominal value, as in the ARFF spec;
an empty one is an error). Lines end with LF, CRLF or CR. Parsed into a
``Corpus`` with int32 counts (float64 if any value is not an integer),
terms = attribute names, subset ``all``.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from termweight.corpus import Corpus, indicator
from termweight.datasets.documents import check_labels, decode_text
from termweight.datasets.numeric import parse_tokens
from termweight.datasets.registry import UNPINNED, ArchiveSource, DatasetSpec, FileSpec, register
from termweight.runner.errors import DataError, blame

ARCHIVE = ArchiveSource(
    name="19MclassTextWc.zip",
    urls=("https://prdownloads.sourceforge.net/weka/19MclassTextWc.zip",
          "https://sourceforge.net/projects/weka/files/datasets/text-datasets/"
          "19MclassTextWc.zip/download"),
)
# dataset name -> (file name inside the zip, SHA-256 or UNPINNED, published docs, classes)
# Published sizes: Forman (JMLR 2003, Table 1) / Han & Karypis (PKDD 2000).
FORMAN19 = {
    "fbis": ("fbis.wc.arff", UNPINNED, 2463, 17),
    "la1": ("la1s.wc.arff", UNPINNED, 3204, 6),
    "la2": ("la2s.wc.arff", UNPINNED, 3075, 6),
    "new3": ("new3s.wc.arff", UNPINNED, 9558, 44),
    "oh0": ("oh0.wc.arff", "a20e6b9ae98bda8c8ea0abd031d78b49223a1b153bab42dd7770665b206f7ecc",
            1003, 10),
    "oh10": ("oh10.wc.arff", "1342aa1029737437f5d438811403bdcae99aa4547a336fa8953446f6a8d8e4b8",
             1050, 10),
    "oh15": ("oh15.wc.arff", "7d7e839b8cac9d9de2187590666d9bcae30e37c1384bef5e686ff72e0997e23c",
             913, 10),
    "oh5": ("oh5.wc.arff", "b21e8c06b2ed17268f4580fc844b4510358ee84e8b86d9a5fd201d71502eb1fd",
            918, 10),
    "ohscal": ("ohscal.wc.arff", UNPINNED, 11162, 10),
    "re0": ("re0.wc.arff", UNPINNED, 1504, 13),
    "re1": ("re1.wc.arff", UNPINNED, 1657, 25),
    "tr11": ("tr11.wc.arff", "036c45c5c44cde8c579db2f44b328e522f332a7ac1dc91681d4c07df962ba6cc",
             414, 9),
    "tr12": ("tr12.wc.arff", "f236e52f01db22dde2012ec143466457155aac173bd81eaad19feb264c3d0be0",
             313, 8),
    "tr21": ("tr21.wc.arff", UNPINNED, 336, 6),
    "tr23": ("tr23.wc.arff", "0745b650c354f78d173119054bf5274d14cf940905d3b6814d5d2aaf3768dc27",
             204, 6),
    "tr31": ("tr31.wc.arff", "f12447afc7c3917ad5425a34fd50cb48d23e7d150726316eae4208f29a39b8e1",
             927, 7),
    "tr41": ("tr41.wc.arff", "19043f64d63f1838f0cfe3a47ad6c16f45988fcc2e2394d709fa46a959b745be",
             878, 10),
    "tr45": ("tr45.wc.arff", "03d81d52f8eccbb9898f763ba644a1b0c976fd2b9c7285e8a6a74ab8d6e61503",
             690, 10),
    "wap": ("wap.wc.arff", "778fb0a3fc7a2206dc2a6b81fe75be3d94251565c4576c852b5cb4bfab481cbe",
            1560, 20),
}
CITATION = ("E.-H. Han and G. Karypis. Centroid-based document classification: analysis and "
            "experimental results. PKDD 2000; G. Forman. BNS feature scaling: an improved "
            "representation over TF-IDF for SVM text classification. CIKM 2008.")

_MAX_COUNT = np.iinfo(np.int32).max  # counts are stored as int32
_NEWLINE = re.compile(r"\r\n?|\n")
_ATTRIBUTE = re.compile(r"@attribute\s+('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)\s+(.*)$",
                        re.I)


def _unquote(s: str) -> str:
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        return re.sub(r"\\(.)", r"\1", s[1:-1])
    return s


def _nominal_values(spec: str, path: Path, lineno: int) -> list[str]:
    """The class values of ``{a,b,...}``: none empty, twice or with a control character."""
    spec = spec.strip()
    if not (spec.startswith("{") and spec.endswith("}")):
        raise DataError(path, "the last attribute must be the nominal class {a,b,...}",
                        line=lineno)
    values = [_unquote(v) for v in spec[1:-1].split(",")]
    if "" in values:
        raise DataError(path, f"empty class value (number {values.index('') + 1}) in the "
                              "nominal class declaration", line=lineno)
    check_labels(path, values, [lineno] * len(values))
    dupes = sorted({c for c in values if values.count(c) > 1})
    if dupes:
        raise DataError(path, f"class value(s) {dupes} declared twice", line=lineno)
    return values


def _check_unique_names(attrs: list, path: Path) -> None:
    """Refuse an attribute name declared twice, on the line of its second declaration."""
    first: dict[str, int] = {}
    for name, _type, lineno in attrs:
        if first.setdefault(name, lineno) != lineno:
            raise DataError(path, f"attribute {name!r} declared twice (first on line "
                                  f"{first[name]})", line=lineno)


def _arff_header(path: Path, lines: list[str]):
    """``(relation, attributes [(name, type, line)], first @DATA line)`` of an ARFF file."""
    relation, attrs, data_start = None, [], None
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        low = line.lower()
        if low.startswith("@relation"):
            relation = _unquote(line[len("@relation"):])
        elif low.startswith("@attribute"):
            m = _ATTRIBUTE.match(line)
            if m is None:
                raise DataError(path, "malformed @ATTRIBUTE line", line=i + 1)
            attrs.append((_unquote(m.group(1)), m.group(2).strip(), i + 1))
        elif low.startswith("@data"):
            data_start = i + 1
            break
        else:
            raise DataError(path, f"unexpected header line {line[:40]!r}", line=i + 1)
    if data_start is None or not attrs:
        raise DataError(path, "no @ATTRIBUTE/@DATA section: not an ARFF file")
    return relation, attrs, data_start


def parse_sparse_arff(path: Path, name: str | None = None) -> Corpus:
    """Parse a sparse word-count ARFF file whose last attribute is the nominal class."""
    path = Path(path)
    if not path.is_file():
        raise DataError(path, "file missing (run the fetch step first)")
    lines = _NEWLINE.split(decode_text(path, path.read_bytes()))
    relation, attrs, data_start = _arff_header(path, lines)
    _check_unique_names(attrs, path)
    classes = _nominal_values(attrs[-1][1], path, attrs[-1][2])
    terms = [a[0] for a in attrs[:-1]]
    for a in attrs[:-1]:
        if a[1].lower() not in {"integer", "numeric", "real"}:
            raise DataError(path, f"attribute {a[0]!r} has type {a[1]!r}; expected numeric",
                            line=a[2])
    n_terms = class_index = len(terms)
    class_of = {c: k for k, c in enumerate(classes)}

    tokens: list[str] = []
    row_len: list[int] = []
    row_line: list[int] = []
    labels: list[int] = []
    n_omitted = 0
    for i in range(data_start, len(lines)):
        line = lines[i].strip()
        if not line or line.startswith("%"):
            continue
        if not (line.startswith("{") and line.endswith("}")):
            raise DataError(path, "expected a sparse record '{index value, ...}'", line=i + 1)
        body = line[1:-1]
        head, _, last = body.rpartition(",")
        idx, _, value = last.strip().partition(" ")
        if idx.strip() == str(class_index):
            label = _unquote(value)
            numeric = head
        else:
            label = classes[0]  # sparse ARFF omits value index 0
            numeric = body
            n_omitted += 1
        if not label:
            raise DataError(path, "empty class value", line=i + 1)
        if label not in class_of:
            raise DataError(path, f"unknown class value {label!r}", line=i + 1)
        toks = numeric.replace(",", " ").split()
        if len(toks) % 2:
            raise DataError(path, "sparse entry without 'index value' pair", line=i + 1)
        tokens.extend(toks)
        row_len.append(len(toks) // 2)
        row_line.append(i + 1)
        labels.append(class_of[label])
    if not labels:
        raise DataError(path, "no data records after @DATA")

    pairs = np.asarray(tokens, dtype=str).reshape(-1, 2)
    row_of = np.repeat(np.arange(len(row_len)), row_len)
    indices, bad = parse_tokens(pairs[:, 0], "int")
    if bad is not None:
        raise DataError(path, f"non-integer attribute index {str(pairs[bad, 0])!r}",
                        line=row_line[row_of[bad]])
    values, bad = parse_tokens(pairs[:, 1], "float")
    if bad is not None:
        raise DataError(path, f"non-numeric or non-finite value {str(pairs[bad, 1])!r}",
                        line=row_line[row_of[bad]])
    bad = np.flatnonzero((indices < 0) | (indices >= n_terms) | (values < 0)
                         | (values > _MAX_COUNT))
    if bad.size:
        k = bad[0]
        raise DataError(path, f"entry '{pairs[k, 0]} {pairs[k, 1]}' out of range (indices "
                              f"0..{n_terms - 1}, counts 0..{_MAX_COUNT})",
                        line=row_line[row_of[k]])
    indptr = np.concatenate([[0], np.cumsum(row_len)])
    step = np.diff(indices)
    same_row = np.diff(row_of) == 0
    bad = np.flatnonzero(same_row & (step <= 0))
    if bad.size:
        raise DataError(path, "attribute indices not strictly increasing",
                        line=row_line[row_of[bad[0]]])
    integral = bool(np.all(values == np.round(values)))
    data = values.astype(np.int32) if integral else values
    X = sp.csr_matrix((data, indices.astype(np.int32), indptr), shape=(len(labels), n_terms))
    name = name or path.name.split(".")[0]
    with blame(path, name):
        return Corpus(name=name, X=X, Y=indicator(labels, len(classes)), classes=classes,
                      terms=terms, doc_ids=[f"{name}/{k + 1}" for k in range(len(labels))],
                      subset=np.full(len(labels), "all"),
                      info={"source": path.name, "relation": relation,
                            "class_entries_omitted": n_omitted})


def _parser(name: str):
    fname, _sha, n_docs, n_classes = FORMAN19[name]

    def parse(raw_dir: Path, options: dict | None = None) -> Corpus:
        corpus = parse_sparse_arff(Path(raw_dir) / fname, name=name)
        corpus.info.update({"published_docs": n_docs, "published_classes": n_classes})
        if not _sha:
            from termweight.datasets.rcv1 import unverified_files

            corpus.info["unverified_files"] = unverified_files(raw_dir, [fname])
        return corpus
    parse.__name__ = f"parse_{name}"
    parse.__doc__ = f"Forman's {name} ({fname}): sparse ARFF word counts."
    return parse


for _name, (_fname, _sha, _docs, _ncls) in FORMAN19.items():
    register(DatasetSpec(
        name=_name, kind="vectors", parser=_parser(_name),
        files=(FileSpec(_fname, (), _sha, archive=ARCHIVE),), mirror_subdir="forman19",
        description=f"Forman/Han-Karypis {_name}: {_docs} documents, {_ncls} classes, "
                    "word counts (sparse ARFF)",
        citation=CITATION,
    ))
