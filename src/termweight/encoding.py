"""Document encodings: binary, TF, log-TF, TF-IDF (cosine), supervised scaling, ordinal thresholds.

All are scikit-learn transformers over CSR matrices whose statistics come from ``fit`` (training
rows) only; ``transform`` never looks at test labels or test document frequencies
([methods: encoding][methods-encoding]).

- binary ``[tf > 0]``; TF the raw count; log-TF ``log(1 + tf)``;
- TF-IDF ``tf * log(N / df)`` with ``N``, ``df`` from the training rows, then each row scaled to
  unit L2 norm (cosine normalisation; Esuli & Sebastiani's SVM baseline, Joachims 1998);
- supervised scaling ([`SupervisedScaler`][termweight.encoding.SupervisedScaler]): column ``j``
  multiplied by a task-specific score ``w_j >= 0`` (Forman 2008, "BNS feature scaling"; Lan et
  al. 2009, tf-rf), on log-TF input with unit-L2 rows by default (the settings measured best on
  four corpora, see the defaults page of these docs); for K > 2 classes or multi-label targets
  the one-vs-rest weights are combined per term by ``max`` or the class-prior-weighted ``avg``
  ([`combine_tasks`][termweight.scoring.combine_tasks]);
- ordinal-to-binary (Esuli & Sebastiani 2009): for term ``t`` and every DISTINCT nonzero value
  ``v`` that t's count takes in the training rows, a binary feature ``[tf_t >= v]``; optionally
  (``thresholds="every"``) one for EVERY integer ``v = 1 .. max`` training count of ``t``.

The count-based encodings (binary, TF, log-TF, TF-IDF) expect term counts: non-integer or
negative input (e.g. ``TfidfVectorizer`` output) gives a
[`NonCountInputWarning`][termweight.encoding.NonCountInputWarning] in ``fit`` and ``transform``.

Outputs are CSR by default; ``sparse_output=False`` gives a dense array, which also allows
``set_output(transform="pandas")``. A dense output larger than
[termweight.encoding.MAX_DENSE_BYTES][] (1 GiB; the environment variable
``TERMWEIGHT_MAX_DENSE_BYTES`` overrides it) is refused with a ``ValueError`` naming its size.
``get_feature_names_out`` keeps the input's column names (``term>=3`` for the ordinal features).
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, _fit_context
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import _check_feature_names_in, check_is_fitted, validate_data

from termweight.statistics import presence

BASE_ENCODINGS = ("binary", "tf", "logtf", "tfidf")


def _csr(X) -> sp.csr_matrix:
    X = sp.csr_matrix(X, dtype=np.float64)
    X.sum_duplicates()
    return X


def binary(X) -> sp.csr_matrix:
    """Binary presence ``[X > 0]`` as float64 CSR (the "bxx" of Salton & Buckley 1988)."""
    return presence(X)


def log_tf(X) -> sp.csr_matrix:
    """Log-TF ``ln(1 + tf)`` on the stored entries (Dumais 1991; Lan et al. 2009's "log(1+tf)")."""
    X = _csr(X).copy()
    np.log1p(X.data, out=X.data)
    return X


def l2_normalize(X) -> sp.csr_matrix:
    """Scale each row to unit Euclidean norm ``x / ||x||_2`` (cosine normalisation; zero rows stay
    zero)."""
    X = _csr(X).copy()
    sq = np.asarray(X.multiply(X).sum(axis=1)).ravel()
    norms = np.sqrt(sq)
    inv = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    X.data *= np.repeat(inv, np.diff(X.indptr))
    return X


def idf_weights(X) -> np.ndarray:
    """``log(N / df_j)`` over the rows of ``X`` ([`idf`][termweight.contingency.idf]; 0 if df = 0)."""
    from termweight import scoring

    df = np.diff(presence(X).tocsc().indptr).astype(np.float64)
    return scoring.idf(df, np.zeros_like(df), np.zeros_like(df), X.shape[0] - df)


def encode(X, kind: str, weights=None, avgdl=None) -> sp.csr_matrix:
    """Encode rows with a base ``kind`` given already-fitted column ``weights``.

    ``binary``/``tf``/``logtf``: the base encoding, columns multiplied by ``weights`` if given;
    ``tfidf``: ``tf * weights`` (the training idf) then L2-normalised rows. The benchmark's
    [termweight.encoding.EXTRA_BASES][] (``ntf``, ``ltc``, ``bm25tf``; ``avgdl`` for ``bm25tf``):
    [`encode_extra`][termweight.encoding.encode_extra].
    """
    if kind in EXTRA_BASES:
        return encode_extra(X, kind, weights, avgdl)
    if kind == "tfidf":
        if weights is None:
            raise ValueError("tfidf needs the training idf weights")
        return l2_normalize(scale_columns(X, weights))
    base = {"binary": binary, "tf": _csr, "logtf": log_tf}[kind](X)
    return base if weights is None else scale_columns(base, weights)


#: Base encodings beyond ``BASE_ENCODINGS`` (the benchmark's; ``encode`` only).
EXTRA_BASES = ("ntf", "ltc", "bm25tf")
#: Bases whose ``weights`` are the training idf (required).
IDF_BASES = ("tfidf", "ltc")
#: BM25's TF saturation parameters (Robertson & Zaragoza 2009, "The probabilistic relevance
#: framework: BM25 and beyond", FnTIR 3(4), eq. 3.15; the usual k1 = 1.2, b = 0.75).
BM25_K1, BM25_B = 1.2, 0.75


def sublinear_tf(X) -> sp.csr_matrix:
    """``1 + ln(tf)`` on the stored (positive) entries (SMART "l"; Salton & Buckley 1988)."""
    X = _csr(X).copy()
    X.data = np.where(X.data > 0, 1.0 + np.log(np.maximum(X.data, 1e-300)), 0.0)
    X.eliminate_zeros()
    return X


def bm25_tf(X, avgdl: float, k1: float = BM25_K1, b: float = BM25_B) -> sp.csr_matrix:
    """BM25 TF saturation ``tf (k1 + 1) / (tf + k1 (1 - b + b dl / avgdl))`` per entry.

    Robertson & Zaragoza (2009), eq. 3.15, without the idf factor (``bm25tf-idf`` adds it as a
    column scale): ``dl`` is the document's length (sum of its counts), ``avgdl`` the mean length
    of the TRAINING documents (pass it for test rows too). Vectorised over the stored entries.
    """
    X = _csr(X).copy()
    dl = np.asarray(X.sum(axis=1)).ravel()
    norm = k1 * (1.0 - b + b * dl / (avgdl if avgdl and avgdl > 0 else 1.0))
    tf = X.data
    X.data = tf * (k1 + 1.0) / (tf + np.repeat(norm, np.diff(X.indptr)))
    return X


def encode_extra(X, kind: str, weights=None, avgdl=None) -> sp.csr_matrix:
    """The benchmark's bases, columns multiplied by ``weights`` if given (except ``ltc``).

    - ``ntf``: ``tf / ||tf||_2`` (cosine-normalised TF, Kim 2016's documents x_i);
    - ``ltc``: ``(1 + ln tf) * idf`` then L2-normalised rows (SMART ltc, "sublinear TF-IDF",
      Salton & Buckley 1988; ``weights`` = the training idf, required);
    - ``bm25tf``: [`bm25_tf`][termweight.encoding.bm25_tf] with the training ``avgdl`` (required).
    """
    if kind == "ntf":
        base = l2_normalize(X)
    elif kind == "ltc":
        if weights is None:
            raise ValueError("ltc needs the training idf weights")
        return l2_normalize(scale_columns(sublinear_tf(X), weights))
    elif kind == "bm25tf":
        if avgdl is None:
            raise ValueError("bm25tf needs the training documents' mean length avgdl")
        base = bm25_tf(X, avgdl)
    else:
        raise ValueError(f"unknown base encoding {kind!r}")
    return base if weights is None else scale_columns(base, weights)


#: scikit-learn's own tf-idf as benchmark bases: ``TfidfTransformer()`` (smoothed idf
#: ``ln((1 + N) / (1 + df)) + 1``, unit rows) and with ``sublinear_tf=True`` (``1 + ln tf``)
SKLEARN_BASES = {"sklearn_tfidf": {}, "sklearn_sublinear_tfidf": {"sublinear_tf": True}}


def sklearn_tfidf(X_train, X_test, kind: str = "sklearn_tfidf"):
    """``(train, test)`` rows of scikit-learn's ``TfidfTransformer`` with the options of
    ``SKLEARN_BASES[kind]``, fitted on the training rows (computed by scikit-learn itself)."""
    from sklearn.feature_extraction.text import TfidfTransformer

    t = TfidfTransformer(**SKLEARN_BASES[kind]).fit(_csr(X_train))
    return sp.csr_matrix(t.transform(_csr(X_train))), sp.csr_matrix(t.transform(_csr(X_test)))


def scale_columns(X, weights) -> sp.csr_matrix:
    """Multiply column ``j`` of ``X`` by ``weights[j]`` (no densifying)."""
    X = _csr(X).copy()
    X.data *= np.asarray(weights, dtype=np.float64)[X.indices]
    return X


#: Largest dense output (bytes) that ``sparse_output=False`` may allocate: 1 GiB. The environment
#: variable ``TERMWEIGHT_MAX_DENSE_BYTES`` (an integer number of bytes), read at each transform,
#: overrides it; setting this constant changes it for the running process.
MAX_DENSE_BYTES = 2**30


def max_dense_bytes() -> int:
    """The dense-output limit in bytes: ``TERMWEIGHT_MAX_DENSE_BYTES`` if set, else
    [termweight.encoding.MAX_DENSE_BYTES][]."""
    raw = os.environ.get("TERMWEIGHT_MAX_DENSE_BYTES", "").strip()
    if not raw:
        return int(MAX_DENSE_BYTES)
    try:
        return int(float(raw))
    except ValueError:
        raise ValueError(f"TERMWEIGHT_MAX_DENSE_BYTES={raw!r} is not a number of bytes") from None


def _output(X, sparse_output: bool):
    """``X`` as CSR, or as a dense float64 ndarray when ``sparse_output`` is False.

    Refuses (``ValueError``) a dense array above [`max_dense_bytes`][termweight.encoding.max_dense_bytes].
    """
    if sparse_output:
        return X
    n_rows, n_cols = X.shape
    need, limit = n_rows * n_cols * 8, max_dense_bytes()
    if need > limit:
        raise ValueError(
            f"dense output would need {need / 2**30:.3g} GiB ({n_rows:,} x {n_cols:,} float64), "
            f"above the limit of {limit / 2**30:.3g} GiB ({limit:,} bytes); use sparse_output=True, "
            "or raise the limit with the environment variable TERMWEIGHT_MAX_DENSE_BYTES or "
            "termweight.encoding.MAX_DENSE_BYTES")
    return X.toarray()


class NonCountInputWarning(UserWarning):
    """Count-based encoding (binary, tf, logtf, tfidf bases) fed values that are not counts."""


def _warn_if_not_counts(X, owner: str) -> None:
    """Warn once per call if the values of ``X`` (CSR or ndarray) are not non-negative integers.

    Vectorised over the stored entries: ``X.data != round(X.data)`` or ``X.data < 0``.
    """
    data = X.data if sp.issparse(X) else np.asarray(X).ravel()
    if not data.size:
        return
    frac = data != np.round(data)
    neg = data < 0
    if frac.any() or neg.any():
        example = data[frac | neg][0]
        what = "non-integer" if frac.any() else "negative"
        warnings.warn(
            f"{owner} expects term counts (e.g. CountVectorizer output) but X has {what} values "
            f"(e.g. {example:.4g}; {int(np.count_nonzero(frac | neg)):,} of {data.size:,} stored "
            "entries), such as TfidfVectorizer output; the base encoding will treat them as "
            "counts (binary makes every one 1)", NonCountInputWarning, stacklevel=3)


_SPARSE_OUTPUT = {"sparse_output": ["boolean"]}


class TermEncoder(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Unsupervised term encoding of count rows: binary, TF, log-TF or cosine TF-IDF.

    ``binary`` ``[tf > 0]``; ``tf`` the raw count; ``logtf`` ``ln(1 + tf)``; ``tfidf``
    ``tf * ln(N / df)`` with ``N``, ``df`` from the training rows, rows then scaled to unit L2
    norm (Salton & Buckley 1988; Joachims 1998). See [methods: encoding][methods-encoding].

    Parameters
    ----------
    kind : {"binary", "tf", "logtf", "tfidf"}, default="tf"
        The encoding. For ``"tfidf"``, ``idf_j = ln(N / df_j)`` is learned in ``fit`` from the
        training rows (0 for a term absent from training), and rows are L2-normalised after
        weighting.
    sparse_output : bool, default=True
        CSR output; False gives a dense ndarray (needed for ``set_output(transform="pandas")``),
        refused above [termweight.encoding.MAX_DENSE_BYTES][] (1 GiB, or the environment variable
        ``TERMWEIGHT_MAX_DENSE_BYTES``).

    Attributes
    ----------
    idf_ : ndarray of shape (n_features,)
        The training idf; only for ``kind="tfidf"``.
    n_features_in_ : int
        Number of input columns seen in ``fit``.

    Raises
    ------
    ValueError
        From ``transform`` with ``sparse_output=False`` when the dense output would exceed the
        limit; the message names the size.

    Warns
    -----
    NonCountInputWarning
        In ``fit`` and ``transform`` when ``X`` holds non-integer or negative values (the
        encodings assume term counts), e.g. ``TfidfVectorizer`` output.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight import TermEncoder
    >>> X = np.array([[2, 0, 1], [0, 3, 1]])
    >>> TermEncoder("binary").fit_transform(X).toarray()
    array([[1., 0., 1.],
           [0., 1., 1.]])
    >>> np.round(TermEncoder("tfidf", sparse_output=False).fit_transform(X), 3)
    array([[1., 0., 0.],
           [0., 1., 0.]])
    """

    _parameter_constraints = {"kind": [StrOptions(set(BASE_ENCODINGS))], **_SPARSE_OUTPUT}

    def __init__(self, kind="tf", sparse_output=True):
        self.kind = kind
        self.sparse_output = sparse_output

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn the training idf (``kind="tfidf"``) from count rows ``X``; ``y`` is ignored.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Term counts of the training documents.
        y : None
            Ignored.

        Returns
        -------
        self : TermEncoder
            The fitted encoder.
        """
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        _warn_if_not_counts(X, f"TermEncoder(kind={self.kind!r})")
        if self.kind == "tfidf":
            self.idf_ = idf_weights(X)
        elif hasattr(self, "idf_"):  # refit with another kind: drop the stale idf
            del self.idf_
        return self

    def transform(self, X):
        """Encode count rows ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Term counts.

        Returns
        -------
        Z : sparse matrix or ndarray of shape (n_samples, n_features)
            CSR, or a dense array when ``sparse_output=False``.
        """
        check_is_fitted(self, "n_features_in_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        _warn_if_not_counts(X, f"TermEncoder(kind={self.kind!r})")
        out = encode(X, self.kind, getattr(self, "idf_", None) if self.kind == "tfidf" else None)
        return _output(out, self.sparse_output)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


class SupervisedScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Scale term columns by a supervised metric; binary, K-class and multi-label targets.

    ``z_ij = w_j * f(x_ij)`` with ``f`` the base encoding of the counts (``binary``
    ``[tf > 0]``, ``tf``, ``logtf`` ``ln(1 + tf)``) and ``w_j >= 0`` the training score of term
    ``j`` under ``metric`` (Forman 2008, CIKM, "BNS feature scaling"; Lan, Tan, Su & Lu 2009,
    TPAMI 31(4), tf-rf), then each row scaled to unit L2 norm when ``norm="l2"``. The defaults
    (``metric="idf"``, ``base="logtf"``, ``norm="l2"``) are the setting measured best on
    four corpora (20 Newsgroups, R52, R8, WebKB), documented on the defaults page of these docs.

    ``fit(X, y)`` computes the metric's scaling weights (finite, >= 0;
    [`as_scaling_weights`][termweight.scoring.as_scaling_weights]) from the training rows'
    contingency tables of each one-vs-rest task of ``y``
    ([`one_vs_rest`][termweight.scoring.one_vs_rest]): a binary ``y`` is the one task
    ``y == positive`` (1 for 0/1 or boolean labels); K > 2 classes give K tasks and a
    label-indicator matrix one per column, whose weights ``w[c, j]`` are combined per term by
    ``combine``: ``"max"`` ``w_j = max_c w[c, j]`` or ``"avg"`` ``w_j = sum_c P(c) w[c, j]``
    (class prior ``P(c) = pos_c / sum pos``; Yang & Pedersen 1997). See
    [methods: scoring][methods-scoring] and [methods: encoding][methods-encoding].

    Parameters
    ----------
    metric : str, default="idf"
        A name in [termweight.scoring.METRICS][] (``python -m termweight list metrics``).
    base : {"binary", "tf", "logtf"}, default="logtf"
        The encoding of the counts before scaling.
    norm : {"l2"} or None, default="l2"
        ``"l2"`` scales each output row to unit Euclidean norm; None leaves rows as they are.
    combine : {"max", "avg"}, default="max"
        How the per-task weights become one weight per term; only used with more than one task.
    sparse_output : bool, default=True
        CSR output; False gives a dense ndarray, refused above
        [termweight.encoding.MAX_DENSE_BYTES][] (1 GiB, or the environment variable
        ``TERMWEIGHT_MAX_DENSE_BYTES``).

    Attributes
    ----------
    weights_ : ndarray of shape (n_features,)
        The combined column scales.
    task_weights_ : ndarray of shape (n_tasks, n_features)
        The per-task scales (one row for a binary ``y``).
    n_features_in_ : int
        Number of input columns seen in ``fit``.

    Raises
    ------
    ValueError
        From ``fit`` for an unknown ``metric`` (naming the known ones) or a missing ``y``; from
        ``transform`` with ``sparse_output=False`` when the dense output would exceed the limit.

    Warns
    -----
    NonCountInputWarning
        In ``fit`` and ``transform`` when ``X`` holds non-integer or negative values: every base
        assumes term counts (``TfidfVectorizer`` output would be binarised or log-scaled as if
        it were counts).

    Examples
    --------
    >>> import numpy as np
    >>> from termweight import SupervisedScaler
    >>> X = np.array([[3, 0, 1], [2, 0, 1], [0, 4, 1], [0, 1, 1]])
    >>> y = np.array([1, 1, 0, 0])
    >>> sc = SupervisedScaler(metric="rf").fit(X, y)
    >>> np.round(sc.weights_, 3)  # log2(2 + a / max(1, c)), a / c: positive / negative docs with it
    array([2.   , 1.   , 1.585])
    >>> np.round(sc.transform(X).toarray(), 3)  # ln(1 + tf) * w, rows scaled to unit L2 norm
    array([[0.93 , 0.   , 0.368],
           [0.894, 0.   , 0.447],
           [0.   , 0.826, 0.564],
           [0.   , 0.534, 0.846]])
    """

    _parameter_constraints = {
        "metric": [str], "base": [StrOptions({"binary", "tf", "logtf"})],
        "norm": [StrOptions({"l2"}), None], "combine": [StrOptions({"max", "avg"})],
        **_SPARSE_OUTPUT,
    }

    def __init__(self, metric="idf", base="logtf", norm="l2", combine="max",
                 sparse_output=True):
        self.metric = metric
        self.base = base
        self.norm = norm
        self.combine = combine
        self.sparse_output = sparse_output

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Compute the column scales from count rows ``X`` and target ``y``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Term counts of the training documents (a term is "present" where its count is > 0).
        y : array-like of shape (n_samples,) or (n_samples, n_labels)
            Class labels, or a 0/1 label-indicator matrix (multi-label).

        Returns
        -------
        self : SupervisedScaler
            The fitted scaler.
        """
        from termweight import scoring

        scoring.check_metric(self.metric)
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, multi_output=True)
        _warn_if_not_counts(X, f"SupervisedScaler(base={self.base!r})")
        self.task_weights_, self.weights_ = scoring.term_scores(self.metric, X, y, self.combine,
                                                                scaling=True)
        return self

    def transform(self, X):
        """Encode count rows ``X`` with ``base``, scale column ``j`` by ``weights_[j]``, normalise.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Term counts.

        Returns
        -------
        Z : sparse matrix or ndarray of shape (n_samples, n_features)
            CSR, or a dense array when ``sparse_output=False``.
        """
        check_is_fitted(self, "weights_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        _warn_if_not_counts(X, f"SupervisedScaler(base={self.base!r})")
        out = encode(X, self.base, self.weights_)
        return _output(l2_normalize(out) if self.norm == "l2" else out, self.sparse_output)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.target_tags.required = True
        return tags


def _sorted_unique(x: np.ndarray) -> np.ndarray:
    """``np.unique(x)`` in O(n) + O(u log u): hash the n values, sort only the u distinct ones.

    (``np.unique`` sorts all n values; on a million-document corpus that n log n sort made the
    ordinal encoding grow faster than linearly, benchmarks/bench_scaling.py.) The hashing is
    pandas's (the workflow extra); without pandas, ``np.unique``: the same values, sorted."""
    try:
        import pandas as pd
    except ModuleNotFoundError:
        return np.unique(np.asarray(x).ravel())
    return np.sort(pd.unique(np.asarray(x).ravel()))


def _unique_pairs(cols: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct ``(col, val)`` pairs sorted by column then value (as ``np.unique(axis=1)``)."""
    uv = _sorted_unique(vals)
    r = uv.size + 1
    keys = _sorted_unique(cols.astype(np.int64) * r + np.searchsorted(uv, vals))
    return keys // r, uv[keys % r]


class ThresholdEncoder(TransformerMixin, BaseEstimator):
    """Ordinal-to-binary encoding (Esuli & Sebastiani 2009, section 2).

    For term ``t`` with distinct nonzero training values ``v_1 < ... < v_k`` the output has the k
    binary features ``[x_t >= v_i]`` (``thresholds="distinct"``, the paper's section 2: "for all
    and only the different values ... that #(t_k, -) takes in the training set"). With
    ``thresholds="every"`` the thresholds are instead every integer ``1, 2, ..., v_k`` (integer
    counts only): the reading that reproduces the paper's printed feature counts on ModApte
    (47,087 features, 2.34 per term; see ``termweight.experiments.esuli``). Test rows use the
    training thresholds only: a test count above ``v_k`` fires all k features, one below ``v_1``
    fires none. Terms never present in the training rows get no feature. Vectorised, linear in
    the non-zeros: every stored entry counts its term's thresholds <= its value, all entries one
    threshold rank at a time, then expands with ``np.repeat``.

    See [methods: ordinal][methods-ordinal].

    Parameters
    ----------
    thresholds : {"distinct", "every"}, default="distinct"
        ``"distinct"``: one feature per distinct nonzero training value of the term;
        ``"every"``: one per integer ``1 .. max`` training value (integer counts only).
    sparse_output : bool, default=True
        CSR output; False gives a dense ndarray (needed for ``set_output(transform="pandas")``),
        refused above [termweight.encoding.MAX_DENSE_BYTES][] (1 GiB, or the environment variable
        ``TERMWEIGHT_MAX_DENSE_BYTES``).

    Attributes
    ----------
    thresholds_ : ndarray
        All thresholds, grouped by term in column order, ascending.
    threshold_terms_ : ndarray
        The input column of each threshold.
    feature_ptr_ : ndarray of shape (n_features_in_ + 1,)
        Term ``j`` owns the outputs ``feature_ptr_[j]:feature_ptr_[j + 1]``.
    n_features_out_ : int
        The feature count after encoding.
    mean_values_per_term_ : float
        Mean number of thresholds per term present in training (the mean number of distinct
        nonzero values for ``"distinct"``).

    Raises
    ------
    ValueError
        From ``fit`` with ``thresholds="every"`` on non-integer values; from ``transform`` with
        ``sparse_output=False`` when the dense output would exceed the limit.

    Examples
    --------
    >>> import numpy as np
    >>> from termweight import ThresholdEncoder
    >>> X = np.array([[1, 0], [3, 2], [0, 2]])
    >>> enc = ThresholdEncoder().fit(X)
    >>> enc.get_feature_names_out().tolist()
    ['x0>=1', 'x0>=3', 'x1>=2']
    >>> enc.transform(np.array([[2, 5]])).toarray()
    array([[1., 0., 1.]])
    """

    _parameter_constraints = {"thresholds": [StrOptions({"distinct", "every"})], **_SPARSE_OUTPUT}

    def __init__(self, thresholds="distinct", sparse_output=True):
        self.thresholds = thresholds
        self.sparse_output = sparse_output

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        X = _csr(X)
        coo = X.tocoo()
        keep = coo.data > 0
        cols, vals = _unique_pairs(coo.col[keep], coo.data[keep])
        if self.thresholds == "every":
            if np.any(vals != np.round(vals)):
                raise ValueError('ThresholdEncoder(thresholds="every") needs integer counts')
            top = np.zeros(X.shape[1], dtype=np.int64)
            np.maximum.at(top, cols, vals.astype(np.int64))
            cols = np.repeat(np.arange(X.shape[1], dtype=np.int64), top)
            vals = (np.arange(cols.size) - np.repeat(np.cumsum(top) - top, top) + 1).astype(
                np.float64)
        self.thresholds_ = vals
        self.threshold_terms_ = cols
        self.feature_ptr_ = np.concatenate([[0], np.cumsum(np.bincount(cols, minlength=X.shape[1]))])
        self.n_features_out_ = int(vals.size)
        present = int(np.count_nonzero(np.diff(self.feature_ptr_)))
        self.mean_values_per_term_ = float(vals.size / present) if present else 0.0
        return self

    def transform(self, X):
        check_is_fitted(self, "thresholds_")
        X = _csr(validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False))
        X.eliminate_zeros()
        X.sort_indices()
        cols, vals = X.indices.astype(np.int64), X.data
        # k = number of the term's thresholds <= the value. Level by level (threshold rank r =
        # 0, 1, ...) over the entries still climbing: O(nnz + output nnz) work, no search over
        # all thresholds (a global searchsorted made this step grow faster than linearly).
        first, stop = self.feature_ptr_[cols], self.feature_ptr_[cols + 1]
        k = np.zeros(cols.size, dtype=np.int64)
        active = np.flatnonzero(first < stop)
        while active.size:
            active = active[self.thresholds_[first[active] + k[active]] <= vals[active]]
            k[active] += 1
            active = active[first[active] + k[active] < stop[active]]
        start = np.repeat(first, k)
        offset = np.arange(k.sum()) - np.repeat(np.cumsum(k) - k, k)
        # entries are in row order and, within a row, in term order: the output is CSR already
        indptr = np.concatenate([[0], np.cumsum(k)])[X.indptr]
        out = sp.csr_matrix((np.ones(start.size, dtype=np.float64), start + offset, indptr),
                            shape=(X.shape[0], self.n_features_out_))
        out.sort_indices()
        return _output(out, self.sparse_output)

    def get_feature_names_out(self, input_features=None):
        """``"{term}>={v}"`` per output column, ``term`` the input's name (``x{j}`` if it has none)."""
        check_is_fitted(self, "thresholds_")
        names = np.asarray(_check_feature_names_in(self, input_features), dtype=object)
        vals = np.char.mod("%g", self.thresholds_).astype(object)
        return (names[self.threshold_terms_] + ">=" + vals).astype(object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
