"""Dataset parsers: exact counts on the real files (``realdata``), malformed-record errors naming
file and line, RCV1 token format on a self-written sample, balanced subsampling."""

from __future__ import annotations

import gzip
import json
import os
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from termweight.datasets import DATASETS, fetch
from termweight.datasets.arff import FORMAN19, parse_sparse_arff
from termweight.datasets.cachopo import read_label_tab_text
from termweight.datasets.download import accepted_hashes
from termweight.datasets.newsgroups import parse_20news, posting_text
from termweight.datasets.ordinal import balanced_subsample, parse_amazon_beauty
from termweight.datasets.rcv1 import parse_rcv1, read_lyrl_tokens
from termweight.datasets.reuters import read_modapte
from termweight.datasets.vectors import parse_spambase, read_dexter_test, read_svmlight
from termweight.runner.errors import DataError
from termweight.runner.io import sha256_file

REPO = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("TERMWEIGHT_MIRROR", REPO.parent / "shared" / "datasets"))
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(),
                                  reason=f"real datasets not found at {MIRROR} "
                                         "(set TERMWEIGHT_MIRROR)")
# 20NG: extracting 18,846 small files takes 3-25 s depending on disk load; the extraction code
# is tested in test_fetch.py, the extracted-tree reader below on a small tree.
PARSE_IN_PLACE = {"20news", "20news_stripped"}
PRESENT_FORMAN = ("oh0", "oh10", "oh15", "oh5", "tr11", "tr12", "tr23", "tr31", "tr41", "tr45",
                  "wap")


@pytest.fixture(scope="session")
def load(tmp_path_factory):
    """Fetch (from the mirror, checksums verified) and parse each dataset once per session."""
    cache: dict = {}
    root = tmp_path_factory.mktemp("raw")

    def get(name, **options):
        key = (name, tuple(sorted(options.items())))
        if key not in cache:
            spec = DATASETS[name]
            if name in PARSE_IN_PLACE:  # verify the archive, read it without extracting
                for f in spec.files:
                    path = MIRROR / spec.mirror_subdir / f.name
                    assert sha256_file(path) in accepted_hashes(f), path
                raw = MIRROR / spec.mirror_subdir
            else:
                raw = fetch(spec, root / (spec.mirror_subdir or name).replace("/", "_"), MIRROR,
                            allow_download=False, progress=False)
            cache[key] = spec.parser(raw, {**spec.options, **options})
        return cache[key]
    return get


def _class_sizes(docs, subset=None):
    return Counter(lab for labs, s in zip(docs.labels, docs.subset, strict=True)
                   if subset is None or s == subset for lab in labs)


# ----------------------------------------------------------------------------- real data

@pytest.mark.realdata
@needs_mirror
def test_reuters_modapte(load):
    docs = load("reuters21578")
    assert Counter(docs.subset) == {"train": 9603, "test": 3299}
    assert len(docs.classes) == 90 and docs.multilabel
    assert docs.info["empty_label_docs"] == {"train": 1833, "test": 280}
    tr, te = _class_sizes(docs, "train"), _class_sizes(docs, "test")
    assert all(tr[c] >= 1 and te[c] >= 1 for c in docs.classes)
    assert (tr["earn"], te["earn"]) == (2877, 1087)
    assert (tr["acq"], te["acq"]) == (1650, 719)
    assert docs.texts[0].startswith("BAHIA COCOA REVIEW\nShowers continued")
    assert all("&lt;" not in t and "\x03" not in t for t in docs.texts)


@pytest.mark.realdata
@needs_mirror
@pytest.mark.parametrize("name,sizes,n_classes", [
    ("r8", (5485, 2189), 8), ("r52", (6532, 2568), 52)])
def test_reuters_derived_match_cardoso_cachopo(load, name, sizes, n_classes):
    docs = load(name)
    assert (Counter(docs.subset)["train"], Counter(docs.subset)["test"]) == sizes
    assert len(docs.classes) == n_classes and not docs.multilabel
    assert docs.info["differs_from_published"] is False


@pytest.mark.realdata
@needs_mirror
def test_r8_derived_equals_cachopo_files_per_class(load):
    derived, cachopo = load("r8"), load("cachopo_r8")
    for sub in ("train", "test"):
        assert _class_sizes(derived, sub) == _class_sizes(cachopo, sub)


@pytest.mark.realdata
@needs_mirror
def test_cachopo(load):
    r8 = load("cachopo_r8")
    assert Counter(r8.subset) == {"train": 5485, "test": 2189}
    assert _class_sizes(r8, "train") == {"acq": 1596, "crude": 253, "earn": 2840, "grain": 41,
                                         "interest": 190, "money-fx": 206, "ship": 108,
                                         "trade": 251}
    webkb = load("cachopo_webkb")
    assert Counter(webkb.subset) == {"train": 2803, "test": 1396}
    assert _class_sizes(webkb, "test") == {"course": 310, "faculty": 374, "project": 168,
                                           "student": 544}


@pytest.mark.realdata
@needs_mirror
def test_20news(load):
    docs = load("20news")
    assert Counter(docs.subset) == {"train": 11314, "test": 7532}
    assert len(docs.classes) == 20
    tr, te = _class_sizes(docs, "train"), _class_sizes(docs, "test")
    assert (tr["alt.atheism"], te["alt.atheism"]) == (480, 319)
    assert (tr["talk.religion.misc"], te["talk.religion.misc"]) == (377, 251)
    assert not any(t.startswith("From:") or "\nOrganization:" in t.split("\n\n")[0]
                   for t in docs.texts[:200])
    # Kim's version: the same postings without headers, quoted lines and signatures
    stripped = load("20news_stripped")
    assert stripped.doc_ids == docs.doc_ids and stripped.labels == docs.labels
    assert not any(line.lstrip().startswith((">", "|>"))
                   for t in stripped.texts[:500] for line in t.split("\n"))
    assert sum(map(len, stripped.texts)) < 0.8 * sum(map(len, docs.texts))


@pytest.mark.realdata
@needs_mirror
@pytest.mark.parametrize("name", PRESENT_FORMAN)
def test_forman_arff(load, name):
    corpus = load(name)
    _, _, n_docs, n_classes = FORMAN19[name]
    assert corpus.n_docs == n_docs and len(corpus.classes) == n_classes
    assert corpus.X.dtype == np.int32 and corpus.X.data.min() > 0
    assert np.asarray(corpus.Y.sum(axis=1)).ravel().tolist() == [1] * n_docs
    expected = {"oh0": (3182, 52673), "tr11": (6429, 116613), "tr31": (10128, 248903),
                "wap": (8460, 220482)}
    if name in expected:
        assert (corpus.X.shape[1], corpus.X.nnz) == expected[name]
    if name == "tr31":
        sizes = dict(zip(corpus.classes, np.asarray(corpus.Y.sum(axis=0)).ravel(), strict=True))
        assert sizes == {"301": 352, "302": 63, "304": 151, "305": 21, "306": 227,
                         "307": 111, "310": 2}


@pytest.mark.realdata
@needs_mirror
@pytest.mark.parametrize("name", sorted(set(FORMAN19) - set(PRESENT_FORMAN)))
def test_forman_missing_ones_fail_clearly(tmp_path, name):
    with pytest.raises(DataError, match="not in mirror.*no network"):
        fetch(DATASETS[name], tmp_path, MIRROR, allow_download=False)


@pytest.mark.realdata
@needs_mirror
def test_pang_lee(load):
    three, four = load("pang_lee_3class"), load("pang_lee_4class")
    assert len(three.doc_ids) == len(four.doc_ids) == 5006
    assert three.ordinal and three.classes == ["0", "1", "2"]
    assert four.classes == ["0", "1", "2", "3"]
    assert _class_sizes(three) == {"0": 359 + 186 + 239 + 413, "1": 427 + 491 + 349 + 648,
                                   "2": 241 + 630 + 314 + 709}
    rhodes = load("pang_lee_4class", author="Steve+Rhodes")
    assert len(rhodes.doc_ids) == 1770
    assert _class_sizes(rhodes) == {"0": 191, "1": 526, "2": 766, "3": 287}
    assert rhodes.doc_ids[0] == "Steve+Rhodes/11790" and rhodes.labels[0] == ["0"]
    five = load("pang_lee_5class")  # cut from the ratings: 500 per class can be drawn
    assert five.ordinal and five.classes == ["0", "1", "2", "3", "4"]
    assert _class_sizes(five) == {"0": 615, "1": 642, "2": 911, "3": 944, "4": 1894}
    # the cuts refine the 4-class labels: class 0 is theirs, no review moves down an order
    pairs = {(a[0], b[0]) for a, b in zip(four.labels, five.labels, strict=True)}
    assert pairs == {("0", "0"), ("1", "1"), ("1", "2"), ("2", "3"), ("2", "4"), ("3", "4")}


@pytest.mark.realdata
@needs_mirror
def test_amazon_beauty_dedup(load):
    docs = load("amazon_beauty")
    assert docs.ordinal and docs.classes == ["1", "2", "3", "4", "5"]
    assert docs.info["records"] == 5269
    assert docs.info["distinct_reviews"] == 1379
    assert len(docs.doc_ids) == docs.info["kept"] == 1378
    assert len(set(zip(docs.doc_ids, docs.texts, strict=True))) == 1378


@pytest.mark.realdata
@needs_mirror
def test_spambase(load):
    c = load("spambase")
    assert c.X.shape == (4601, 57) and c.X.dtype == np.float64
    assert np.asarray(c.Y.sum(axis=0)).ravel().tolist() == [2788, 1813]
    assert c.terms[0] == "word_freq_make" and c.terms[53] == "char_freq_#"
    assert c.terms[54].startswith("capital_run_length")
    assert c.info["bag_of_words_columns"] == [1, 54]


@pytest.mark.realdata
@needs_mirror
def test_svmlight_example1(load):
    c = load("svmlight_example1")
    assert c.X.shape == (2600, 9947) and len(c.terms) == 9947
    assert Counter(c.subset.tolist()) == {"train": 2000, "test": 600}
    assert c.X[c.subset == "train"].nnz == 94790 and c.X[c.subset == "test"].nnz == 23730
    y = c.labels
    assert np.bincount(y[c.subset == "train"]).tolist() == [1000, 1000]
    assert np.bincount(y[c.subset == "test"]).tolist() == [300, 300]


@pytest.mark.realdata
@needs_mirror
def test_dexter(load, tmp_path):
    c = load("dexter")
    assert c.X.shape == (600, 20000) and c.X.dtype == np.int32
    assert Counter(c.subset.tolist()) == {"train": 300, "valid": 300}
    assert c.X.nnz == 28218 + 27949
    assert np.bincount(c.labels).tolist() == [300, 300]
    shutil.copy(MIRROR / "dexter" / "dexter_test.data", tmp_path / "dexter_test.data")
    test = read_dexter_test(tmp_path)
    assert test.shape == (2000, 20000) and test.nnz == 192449


@pytest.mark.realdata
@needs_mirror
def test_corpus_and_documents_roundtrip(load, tmp_path):
    corpus = load("tr23")
    corpus.save(tmp_path / "c")
    again = type(corpus).load(tmp_path / "c")
    assert (again.X != corpus.X).nnz == 0 and again.classes == corpus.classes
    docs = load("cachopo_webkb")
    docs.save(tmp_path / "d")
    assert type(docs).load(tmp_path / "d").labels == docs.labels


# ----------------------------------------------------------------------------- malformed input

def test_arff_malformed_records_name_file_and_line(tmp_path):
    head = ("@RELATION t\n@ATTRIBUTE a integer\n@ATTRIBUTE b integer\n"
            "@ATTRIBUTE class {x,y}\n@DATA\n")
    good = "{0 1,1 2,2 y}\n{1 3}\n"
    path = tmp_path / "t.wc.arff"
    path.write_text(head + good)
    c = parse_sparse_arff(path)
    assert c.X.toarray().tolist() == [[1, 2], [0, 3]]
    assert c.labels.tolist() == [1, 0]  # omitted class entry = first nominal value
    for bad, why in [("{0 1,1 2,2 z}", "unknown class"), ("0 1,2 y", "sparse record"),
                     ("{0 1,1,2 y}", "pair"), ("{1 1,0 2,2 y}", "increasing"),
                     ("{0 x,2 y}", "non-numeric"), ("{5 1,2 y}", "out of range")]:
        path.write_text(head + good + bad + "\n")
        with pytest.raises(DataError, match=why) as err:
            parse_sparse_arff(path)
        assert err.value.line == 8 and str(path) in str(err.value)


def test_label_tab_text_malformed(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("a\tsome text\nno tab here\n")
    with pytest.raises(DataError, match=r"x\.txt:2: expected 'label<TAB>text'"):
        read_label_tab_text(path)


def test_reuters_malformed(tmp_path):
    story = ('<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="1" '
             'NEWID="{id}">\n<TOPICS><D>earn</D></TOPICS>\n<TEXT><TITLE>T</TITLE>'
             '<BODY>b &lt;x&gt;</BODY></TEXT>\n</REUTERS>\n')
    for k in range(22):
        (tmp_path / f"reut2-{k:03d}.sgm").write_text(story.format(id=k + 1) if k else "")
    stories, stats = read_modapte(tmp_path)
    assert {s.text for s in stories} == {"T\nb <x>"} and stats["modapte_train"] == 21
    bad = story.format(id=1) + story.format(id=2).replace('NEWID="2"', 'NEWID="x"')
    (tmp_path / "reut2-000.sgm").write_text(bad)
    with pytest.raises(DataError, match="NEWID") as err:
        read_modapte(tmp_path)
    assert err.value.line == 5 and "reut2-000.sgm" in str(err.value)


def test_svmlight_malformed(tmp_path):
    path = tmp_path / "s.dat"
    path.write_text("# comment\n1 1:0.5 3:1\n-1 2:1 2:3\n")
    with pytest.raises(DataError, match="increasing") as err:
        read_svmlight(path, 5)
    assert err.value.line == 3
    path.write_text("1 1:0.5 3:1\n2 1:1\n")
    with pytest.raises(DataError, match=r"s\.dat:2: label"):
        read_svmlight(path, 5)
    path.write_text("1 1:0.5 9:1\n")
    with pytest.raises(DataError, match=r"s\.dat:1: feature index 9"):
        read_svmlight(path, 5)


def test_spambase_malformed(tmp_path):
    names = "".join(f"a{i}: continuous.\r\n" for i in range(57))
    (tmp_path / "spambase.names").write_text(names)
    row = ",".join(["0"] * 57 + ["1"])
    (tmp_path / "spambase.data").write_bytes(f"{row}\r\n{row},0\r\n".encode())
    with pytest.raises(DataError, match=r"spambase\.data:2: 59 fields"):
        parse_spambase(tmp_path)


def test_amazon_malformed(tmp_path):
    rec = {"overall": 5.0, "reviewerID": "A", "unixReviewTime": 1, "reviewText": "nice"}
    with gzip.open(tmp_path / "All_Beauty_5.json.gz", "wt") as fh:
        fh.write(json.dumps(rec) + "\n" + json.dumps(rec) + "\n{broken\n")
    with pytest.raises(DataError, match=r"All_Beauty_5\.json\.gz:3"):
        parse_amazon_beauty(tmp_path)


# ----------------------------------------------------------------------------- RCV1 sample

RCV1_SAMPLE = """.I 2286
.W
mexic peso fell
dollar trad

.I 2287
.W
oil price rose

"""


def test_rcv1_token_format_sample(tmp_path):
    with gzip.open(tmp_path / "lyrl2004_tokens_train.dat.gz", "wt") as fh:
        fh.write(RCV1_SAMPLE)
    for k in range(4):
        with gzip.open(tmp_path / f"lyrl2004_tokens_test_pt{k}.dat.gz", "wt") as fh:
            fh.write(f".I {3000 + k}\n.W\ntest doc {k}\n\n")
    with gzip.open(tmp_path / "rcv1-v2.topics.qrels.gz", "wt") as fh:
        fh.write("E11 2286 1\nECAT 2286 1\nM14 2287 1\nGCAT 3001 1\n")
    docs = parse_rcv1(tmp_path, {"test_parts": (0, 1)})
    assert docs.doc_ids == ["2286", "2287", "3000", "3001"]
    assert docs.texts[0] == "mexic peso fell dollar trad"
    assert docs.labels == [["E11", "ECAT"], ["M14"], [], ["GCAT"]]
    assert docs.subset == ["train", "train", "test", "test"]
    assert docs.classes == ["E11", "ECAT", "GCAT", "M14"] and docs.multilabel


def test_rcv1_token_format_errors(tmp_path):
    path = tmp_path / "t.dat"
    path.write_text(".I 1\n.W\nok\n\nstray\n.I 2\nx\n")
    with pytest.raises(DataError, match=r"t\.dat:7: tokens outside"):
        list(read_lyrl_tokens(path))
    path.write_text(".I abc\n.W\nok\n")
    with pytest.raises(DataError, match=r"t\.dat:1: expected '\.I"):
        list(read_lyrl_tokens(path))


# ----------------------------------------------------------------------------- helpers

def test_balanced_subsample():
    labels = np.array([0] * 10 + [1] * 4 + [2] * 7)
    idx = balanced_subsample(labels, seed=1)
    assert np.bincount(labels[idx]).tolist() == [4, 4, 4]
    assert np.array_equal(idx, balanced_subsample(labels, seed=1))
    assert not np.array_equal(idx, balanced_subsample(labels, seed=2))
    assert np.bincount(labels[balanced_subsample(labels, 0, per_class=2)]).tolist() == [2, 2, 2]
    with pytest.raises(ValueError, match="per_class"):
        balanced_subsample(labels, 0, per_class=5)
    assert len(balanced_subsample(np.array(["a", "b", "b"]), 3)) == 2


def test_20news_header_options():
    raw = "From: a@b\nSubject: Re: DC-X\nLines: 3\n\nIn article <x> y writes:\n>q\nbody\n--\nsig\n"
    assert posting_text(raw) == "DC-X\nIn article <x> y writes:\n>q\nbody\n--\nsig\n"
    assert posting_text(raw, "all") == raw
    assert posting_text(raw, "none", quotes=True, footer=True) == "body"


def test_every_declared_file_is_pinned_or_documented():
    for spec in DATASETS.values():
        for f in spec.files:
            assert f.sha256 or spec.name in {"rcv1", *FORMAN19}, (spec.name, f.name)
            assert f.urls or f.archive is not None or spec.name == "bbc", (spec.name, f.name)


def test_20news_reads_extracted_tree(tmp_path):
    for sub, group, fid in [("train", "sci.space", "2"), ("train", "sci.space", "10"),
                            ("test", "alt.atheism", "7")]:
        d = tmp_path / "20news-bydate" / f"20news-bydate-{sub}" / group
        d.mkdir(parents=True, exist_ok=True)
        (d / fid).write_bytes(b"From: x\r\nSubject: hi \xe9\r\n\r\nbody\r\n")
    docs = parse_20news(tmp_path)
    assert docs.doc_ids == ["train/sci.space/2", "train/sci.space/10", "test/alt.atheism/7"]
    assert docs.texts[0] == "hi \xe9\nbody\n" and docs.classes == ["alt.atheism", "sci.space"]


def test_locate_follows_the_lookup_of_fetch(tmp_path):
    """Raw copy first, then the mirror's, then an archive at hand; None: only a download."""
    from termweight.datasets import get_dataset
    from termweight.datasets.download import ARCHIVE_DIR, locate

    spec = get_dataset("oh0")  # one file, taken out of 19MclassTextWc.zip without a URL of its own
    dest, mirror = tmp_path / "raw", tmp_path / "mirror"
    assert locate(spec, dest, mirror) == {"oh0.wc.arff": None}
    (mirror / "forman19").mkdir(parents=True)
    (mirror / "forman19" / spec.files[0].archive.name).write_bytes(b"zip")
    assert locate(spec, dest, mirror)["oh0.wc.arff"] == mirror / "forman19/19MclassTextWc.zip"
    assert locate(spec, dest, None) == {"oh0.wc.arff": None}
    (dest / ARCHIVE_DIR).mkdir(parents=True)
    (dest / ARCHIVE_DIR / "19MclassTextWc.zip").write_bytes(b"zip")
    assert locate(spec, dest, None)["oh0.wc.arff"] == dest / ARCHIVE_DIR / "19MclassTextWc.zip"
    (mirror / "forman19/oh0.wc.arff").write_text("@relation x")
    assert locate(spec, dest, mirror)["oh0.wc.arff"] == mirror / "forman19/oh0.wc.arff"
    (dest / "oh0.wc.arff").write_text("@relation x")
    assert locate(spec, dest, mirror)["oh0.wc.arff"] == dest / "oh0.wc.arff"
    assert locate(get_dataset("bbc"), dest, mirror) == {}  # bundled: no files


def test_every_dataset_is_described():
    from termweight.datasets import DATASETS

    assert all(spec.description.strip() for spec in DATASETS.values())


def test_dataset_docstring_examples_run():
    import doctest
    import importlib

    for name in ("registry", "download"):  # the modules (the package's ``fetch`` is a function)
        module = importlib.import_module(f"termweight.datasets.{name}")
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0 and result.attempted > 0, module.__name__
