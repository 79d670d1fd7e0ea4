"""Bad input, round two: byte-order marks, control characters in class labels, ARFF names and
encoding, the member count of an archive and the temporaries a killed extraction leaves.

Each refusal is one :class:`DataError` whose text is ``<file>:<line>: <message>`` (what the CLI
prints after ``termweight <step>: error:``). Small generated files only; one test counts the
members of the real 20 Newsgroups archive when the shared mirror is present.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from termweight.datasets.arff import parse_sparse_arff
from termweight.datasets.cachopo import parse_cachopo_r8, read_label_tab_text
from termweight.datasets.documents import bad_label, check_labels
from termweight.datasets.download import ExtractLimits, fetch, remove_stale_temporaries, safe_extract
from termweight.datasets.newsgroups import parse_20news
from termweight.datasets.ordinal import parse_amazon_beauty, read_pang_lee
from termweight.datasets.rcv1 import read_qrels
from termweight.datasets.registry import ArchiveSource, DatasetSpec, FileSpec
from termweight.datasets.reuters import SGM_SHA256, read_modapte
from termweight.datasets.vectors import read_svmlight
from termweight.runner.errors import ArchiveLimitError, DataError

BOM = b"\xef\xbb\xbf"
MIRROR = Path(os.environ.get("TERMWEIGHT_MIRROR",
                             Path(__file__).resolve().parents[2] / "shared" / "datasets"))


def refused(call, path, line, message) -> DataError:
    """``call()`` raises exactly ``<path>:<line>: <message>``."""
    with pytest.raises(DataError) as err:
        call()
    where = f"{path}" if line is None else f"{path}:{line}"
    assert str(err.value) == f"{where}: {message}"
    return err.value


# ----------------------------------------------------------------------------- byte-order mark

def test_label_tab_file_with_bom_gives_class_earn(tmp_path):
    for name in ("r8-train-all-terms.txt", "r8-test-all-terms.txt"):
        (tmp_path / name).write_bytes(BOM + b"earn\tprofit rose\nacq\tbought a firm\n")
    labels, texts = read_label_tab_text(tmp_path / "r8-train-all-terms.txt")
    assert labels == ["earn", "acq"] and texts[0] == "profit rose"
    docs = parse_cachopo_r8(tmp_path)
    assert docs.classes == ["acq", "earn"] and docs.labels[0] == ["earn"]


def test_non_utf8_byte_after_a_bom_names_its_line(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(BOM + b"earn\tok\r\nacq\tcaf\xe9\n")
    refused(lambda: read_label_tab_text(path), path, 2, "not UTF-8 (byte 0xe9)")


def _gz(path: Path, blob: bytes) -> Path:
    path.write_bytes(gzip.compress(blob))
    return path


@pytest.mark.parametrize("fmt", ["arff", "svmlight", "qrels", "pang_lee", "amazon", "reuters"])
def test_other_text_formats_drop_a_leading_bom(tmp_path, fmt):
    if fmt == "arff":
        path = tmp_path / "t.wc.arff"
        path.write_bytes(BOM + b"@RELATION t\n@ATTRIBUTE a integer\n@ATTRIBUTE class {x,y}\n"
                               b"@DATA\n{0 1,1 y}\n{0 2}\n")
        assert parse_sparse_arff(path).classes == ["x", "y"]
    elif fmt == "svmlight":
        path = tmp_path / "s.dat"
        path.write_bytes(BOM + b"+1 1:0.5\n-1 2:1\n")
        assert read_svmlight(path, 2)[1].tolist() == [1, 0]
    elif fmt == "qrels":
        path = _gz(tmp_path / "q.gz", BOM + b"E11 2286 1\nM14 2287 1\n")
        assert read_qrels(path) == {"2286": ["E11"], "2287": ["M14"]}
    elif fmt == "pang_lee":
        author = "Steve+Rhodes"
        base = tmp_path / "scaledata" / author
        base.mkdir(parents=True)
        for kind, rows in {"id": "1 2", "subj": "good bad", "rating": "0.9 0.1",
                           "label.3class": "2 0"}.items():
            (base / f"{kind}.{author}").write_bytes(BOM + "\n".join(rows.split()).encode()
                                                    + b"\n")
        docs = read_pang_lee(tmp_path, 3, author)
        assert docs.labels == [["2"], ["0"]] and docs.doc_ids == [f"{author}/1", f"{author}/2"]
    elif fmt == "amazon":
        rec = {"overall": 5.0, "reviewerID": "A", "unixReviewTime": 1, "reviewText": "good"}
        bad = dict(rec, overall=1.0, reviewerID="B", reviewText="bad")
        _gz(tmp_path / "All_Beauty_5.json.gz",
            BOM + (json.dumps(rec) + "\n" + json.dumps(bad) + "\n").encode())
        assert parse_amazon_beauty(tmp_path).labels == [["5"], ["1"]]
    else:
        story = ('<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="1" '
                 'NEWID="{id}">\n<TOPICS><D>earn</D></TOPICS>\n<TEXT><TITLE>T</TITLE>'
                 '<BODY>b</BODY></TEXT>\n</REUTERS>\n')
        for k, name in enumerate(SGM_SHA256):
            (tmp_path / name).write_bytes(BOM + story.format(id=k + 1).encode())
        stories, _ = read_modapte(tmp_path)
        assert len(stories) == 22 and {s.topics[0] for s in stories} == {"earn"}


# ----------------------------------------------------------------------------- control characters

@pytest.mark.parametrize("label, code, what", [
    ("ea\x00rn", "0000", "a control character"),
    ("\x1bearn", "001B", "a control character"),
    ("earn\x7f", "007F", "a control character"),
    ("ea\x85rn", "0085", "a control character"),   # C1 (NEL), UTF-8 c2 85
    ("\ufeffearn", "FEFF", "a byte-order mark"),   # a BOM left inside the file
], ids=["nul", "esc", "del", "c1", "inner-bom"])
def test_control_character_in_a_label_tab_label(tmp_path, label, code, what):
    path = tmp_path / "x.txt"
    path.write_bytes(f"acq\tfine\n{label}\tprofit rose\n".encode())
    refused(lambda: read_label_tab_text(path), path, 2,
            f"class label {label!r} contains U+{code} ({what})")


def test_shared_label_check():
    assert bad_label(["earn", "acq", "café", "wheat-corn"]) is None
    assert bad_label(["earn", "a\tb", "a\tb"]) == (1, "class label 'a\\tb' contains U+0009 "
                                                      "(a control character)")
    with pytest.raises(DataError) as err:
        check_labels("f.txt", ["ok", "x\x00"], lines=[3, 9])
    assert str(err.value) == "f.txt:9: class label 'x\\x00' contains U+0000 (a control character)"


def test_control_character_in_an_arff_class_value(tmp_path):
    path = tmp_path / "t.wc.arff"
    path.write_bytes(b"@RELATION t\n@ATTRIBUTE a integer\n@ATTRIBUTE class {x,y\x00}\n"
                     b"@DATA\n{0 1,1 x}\n")
    refused(lambda: parse_sparse_arff(path), path, 3,
            "class label 'y\\x00' contains U+0000 (a control character)")


def test_control_character_in_a_qrels_topic(tmp_path):
    path = _gz(tmp_path / "q.gz", b"E11 2286 1\nM\x0014 2287 1\nM\x0014 2288 1\n")
    refused(lambda: read_qrels(path), path, 2,
            "class label 'M\\x0014' contains U+0000 (a control character)")


def test_control_character_in_a_reuters_topic(tmp_path):
    story = ('<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="1" '
             'NEWID="{id}">\n<TOPICS><D>{topic}</D></TOPICS>\n<TEXT><TITLE>T</TITLE>'
             '<BODY>b</BODY></TEXT>\n</REUTERS>\n')
    for k, name in enumerate(SGM_SHA256):
        (tmp_path / name).write_text(story.format(id=k + 1, topic="earn"))
    path = tmp_path / "reut2-003.sgm"
    path.write_bytes((story.format(id=4, topic="earn") + story.format(id=5, topic="ea\x00rn"))
                     .encode("latin-1"))
    refused(lambda: read_modapte(tmp_path), path, 6,
            "NEWID 5: class label 'ea\\x00rn' contains U+0000 (a control character)")


def test_control_character_in_a_newsgroup_folder(tmp_path):
    for top in ("20news-bydate-train", "20news-bydate-test"):
        for group in ("sci.space", "comp\x01graphics"):
            (tmp_path / "20news-bydate" / top / group).mkdir(parents=True)
            (tmp_path / "20news-bydate" / top / group / "1").write_bytes(b"Subject: s\n\nbody\n")
    refused(lambda: parse_20news(tmp_path), tmp_path / "20news-bydate", None,
            "group folder: class label 'comp\\x01graphics' contains U+0001 (a control character)")


# ----------------------------------------------------------------------------- ARFF

ARFF_HEAD = "@RELATION t\n@ATTRIBUTE a integer\n@ATTRIBUTE b integer\n@ATTRIBUTE class {x,y}\n"


def test_arff_duplicate_attribute_name_names_the_second_line(tmp_path):
    path = tmp_path / "t.wc.arff"
    path.write_text("@RELATION t\n@ATTRIBUTE a integer\n% c\n@ATTRIBUTE 'a' integer\n"
                    "@ATTRIBUTE class {x,y}\n@DATA\n{0 1,2 y}\n")
    refused(lambda: parse_sparse_arff(path), path, 4,
            "attribute 'a' declared twice (first on line 2)")
    path.write_text("@RELATION t\n@ATTRIBUTE class integer\n@ATTRIBUTE class {x,y}\n@DATA\n")
    refused(lambda: parse_sparse_arff(path), path, 3,
            "attribute 'class' declared twice (first on line 2)")


@pytest.mark.parametrize("record", ["{0 1,2 ''}", "{0 1,2 }", '{2 ""}'])
def test_arff_empty_class_value_in_a_data_row(tmp_path, record):
    path = tmp_path / "t.wc.arff"
    path.write_text(ARFF_HEAD + "@DATA\n{0 1,2 y}\n" + record + "\n")
    refused(lambda: parse_sparse_arff(path), path, 7, "empty class value")


def test_arff_empty_class_value_declared(tmp_path):
    path = tmp_path / "t.wc.arff"
    path.write_text("@RELATION t\n@ATTRIBUTE a integer\n@ATTRIBUTE class {x,,y}\n@DATA\n{0 1}\n")
    refused(lambda: parse_sparse_arff(path), path, 3,
            "empty class value (number 2) in the nominal class declaration")


def test_arff_is_read_as_utf8(tmp_path):
    path = tmp_path / "t.wc.arff"
    text = ("@RELATION t\n@ATTRIBUTE 'crème' integer\n@ATTRIBUTE b integer\n"
            "@ATTRIBUTE class {café,thé}\n@DATA\n{0 1,2 thé}\n{1 2}\n")
    path.write_bytes(text.encode("utf-8"))
    corpus = parse_sparse_arff(path)
    assert corpus.classes == ["café", "thé"] and corpus.terms == ["crème", "b"]
    assert corpus.labels.tolist() == [1, 0]
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))  # CRLF: the same corpus
    assert parse_sparse_arff(path).classes == ["café", "thé"]


def test_arff_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "t.wc.arff"
    path.write_bytes(("@RELATION t\n@ATTRIBUTE a integer\n@ATTRIBUTE b integer\n"
                      "@ATTRIBUTE class {café,thé}\n@DATA\n{0 1,2 thé}\n").encode("latin-1"))
    refused(lambda: parse_sparse_arff(path), path, 4, "not UTF-8 (byte 0xe9)")


# ----------------------------------------------------------------------------- archive members

def _many(path: Path, n: int, kind: str = "tar") -> Path:
    """An archive of ``n`` one-byte members ``m/<k>``."""
    if kind == "tar":
        with tarfile.open(path, "w:gz") as tf:
            for k in range(n):
                info = tarfile.TarInfo(f"m/{k}")
                info.size = 1
                tf.addfile(info, io.BytesIO(b"x"))
    else:
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for k in range(n):
                zf.writestr(f"m/{k}", b"x")
    return path


@pytest.mark.parametrize("kind", ["tar", "zip"])
def test_archive_with_too_many_members_is_refused_before_extraction(tmp_path, kind):
    arc = _many(tmp_path / f"many.{'tar.gz' if kind == 'tar' else 'zip'}", 300, kind)
    out = tmp_path / "x" / "many"
    with pytest.raises(ArchiveLimitError) as err:
        safe_extract(arc, out, ExtractLimits(max_members=299))
    assert str(err.value) == (f"{arc}: more than 299 members (the limit max_members); "
                              "nothing extracted")
    assert list(out.parent.iterdir()) == []  # no tree, no temporary directory
    assert len(list((safe_extract(arc, out, ExtractLimits(max_members=300)) / "m").iterdir())) == 300


def test_member_limit_applies_when_one_member_is_taken(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    _many(tmp_path / "m" / "toy" / "bundle.tar.gz", 50)
    spec = DatasetSpec(name="toy", kind="text", parser=lambda raw, opts: None,
                       files=(FileSpec("m/7", (), hashlib.sha256(b"x").hexdigest(),
                                       archive=ArchiveSource("bundle.tar.gz", ())),),
                       mirror_subdir="toy")
    with pytest.raises(ArchiveLimitError, match=r"bundle\.tar\.gz: more than 10 members"):
        fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False,
              limits=ExtractLimits(max_members=10))
    assert not (tmp_path / "raw" / "m" / "7").exists()
    dest = fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert (dest / "m" / "7").read_bytes() == b"x"


def test_member_limit_is_configured_like_the_other_limits():
    assert ExtractLimits.from_params({"max_members": 7}).max_members == 7
    assert ExtractLimits.from_params(None).max_members == 100_000


def test_default_member_limit_leaves_room_for_20_newsgroups():
    arc = MIRROR / "20news-bydate" / "20news-bydate.tar.gz"
    if not arc.is_file():
        pytest.skip("shared mirror not present")
    with tarfile.open(arc) as tf:
        n = sum(1 for _ in tf)
    assert n == 18888 and 5 * n < ExtractLimits().max_members


# ----------------------------------------------------------------------------- temporaries

def test_leftover_of_a_killed_extraction_is_removed(tmp_path):
    arc = tmp_path / "data.tar.gz"
    with tarfile.open(arc, "w:gz") as tf:
        info = tarfile.TarInfo("top/a.txt")
        info.size = 1
        tf.addfile(info, io.BytesIO(b"A"))
    parent = tmp_path / "raw"
    stale = parent / ".data.k3x_9qzt.extract"
    (stale / "top").mkdir(parents=True)
    (stale / "top" / "half.txt").write_bytes(b"half")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    keep = [parent / ".data.k3x_9qzt.extract.bak", parent / ".other.k3x_9qzt.extract",
            parent / ".data.short.extract", parent / "data.k3x_9qzt.extract"]
    for p in keep:
        p.mkdir()
    (parent / ".data.filefile.extract").write_bytes(b"a file, not a directory")
    (parent / ".data.linklink.extract").symlink_to(outside, target_is_directory=True)
    out = safe_extract(arc, parent / "data")
    assert (out / "top" / "a.txt").read_bytes() == b"A"
    assert not stale.exists()
    assert all(p.is_dir() for p in keep) and outside.is_dir()
    assert (parent / ".data.filefile.extract").is_file()
    assert (parent / ".data.linklink.extract").is_symlink()
    assert remove_stale_temporaries(parent / "data") == []


def test_fetch_removes_the_leftover_before_it_extracts(tmp_path):
    mirror = tmp_path / "m" / "toy"
    mirror.mkdir(parents=True)
    arc = mirror / "data.tar.gz"
    with tarfile.open(arc, "w:gz") as tf:
        info = tarfile.TarInfo("a.txt")
        info.size = 1
        tf.addfile(info, io.BytesIO(b"A"))
    spec = DatasetSpec(name="toy", kind="text", parser=lambda raw, opts: None,
                       files=(FileSpec("data.tar.gz", (), hashlib.sha256(arc.read_bytes())
                                       .hexdigest(), extract=True),), mirror_subdir="toy")
    stale = tmp_path / "raw" / ".data.abcdefgh.extract"
    stale.mkdir(parents=True)
    (stale / "a.txt").write_bytes(b"partial")
    dest = fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert (dest / "data" / "a.txt").read_bytes() == b"A"
    assert not stale.exists()
    assert sorted(p.name for p in dest.iterdir()) == [".verified.json", "data", "data.tar.gz"]


def test_20news_archive_read_in_place_is_bounded(tmp_path, monkeypatch):
    """Without an extracted tree the parser streams the tarball: the member limit holds there."""
    import importlib
    import io as _io
    import tarfile

    from termweight.datasets.newsgroups import ARCHIVE, parse_20news
    from termweight.runner.errors import ArchiveLimitError

    with tarfile.open(tmp_path / ARCHIVE, "w:gz") as tf:
        for i in range(12):
            blob = b"Subject: hi\n\nbody"
            info = tarfile.TarInfo(f"20news-bydate-train/alt.atheism/{i}")
            info.size = len(blob)
            tf.addfile(info, _io.BytesIO(blob))
    fetch = importlib.import_module("termweight.datasets.download")
    limits = fetch.ExtractLimits
    monkeypatch.setattr(fetch, "ExtractLimits", lambda: limits(max_members=10))
    with pytest.raises(ArchiveLimitError, match="more than 10 members"):
        parse_20news(tmp_path)
