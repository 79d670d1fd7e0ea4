"""Archives, caches and downloads on bad input: bounded extraction, nothing reused without its
hash, no unverified file over plain http. Local files and a loopback HTTP server only."""

from __future__ import annotations

import gzip
import hashlib
import http.server
import io
import json
import os
import shutil
import tarfile
import threading
import zipfile
from pathlib import Path

import pytest

from termweight.datasets import DATASETS
from termweight.datasets.download import ARCHIVE_DIR, STATE_FILE, ExtractLimits, fetch, safe_extract
from termweight.datasets.rcv1 import TOKEN_FILES, parse_rcv1
from termweight.datasets.registry import UNPINNED, ArchiveSource, DatasetSpec, FileSpec
from termweight.runner.cli import main
from termweight.runner.errors import ArchiveLimitError, ChecksumError, DataError

PAYLOAD = b"hello termweight\n" * 100
SHA = hashlib.sha256(PAYLOAD).hexdigest()
MIRROR = Path(os.environ.get("TERMWEIGHT_MIRROR",
                             Path(__file__).resolve().parents[2] / "shared" / "datasets"))


def _spec(*files, name="toy"):
    return DatasetSpec(name=name, kind="text", parser=lambda raw, opts: None, files=files,
                       mirror_subdir=name)


def _tar(path: Path, members, mode="w:gz"):
    with tarfile.open(path, mode) as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                tf.addfile(info)
            else:
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))


def _zip(path: Path, members, method=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression=method) as zf:
        for name, data in members:
            zf.writestr(name, data)


def _refused(archive: Path, out: Path, match: str, limits=None) -> str:
    with pytest.raises(DataError, match=match) as err:
        safe_extract(archive, out, limits)
    msg = str(err.value)
    assert msg.startswith(str(archive)) and "\n" not in msg
    assert not out.exists()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]
    return msg


# ----------------------------------------------------------------------------- extraction

def test_corrupt_deflate_data_is_one_line(tmp_path):
    arc = tmp_path / "a.zip"
    _zip(arc, [("dir/a.txt", bytes(range(256)) * 400)])
    blob = bytearray(arc.read_bytes())
    blob[200] ^= 0xFF  # inside the compressed data of the only member
    arc.write_bytes(bytes(blob))
    _refused(arc, tmp_path / "out", r"corrupt archive at member 'dir/a\.txt'")


def test_truncated_archives(tmp_path):
    for name, build in (("t.tar.gz", _tar), ("t.zip", _zip)):
        arc = tmp_path / name
        build(arc, [("a.txt", os.urandom(50_000))])
        arc.write_bytes(arc.read_bytes()[:-5000])
        _refused(arc, tmp_path / f"out-{name}", "corrupt archive")


@pytest.mark.parametrize("members, why", [
    ([("x", b"1"), ("x/", None)], "is both a file and a directory"),
    ([("x/", None), ("x", b"1")], "is both a file and a directory"),
    ([("x", b"1"), ("x/y", b"2")], "lies under a file member 'x'"),
    ([("x", b"1"), ("./x", b"2")], "appears twice"),
    ([("a/../x", b"1"), ("x", b"2")], "appears twice"),
    ([(".", b"1")], "names the extraction directory itself"),
], ids=["file-then-dir", "dir-then-file", "file-under-file", "twice", "twice-normalised",
        "root-as-file"])
def test_clashing_tar_members(tmp_path, members, why):
    arc = tmp_path / "c.tar"
    _tar(arc, members, mode="w")
    _refused(arc, tmp_path / "out", why)


def test_zip_file_then_directory(tmp_path):
    arc = tmp_path / "c.zip"
    _zip(arc, [("x", b"1"), ("x/", b"")])
    _refused(arc, tmp_path / "out", "is both a file and a directory")


def test_zip_bomb_is_refused_by_ratio(tmp_path):
    arc = tmp_path / "bomb.zip"
    _zip(arc, [("zeros.bin", bytes(8 << 20))])  # 8 MiB of zeros in about 8 KB
    assert arc.stat().st_size < 100_000
    msg = _refused(arc, tmp_path / "out", r"member 'zeros\.bin': compression ratio")
    assert "limit of 100" in msg


def test_tar_gz_bomb_is_refused_before_writing(tmp_path):
    arc = tmp_path / "bomb.tar.gz"
    _tar(arc, [("small.txt", b"ok"), ("zeros.bin", bytes(8 << 20))])
    _refused(arc, tmp_path / "out", r"member 'zeros\.bin': the archive expands more than 100 "
                                    "times its size")


def test_total_and_member_limits_are_configurable(tmp_path):
    arc = tmp_path / "two.tar.gz"
    _tar(arc, [("a", os.urandom(600)), ("b", os.urandom(600))])
    _refused(arc, tmp_path / "o1", r"member 'b': the archive expands to more than the limit of "
                                   "1000 bytes", ExtractLimits(max_total_bytes=1000))
    _refused(arc, tmp_path / "o2", r"member 'a': 600 bytes exceed the per-member limit of 100",
             ExtractLimits(max_member_bytes=100))
    assert (safe_extract(arc, tmp_path / "o3", ExtractLimits(max_total_bytes=1200)) / "b").is_file()


def test_single_member_is_bounded_before_its_hash_is_checked(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    _zip(tmp_path / "m" / "toy" / "bundle.zip", [("bundle/a.txt", bytes(8 << 20))])
    spec = _spec(FileSpec("a.txt", (), "0" * 64, archive=ArchiveSource("bundle.zip", ())))
    with pytest.raises(ArchiveLimitError, match=r"bundle\.zip: member 'bundle/a\.txt': "
                                                r"compression ratio"):
        fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert not (tmp_path / "raw" / "a.txt").exists()
    assert not (tmp_path / "raw" / ARCHIVE_DIR / "bundle.zip").exists()  # a bad copy is not kept


def test_limits_from_params_reach_prepare(tmp_path, capsys, monkeypatch):
    """``archive_limits`` in params.yaml bounds the extraction of ``prepare``."""
    repo = Path(__file__).resolve().parents[1]
    (tmp_path / "workflow/schemas").mkdir(parents=True)
    shutil.copy(repo / "workflow/schemas/params.schema.yaml", tmp_path / "workflow/schemas")
    (tmp_path / "params.yaml").write_text(
        "seed: 1\nmirror: m\narchive_limits: {max_member_bytes: 1000}\nexperiments:\n"
        "  x: {dataset: bbc, protocol: {type: fixed}, encodings: [tf],"
        " learner: {name: linearsvc}}\n")
    (tmp_path / "m" / "20news-bydate").mkdir(parents=True)
    arc = tmp_path / "m" / "20news-bydate" / "20news-bydate.tar.gz"
    _tar(arc, [("20news-bydate-train/sci.space/1", b"x" * 5000)])
    sha = hashlib.sha256(arc.read_bytes()).hexdigest()
    spec = DATASETS["20news"]  # the real parser, declared with this small archive's hash
    fake = DatasetSpec(name="20news", kind="text", parser=spec.parser,
                       files=(FileSpec(spec.files[0].name, (), sha, extract=True),),
                       mirror_subdir="20news-bydate")
    monkeypatch.setitem(DATASETS, "20news", fake)
    monkeypatch.chdir(tmp_path)
    code = main(["--log", "l.log", "prepare", "--dataset", "20news", "--params", "params.yaml",
                 "--raw", "raw/{dataset}", "--out", "out"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err, err
    assert "20news-bydate.tar.gz: member '20news-bydate-train/sci.space/1': 5000 bytes exceed" \
        in err
    assert not (tmp_path / "out").exists() and not (tmp_path / "raw/20news/20news-bydate").exists()


# ----------------------------------------------------------------------------- trust

def test_raw_file_changed_in_place_is_rehashed_and_fetched_again(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    (tmp_path / "m" / "toy" / "a.txt").write_bytes(PAYLOAD)
    spec = _spec(FileSpec("a.txt", (), SHA))
    dest = fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    target = dest / "a.txt"
    st = target.stat()
    target.write_bytes(PAYLOAD.replace(b"hello", b"HELLO", 1))  # same size
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))      # same mtime
    fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert target.read_bytes() == PAYLOAD
    # without a source to fetch it from again, the bad copy is removed and the error names it
    target.write_bytes(PAYLOAD.replace(b"hello", b"HELLO", 1))
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    with pytest.raises(DataError, match=r"a\.txt: no mirror given and no download URL"):
        fetch(spec, tmp_path / "raw", None, allow_download=False)
    assert not target.exists()


def test_unpinned_archive_that_is_wrong_is_not_kept_and_a_fixed_mirror_is_used(tmp_path):
    mirror = tmp_path / "m" / "toy"
    mirror.mkdir(parents=True)
    arch = ArchiveSource("bundle.zip", ())  # no pinned checksum for the archive
    spec = _spec(FileSpec("a.txt", (), SHA, archive=arch))
    _zip(mirror / "bundle.zip", [("bundle/a.txt", PAYLOAD[:-1])])  # a broken mirror copy
    with pytest.raises(ChecksumError, match=r"bundle\.zip:bundle/a\.txt: SHA-256 mismatch"):
        fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert not (tmp_path / "raw" / ARCHIVE_DIR / "bundle.zip").exists()
    _zip(mirror / "bundle.zip", [("bundle/a.txt", PAYLOAD)])  # the mirror is fixed
    fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert (tmp_path / "raw" / "a.txt").read_bytes() == PAYLOAD


def test_cached_archive_truncated_later_is_replaced(tmp_path):
    mirror = tmp_path / "m" / "toy"
    mirror.mkdir(parents=True)
    _zip(mirror / "bundle.zip", [("a.txt", PAYLOAD), ("b.txt", PAYLOAD + b"b")])
    arch = ArchiveSource("bundle.zip", ())
    sha_b = hashlib.sha256(PAYLOAD + b"b").hexdigest()
    fetch(_spec(FileSpec("a.txt", (), SHA, archive=arch)), tmp_path / "raw", tmp_path / "m",
          allow_download=False)
    cached = tmp_path / "raw" / ARCHIVE_DIR / "bundle.zip"
    state = json.loads((tmp_path / "raw" / STATE_FILE).read_text())
    assert state["archives"]["bundle.zip"]["sha256"] == hashlib.sha256(
        cached.read_bytes()).hexdigest()
    cached.write_bytes(cached.read_bytes()[:40])  # truncated in the cache
    spec2 = _spec(FileSpec("a.txt", (), SHA, archive=arch),
                  FileSpec("b.txt", (), sha_b, archive=arch))
    fetch(spec2, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert (tmp_path / "raw" / "b.txt").read_bytes() == PAYLOAD + b"b"
    assert cached.read_bytes() == (mirror / "bundle.zip").read_bytes()


def test_extracted_tree_changed_is_extracted_again(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    arc = tmp_path / "m" / "toy" / "data.tar.gz"
    _tar(arc, [("top/a.txt", b"A")])
    spec = _spec(FileSpec("data.tar.gz", (), hashlib.sha256(arc.read_bytes()).hexdigest(),
                          extract=True))
    dest = fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    (dest / "data" / "top" / "a.txt").write_bytes(b"B")
    (dest / "data" / "top" / "extra.txt").write_bytes(b"C")
    fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert (dest / "data" / "top" / "a.txt").read_bytes() == b"A"
    assert not (dest / "data" / "top" / "extra.txt").exists()


def test_unpinned_file_keeps_its_first_hash(tmp_path):
    mirror = tmp_path / "m" / "toy"
    mirror.mkdir(parents=True)
    (mirror / "a.txt").write_bytes(PAYLOAD)
    spec = _spec(FileSpec("a.txt", (), UNPINNED))
    with pytest.warns(UserWarning, match="no confirmed SHA-256"):
        fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    (tmp_path / "raw" / "a.txt").unlink()
    (mirror / "a.txt").write_bytes(PAYLOAD + b"changed")
    with pytest.raises(ChecksumError, match=f"expected {SHA}"):
        fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert not (tmp_path / "raw" / "a.txt").exists()


class _Handler(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self):  # noqa: N802
        type(self).requests.append(self.path)
        self.send_response(200)
        self.send_header("Content-Length", str(len(PAYLOAD)))
        self.end_headers()
        self.wfile.write(PAYLOAD)

    def log_message(self, *args):
        pass


def test_unpinned_file_is_never_taken_over_plain_http(tmp_path):
    handler = type("H", (_Handler,), {"requests": []})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/a.txt"
        with pytest.raises(DataError, match="refused, plain http for a file without a pinned"):
            fetch(_spec(FileSpec("a.txt", (url,), UNPINNED)), tmp_path / "raw", None,
                  allow_download=True, progress=False, backoff=0.01)
        assert handler.requests == [] and not (tmp_path / "raw" / "a.txt").exists()
        fetch(_spec(FileSpec("a.txt", (url,), SHA)), tmp_path / "raw", None,
              allow_download=True, progress=False, backoff=0.01)  # pinned: the hash decides
        assert handler.requests == ["/a.txt"]
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_declared_sources_never_bring_unverified_data_over_http():
    """Every URL is https, or everything it brings is pinned by its own SHA-256."""
    for spec in DATASETS.values():
        for f in spec.files:
            for url in f.urls:
                assert url.startswith("https://") or f.sha256, (spec.name, url)
            if f.archive is not None:
                for url in f.archive.urls:
                    assert url.startswith("https://") or f.archive.sha256 or f.sha256, \
                        (spec.name, f.name, url)
    for f in DATASETS["rcv1"].files:
        assert all(u.startswith("https://") for u in f.urls), f.urls


def test_rcv1_outputs_say_the_token_files_are_unverified(tmp_path):
    for name in TOKEN_FILES:
        with gzip.open(tmp_path / name, "wt") as fh:
            fh.write(".I 1\n.W\nsome tok\n\n.I 2\n.W\nother tok\n" if "train" in name else
                     f".I {9 + len(name)}\n.W\nx\n")
    with gzip.open(tmp_path / "rcv1-v2.topics.qrels.gz", "wt") as fh:
        fh.write("E11 1 1\nM14 2 1\n")
    (tmp_path / STATE_FILE).write_text(json.dumps(
        {"files": {TOKEN_FILES[0]: {"sha256": "ab" * 32}}}))
    docs = parse_rcv1(tmp_path, {"test_parts": (0, 1, 2, 3)})
    assert docs.info["unverified_files"] == {TOKEN_FILES[0]: "ab" * 32,
                                             **{n: "not recorded" for n in TOKEN_FILES[1:]}}


@pytest.mark.skipif(not MIRROR.is_dir(), reason="real datasets not found")
def test_prepare_with_a_flipped_byte_in_the_mirror(tmp_path, capsys, monkeypatch):
    (tmp_path / "m" / "spambase").mkdir(parents=True)
    for name in ("spambase.data", "spambase.names"):
        shutil.copy(MIRROR / "spambase" / name, tmp_path / "m" / "spambase" / name)
    data = tmp_path / "m" / "spambase" / "spambase.data"
    blob = bytearray(data.read_bytes())
    blob[1000] ^= 0x01
    data.write_bytes(bytes(blob))
    monkeypatch.chdir(tmp_path)
    code = main(["--log", "l.log", "prepare", "--dataset", "spambase", "--mirror", "m",
                 "--raw", "raw/{dataset}", "--out", "out"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err
    assert "m/spambase/spambase.data: SHA-256 mismatch" in err
    assert not (tmp_path / "out").exists() and not (tmp_path / "raw/spambase/spambase.data").exists()
