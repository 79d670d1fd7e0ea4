"""fetch(): mirror copy, idempotency, checksum errors, downloads from a local HTTP server, safe
extraction (escaping members, links, devices refused)."""

from __future__ import annotations

import hashlib
import http.server
import io
import json
import tarfile
import threading
import zipfile
from pathlib import Path

import pytest

from termweight.datasets.download import STATE_FILE, fetch, safe_extract
from termweight.datasets.registry import UNPINNED, ArchiveSource, DatasetSpec, FileSpec
from termweight.runner.errors import ChecksumError, DataError

PAYLOAD = b"hello termweight\n" * 100
SHA = hashlib.sha256(PAYLOAD).hexdigest()
WRONG = "0" * 64


def _spec(*files, name="toy"):
    return DatasetSpec(name=name, kind="text", parser=lambda raw, opts: None, files=files,
                       mirror_subdir=name)


def _no_leftovers(dest: Path, allowed=(STATE_FILE,)):
    return sorted(p.name for p in dest.iterdir() if p.name not in allowed)


# ----------------------------------------------------------------------------- mirror

def test_mirror_copy_verifies_and_is_idempotent(tmp_path):
    (tmp_path / "mirror" / "toy").mkdir(parents=True)
    (tmp_path / "mirror" / "toy" / "a.txt").write_bytes(PAYLOAD)
    spec = _spec(FileSpec("a.txt", (), SHA))
    dest = fetch(spec, tmp_path / "raw", tmp_path / "mirror", allow_download=False)
    assert (dest / "a.txt").read_bytes() == PAYLOAD
    state = json.loads((dest / STATE_FILE).read_text())
    assert state["files"]["a.txt"]["sha256"] == SHA
    mtime = (dest / "a.txt").stat().st_mtime_ns
    # second call: the mirror may even be gone, nothing is copied again
    (tmp_path / "mirror" / "toy" / "a.txt").unlink()
    fetch(spec, tmp_path / "raw", tmp_path / "mirror", allow_download=False)
    assert (dest / "a.txt").stat().st_mtime_ns == mtime


def test_mirror_checksum_mismatch_leaves_nothing(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    (tmp_path / "m" / "toy" / "a.txt").write_bytes(PAYLOAD)
    with pytest.raises(ChecksumError) as err:
        fetch(_spec(FileSpec("a.txt", (), WRONG)), tmp_path / "raw", tmp_path / "m",
              allow_download=False)
    msg = str(err.value)
    assert "a.txt" in msg and WRONG in msg and SHA in msg
    assert err.value.expected == WRONG and err.value.actual == SHA
    assert _no_leftovers(tmp_path / "raw") == []


def test_mirror_repack_hash_accepted(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    (tmp_path / "m" / "toy" / "a.txt").write_bytes(PAYLOAD)
    fetch(_spec(FileSpec("a.txt", (), WRONG, mirror_sha256=SHA)), tmp_path / "raw",
          tmp_path / "m", allow_download=False)
    assert (tmp_path / "raw" / "a.txt").is_file()


def test_missing_from_mirror_without_network_is_clear(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    arch = ArchiveSource("big.zip", ("https://example.invalid/big.zip",))
    spec = _spec(FileSpec("x.arff", (), UNPINNED, archive=arch))
    with pytest.raises(DataError, match=r"x\.arff.*not in mirror.*no network"):
        fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)


def test_member_taken_from_archive_in_mirror(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    with zipfile.ZipFile(tmp_path / "m" / "toy" / "bundle.zip", "w") as zf:
        zf.writestr("bundle/inner/a.txt", PAYLOAD)
    arch = ArchiveSource("bundle.zip", ())
    fetch(_spec(FileSpec("a.txt", (), SHA, archive=arch)), tmp_path / "raw", tmp_path / "m",
          allow_download=False)
    assert (tmp_path / "raw" / "a.txt").read_bytes() == PAYLOAD
    with pytest.raises(ChecksumError):
        fetch(_spec(FileSpec("a.txt", (), WRONG, archive=arch)), tmp_path / "raw2",
              tmp_path / "m", allow_download=False)
    assert not (tmp_path / "raw2" / "a.txt").exists()


# ----------------------------------------------------------------------------- HTTP

class _Handler(http.server.BaseHTTPRequestHandler):
    files: dict[str, bytes] = {}
    requests: list[str] = []

    def do_GET(self):  # noqa: N802
        type(self).requests.append(self.path)
        body = self.files.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    handler = type("H", (_Handler,), {"files": {"/a.txt": PAYLOAD}, "requests": []})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_download_from_local_server(server, tmp_path, capsys):
    base, handler = server
    spec = _spec(FileSpec("a.txt", (f"{base}/a.txt",), SHA))
    fetch(spec, tmp_path / "raw", None, allow_download=True, backoff=0.01, timeout=5)
    assert (tmp_path / "raw" / "a.txt").read_bytes() == PAYLOAD
    assert handler.requests == ["/a.txt"]
    assert "a.txt" in capsys.readouterr().err  # progress line
    fetch(spec, tmp_path / "raw", None, allow_download=True, backoff=0.01, timeout=5)
    assert handler.requests == ["/a.txt"]  # idempotent: no second request


def test_download_checksum_mismatch(server, tmp_path):
    base, handler = server
    spec = _spec(FileSpec("a.txt", (f"{base}/a.txt",), WRONG))
    with pytest.raises(ChecksumError) as err:
        fetch(spec, tmp_path / "raw", None, allow_download=True, retries=3, backoff=0.01,
              timeout=5)
    assert "a.txt" in str(err.value) and err.value.actual == SHA
    assert handler.requests == ["/a.txt"]  # a complete wrong file is not retried
    assert _no_leftovers(tmp_path / "raw") == []


def test_download_404_then_next_url(server, tmp_path):
    base, handler = server
    spec = _spec(FileSpec("a.txt", (f"{base}/missing", f"{base}/a.txt"), SHA))
    fetch(spec, tmp_path / "raw", None, allow_download=True, retries=3, backoff=0.01, timeout=5)
    assert handler.requests == ["/missing", "/a.txt"]  # 404 is not retried


def test_download_failure_is_bounded(server, tmp_path):
    base, handler = server
    spec = _spec(FileSpec("a.txt", (f"{base}/missing",), SHA))
    with pytest.raises(DataError, match="download failed"):
        fetch(spec, tmp_path / "raw", None, allow_download=True, retries=3, backoff=0.01,
              timeout=5)
    assert len(handler.requests) == 1


# ----------------------------------------------------------------------------- extraction

def _tar(path: Path, members):
    with tarfile.open(path, "w:gz") as tf:
        for info, data in members:
            tf.addfile(info, io.BytesIO(data) if data is not None else None)


def _file(name, data=b"x"):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def _special(name, kind, target=""):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, None


def test_extract_archive_via_fetch(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    arc = tmp_path / "m" / "toy" / "data.tar.gz"
    _tar(arc, [_file("top/a.txt", b"A"), _file("top/sub/b.txt", b"B")])
    sha = hashlib.sha256(arc.read_bytes()).hexdigest()
    spec = _spec(FileSpec("data.tar.gz", (), sha, extract=True))
    dest = fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert (dest / "data" / "top" / "sub" / "b.txt").read_bytes() == b"B"
    mtime = (dest / "data").stat().st_mtime_ns
    fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    assert (dest / "data").stat().st_mtime_ns == mtime


@pytest.mark.parametrize("member", [
    _file("../evil.txt"),
    _file("/abs/evil.txt"),
    _file("ok/../../evil.txt"),
    _special("link", tarfile.SYMTYPE, "/etc/passwd"),
    _special("hard", tarfile.LNKTYPE, "ok/a.txt"),
    _special("dev", tarfile.CHRTYPE),
    _special("fifo", tarfile.FIFOTYPE),
], ids=["dotdot", "absolute", "nested-dotdot", "symlink", "hardlink", "device", "fifo"])
def test_extract_refuses_unsafe_tar_members(tmp_path, member):
    arc = tmp_path / "bad.tar.gz"
    _tar(arc, [_file("ok/a.txt"), member])
    with pytest.raises(DataError, match="refused"):
        safe_extract(arc, tmp_path / "out" / "bad")
    assert not (tmp_path / "out" / "bad").exists()
    assert list((tmp_path / "out").iterdir()) == []  # temp dir removed
    assert not (tmp_path / "evil.txt").exists()


def test_extract_refuses_unsafe_zip_members(tmp_path):
    arc = tmp_path / "bad.zip"
    with zipfile.ZipFile(arc, "w") as zf:
        zf.writestr("ok.txt", b"x")
        zf.writestr("../evil.txt", b"x")
    with pytest.raises(DataError, match="escapes"):
        safe_extract(arc, tmp_path / "out")
    arc2 = tmp_path / "link.zip"
    with zipfile.ZipFile(arc2, "w") as zf:
        info = zipfile.ZipInfo("link")
        info.external_attr = (0o120777 << 16)
        zf.writestr(info, "/etc/passwd")
    with pytest.raises(DataError, match="link"):
        safe_extract(arc2, tmp_path / "out2")
    assert not (tmp_path / "out").exists() and not (tmp_path / "out2").exists()
    assert not (tmp_path.parent / "evil.txt").exists()


def test_unsafe_declared_name_refused(tmp_path):
    with pytest.raises(DataError, match="unsafe"):
        fetch(_spec(FileSpec("../x", (), SHA)), tmp_path / "raw", None, allow_download=False)


def test_unpinned_file_accepted_on_first_use_with_warning(tmp_path):
    (tmp_path / "m" / "toy").mkdir(parents=True)
    (tmp_path / "m" / "toy" / "a.txt").write_bytes(PAYLOAD)
    spec = _spec(FileSpec("a.txt", (), UNPINNED))
    with pytest.warns(UserWarning, match="no confirmed SHA-256"):
        fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)
    state = json.loads((tmp_path / "raw" / STATE_FILE).read_text())
    assert state["files"]["a.txt"]["sha256"] == SHA
    fetch(spec, tmp_path / "raw", tmp_path / "m", allow_download=False)  # no second warning
