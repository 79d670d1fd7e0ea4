"""Reuters-21578 (Distribution 1.0): ModApte split, and the derived single-label R8 / R52.

Source: D. D. Lewis, 22 SGML files ``reut2-000.sgm`` ... ``reut2-021.sgm`` (21,578 stories), from
``reuters21578.tar.gz`` (http://www.daviddlewis.com/resources/testcollections/reuters21578/ or
the UCI KDD archive). The canonical archive's SHA-256 could not be confirmed, so each ``.sgm`` is
pinned by its own SHA-256 (../shared/datasets/reuters21578/SOURCE.md) and taken out of the archive
when downloaded.

Parsing: the files are read as Latin-1 (reut2-017.sgm has one byte >= 0x80) and split with
regular expressions on ``<REUTERS ...>`` ... ``</REUTERS>`` (a leading UTF-8 byte-order mark is
dropped); SGML entities (``&lt;``, ``&#3;``...) are decoded and control characters dropped from the
text; a topic (class label) holding one is an error. Text = ``TITLE`` + newline + ``BODY``; stories
without a BODY (``TYPE="BRIEF"``: title only; ``TYPE="UNPROC"``: unformatted) use the title, or
the raw TEXT content with its tags removed.

ModApte (README, section VIII.B): ``LEWISSPLIT="TRAIN"`` / ``"TEST"`` with ``TOPICS="YES"``
-> 9,603 train / 3,299 test; other stories are dropped. ``reuters21578`` keeps the 90 TOPICS
categories with >= 1 training and >= 1 test positive (multi-label). Its labels are the story's
topics among those 90; stories in ModApte with none of them (1,833 train / 280 test: 1,828 / 280
with no topic at all, 5 training stories whose topics all lack a test story) are KEPT with an
empty label list, so the standard 9,603 / 3,299 counts hold.

R8 / R52 (Cardoso-Cachopo 2007): ModApte stories with exactly one TOPICS category (counted over
all 135 topics), restricted to the 90 categories (R52) or to the 10 with most training stories
(R10), keeping the categories that still have >= 1 training and >= 1 test story: 52 of the 90,
8 of the 10 (wheat and corn never occur alone). Note R8 is NOT "the 8 most frequent of R52"
(that would take money-supply instead of grain). Measured here vs. published (train / test):

- R52: 6,532 / 2,568 (published 6,532 / 2,568): identical;
- R8: 5,485 / 2,189 (published 5,485 / 2,189): identical, and the per-class counts equal those of
  Cardoso-Cachopo's r8-*-all-terms.txt files (earn 2840/1083 ... grain 41/10).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from termweight.datasets.documents import Documents, bad_label, decode_text
from termweight.datasets.registry import ArchiveSource, DatasetSpec, FileSpec, register
from termweight.runner.errors import DataError

ARCHIVE = ArchiveSource(
    name="reuters21578.tar.gz",
    # https first; D. Lewis's own site last, over http (the .sgm members are pinned and checked)
    urls=("https://kdd.ics.uci.edu/databases/reuters21578/reuters21578.tar.gz",
          "http://www.daviddlewis.com/resources/testcollections/reuters21578/reuters21578.tar.gz"),
)
SGM_SHA256 = {
    "reut2-000.sgm": "9ff9bb40624ef992a03f62aace12e697dca1087abfd9b4d06aa787a6ad3e0687",
    "reut2-001.sgm": "1528e7e82d110d88d0234eb9619eadb7f9fd805711971df05975b92277dfdf4d",
    "reut2-002.sgm": "99f18068d0518952987dedd78c622e5c2a584e357d264d3754696c815f3e6628",
    "reut2-003.sgm": "78a3a8d7e04bc9d42c4614d5d5c60a4293dbe3f708df6fb5a71d9ef31f4b3fa3",
    "reut2-004.sgm": "726342c19a65873330b412378cd6a3f0d512035f5223146ddd60930c62eb6ff0",
    "reut2-005.sgm": "d09de619b6dd2d047d5124681f6df90550abaf592020d1c1ce338ae9b91522e7",
    "reut2-006.sgm": "b5535c0d66b01f4976f84621a4a795afbc00d2c4bd0a1b7ae426df6630fb361d",
    "reut2-007.sgm": "aa706007ec84a03537a3921ca976d60e11b3f99e4b9e9b2d5c81dd384d2c2062",
    "reut2-008.sgm": "a3994583694a00b7c744097c1d7eabfcf90f2e6650cc21663e46828035a336cb",
    "reut2-009.sgm": "29995f606dd1a9bdf907eacc9d879846c716860d9d9141676979474aaea39c7d",
    "reut2-010.sgm": "996df6008089bd09fa5b28a4d2eb0ee5f7b9d4601cde566fed3926ac82960fa3",
    "reut2-011.sgm": "d3a2782015247d9c2bffb8926267827fdd449c70d619435ef01a25a1c56a53ca",
    "reut2-012.sgm": "da31035d483851f2aebce5b66d779e5e2c0ac9dcfe098596c6d544e81c5604ab",
    "reut2-013.sgm": "8f7700bc0455fac3fcc12377ced4807b7df8aba1f21ecad059b9cc2b1cf0b8be",
    "reut2-014.sgm": "ef936bd3e0f36cf722afa9a6957563549775af32e9e28b4f539c8737ceda83ab",
    "reut2-015.sgm": "6d3bcec73eff871b8a5403588af814c4e50a0de6bc25707480522ab836f74026",
    "reut2-016.sgm": "be2f03a185fff70131f3b4fdbd6229b7ee2be077eba9691eaa597c8cfbda8812",
    "reut2-017.sgm": "f370e610b4b1342e41a98e0c426a08541044bd1d7e539674f32372a6060b73b5",
    "reut2-018.sgm": "a5f971bf25448e915781962309e669359a35fbcaf3017a806eca0590897f209a",
    "reut2-019.sgm": "d3b07097fba2633d130b4914aceba671645985248943ce9e39c289315339dffb",
    "reut2-020.sgm": "f6ad1b724125c202566c63b35ea0b5ee23881f8b7ed47a32829d5af05d8e860d",
    "reut2-021.sgm": "3f5196d32869723c9042aa5756805b4e90360f1f45ea17f4594fa0e2b3630b18",
}
FILES = tuple(FileSpec(name, (), sha, archive=ARCHIVE) for name, sha in SGM_SHA256.items())
PUBLISHED_SIZES = {"reuters21578": (9603, 3299), "r52": (6532, 2568), "r8": (5485, 2189)}
CITATION = ("D. D. Lewis. Reuters-21578 text categorization test collection, Distribution 1.0, "
            "1997.")
CACHOPO_CITATION = ("A. Cardoso-Cachopo. Improving Methods for Single-label Text Categorization. "
                    "PhD thesis, Instituto Superior Tecnico, Lisbon, 2007.")

_STORY = re.compile(r"<REUTERS\b([^>]*)>(.*?)</REUTERS>", re.S)
_ATTR = re.compile(r'([A-Z]+)="([^"]*)"')
_TOPICS = re.compile(r"<TOPICS>(.*?)</TOPICS>", re.S)
_D = re.compile(r"<D>(.*?)</D>", re.S)
_TEXT = re.compile(r"<TEXT\b[^>]*>(.*?)</TEXT>", re.S)
_TITLE = re.compile(r"<TITLE>(.*?)</TITLE>", re.S)
_BODY = re.compile(r"<BODY>(.*?)</BODY>", re.S)
_TAG = re.compile(r"<[^>]+>")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass
class Story:
    """One ModApte story: NEWID, ``train``/``test``, all its TOPICS, title + body text."""

    newid: str
    subset: str
    topics: list[str]
    text: str


def _line_of(text: str, offset: int) -> int:
    """1-based line number of a character offset (computed only for error messages)."""
    return text.count("\n", 0, offset) + 1


def _clean(s: str) -> str:
    return _CONTROL.sub("", html.unescape(s)).strip()


def read_modapte(raw_dir: Path) -> tuple[list[Story], dict]:
    """All ModApte stories of the 22 SGML files, in NEWID order, and split statistics."""
    raw_dir = Path(raw_dir)
    stories: list[Story] = []
    seen: set[str] = set()
    n_total = 0
    for name in SGM_SHA256:
        path = raw_dir / name
        if not path.is_file():
            raise DataError(path, "file missing (run the fetch step first)")
        text = decode_text(path, path.read_bytes(), "latin-1")
        n_open = text.count("<REUTERS ")
        pos = 0
        for m in _STORY.finditer(text):
            n_total += 1
            at = m.start()
            if text.find("<REUTERS ", pos, at) >= 0:
                raise DataError(path, "<REUTERS> element without </REUTERS>",
                                line=_line_of(text, text.find("<REUTERS ", pos, at)))
            pos = m.end()
            attrs = dict(_ATTR.findall(m.group(1)))
            newid = attrs.get("NEWID")
            if not newid or not newid.isdigit():
                raise DataError(path, "REUTERS element without a numeric NEWID",
                                line=_line_of(text, at))
            if newid in seen:
                raise DataError(path, f"duplicate NEWID {newid}", line=_line_of(text, at))
            seen.add(newid)
            split, has_topics = attrs.get("LEWISSPLIT"), attrs.get("TOPICS")
            if split not in {"TRAIN", "TEST", "NOT-USED"} or has_topics not in {"YES", "NO",
                                                                               "BYPASS"}:
                raise DataError(path, f"NEWID {newid}: bad LEWISSPLIT={split!r} or "
                                      f"TOPICS={has_topics!r}", line=_line_of(text, at))
            if has_topics != "YES" or split == "NOT-USED":
                continue
            inner = m.group(2)
            tm = _TOPICS.search(inner)
            if tm is None:
                raise DataError(path, f"NEWID {newid}: no <TOPICS> element",
                                line=_line_of(text, at))
            topics = [html.unescape(d).strip() for d in _D.findall(tm.group(1))]
            found = bad_label(topics)
            if found is not None:
                raise DataError(path, f"NEWID {newid}: {found[1]}",
                                line=_line_of(text, m.start(2) + tm.start()))
            stories.append(Story(newid, split.lower(), topics, _story_text(inner)))
        if n_total and n_open != text.count("</REUTERS>"):
            raise DataError(path, f"{n_open} <REUTERS> open tags but "
                                  f"{text.count('</REUTERS>')} close tags")
    stats = {"stories_in_files": n_total,
             "modapte_train": sum(s.subset == "train" for s in stories),
             "modapte_test": sum(s.subset == "test" for s in stories)}
    return stories, stats


def _story_text(inner: str) -> str:
    tm = _TEXT.search(inner)
    if tm is None:
        return ""
    text = tm.group(1)
    title = _TITLE.search(text)
    body = _BODY.search(text)
    parts = [title.group(1) if title else ""]
    if body:
        parts.append(body.group(1))
    elif title is None:  # TYPE="UNPROC": untagged text
        parts.append(_TAG.sub(" ", text))
    return "\n".join(_clean(p) for p in parts if _clean(p))


def _sizes(stories, classes) -> dict:
    return {c: [sum(1 for s in stories if s.subset == sub and c in s.topics)
                for sub in ("train", "test")] for c in classes}


def parse_reuters21578(raw_dir: Path, options: dict | None = None) -> Documents:
    """ModApte, multi-label over the 90 categories with >= 1 train and >= 1 test positive."""
    stories, stats = read_modapte(raw_dir)
    train = Counter(t for s in stories if s.subset == "train" for t in set(s.topics))
    test = Counter(t for s in stories if s.subset == "test" for t in set(s.topics))
    classes = sorted(t for t in train if test[t] > 0)
    keep = set(classes)
    labels = [sorted(set(s.topics) & keep) for s in stories]
    empty = Counter(s.subset for s, lab in zip(stories, labels, strict=True) if not lab)
    info = {"source": "Reuters-21578 Distribution 1.0, ModApte split", **stats,
            "n_classes": len(classes),
            "empty_label_docs": {"train": empty["train"], "test": empty["test"]},
            "note": "stories with no topic among the classes are kept with an empty label list",
            "published_sizes": PUBLISHED_SIZES["reuters21578"]}
    return Documents(name="reuters21578", doc_ids=[s.newid for s in stories],
                     texts=[s.text for s in stories], labels=labels,
                     subset=[s.subset for s in stories], classes=classes, multilabel=True,
                     info=info)


def single_label_subset(stories: list[Story], top_k: int | None) -> tuple[list[Story], list[str]]:
    """Cardoso-Cachopo's R52 (``top_k=None``) or R8 (``top_k=10``) from ModApte stories.

    Start from the 90 ModApte categories (>= 1 train and >= 1 test story), or from the ``top_k``
    of them with most training stories (R10); keep the stories with exactly one topic among ALL
    topics; then keep the categories that still have >= 1 train and >= 1 test story (R10 loses
    wheat and corn, which never occur alone in the test set: R8).
    """
    train = Counter(t for s in stories if s.subset == "train" for t in set(s.topics))
    test = Counter(t for s in stories if s.subset == "test" for t in set(s.topics))
    base = [t for t in train if test[t] > 0]
    if top_k is not None:
        base = sorted(base, key=lambda t: (-train[t], t))[:top_k]
    keep = set(base)
    single = [s for s in stories if len(s.topics) == 1 and s.topics[0] in keep]
    tr1 = Counter(s.topics[0] for s in single if s.subset == "train")
    te1 = Counter(s.topics[0] for s in single if s.subset == "test")
    classes = sorted(t for t in keep if tr1[t] > 0 and te1[t] > 0)
    chosen = set(classes)
    return [s for s in single if s.topics[0] in chosen], classes


def _parse_single(name: str, top_k: int | None):
    def parse(raw_dir: Path, options: dict | None = None) -> Documents:
        stories, stats = read_modapte(raw_dir)
        chosen, classes = single_label_subset(stories, top_k)
        n_train = sum(s.subset == "train" for s in chosen)
        pub = PUBLISHED_SIZES[name]
        info = {"source": "Reuters-21578 ModApte, single-topic stories (Cardoso-Cachopo 2007)",
                **stats, "train": n_train, "test": len(chosen) - n_train,
                "published_sizes": pub,
                "differs_from_published": [n_train, len(chosen) - n_train] != list(pub)}
        return Documents(name=name, doc_ids=[s.newid for s in chosen],
                         texts=[s.text for s in chosen], labels=[[s.topics[0]] for s in chosen],
                         subset=[s.subset for s in chosen], classes=classes, info=info)
    parse.__name__ = f"parse_{name}"
    parse.__doc__ = f"{name.upper()} derived from the Reuters-21578 SGML files (single-label)."
    return parse


parse_r52 = _parse_single("r52", None)
parse_r8 = _parse_single("r8", 10)

register(DatasetSpec(
    name="reuters21578", kind="text", parser=parse_reuters21578, files=FILES,
    mirror_subdir="reuters21578",
    description="Reuters-21578 ModApte, 9,603 train / 3,299 test, 90 categories, multi-label",
    citation=CITATION,
))
register(DatasetSpec(
    name="r52", kind="text", parser=parse_r52, files=FILES, mirror_subdir="reuters21578",
    description="R52: single-topic ModApte stories of 52 categories (derived from the SGML)",
    citation=CACHOPO_CITATION,
))
register(DatasetSpec(
    name="r8", kind="text", parser=parse_r8, files=FILES, mirror_subdir="reuters21578",
    description="R8: single-topic ModApte stories of the 8 largest categories (from the SGML)",
    citation=CACHOPO_CITATION,
))
