"""The supervised term weightings, one module each: its formula, its row of
[termweight.scoring.METRICS][] and the benchmark encodings it makes.

Every module here defines ``WEIGHTINGS``, a tuple of [`Weighting`][termweight.weightings.Weighting]
rows (usually one; ``kim`` holds Kim 2016's five bases and mix-ch, which learns from them), and
imports nothing of this package but this file: what a stage computes with a weighting is that
module, so editing it reruns exactly the columns and experiments that use it (dvc.yaml lists
``src/termweight/weightings/<module>.py``). A new weighting is a new module here
(docs/extending.md); [`register_weighting`][termweight.scoring.register_weighting] adds one at run
time in a user's own code instead.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Weighting:
    """One weighting: ``name`` and the function computing it.

    A cell metric (``learned`` false) is ``func(tp, fp, fn, tn) -> scores``, vectorised over
    (n_tasks, n_terms) arrays; ``asymmetric`` applies Forman's negative-feature swap first. A
    learned weighting is ``func(X_train, Y_train, scores, **options) -> (n_tasks, n_terms)`` column
    scales, computed in the encode step from the training rows and the scores named by ``needs``.
    ``bases``: the base encodings the benchmark scales with it (encoding ``<base>-<name>``; none:
    a metric only, as Forman's feature selection uses). ``description``: one line (formula and
    source) for ``python -m termweight list metrics``.
    """

    name: str
    func: Callable[..., np.ndarray]
    description: str
    asymmetric: bool = False
    bases: tuple[str, ...] = ()
    learned: bool = False
    needs: tuple[str, ...] = ()


def modules() -> list[str]:
    """The weighting modules of this package, sorted (``bns``, ``chi2``, ..., ``kim``, ...)."""
    return sorted(i.name for i in pkgutil.iter_modules(__path__) if not i.name.startswith("_"))


def declared_encodings() -> dict[str, tuple[str, ...]]:
    """``module -> ENCODINGS`` for the modules that name encodings of their own (``unsupervised``:
    the encodings without a weighting row)."""
    out = {}
    for module in modules():
        encodings = getattr(importlib.import_module(f"{__name__}.{module}"), "ENCODINGS", None)
        if encodings is not None:
            out[module] = tuple(encodings)
    return out


def rows() -> dict[str, tuple[str, Weighting]]:
    """``name -> (module, row)`` for every row of every module, in module order."""
    out: dict[str, tuple[str, Weighting]] = {}
    for module in modules():
        for row in importlib.import_module(f"{__name__}.{module}").WEIGHTINGS:
            if row.name in out:
                raise ValueError(f"weighting {row.name!r} is defined by both "
                                 f"{out[row.name][0]} and {module}")
            out[row.name] = (module, row)
    return out
