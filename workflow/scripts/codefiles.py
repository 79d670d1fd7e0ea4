"""The code a step computes with: the files of src/termweight that a module imports, transitively.

Read from the source text (every ``import`` and ``from ... import``, also inside functions, not
under ``if TYPE_CHECKING:``), whole files, without running anything. Left out by location:
src/termweight/runner/ (command line, params checks, atomic writes, pools, errors: runner code
that decides no byte of an output) and src/termweight/__init__.py (the version and the public
names). The weighting modules of src/termweight/weightings/ are loaded by name at run time, so
they enter only where a stage names them. The papers' declarations are found at run time too
(``termweight.experiments.papers`` imports each package's ``paper.py``): a step that imports
``termweight.experiments.papers`` computes with every ``experiments/<paper>/paper.py`` and what
those import. The Snakemake rules take their code inputs from here;
tests/test_pipeline.py checks that each stage of dvc.yaml lists exactly these files.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

RUNNER = "termweight.runner"


def _file(src: Path, module: str) -> Path | None:
    path = src.joinpath(*module.split("."))
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else None


@functools.cache
def _imports(src: Path, module: str) -> frozenset[str]:
    path = _file(src, module)
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    hidden = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
              and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
              for part in node.body for n in ast.walk(part)}
    found = set()
    for node in ast.walk(tree):
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
