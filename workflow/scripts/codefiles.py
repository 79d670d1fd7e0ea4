"""The code a step computes with: the files of src/termweight that a module imports, transitively.

Read from the source text (every ``import`` and ``from ... import``, also inside functions, not
under ``if TYPE_CHECKING:``), whole files, without running anything. Left out by location:
src/termweight/runner/ (command line, params checks, atomic writes, pools, errors: runner code
that decides no byte of an output) and src/termweight/__init__.py (the version and the public
names). The weighting modules of src/termweight/weightings/ are loaded by name at run time, so
they enter only where a stage names them. The papers' declarations are found at run time too
(``termweight.experiments.papers`` imports each package's ``paper.py``): a step that imports
``termweight.experiments.papers`` computes with every ``experiments/<paper>/paper.py`` and what
those import.

Both tools rerun a step by a digest of those files, one per module (:func:`digests`): the `code`
stage writes them to ``data/code.yaml`` (kept in git), which each stage of dvc.yaml reads as a
params file (``data/code.yaml: [termweight/steps/column]``), and each Snakemake rule has the same
digests as a param (``code("termweight.steps.column")`` in workflow/rules/common.smk). A comment
edit in a file a step imports reruns it in both tools; an edit anywhere else reruns nothing.
tests/test_pipeline.py checks that the committed file is this script's output and that each stage
and its rule name the same modules.

    python workflow/scripts/codefiles.py --log logs/code.log --src src --out data/code.yaml
"""

from __future__ import annotations

import argparse
import ast
import functools
import hashlib
import os
import sys
from pathlib import Path

RUNNER = "termweight.runner"


def _file(src: Path, module: str) -> Path | None:
    path = src.joinpath(*module.split("."))
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else None


def _statements(nodes):
    """Every statement in ``nodes`` and the blocks they hold (an import is a statement: the
    expressions, most of a tree, are not visited)."""
    todo = list(nodes)
    while todo:
        node = todo.pop()
        yield node
        for block in ("body", "orelse", "finalbody", "handlers", "cases"):
            sub = getattr(node, block, None)
            if isinstance(sub, list):
                todo.extend(sub)


@functools.cache
def _imports(src: Path, module: str) -> frozenset[str]:
    path = _file(src, module)
    text = path.read_text()
    tree = ast.parse(text)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    hidden = {id(n) for node in _statements(tree.body) if isinstance(node, ast.If)
              and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
              for n in _statements(node.body)} if "TYPE_CHECKING" in text else set()
    found = set()
    for node in _statements(tree.body):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names if _file(src, f"{base}.{a.name}"))
    # importing a.b.c runs a/__init__.py and a/b/__init__.py too
    return frozenset(".".join(m.split(".")[:i]) for m in found if m.startswith("termweight")
                     for i in range(1, m.count(".") + 2))


def code_files(*modules: str, src: str | Path = "src") -> list[str]:
    """Sorted paths (``src/termweight/...py``) of the files ``modules`` import, transitively."""
    src = Path(src)
    seen, todo = set(), list(modules)
    declarations = sorted(f"termweight.experiments.{p.parent.name}.paper"
                          for p in (src / "termweight" / "experiments").glob("*/paper.py"))
    while todo:
        module = todo.pop()
        if module in seen or module == RUNNER or module.startswith(RUNNER + "."):
            continue
        if _file(src, module) is None:
            continue
        seen.add(module)
        todo.extend(_imports(src, module))
        if module == "termweight.experiments.papers":  # the discovery of the declarations
            todo.extend(declarations)
    files = {str(_file(src, m)) for m in seen} - {str(src / "termweight" / "__init__.py")}
    return sorted(files)


def key(module: str) -> str:
    """A module's key in data/code.yaml: ``termweight.steps.column`` -> ``termweight/steps/column``
    (DVC reads a dotted params key as a path into the file)."""
    return module.replace(".", "/")


def digest(module: str, src: str | Path = "src") -> str:
    """MD5 over (path, content) of every file of :func:`code_files` ``(module)``."""
    h = hashlib.md5()
    for path in code_files(module, src=src):
        rel = Path(path).relative_to(src).as_posix()
        h.update(rel.encode() + b"\0" + Path(path).read_bytes() + b"\0")
    return h.hexdigest()


def modules(src: str | Path = "src") -> list[str]:
    """Every module of src/termweight but the runner's and the package's own ``__init__``."""
    src = Path(src)
    out = []
    for path in sorted((src / "termweight").rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if len(parts) > 1 and parts[1] != "runner" and "__pycache__" not in parts:
            out.append(".".join(parts))
    return sorted(set(out))


def digests(src: str | Path = "src") -> dict[str, str]:
    """The key of every module (:func:`modules`) -> its :func:`digest`."""
    return {key(m): digest(m, src) for m in modules(src)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="data/code.yaml: each module's code digest")
    parser.add_argument("--src", default="src")
    parser.add_argument("--out", required=True)
    parser.add_argument("--log", help="a line saying what was written")
    args = parser.parse_args(argv)
    text = ("# The code each step computes with, one MD5 per module over the files it imports\n"
            "# (workflow/scripts/codefiles.py, the `code` stage): stages read it as a params file.\n"
            + "".join(f"{k}: {v}\n" for k, v in digests(args.src).items()))
    out = Path(args.out)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, out)
    if args.log:
        Path(args.log).parent.mkdir(parents=True, exist_ok=True)
        Path(args.log).write_text(f"{out}: {text.count(chr(10)) - 2} module digests\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
