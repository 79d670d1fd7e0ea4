"""Ordinal review corpora (class order = rating order, ``ordinal=True``) and balanced subsampling.

Pang & Lee "scale dataset v1.0" (ACL 2005; http://www.cs.cornell.edu/people/pabo/movie-review-data/
``scale_data.tar.gz``): 5,006 review extracts by 4 critics, in
``scaledata/<Author>/{subj,id,rating,label.3class,label.4class}.<Author>`` (one line per review,
the lines of the five files aligned). ``pang_lee_3class`` / ``pang_lee_4class`` use the 3- and
4-class labels (classes ``"0" < "1" < "2" (< "3")``); option ``author`` selects one critic
(``Dennis+Schwartz``, ``James+Berardinelli``, ``Scott+Renshaw``, ``Steve+Rhodes``), default
``None`` pools all four. The archive's SHA-256 could not be confirmed; its members are pinned.
Note: line 1 of ``subj.Dennis+Schwartz`` contains an explicit rating (a property of the data).

Amazon Review Data 2018 (Ni, Li & McAuley, EMNLP 2019), 5-core ``All_Beauty_5.json.gz``: JSON
lines with ``overall`` 1-5 stars -> classes ``"1" < ... < "5"``. Text = ``reviewText`` only (the
``summary`` often says "Five Stars"; option ``include_summary`` adds it). The file repeats reviews
across product variants: records are deduplicated on (reviewerID, unixReviewTime, reviewText),
keeping the first, and records without text are dropped; counts before/after are stored in
``info`` (5,269 records -> 1,379 distinct -> 1,378 with text).

``balanced_subsample`` draws the same number of documents from every class (seeded), as the
PRP experiments (Mukras et al.) use equal class sizes.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from termweight.datasets.documents import Documents, decode_text
from termweight.datasets.numeric import FLOAT
from termweight.datasets.registry import ArchiveSource, DatasetSpec, FileSpec, register
from termweight.runner.errors import DataError, blame

AUTHORS = ("Dennis+Schwartz", "James+Berardinelli", "Scott+Renshaw", "Steve+Rhodes")
PANG_LEE_ARCHIVE = ArchiveSource(
    name="scale_data.tar.gz",
    urls=("https://www.cs.cornell.edu/people/pabo/movie-review-data/scale_data.tar.gz",))
_PL_SHA = {
    "Dennis+Schwartz": {
        "id": "f7eb85839454406ed767752cedbff8d9ea8f059d3811366aec75aa24ebb0c515",
        "label.3class": "38fd3819797f0857fce3371e81f87f239ac37bf3657dc0baeda7db18997ec9a3",
        "label.4class": "4040ceabf677075a69041c6bac25ef38376856d3e25bd4205e0abbae6bf36d6a",
        "rating": "b9057227d5b1324f49d5f402f1cad0ae472f3d130f35a24a5334ab7db6726be7",
        "subj": "cb26f952c091c510c786627a45a5af3fb5c87a986f9aa3eb7eef6e4ed1797a02"},
    "James+Berardinelli": {
        "id": "5e902c3fd5c7325c119215b888c56c14d42f9b4eb9e72eb0e33b69e8a1f23d73",
        "label.3class": "330f37acc631d278f21d63ed2dd6857d40ced7ca203b258f4d4e65527d1cc645",
        "label.4class": "e75f0b5bd3047ff6475a8073ca43e995b3024dc0c3036222ea9c9613b1130212",
        "rating": "91abefa233432a2b92a82e0cb40706bd38e48e1ce4165e7a16584a6ec1dd8ed0",
        "subj": "1b612ca24494cc675f5e58c1fc320501446da2ed2520a00edb3522b565640658"},
    "Scott+Renshaw": {
        "id": "689d7e036d0fc77b220b5cd36db9ef70a9da8d43167aef0e6a34bfaabc5c00fc",
        "label.3class": "baebc32f2c21ce9247e5ba6c7f59c8fb5f381fc48a9a1e2146d8d95a84ce377c",
        "label.4class": "2044fe4964d2a1201c9aa76f5729c213f5a876b76288bf708f7c9d78672367ee",
        "rating": "cbe4f07da184e0c68a1051503c91c2474bb23c8d6b433e57d99dc2a8ae43760c",
        "subj": "c1b0b7b80fa4161053fee1125e7fb7bfba987fcfa08a8ab525504eff4c988cec"},
    "Steve+Rhodes": {
        "id": "160fa461df139b36a687a3d08d6abaf871ff271b331ad315cc2ab89cd48436d4",
        "label.3class": "21a7753c10cb71def6461f13a89f8f2c28920848333987fe6175f1e6ed3e4732",
        "label.4class": "c5d98f32b6558a63100136e947039541565b4274e8509b9b5aaa4bba1a9f9411",
        "rating": "bbbe28efbe998827cfe2737a25d19977091a2deea141461eb8e241ce6f5bc03d",
        "subj": "33ef24625d183f6f9ecf03f356e055e9ff998ac7773f48939a364e9900bbf10a"},
}
PANG_LEE_FILES = tuple(
    FileSpec(f"scaledata/{author}/{kind}.{author}", (), sha, archive=PANG_LEE_ARCHIVE)
    for author, kinds in _PL_SHA.items() for kind, sha in kinds.items())
PANG_LEE_CITATION = ("B. Pang and L. Lee. Seeing stars: exploiting class relationships for "
                     "sentiment categorization with respect to rating scales. ACL 2005.")

AMAZON_FILE = FileSpec(
    "All_Beauty_5.json.gz",
    urls=("https://datarepo.eng.ucsd.edu/mcauley_group/data/amazon_v2/categoryFilesSmall/"
          "All_Beauty_5.json.gz",
          "http://deepyeti.ucsd.edu/jianmo/amazon/categoryFilesSmall/All_Beauty_5.json.gz"),
    sha256="4a6b1eb40c4f58328f3f34181a6ef00f8e3423d801128617cc408a83c9bd0027")
AMAZON_CITATION = ("J. Ni, J. Li and J. McAuley. Justifying recommendations using "
                   "distantly-labeled reviews and fine-grained aspects. EMNLP-IJCNLP 2019.")


def balanced_subsample(labels, seed: int, per_class: int | None = None) -> np.ndarray:
    """Indices (sorted) of a seeded sample with ``per_class`` documents of every class.

    ``labels``: one class label per document (any hashable values; classes are the distinct
    values). ``per_class`` defaults to the size of the smallest class; asking for more than the
    smallest class holds is an error. Uses ``numpy.random.default_rng(seed)``.
    """
    labels = np.asarray(labels)
    classes, inverse, counts = np.unique(labels, return_inverse=True, return_counts=True)
    if classes.size == 0:
        raise ValueError("no labels to subsample")
    smallest = int(counts.min())
    if per_class is None:
        per_class = smallest
    if per_class < 1 or per_class > smallest:
        raise ValueError(f"per_class={per_class}: must be in 1..{smallest} (smallest class "
                         f"{classes[counts.argmin()]!r})")
    rng = np.random.default_rng(seed)
    picked = [rng.choice(np.flatnonzero(inverse == k), size=per_class, replace=False)
              for k in range(classes.size)]
    return np.sort(np.concatenate(picked))


def _read_lines(path: Path) -> list[str]:
    if not path.is_file():
        raise DataError(path, "file missing (run the fetch step first)")
    lines = decode_text(path, path.read_bytes(), "latin-1").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _rating(text: str) -> float | None:
    """A normalised Pang & Lee rating (0..1), or None when the text is not one."""
    text = text.strip()
    if not FLOAT.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) and 0.0 <= value <= 1.0 else None


#: the five classes of ``pang_lee_5class``: the normalised rating cut at these values (class k:
#: ``RATING_CUTS[k-1] <= rating < RATING_CUTS[k]``): 615 / 642 / 911 / 944 / 1,894 reviews, so
#: 500 per class can be drawn, as Mukras et al.'s five-class Actors and Movies sets (rating < 0.4
#: is the 4-class labels' class 0; the cuts split their upper classes at every tenth)
RATING_CUTS = (0.4, 0.5, 0.6, 0.7)


def read_pang_lee(raw_dir: Path, n_classes: int, author: str | None = None) -> Documents:
    """Read the scale dataset with its ``n_classes``-class labels (3 or 4), or with five classes
    cut from the fine-grained ratings (``RATING_CUTS``)."""
    if n_classes not in (3, 4, 5):
        raise DataError("pang_lee", f"n_classes={n_classes}: the dataset has 3- and 4-class "
                                    "labels and ratings for 5")
    authors = AUTHORS if author is None else (author,)
    if author is not None and author not in AUTHORS:
        raise DataError("pang_lee", f"unknown author {author!r}; use one of {AUTHORS}")
    classes = [str(k) for k in range(n_classes)]
    doc_ids, texts, labels, ratings = [], [], [], []
    for a in authors:
        base = Path(raw_dir) / "scaledata" / a
        label_kind = f"label.{min(n_classes, 4)}class"  # checked for 5 classes too
        cols = {kind: _read_lines(base / f"{kind}.{a}")
                for kind in ("id", "subj", "rating", label_kind)}
        lens = {k: len(v) for k, v in cols.items()}
        if len(set(lens.values())) != 1:
            raise DataError(base, f"files have different line counts: {lens}")
        label_path = base / f"{label_kind}.{a}"
        for i, (rid, text, rating, lab) in enumerate(zip(
                cols["id"], cols["subj"], cols["rating"], cols[label_kind], strict=True)):
            lab = lab.strip()
            if lab not in classes[:4]:
                raise DataError(label_path, f"label {lab!r} not in {classes[:4]}", line=i + 1)
            value = _rating(rating)
            if value is None:
                raise DataError(base / f"rating.{a}", f"rating {rating.strip()!r} is not a "
                                                      "number in 0..1", line=i + 1)
            if n_classes == 5:
                lab = str(int(np.searchsorted(RATING_CUTS, value, side="right")))
            doc_ids.append(f"{a}/{rid.strip()}")
            texts.append(text.strip())
            labels.append([lab])
            ratings.append(value)
    name = f"pang_lee_{n_classes}class"
    with blame(Path(raw_dir) / "scaledata", name):
        return Documents(name=name, doc_ids=doc_ids, texts=texts, labels=labels,
                         subset=["all"] * len(doc_ids), classes=classes, ordinal=True,
                         info={"source": "Pang & Lee scale dataset v1.0", "authors": list(authors),
                               "n_docs_per_author": dict(Counter(d.split("/")[0] for d in doc_ids))})


def parse_pang_lee_3class(raw_dir: Path, options: dict | None = None) -> Documents:
    """Pang & Lee 3-class (option ``author``: one critic, default all four pooled)."""
    return read_pang_lee(raw_dir, 3, (options or {}).get("author"))


def parse_pang_lee_4class(raw_dir: Path, options: dict | None = None) -> Documents:
    """Pang & Lee 4-class (option ``author``: one critic, default all four pooled)."""
    return read_pang_lee(raw_dir, 4, (options or {}).get("author"))


def parse_pang_lee_5class(raw_dir: Path, options: dict | None = None) -> Documents:
    """Pang & Lee, five classes cut from the ratings at ``RATING_CUTS`` (option ``author``)."""
    return read_pang_lee(raw_dir, 5, (options or {}).get("author"))


# JSON types of the fields the parser reads (``None`` allowed where the data has nulls)
_AMAZON_FIELDS = {"overall": (int, float), "reviewerID": str, "unixReviewTime": int,
                  "reviewText": (str, type(None)), "summary": (str, type(None)),
                  "asin": str}
_AMAZON_REQUIRED = ("overall", "reviewerID", "unixReviewTime")


def _refuse_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def _short(value, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _gzip_text_lines(path: Path):
    """The UTF-8 lines of a gzip file (universal newlines, as text mode reads them; a leading
    byte-order mark dropped).

    A truncated or corrupt gzip stream and a non-UTF-8 byte are ``DataError`` naming the
    file (and, for the byte, the line).
    """
    try:
        with gzip.open(path, "rb") as fh:
            blob = fh.read()
    except (OSError, EOFError, zlib.error) as exc:
        raise DataError(path, f"corrupt or truncated gzip file: {exc}") from None
    with io.StringIO(decode_text(path, blob), newline=None) as fh:
        yield from fh


def parse_amazon_beauty(raw_dir: Path, options: dict | None = None) -> Documents:
    """All_Beauty 5-core, deduplicated; option ``include_summary`` (default False)."""
    path = Path(raw_dir) / AMAZON_FILE.name
    if not path.is_file():
        raise DataError(path, "file missing (run the fetch step first)")
    include_summary = bool((options or {}).get("include_summary", False))
    seen: dict[tuple, int] = {}
    doc_ids, texts, labels = [], [], []
    n_records = n_empty = n_conflicts = 0
    for lineno, line in enumerate(_gzip_text_lines(path), 1):
        if not line.strip():
            continue
        n_records += 1
        try:
            rec = json.loads(line, parse_constant=_refuse_constant)
        except (json.JSONDecodeError, ValueError, RecursionError) as exc:
            raise DataError(path, f"bad review record: {exc}", line=lineno) from None
        if not isinstance(rec, dict):
            raise DataError(path, f"bad review record: a JSON {type(rec).__name__}, not an "
                                  "object", line=lineno)
        for field, kinds in _AMAZON_FIELDS.items():
            if field not in rec and field in _AMAZON_REQUIRED:
                raise DataError(path, f"bad review record: no {field!r}", line=lineno)
            if field in rec and (not isinstance(rec[field], kinds)
                                 or isinstance(rec[field], bool)):
                raise DataError(path, f"bad review record: {field}={_short(rec[field])} has "
                                      f"type {type(rec[field]).__name__}", line=lineno)
        stars = rec["overall"]
        if stars not in (1, 2, 3, 4, 5):
            raise DataError(path, f"overall={stars!r} is not 1..5 stars", line=lineno)
        key = (rec["reviewerID"], rec["unixReviewTime"], rec.get("reviewText", ""))
        label = str(int(stars))
        if key in seen:
            first = seen[key]
            if first >= 0 and labels[first] != [label]:
                n_conflicts += 1
            continue
        text = (rec.get("reviewText") or "").strip()
        if not text:
            seen[key] = -1
            n_empty += 1
            continue
        if include_summary and rec.get("summary"):
            text = f"{rec['summary'].strip()}\n{text}"
        seen[key] = len(labels)
        doc_ids.append(f"{key[0]}/{key[1]}/{rec.get('asin', '')}")
        texts.append(text)
        labels.append([label])
    info = {"source": "Amazon Review Data 2018, All_Beauty 5-core",
            "records": n_records, "distinct_reviews": len(seen), "without_text": n_empty,
            "kept": len(labels), "duplicate_key": "(reviewerID, unixReviewTime, reviewText)",
            "duplicates_with_other_rating": int(n_conflicts), "include_summary": include_summary}
    with blame(path, "amazon_beauty"):
        return Documents(name="amazon_beauty", doc_ids=doc_ids, texts=texts, labels=labels,
                         subset=["all"] * len(labels), classes=["1", "2", "3", "4", "5"],
                         ordinal=True, info=info)


register(DatasetSpec(
    name="pang_lee_3class", kind="text", parser=parse_pang_lee_3class, files=PANG_LEE_FILES,
    mirror_subdir="ordinal/pang_lee_scale", options={"author": None},
    description="Pang & Lee scale v1.0: 5,006 movie reviews, 4 critics, 3 ordinal classes",
    citation=PANG_LEE_CITATION,
))
register(DatasetSpec(
    name="pang_lee_4class", kind="text", parser=parse_pang_lee_4class, files=PANG_LEE_FILES,
    mirror_subdir="ordinal/pang_lee_scale", options={"author": None},
    description="Pang & Lee scale v1.0: 5,006 movie reviews, 4 critics, 4 ordinal classes",
    citation=PANG_LEE_CITATION,
))
register(DatasetSpec(
    name="pang_lee_5class", kind="text", parser=parse_pang_lee_5class, files=PANG_LEE_FILES,
    mirror_subdir="ordinal/pang_lee_scale", options={"author": None},
    description="Pang & Lee scale v1.0: 5,006 movie reviews, 4 critics, 5 ordinal classes cut "
                "from the ratings at 0.4, 0.5, 0.6, 0.7",
    citation=PANG_LEE_CITATION,
))
register(DatasetSpec(
    name="amazon_beauty", kind="text", parser=parse_amazon_beauty, files=(AMAZON_FILE,),
    mirror_subdir="ordinal/amazon2018_5core", options={"include_summary": False},
    description="Amazon 2018 All_Beauty 5-core, 1-5 stars, deduplicated reviews",
    citation=AMAZON_CITATION,
))
