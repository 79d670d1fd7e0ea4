"""The reproduced papers: each declares itself once, and is discovered as the datasets are.

A paper is a package (or a module) of ``termweight.experiments`` that calls ``declare`` (in its
``paper.py``, apart from the code that computes, or in its ``__init__.py``) with a
``Paper``: its name (its ``snakemake`` target, its ``params.yaml`` section, the stem of its
``reports/metrics/<name>.json``), its title, where it stands in the report, the README's rows, and
how its headline numbers are read. Everything that lists the papers (the report's sections and
summary table, the README's results, ``reports/headlines.json``, ``list experiments``, the PDF's
generated files) reads ``papers``, except the places that name papers' ``params.yaml``
sections: the pipeline's declarations (dvc.yaml and workflow/rules/<paper>.smk: a paper's stages),
Forman's and Mukras's split protocols (``termweight.runner.config``), the datasets the benchmark
shares with Forman and Kim (``termweight.experiments.benchmark``) and the ``run`` command's help
(``termweight.steps.workflow``). A paper PACKAGE can also hold, beside its ``__init__.py``:

- ``section.tex``: its section of the PDF (else ``reports/sections/<name>.tex``);
- ``published.json``: the numbers it prints (else
  ``src/termweight/experiments/published/<name>.json``).

So a new paper is its package, its ``params.yaml`` section and that section's schema entry.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass
class Headline:
    paper: str
    key: str            # id in the metrics JSON's optional "headline" mapping
    label: str          # LaTeX
    source: str         # where the paper prints it
    published: float | str | None
    digits: int = 3


@dataclass(frozen=True)
class Paper:
    """One reproduced paper (see the module's docstring)."""

    name: str
    title: str  # LaTeX, as in the summary table
    description: str  # one line for `list experiments`
    order: int  # its place in the report and the README (ascending)
    readme_rows: tuple[str, ...] = ()  # keys of its headlines shown in the README
    #: published JSON -> its headline numbers (None: the JSON's "headline" mapping)
    headlines: Callable[[dict], list[Headline]] | None = None
    #: (headline, our metrics JSON) -> our value, where the generic lookup finds none
    reproduced: Callable[[Headline, dict], object] | None = None
    #: how its claims' verdicts are decided, once for the paper (plain text): the report prints
    #: it under the paper's claims table, its docs page under the Markdown one
    claim_rules: str = ""
    module: str = ""  # set by ``declare``

    @property
    def home(self) -> Path | None:
        """The paper's package directory (None for a one-module paper)."""
        # the package under termweight.experiments: ``...experiments.kim.paper`` -> kim
        path = HERE / self.module.split(".")[2] if self.module.count(".") >= 2 else HERE / "-"
        return path if (path / "__init__.py").exists() else None

    def file(self, name: str) -> Path | None:
        """A file of the paper's package (``section.tex``, ``published.json``), if it has it."""
        home = self.home
        return home / name if home is not None and (home / name).exists() else None

    def published_path(self, published_dir: Path) -> Path:
        return self.file("published.json") or Path(published_dir) / f"{self.name}.json"

    def section_path(self, reports: Path) -> Path:
        return self.file("section.tex") or Path(reports) / "sections" / f"{self.name}.tex"


_PAPERS: dict[str, Paper] = {}


def declare(paper: Paper) -> Paper:
    """Declare a paper (called by its module when imported)."""
    import sys

    module = sys._getframe(1).f_globals.get("__name__", "")
    known = _PAPERS.get(paper.name)
    if known is not None and known.module != module:
        raise ValueError(f"paper {paper.name!r} declared twice ({known.module}, {module})")
    paper = Paper(**{**paper.__dict__, "module": module})
    _PAPERS[paper.name] = paper
    return paper


_SEEN: set[str] = set()  # the modules ``papers`` looked at already


def papers() -> dict[str, Paper]:
    """Every paper, in report order: imports each package's ``paper.py`` and each other module of
    ``termweight.experiments`` whose source names ``declare`` (the word; the rest, the benchmark's
    and the report's modules, are left unimported: they declare nothing and import pandas and
    SciPy)."""
    from termweight import experiments

    for info in sorted(pkgutil.iter_modules(experiments.__path__), key=lambda i: i.name):
        name = f"{experiments.__name__}.{info.name}"
        if name in _SEEN:
            continue
        _SEEN.add(name)
        where = Path(info.module_finder.path) / info.name
        if info.ispkg and (where / "paper.py").exists():
            importlib.import_module(f"{name}.paper")  # the package's declaration
            continue
        source = where / "__init__.py" if info.ispkg else where.with_suffix(".py")
        if re.search(r"\bdeclare\b", source.read_text(encoding="utf-8")):
            importlib.import_module(name)
    return dict(sorted(_PAPERS.items(), key=lambda kv: (kv[1].order, kv[0])))


def tex_escape(text) -> str:
    from termweight.latex import latex_escape

    return latex_escape(text)


def get(obj, *path):
    """``obj[path[0]][path[1]]...``, None where a key is missing."""
    for p in path:
        if not isinstance(obj, dict) or p not in obj:
            return None
        obj = obj[p]
    return obj
