"""Checks that every learner runs at the end of ``fit``, so that no fit fails silently.

A fit that ends at a *trivial* model -- all weights zero (``w = 0``), or the same prediction for
every training row although the training labels hold more than one class -- warns with
[`TrivialModelWarning`][termweight.learners.TrivialModelWarning]; a solver that stops before its
convergence criterion warns with scikit-learn's ``ConvergenceWarning``. The checks are
vectorised and cost one prediction of the training rows.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp

__all__ = ["TrivialModelWarning", "trivial_reason", "verbose_every", "warn_if_trivial"]


class TrivialModelWarning(UserWarning):
    """A fitted model is trivial: all weights zero, or one prediction for every training row
    although the training labels hold more than one class (a ``UserWarning``, not a
    ``ConvergenceWarning``: the solver may have converged to it)."""


def _rows(a) -> np.ndarray:
    a = a.toarray() if sp.issparse(a) else np.asarray(a)
    return a.reshape(a.shape[0], -1)


def trivial_reason(y, pred, coef=None) -> str | None:
    """Why the fit is trivial, or None.

    ``coef``: the model's weights (None: not a linear model); ``y``, ``pred``: training labels
    and the model's predictions of the training rows, 1-d or (n, k) indicator arrays.
    """
    if coef is not None and not np.any(coef):
        return "all weights are zero (w = 0)"
    Y, P = _rows(y), _rows(pred)
    if Y.shape[0] > 1 and np.any(Y != Y[:1]) and np.all(P == P[:1]):
        shown = P[0, 0].tolist() if P.shape[1] == 1 else P[0].tolist()
        return (f"it predicts {shown!r} for every training row although the training labels "
                "hold more than one class")
    return None


def warn_if_trivial(name: str, y, pred, coef=None, hint: str = "", stacklevel: int = 3) -> bool:
    """Warn [`TrivialModelWarning`][termweight.learners.TrivialModelWarning] when
    ``trivial_reason`` finds a reason; returns whether it warned."""
    reason = trivial_reason(y, pred, coef)
    if reason is None:
        return False
    warnings.warn(f"{name} fitted a trivial model: {reason}" + (f"; {hint}" if hint else ""),
                  TrivialModelWarning, stacklevel=stacklevel)
    return True


def verbose_every(verbose: int, n: int) -> int:
    """Print a progress line every this many iterations: every one for ``verbose >= 2``, about
    ten lines in all for ``verbose == 1`` (0: never)."""
    if not verbose:
        return 0
    return 1 if verbose >= 2 else max(1, n // 10)
