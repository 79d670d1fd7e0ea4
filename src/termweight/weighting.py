"""The benchmark's weightings: which encodings ``weightings: all`` means, and learned weightings.

An encoding is ``<base>`` or ``<base>-<weighting>`` (``encoding_parts``):

- unsupervised bases ``UNSUPERVISED`` (``binary``, ``tf``, cosine ``tfidf``, sublinear
  ``ltc``) and ``bm25tf-idf`` (BM25: TF saturation x idf, [`bm25_tf`][termweight.encoding.bm25_tf]);
- every supervised scaling registered in [termweight.scoring.WEIGHTINGS][] on each of its
  bases (Forman's 15 on ``binary`` and ``tf``; Kim's five on ``ntf``; delta-idf on ``tf``),
  ``none`` meaning the plain base; [`register_weighting`][termweight.scoring.register_weighting] adds one;
- the weightings of ``LEARNED``, computed in the encode step from the training rows rather
  than from one task's contingency cells: ``ntf-mixch`` (fitted by a model per task) and
  ``tf-igm`` (every class's frequencies at once).

Supervised weights are one-vs-rest: task ``c`` (a class) gets its own column scale ``w_c``
computed from the training rows' contingency table of ``c`` against the rest, and the learner of
task ``c`` is fitted on ``X diag(w_c)`` (``termweight.learners.linear``); tf-igm is natively
multi-class and gives every task the same scale.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from termweight import scoring

#: unsupervised encodings of the benchmark (BM25 = saturated TF scaled by the training idf; the
#: two ``sklearn_*`` are scikit-learn's ``TfidfTransformer()`` and its ``sublinear_tf=True``)
UNSUPERVISED = ("binary", "tf", "tfidf", "ltc", "bm25tf-idf", "sklearn_tfidf",
                "sklearn_sublinear_tfidf")
#: weightings whose rows at unit length (the benchmark's headline protocol, ``normalize: l2``)
#: are another's: their column scales are proportional to the other's on every task (Kim's
#: bases are idf, chi2 and IG in other units on cosine-normalised TF). ``weightings: all``
#: runs each such method once, under the name it maps to; that column checks the identity on
#: every split (``termweight.steps.column``)
UNIT_LENGTH_ALIASES = {"tf-idf": "tfidf", "ntf-kim_idf": "tfidf", "ntf-kim_ig": "tf-ig",
                       "ntf-kim_chi2": "tf-chi2"}


def mixch_weights(X_train, Y_train, scores, C: float = 1.0, max_iter: int = 10, tol: float = 1e-3,
                  bases=scoring.KIM_BASES) -> np.ndarray:
    """Per-task column scales ``b_c = sum_j alpha_cj b_cj`` learned by Kim's mix-ch (2016, eq. 2).

    ``b_cj``: the scaling weights of Kim's five bases for task ``c`` (from ``scores``, the training
    statistics), each rescaled so that the weighted training documents have unit root-mean-square
    norm (``1 / sqrt(mean_i ||b_cj * x_i||^2)``, vectorised over bases, tasks and terms);
    ``alpha_c`` from ``termweight.learners.kim.MixCH`` (hinge-loss SVM, C, no intercept)
    fitted on the training rows ``X_train`` of task ``c`` only. A task without a training
    positive or negative gets ``alpha = 1/J``.
    """
    from termweight.learners.kim import MixCH

    X = sp.csr_matrix(X_train, dtype=np.float64)
    Y = sp.csc_matrix(Y_train)
    B = np.stack([scoring.as_scaling_weights(scores[b]) for b in bases])  # (J, K, T)
    colsq = np.asarray(X.multiply(X).sum(axis=0)).ravel()
    rms = np.sqrt((B**2 @ colsq) / max(X.shape[0], 1))  # (J, K)
    B = B * np.divide(1.0, rms, out=np.zeros_like(rms), where=rms > 0)[:, :, None]
    out = B.mean(axis=0)
    for c in range(Y.shape[1]):
        y = (Y[:, c].toarray().ravel() > 0).astype(np.int64)
        if y.all() or not y.any():
            continue
        model = MixCH(base_weights=B[:, c, :], C=C, max_iter=max_iter, tol=tol).fit(X, y)
        out[c] = model.weights_
    return out


def igm_weights(X_train, Y_train, scores=None) -> np.ndarray:
    """tf-igm's global weight ``1 + 7 igm`` ([`igm`][termweight.scoring.igm], Chen et al. 2016)
    from the class document frequencies of the training rows; the same row for every task."""
    from termweight.statistics import term_stats

    return scoring.igm(*term_stats(X_train, Y_train).cells())


#: weighting computed in the encode step from the training rows -> (the bases it applies to,
#: the scores it needs); mix-ch is learned, tf-igm reads every class at once. Names only: a
#: step that checks or lists names does not run (nor depend on) the learners behind them.
LEARNED = {"mixch": (("ntf",), scoring.KIM_BASES),
           "igm": (("tf",), ())}
#: the same names -> the function that computes the weights (``learned_weights``)
_LEARNED_FUNCTIONS = {"mixch": mixch_weights, "igm": igm_weights}
#: a benchmark column runs one entry of this table: its code is that entry's, not the table's
#: (termweight.pipeline.codedeps): only the mix-ch columns depend on Kim's learner
PER_ITEM = ("_LEARNED_FUNCTIONS",)


def encoding_parts(encoding: str) -> tuple[str, str | None]:
    """``"binary-bns"`` -> ``("binary", "bns")``; ``"tfidf"`` -> ``("tfidf", None)``."""
    base, _, metric = encoding.partition("-")
    return base, (metric or None)


def all_encodings() -> list[str]:
    """Every registered weighting on each of its bases (what ``weightings: all`` means)."""
    out = list(UNSUPERVISED)
    for metric, bases in scoring.WEIGHTINGS.items():
        out += [b if metric == "none" else f"{b}-{metric}" for b in bases]
    for name, (bases, _) in LEARNED.items():
        out += [f"{b}-{name}" for b in bases]
    return list(dict.fromkeys(out))


def benchmark_encodings(weightings) -> list[str]:
    """``"all"`` -> ``all_encodings`` but ``UNIT_LENGTH_ALIASES`` (each method once); a list is
    taken as it is."""
    if weightings == "all":
        return [e for e in all_encodings() if e not in UNIT_LENGTH_ALIASES]
    return list(weightings)


def aliases_of(encoding: str, encodings=None) -> list[str]:
    """The weightings that ``UNIT_LENGTH_ALIASES`` maps to ``encoding`` (not in ``encodings``,
    the ones run under their own name)."""
    return [a for a, e in UNIT_LENGTH_ALIASES.items()
            if e == encoding and a not in (encodings or ())]


def needed_scores(encodings) -> list[str]:
    """The metrics the score step must compute for ``encodings`` (idf always: tfidf, ltc, BM25)."""
    need = ["idf"]
    for enc in encodings:
        _, metric = encoding_parts(enc)
        if metric in LEARNED:
            need += list(LEARNED[metric][1])
        elif metric is not None:
            need.append(metric)
    return list(dict.fromkeys(need))


def learned_weights(name: str, X_train, Y_train, scores, options: dict | None = None) -> np.ndarray:
    """Column scales (n_tasks, n_terms) of learned weighting ``name`` from the training rows."""
    func = _LEARNED_FUNCTIONS[name]
    return func(X_train, Y_train, scores, **((options or {}) if name == "mixch" else {}))
