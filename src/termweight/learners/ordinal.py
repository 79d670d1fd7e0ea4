"""Ordinal classification by Frank & Hall (2001), and Mukras et al.'s ordinal MSE.

Frank & Hall, "A Simple Approach to Ordinal Classification" (ECML 2001), cited by Mukras et al.
section 5 as future work: for ordered classes ``v_0 < ... < v_{K-1}`` fit K-1 binary models of
``y > v_k`` (k = 0..K-2), each a clone of one base estimator, and combine::

    P(v_0)     = 1 - P(y > v_0)
    P(v_k)     = P(y > v_{k-1}) - P(y > v_k)      0 < k < K-1
    P(v_{K-1}) = P(y > v_{K-2})

``predict`` is the argmax. The class probabilities always sum to 1 (telescoping); a middle one can
be negative when the binary models are not monotone, exactly as in Frank & Hall (no correction
unless ``monotone=True``, which takes the running minimum of the cumulative ``P(y > v_k)``).
"""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
from joblib import Parallel, delayed
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.utils import get_tags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from termweight.learners._checks import warn_if_trivial

__all__ = ["FrankHallClassifier", "ordinal_mse"]

_PROBA = ("auto", "predict_proba", "sigmoid", "logistic")


class FrankHallClassifier(ClassifierMixin, BaseEstimator):
    """Frank & Hall ordinal decomposition over any binary scikit-learn classifier.

    K-1 binary models of ``y > v_k`` over the sorted training labels ``classes_``, combined by
    ``P(v_k) = P(y > v_{k-1}) - P(y > v_k)`` (Frank & Hall 2001; module docstring;
    [methods: learners][methods-learners]); ``predict`` is the argmax. ``X`` is checked for shape
    and format only (sparse input and NaN as far as the inner estimator accepts them, as
    scikit-learn's meta-estimators do).

    Parameters
    ----------
    estimator : estimator object
        The binary base classifier (cloned for each of the K-1 problems).
    proba : {"auto", "predict_proba", "sigmoid", "logistic"}, default="auto"
        How each binary model gives ``P(y > v_k)``: ``'predict_proba'``, the estimator's own;
        ``'sigmoid'``, Platt scaling, ``CalibratedClassifierCV(estimator, method='sigmoid',
        cv=calibration_cv, ensemble=False)`` (one model on all rows, the sigmoid fitted on
        cross-validated decision values; the choice for LinearSVC); ``'logistic'``,
        ``expit(decision_function)``, uncalibrated; ``'auto'``: 'predict_proba' if the estimator
        has it, else 'sigmoid'.
    calibration_cv : int, default=3
        Folds of the sigmoid calibration.
    monotone : bool, default=False
        Take the running minimum of the cumulative ``P(y > v_k)`` (no negative class
        probabilities).
    n_jobs : int or None, default=None
        Fit the K-1 binary models in this many joblib workers (None: 1; -1: every core), as
        scikit-learn's ``OneVsRestClassifier``; the models are the same for every value.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The ordered classes.
    estimators_ : list of estimators
        The K-1 fitted binary models.
    proba_mode_ : str
        The resolved ``proba``.

    Warns
    -----
    TrivialModelWarning
        When the fitted model predicts one class for every training row (e.g. a base learner
        regularised to a constant); the base learners' own warnings (e.g. ConvergenceWarning)
        pass through.

    References
    ----------
    Frank & Hall (2001), "A Simple Approach to Ordinal Classification", ECML 2001.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from termweight.learners import FrankHallClassifier
    >>> X = np.array([[0.], [1.], [2.], [3.], [4.], [5.]])
    >>> y = np.array([1, 1, 2, 2, 3, 3])
    >>> fh = FrankHallClassifier(LogisticRegression(C=100.0)).fit(X, y)
    >>> fh.predict(X)
    array([1, 1, 2, 2, 3, 3])
    """

    def __init__(self, estimator, proba="auto", calibration_cv=3, monotone=False, n_jobs=None):
        self.estimator = estimator
        self.proba = proba
        self.calibration_cv = calibration_cv
        self.monotone = monotone
        self.n_jobs = n_jobs

    def _mode(self) -> str:
        if self.proba not in _PROBA:
            raise ValueError(f"proba must be one of {_PROBA}")
        if self.proba != "auto":
            return self.proba
        return "predict_proba" if hasattr(self.estimator, "predict_proba") else "sigmoid"

    def _validate_X(self, X, y=None, reset=False):
        kw = dict(accept_sparse=True, dtype=None, ensure_all_finite=False)
        if reset:
            return validate_data(self, X, y, **kw)
        return validate_data(self, X, reset=False, **kw)

    def fit(self, X, y, **fit_params):
        """Fit the K-1 binary models of ``y > v_k``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training samples (as the base estimator accepts them).
        y : array-like of shape (n_samples,)
            Ordinal labels; their sorted order is the class order.
        **fit_params : dict
            Passed to every base estimator's ``fit``.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, y = self._validate_X(X, y, reset=True)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"Frank & Hall needs at least 2 ordinal classes; got 1 class: "
                             f"{self.classes_[0]!r}")
        self.proba_mode_ = self._mode()
        if self.n_jobs is not None and (not isinstance(self.n_jobs, Integral) or self.n_jobs == 0):
            raise ValueError(f"n_jobs must be None or a non-zero integer, got {self.n_jobs!r}")
        rank = np.searchsorted(self.classes_, y)
        base = self.estimator
        if self.proba_mode_ == "sigmoid":
            base = CalibratedClassifierCV(base, method="sigmoid", cv=self.calibration_cv,
                                          ensemble=False)
        # K-1 binary problems (not a loop over terms), each a clone fitted in a joblib worker
        fitted = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_binary)(clone(base), X, (rank > k).astype(np.int64), fit_params)
            for k in range(self.classes_.size - 1))
        self.estimators_ = [est for est, _ in fitted]
        for _, caught in fitted:  # the workers' warnings, raised here in the order of k
            for w in caught:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        warn_if_trivial("FrankHallClassifier", y, self.predict(X),
                        hint="check its base estimator (regularisation, convergence)")
        return self

    def cumulative_proba(self, X) -> np.ndarray:
        """``P(y > v_k)`` for k = 0..K-2, shape (n_samples, K-1)."""
        check_is_fitted(self, "estimators_")
        X = self._validate_X(X)
        cols = []
        for est in self.estimators_:
            if self.proba_mode_ == "logistic":
                cols.append(expit(np.asarray(est.decision_function(X), dtype=np.float64)))
            else:
                p = np.asarray(est.predict_proba(X), dtype=np.float64)
                cols.append(p[:, list(est.classes_).index(1)])
        G = np.column_stack(cols)
        if self.monotone:
            G = np.minimum.accumulate(G, axis=1)
        return G

    def predict_proba(self, X) -> np.ndarray:
        """Frank & Hall class probabilities (module docstring), shape (n_samples, K)."""
        G = self.cumulative_proba(X)
        n = G.shape[0]
        upper = np.hstack([np.ones((n, 1)), G])  # P(y > v_{k-1}), with P(y > v_{-1}) = 1
        lower = np.hstack([G, np.zeros((n, 1))])  # P(y > v_k), with P(y > v_{K-1}) = 0
        return upper - lower

    def predict(self, X) -> np.ndarray:
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator).input_tags
        tags.input_tags.sparse = inner.sparse
        tags.input_tags.allow_nan = inner.allow_nan
        return tags


def _fit_binary(est, X, y01, fit_params):
    """Fit one binary model; return it and the warnings its fit raised (a joblib worker's
    warnings would otherwise be lost)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(X, y01, **fit_params)
    return est, caught


def ordinal_mse(y_true, y_pred, labels=None) -> float:
    """Mukras et al. section 4: MSE over ordinal class indices, ``mean((i_true - i_pred)^2)``.

    Without ``labels`` the values themselves are the indices (numeric); with ``labels`` (the
    classes in ordinal order) each value is replaced by its position in ``labels``.
    """
    a = np.asarray(y_true).ravel()
    b = np.asarray(y_pred).ravel()
    if a.shape != b.shape:
        raise ValueError(f"y_true has {a.size} values but y_pred has {b.size}")
    if a.size == 0:
        raise ValueError("ordinal_mse of no predictions")
    if labels is not None:
        order = {v: i for i, v in enumerate(np.asarray(labels).ravel().tolist())}
        try:
            a = np.array([order[v] for v in a.tolist()], dtype=np.float64)
            b = np.array([order[v] for v in b.tolist()], dtype=np.float64)
        except KeyError as e:
            raise ValueError(f"value {e.args[0]!r} is not in labels") from None
    return float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
