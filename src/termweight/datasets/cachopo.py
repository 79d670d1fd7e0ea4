"""Cardoso-Cachopo's single-label sets: R8 (all-terms) and WebKB (stemmed), ``label<TAB>text``.

Source: http://ana.cachopo.org/datasets-for-single-label-text-categorization (mirror of the same
file names: https://www.cs.umb.edu/~smimarog/textmining/datasets/). One document per line,
``label<TAB>text``, LF line ends, text of lower-case letters and spaces. Only the stemmed WebKB
variant is in the shared mirror, so only that one is declared. ``r8-test-all-terms.txt`` in the
mirror was reconstructed (a header line removed from a copy); its SHA-256 is pinned as found but
could not be compared with the author's original file.

Expected sizes (Cardoso-Cachopo 2007): R8 5,485 train / 2,189 test, 8 classes; WebKB 2,803 /
1,396, 4 classes (course, faculty, project, student).
"""

from __future__ import annotations

import io
from pathlib import Path

from termweight.datasets.documents import Documents, check_labels, decode_text
from termweight.datasets.registry import DatasetSpec, FileSpec, register
from termweight.runner.errors import DataError, blame

# https first; the author's own site is tried over http last (every file's SHA-256 is pinned and
# checked before use, so the transport only matters for availability).
BASE_URLS = ("https://www.cs.umb.edu/~smimarog/textmining/datasets/",
             "http://ana.cachopo.org/datasets-for-single-label-text-categorization/")
SHA256 = {
    "r8-train-all-terms.txt": "f2cebcc0203f9092db55fc11b98377a5c30407121b1d633583580e36d0668ed9",
    "r8-test-all-terms.txt": "2cda485b855244b8995a67b81edc691470059225776627d3c45545206f61a1b2",
    "webkb-train-stemmed.txt": "bcfab4aaab816ce289409b0ad7926f8a3c21bc4cd78dbfec1a2f394717db1f0d",
    "webkb-test-stemmed.txt": "2ecc8135835fa2151080488524eaeda757e254160a93d21eac951b13357a0df9",
}
CITATION = ("A. Cardoso-Cachopo. Improving Methods for Single-label Text Categorization. PhD "
            "thesis, Instituto Superior Tecnico, Lisbon, 2007.")


def _spec(name: str) -> FileSpec:
    return FileSpec(name, tuple(base + name for base in BASE_URLS), SHA256[name])


def read_label_tab_text(path: Path) -> tuple[list[str], list[str]]:
    """Read a UTF-8 ``label<TAB>text`` file (a leading byte-order mark is dropped); a line
    without a TAB, with an empty label or with a control character in its label is an error."""
    path = Path(path)
    if not path.is_file():
        raise DataError(path, "file missing (run the fetch step first)")
    raw, texts = [], []
    content = decode_text(path, path.read_bytes())
    with io.StringIO(content, newline="") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n").rstrip("\r")
            label, tab, text = line.partition("\t")
            if not tab or not label.strip():
                raise DataError(path, "expected 'label<TAB>text'", line=lineno)
            raw.append(label)
            texts.append(text)
    if not raw:
        raise DataError(path, "no documents")
    check_labels(path, raw)  # label k is on line k + 1
    return [label.strip() for label in raw], texts


def _parser(name: str, train: str, test: str):
    def parse(raw_dir: Path, options: dict | None = None) -> Documents:
        doc_ids, texts, labels, subset = [], [], [], []
        for sub, fname in (("train", train), ("test", test)):
            labs, txts = read_label_tab_text(Path(raw_dir) / fname)
            doc_ids += [f"{sub}/{i + 1}" for i in range(len(labs))]
            texts += txts
            labels += [[lab] for lab in labs]
            subset += [sub] * len(labs)
        with blame(Path(raw_dir), name):
            return Documents(name=name, doc_ids=doc_ids, texts=texts, labels=labels,
                             subset=subset, classes=sorted({lab[0] for lab in labels}),
                             info={"source": f"Cardoso-Cachopo: {train}, {test}"})
    parse.__name__ = f"parse_{name}"
    parse.__doc__ = f"Parse {train} / {test} (``label<TAB>text``)."
    return parse


parse_cachopo_r8 = _parser("cachopo_r8", "r8-train-all-terms.txt", "r8-test-all-terms.txt")
parse_cachopo_webkb = _parser("cachopo_webkb", "webkb-train-stemmed.txt",
                              "webkb-test-stemmed.txt")

register(DatasetSpec(
    name="cachopo_r8", kind="text", parser=parse_cachopo_r8,
    files=(_spec("r8-train-all-terms.txt"), _spec("r8-test-all-terms.txt")),
    mirror_subdir="cachopo",
    description="Cardoso-Cachopo R8 (all terms): 5,485 train / 2,189 test, 8 classes",
    citation=CITATION,
))
register(DatasetSpec(
    name="cachopo_webkb", kind="text", parser=parse_cachopo_webkb,
    files=(_spec("webkb-train-stemmed.txt"), _spec("webkb-test-stemmed.txt")),
    mirror_subdir="cachopo",
    description="Cardoso-Cachopo WebKB (stemmed): 2,803 train / 1,396 test, 4 classes",
    citation=CITATION,
))
