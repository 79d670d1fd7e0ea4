"""Every squared-hinge LinearSVC of the library and the paper experiments uses liblinear's dual
solver, which calls no BLAS. With ``dual='auto'`` a training matrix with fewer features than rows
(after feature selection) went to the primal solver, whose results depended on the OpenBLAS kernel
of the machine (Haswell against SkylakeX: 19 of 70 cells of Ferreira's R8 table, m <= 5000, moved
by one test document; 3 of 10,944 rows of Forman's selection curves on tr11)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from termweight.experiments import ferreira, mukras
from termweight.learners import linear


def test_every_factory_pins_the_dual_solver():
    assert linear.linear_svc().dual is True
    assert linear.LEARNERS["linearsvc"](1.0, 0).dual is True
    assert ferreira.make_classifier("svm", {}).dual is True
    assert mukras.make_classifier("svm").dual is True
    assert mukras.make_classifier("fh").estimator.dual is True
    # logistic regression (the benchmark's): liblinear's primal solver is BLAS too
    assert linear.LEARNERS["logreg"](1.0, 0).dual is True
    assert linear.logistic_regression().dual is True


def test_forman_and_generic_fits_go_through_the_dual_solver(monkeypatch):
    """fit_one_vs_rest (generic steps, Esuli's SVM) and Forman's per-task fits build their SVMs
    with linear_svc, on a matrix with fewer features than rows (where 'auto' chose the primal)."""
    from termweight.experiments import forman

    made = []
    real = linear.linear_svc

    def spy(*a, **k):
        made.append(real(*a, **k))
        return made[-1]

    monkeypatch.setattr(linear, "linear_svc", spy)
    rng = np.random.default_rng(0)
    X = sp.csr_matrix(rng.random((60, 5)))
    Y = sp.csr_matrix((rng.random((60, 2)) > 0.5).astype(np.uint8))
    linear.fit_one_vs_rest(X, Y)
    forman.fit_tasks(X, rng.integers(0, 2, 60), np.ones((2, 5)), C=1.0, max_iter=1000)
    assert len(made) == 4 and all(m.dual is True for m in made)
