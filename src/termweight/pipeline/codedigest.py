"""A stage's code as one small file: the md5 of the code it computes with, per module.

DVC records a stage's dependencies one lock entry per file, so a stage that computes with 16
modules records 16, and 1,138 stages recorded 18,224 (1.7 MB of dvc.lock, re-read and rewritten by
every DVC command). In dvc.yaml each stage with code therefore depends on ONE file,
``data/code/<stage>.json`` (``<stage>`` the name dvc.yaml gives it, before any ``@item``),
written by a stage ``code_<stage>`` that depends on the files themselves: an edit to a module
reruns that small stage (milliseconds) and, when its digest changes, every stage that reads it.
Snakemake's rules keep the files as inputs: they are the same list
(``termweight.pipeline.codedeps``).

The digest is per definition, not per file. ``code_<stage>`` is given what the stage's walk
starts from (``--entry``, ``termweight.pipeline.codedeps.entry_specs``) and hashes, of each
module the walk reaches, its import-time code (imports, calls, constants computed by a call)
and the functions, classes and constants the walk reached, each less comments, docstrings and
blank lines (``defs_md5``). So adding a function to a module, or editing one that this stage
never calls, or correcting a docstring or a comment, reruns the digests and nothing else. No
step's output reads a docstring (they feed ``--help`` and ``list``; tests/test_codedigest.py
holds the places that read ``__doc__`` to that list).
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


def render(md5s: Mapping[str, str], entries: Iterable[str] = ()) -> bytes:
    """The digest's bytes, JSON one entry per line: ``{"code": {path: md5} sorted by path,
    "entries": what the walk starts from}``."""
    return (json.dumps({"code": dict(sorted(md5s.items())), "entries": list(entries)},
                       indent=0) + "\n").encode()


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


def _computed_at_import(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


def _kept_source(source: bytes, names: frozenset[str] | None) -> str:
    """The source of what ``defs_text`` keeps, comments and docstrings still in (valid Python)."""
    text = source.decode("utf-8")
    if names is None:
        return text
    lines = io.StringIO(text).readlines()
    kept = []
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            keep = node.name in names
        elif isinstance(node, ast.Assign | ast.AnnAssign) and not _computed_at_import(node):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            keep = not all(isinstance(t, ast.Name) for t in targets) or any(
                t.id in names for t in targets)
            if not keep and isinstance(node.value, ast.Dict):  # rows of a table: ``T/key``
                kept += [f"{t.id}[{k.value!r}] = {ast.get_source_segment(text, v)}\n"
                         for t in targets for k, v in zip(node.value.keys, node.value.values,
                                                          strict=True)
                         if isinstance(k, ast.Constant) and f"{t.id}/{k.value}" in names]
        else:
            keep = True
        if keep:
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            kept.append("".join(lines[first - 1:node.end_lineno]))
    return "".join(k if k.endswith("\n") else k + "\n" for k in kept)


def defs_text(source: bytes, names: frozenset[str] | None) -> bytes:
    """The code of a module that a stage reaching ``names`` runs (None: all of it): its
    import-time statements, and the top-level functions, classes and constants in ``names``;
    a constant whose value calls something is import-time code; ``TABLE/key``: one row of a
    dict literal, as ``TABLE['key'] = <value>``. ``code_text`` of those."""
    return code_text(_kept_source(source, names).encode())


def _imports_canonical(kept: str, module_tree: ast.Module) -> bytes:
    """``code_text`` of ``kept`` (``_kept_source``) less its import statements, then one line
    per name it uses that an import anywhere in the module binds (``import <name> = <target>``,
    sorted): where an import is written (at the top, or in the function that uses it, so that a
    step does not pay for what it does not run) does not change the digest; what a name is bound
    to does. An ``if TYPE_CHECKING:`` block (imports for annotations, never run) counts as its
    imports. (An import becomes ``pass`` and every ``pass`` line is dropped: a no-op either way.)"""
    tree = ast.parse(kept)
    lines = kept.split("\n")
    dropped: set[int] = set()
    for node in ast.walk(tree):
        type_checking = isinstance(node, ast.If) and not node.orelse and (
            getattr(node.test, "id", None) == "TYPE_CHECKING"
            or getattr(node.test, "attr", None) == "TYPE_CHECKING")
        if isinstance(node, ast.Import | ast.ImportFrom) or type_checking:
            dropped.update(id(n) for n in ast.walk(node))
            indent = lines[node.lineno - 1][:node.col_offset]
            for i in range(node.lineno - 1, node.end_lineno):
                lines[i] = ""
            lines[node.lineno - 1] = indent + "pass"
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in dropped}
    bound: dict[str, set[str]] = {}
    for node in ast.walk(module_tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                bound.setdefault(a.asname or a.name.split(".")[0],
                                 set()).add(a.name if a.asname else a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            for a in node.names:
                bound.setdefault(a.asname or a.name, set()).add(f"{base}:{a.name}")
    code = code_text("\n".join(lines).encode()).decode("utf-8")
    out = [ln for ln in code.split("\n") if ln and ln.strip() != "pass"]
    out += [f"import {n} = {t}" for n in sorted(used & set(bound)) for t in sorted(bound[n])]
    return "\n".join(out).encode() + b"\n"


def defs_md5(source: bytes, names: frozenset[str] | None) -> str:
    """MD5 of ``defs_text`` with its imports canonical (``_imports_canonical``), prefixed so
    that it never equals ``code_md5`` or a file's MD5."""
    text = _imports_canonical(_kept_source(source, names), ast.parse(source.decode("utf-8")))
    return hashlib.md5(b"defs\1" + text).hexdigest()


def stage_md5s(entries: Iterable[str]) -> dict[str, str]:
    """``{path: defs_md5}`` of every module the walk from ``entries`` (``entry_specs`` words)
    reaches, in the imported package's own source (the checkout's: ``termweight.checkout``)."""
    from termweight.pipeline.codedeps import SOURCE, SOURCE_PREFIX, parse_specs, reached

    walk, per_item = parse_specs(list(entries))
    out = {}
    for path, names in reached(walk, per_item).items():
        source = (SOURCE / path.removeprefix(SOURCE_PREFIX + "/")).read_bytes()
        out[path] = defs_md5(source, names)
    return out


def listed_code(out: str, dvc_yaml: Path = Path("dvc.yaml")) -> list[str] | None:
    """The source files dvc.yaml lists as dependencies of the digest stage writing ``out``
    (``data/code/<stage>.json``); None when dvc.yaml has no such stage (written outside DVC)."""
    import yaml

    if not dvc_yaml.is_file():
        return None
    stage = (yaml.load(dvc_yaml.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
             .get("stages", {}).get(STAGE_PREFIX + Path(out).stem))
    if stage is None:
        return None
    return [d for d in stage.get("deps", []) if isinstance(d, str) and d.endswith(".py")]


def cmd_code_digest(args) -> None:
    """Write the md5 of the code a stage computes with, per module (``--out``), the one code
    dependency that stage has in dvc.yaml (termweight.pipeline.codedigest): the modules the walk
    from ``--entry`` reaches, each of which dvc.yaml must list as a dependency of the digest
    stage (else dvc.yaml is out of date)."""
    from termweight import io
    from termweight.errors import TermweightError

    md5s = stage_md5s(args.entry)
    listed = listed_code(args.out)
    missing = sorted(set(md5s) - set(listed)) if listed is not None else []
    if missing:  # a file DVC would not watch (an extra one only costs a rerun; --check finds it)
        raise TermweightError(f"{args.out}: the code reached from {' '.join(args.entry)} is not "
                              f"all in the files dvc.yaml lists ({missing[0]} is not): dvc.yaml "
                              "is out of date, run `python -m termweight dvc-yaml`")
    io.write_text(args.out, render(md5s, args.entry).decode())


def check_dvc_stage(environ=None) -> None:
    """Under DVC (``DVC_ROOT``, ``DVC_STAGE``), refuse (one line, exit 2) to run a stage whose
    code digest is not what its code hashes to now.

    DVC records a stage against the digest file as it finds it. ``dvc repro --single-item`` or
    ``--downstream`` can run a stage without its ``code_<stage>`` after a code edit; the stage
    would then be recorded against its old code. Checking costs one walk and hashing its files.
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
        now = (stage_md5s(recorded["entries"]) if isinstance(recorded, dict)
               and isinstance(recorded.get("code"), dict) else None)
    except (OSError, SyntaxError, ValueError, KeyError, TypeError):
        now = None  # a module gone or not Python: the digest is not this code's
    if now is None:
        print(f"termweight: error: {path.relative_to(root)} is not a digest of this checkout's "
              f"code: run `dvc repro {STAGE_PREFIX}{stage.split('@', 1)[0]}`", file=sys.stderr)
        raise SystemExit(2)
    if now != recorded["code"]:
        changed = sorted(p for p in set(now) | set(recorded["code"])
                         if now.get(p) != recorded["code"].get(p))
        print(f"termweight: error: {path.relative_to(root)} is out of date ({changed[0]} "
              f"changed{' and more' if len(changed) > 1 else ''}): run `dvc repro "
              f"{STAGE_PREFIX}{stage.split('@', 1)[0]}` first, or reproduce without "
              "--single-item / --downstream", file=sys.stderr)
        raise SystemExit(2)
