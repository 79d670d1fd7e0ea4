"""20 Newsgroups, "bydate" version (J. Rennie): 11,314 train / 7,532 test postings, 20 groups.

Source: ``20news-bydate.tar.gz`` from http://qwone.com/~jason/20Newsgroups/ (SHA-256
``8f1b2514...95610``, the value scikit-learn pins). The mirror in ../shared/datasets holds a
documented deterministic REPACK of the same member files (different archive bytes, SHA-256
``918abdaf...98e6``), accepted through ``FileSpec.mirror_sha256``. The archive is extracted by
``termweight.datasets.download.fetch`` into
``20news-bydate/20news-bydate-{train,test}/<group>/<id>``; the parser also reads the archive
directly when it was not extracted.

Files are decoded as Latin-1 (a few postings carry 8-bit bytes; Latin-1 never fails), a leading
UTF-8 byte-order mark dropped. A group folder name (the class label) with a control character in
it is an error.

Headers, quotes and signatures (options ``headers``, ``strip_quotes``, ``strip_footer``):
the default keeps the whole body (quotes and signatures included, as posted) and drops the header
block (everything before the first blank line) EXCEPT the ``Subject:`` line, whose text (minus
``Re:`` prefixes) is prepended to the body. Why: the subject is the title of the posting and is
topical, while ``From:``/``Organization:``/``Lines:`` and friends identify posters and sites and
let a classifier recognise the group from metadata rather than content (Rennie's bydate version
already removed the ``Newsgroups:``/``Path:`` headers for the same reason). ``headers="all"``
keeps the raw posting; ``headers="none"`` drops the subject too. ``strip_quotes=True`` removes
quoted lines (starting with ``>`` or ``|``) and "... writes:" attribution lines;
``strip_footer=True`` removes everything from the last line made only of dashes (the usual
``--`` signature separator); both follow the rules of scikit-learn's ``remove=`` option.
"""

from __future__ import annotations

import re
import tarfile
import zlib
from pathlib import Path

from termweight.datasets.documents import Documents, bad_label, decode_text
from termweight.datasets.registry import DatasetSpec, FileSpec, register
from termweight.runner.errors import DataError

ARCHIVE = "20news-bydate.tar.gz"
CANONICAL_SHA256 = "8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610"
REPACK_SHA256 = "918abdaf876e73578f229b0c3af017842d1fc949f8f43689eb6d0f241c8698e6"
FILES = (FileSpec(
    ARCHIVE,
    urls=("https://ndownloader.figshare.com/files/5975967",
          "https://people.csail.mit.edu/jrennie/20Newsgroups/20news-bydate.tar.gz",
          "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz"),
    sha256=CANONICAL_SHA256, mirror_sha256=REPACK_SHA256, extract=True),)
SUBSETS = {"20news-bydate-train": "train", "20news-bydate-test": "test"}
HEADER_MODES = ("subject", "all", "none")

_QUOTE_ATTRIBUTION = re.compile(r"(writes in|writes:|wrote:|says:|said:|^In article|^Quoted from"
                                r"|^\||^>)")
_RE_PREFIX = re.compile(r"^(\s*re\s*:\s*)+", re.I)


def split_posting(text: str) -> tuple[str, str]:
    """Split a posting into (header block, body) at the first blank line."""
    head, sep, body = text.partition("\n\n")
    return (head, body) if sep else (head, "")


def strip_quotes(body: str) -> str:
    """Drop quoted lines and attribution lines ("... writes:")."""
    return "\n".join(line for line in body.split("\n")
                     if not _QUOTE_ATTRIBUTION.search(line))


def strip_footer(body: str) -> str:
    """Drop the signature: everything from the last line consisting only of dashes."""
    lines = body.strip().split("\n")
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip().strip("-") == "" and lines[i].strip():
            return "\n".join(lines[:i])
    return body


def posting_text(raw: str, headers: str = "subject", quotes: bool = False,
                 footer: bool = False) -> str:
    """Text of one posting under the chosen header / quote / footer handling."""
    if headers == "all":
        return raw
    head, body = split_posting(raw)
    if quotes:
        body = strip_quotes(body)
    if footer:
        body = strip_footer(body)
    if headers == "subject":
        subject = next((ln[len("subject:"):].strip() for ln in head.split("\n")
                        if ln.lower().startswith("subject:")), "")
        subject = _RE_PREFIX.sub("", subject)
        if subject:
            return f"{subject}\n{body}"
    return body


def _iter_postings(raw_dir: Path):
    """Yield (subset, group, file id, raw bytes) from the extracted tree or the archive."""
    tree = raw_dir / "20news-bydate"
    if tree.is_dir():
        for top, subset in SUBSETS.items():
            base = tree / top
            if not base.is_dir():
                raise DataError(base, "missing folder in extracted archive")
            for group_dir in sorted(p for p in base.iterdir() if p.is_dir()):
                for path in sorted(group_dir.iterdir(), key=lambda p: p.name):
                    yield subset, group_dir.name, path.name, path.read_bytes()
        return
    archive = raw_dir / ARCHIVE
    if not archive.is_file():
        raise DataError(archive, "file missing (run the fetch step first)")
    from termweight.datasets.download import ExtractLimits
    from termweight.runner.errors import ArchiveLimitError

    limits = ExtractLimits()  # read in place: the default limits of extraction apply
    try:
        with tarfile.open(archive) as tf:
            for n, member in enumerate(tf, 1):
                if n > limits.max_members or member.size > limits.max_member_bytes:
                    raise ArchiveLimitError(archive, f"member {member.name!r}: more than "
                                            f"{limits.max_members} members or more than "
                                            f"{limits.max_member_bytes} bytes (the limits "
                                            "max_members, max_member_bytes)")
                parts = member.name.removeprefix("./").split("/")
                if member.isfile() and len(parts) == 3 and parts[0] in SUBSETS:
                    yield SUBSETS[parts[0]], parts[1], parts[2], tf.extractfile(member).read()
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        raise DataError(archive, f"corrupt archive: {exc}") from None


def parse_20news(raw_dir: Path, options: dict | None = None) -> Documents:
    """Parse 20NG bydate; options: headers (subject|all|none), strip_quotes, strip_footer."""
    options = dict(options or {})
    headers = options.get("headers", "subject")
    if headers not in HEADER_MODES:
        raise DataError("20news", f"option headers={headers!r}: use one of {HEADER_MODES}")
    quotes = bool(options.get("strip_quotes", False))
    footer = bool(options.get("strip_footer", False))
    rows = []
    for subset, group, fid, blob in _iter_postings(Path(raw_dir)):
        text = decode_text(fid, blob, "latin-1").replace("\r\n", "\n")
        rows.append(((0 if subset == "train" else 1, group, int(fid) if fid.isdigit() else fid),
                     subset, group, fid, posting_text(text, headers, quotes, footer)))
    rows.sort(key=lambda r: (r[0][0], r[0][1], str(r[0][2]).zfill(12)))
    classes = sorted({r[2] for r in rows})
    found = bad_label(classes)
    if found is not None:
        tree = Path(raw_dir) / "20news-bydate"
        raise DataError(tree if tree.is_dir() else Path(raw_dir) / ARCHIVE,
                        f"group folder: {found[1]}")
    return Documents(
        name="20news", doc_ids=[f"{r[1]}/{r[2]}/{r[3]}" for r in rows],
        texts=[r[4] for r in rows], labels=[[r[2]] for r in rows], subset=[r[1] for r in rows],
        classes=classes,
        info={"source": "20news-bydate (J. Rennie)", "headers": headers,
              "strip_quotes": quotes, "strip_footer": footer, "encoding": "latin-1",
              "published_sizes": (11314, 7532)})


register(DatasetSpec(
    name="20news", kind="text", parser=parse_20news, files=FILES, mirror_subdir="20news-bydate",
    description="20 Newsgroups bydate, 11,314 train / 7,532 test, 20 groups",
    citation="K. Lang. NewsWeeder: Learning to filter netnews. ICML 1995; J. Rennie, "
             "20 Newsgroups bydate version, http://qwone.com/~jason/20Newsgroups/",
    options={"headers": "subject", "strip_quotes": False, "strip_footer": False},
))
register(DatasetSpec(
    name="20news_stripped", kind="text", parser=parse_20news, files=FILES,
    mirror_subdir="20news-bydate",
    description="20 Newsgroups bydate without headers, quoted lines and signatures (scikit-learn's "
                "remove=): 69,010 stemmed terms, Kim (2016)'s 'about 70,000'",
    citation="K. Lang. NewsWeeder: Learning to filter netnews. ICML 1995; J. Rennie, "
             "20 Newsgroups bydate version, http://qwone.com/~jason/20Newsgroups/",
    options={"headers": "none", "strip_quotes": True, "strip_footer": True},
))
