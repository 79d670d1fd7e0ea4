"""A stage's code as one small file: ``{path: md5 of its code}`` of the modules it computes with.

DVC records a stage's dependencies one lock entry per file, so a stage that computes with 16
modules records 16, and 1,138 stages recorded 18,224 (1.7 MB of dvc.lock, re-read and rewritten by
every DVC command). In dvc.yaml each stage with code therefore depends on ONE file,
``data/code/<stage>.json`` (``<stage>`` the name dvc.yaml gives it, before any ``@item``),
written by a stage ``code_<stage>`` that depends on the files themselves: an edit to a module
reruns that small stage (milliseconds) and, when its digest changes (whenever a byte of a listed
code changed, or the list changed), every stage that reads it. Snakemake's rules keep the files
as inputs: they are the same list (``termweight.pipeline.codedeps``).

A module's hash is of its code (``code_md5``): its bytes less comments, docstrings and blank
lines, so that correcting a docstring or a comment reruns the digests and nothing else. No step's
output reads a docstring (they feed ``--help`` and ``list``; tests/test_codedigest.py holds the
places that read ``__doc__`` to that list).
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import tokenize
from collections.abc import Iterable, Mapping
from pathlib import Path

#: where the digests live (committed to git: DVC ``cache: false`` outputs)
DIRECTORY = "data/code"
#: the digest stage of stage ``s`` is ``STAGE_PREFIX + s``
STAGE_PREFIX = "code_"


def digest_path(stage: str) -> str:
    """The digest file of a stage of dvc.yaml (its name before ``@``)."""
    return f"{DIRECTORY}/{stage.split('@', 1)[0]}.json"


def render(md5s: Mapping[str, str]) -> bytes:
    """The digest's bytes: ``{path: md5}`` sorted by path, one entry per line (JSON)."""
    return (json.dumps(dict(sorted(md5s.items())), indent=0) + "\n").encode()


def _docstrings(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                yield first


def code_text(source: bytes) -> bytes:
    """A module's code: ``source`` less its comments and docstrings, lines right-stripped and
    blank lines dropped (positions from ``ast`` and ``tokenize``, the same in every Python)."""
    text = source.decode("utf-8")
    lines = io.StringIO(text).readlines()  # split at "\n" only, as ast and tokenize count
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def at(ln, col):  # 1-based line, character column -> offset in text
        return starts[ln - 1] + col

    def chars(ln, byte_col):  # ast's columns are UTF-8 byte offsets
        return len(lines[ln - 1].encode()[:byte_col].decode())

    spans = [(at(d.lineno, chars(d.lineno, d.col_offset)),
              at(d.end_lineno, chars(d.end_lineno, d.end_col_offset)))
             for d in _docstrings(ast.parse(text))]
    spans += [(at(*tok.start), at(*tok.end))
              for tok in tokenize.generate_tokens(io.StringIO(text).readline)
              if tok.type == tokenize.COMMENT]
    pieces, pos = [], 0
    for a, b in sorted(spans):
        pieces.append(text[pos:max(a, pos)])
        pos = max(pos, b)
    pieces.append(text[pos:])
    kept = (line.rstrip() for line in "".join(pieces).split("\n"))
    return "\n".join(k for k in kept if k).encode() + b"\n"


def code_md5(source: bytes) -> str:
    """MD5 of ``code_text(source)``, prefixed so that it never equals a file's own MD5."""
    return hashlib.md5(b"code\0" + code_text(source)).hexdigest()


def file_md5s(paths: Iterable[str], root: Path = Path(".")) -> dict[str, str]:
    """``{path: code_md5 of the file}``, paths relative to ``root``."""
    return {p: code_md5((Path(root) / p).read_bytes()) for p in paths}


def cmd_code_digest(args) -> None:
    """Write ``{path: md5 of its code}`` of the source files a stage computes with (``--out``),
    the one code dependency that stage has in dvc.yaml (termweight.pipeline.codedigest)."""
    from termweight import io

    io.write_text(args.out, render(file_md5s(args.files)).decode())


def check_dvc_stage(environ=None) -> None:
    """Under DVC (``DVC_ROOT``, ``DVC_STAGE``), refuse (one line, exit 2) to run a stage whose
    code digest is not what its files hash to now.

    DVC records a stage against the digest file as it finds it. ``dvc repro --single-item`` or
    ``--downstream`` can run a stage without its ``code_<stage>`` after a code edit; the stage
    would then be recorded against its old code. Checking costs hashing its 10-25 files.
    """
    import os
    import sys

    environ = os.environ if environ is None else environ
    root, stage = environ.get("DVC_ROOT"), environ.get("DVC_STAGE", "")
    if not root or not stage or stage.startswith(STAGE_PREFIX):
        return
    path = Path(root) / digest_path(stage)
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        return  # no digest: DVC itself refuses a missing dependency
    except ValueError:
        recorded = None
    try:
        now = file_md5s(recorded, root) if isinstance(recorded, dict) else None
    except (OSError, SyntaxError, ValueError):
        now = None  # a listed file gone or not Python: the digest is not this code's
    if now is None:
        print(f"termweight: error: {path.relative_to(root)} is not a digest of this checkout's "
              f"code: run `dvc repro {STAGE_PREFIX}{stage.split('@', 1)[0]}`", file=sys.stderr)
        raise SystemExit(2)
    if now != recorded:
        changed = sorted(p for p in recorded if now[p] != recorded[p])
        print(f"termweight: error: {path.relative_to(root)} is out of date ({changed[0]} "
              f"changed{' and more' if len(changed) > 1 else ''}): run `dvc repro "
              f"{STAGE_PREFIX}{stage.split('@', 1)[0]}` first, or reproduce without "
              "--single-item / --downstream", file=sys.stderr)
        raise SystemExit(2)
