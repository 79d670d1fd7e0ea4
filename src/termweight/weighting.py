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

from termweight import scoring, weightings

#: the group of the encodings that no weighting module computes (termweight.weightings.unsupervised)
UNSUPERVISED_GROUP = "unsupervised"
#: unsupervised encodings of the benchmark (termweight.weightings.unsupervised)
UNSUPERVISED = weightings.declared_encodings()[UNSUPERVISED_GROUP]
#: weightings whose rows at unit length (the benchmark's headline protocol, ``normalize: l2``)
#: are another's: their column scales are proportional to the other's on every task (Kim's
#: bases are idf, chi2 and IG in other units on cosine-normalised TF). ``weightings: all``
#: runs each such method once, under the name it maps to (tests/test_weighting_formulas.py checks
#: the identity on real data)
UNIT_LENGTH_ALIASES = {"tf-idf": "tfidf", "ntf-kim_idf": "tfidf", "ntf-kim_ig": "tf-ig",
                       "ntf-kim_chi2": "tf-chi2"}


#: weighting computed in the encode step from the training rows -> (the bases it applies to,
#: the scores it needs): mix-ch is learned (termweight.weightings.kim), tf-igm reads every class
#: at once (termweight.weightings.igm), in the benchmark's order.
LEARNED = {name: (w.bases, w.needs)
           for name, (_, w) in sorted(((n, r) for n, r in scoring.ROWS.items() if r[1].learned),
                                      key=lambda item: item[0] != "mixch")}


def module_of(encoding: str) -> str | None:
    """The module of termweight.weightings that computes ``encoding``'s weights (``"bns"`` for
    ``binary-bns``, ``"kim"`` for ``ntf-mixch``); None for the unsupervised encodings, whose code
    is termweight.encoding and termweight.contingency."""
    _, metric = encoding_parts(encoding)
    return None if metric is None else scoring.ROWS.get(metric, (None,))[0]


def group_of(encoding: str) -> str:
    """The benchmark column group of ``encoding``: its weighting module (``"bns"``), or
    ``"unsupervised"`` (termweight.weightings.unsupervised) when no module computes it. A column
    stage runs one dataset and one group, and lists ``src/termweight/weightings/<group>.py``."""
    return module_of(encoding) or UNSUPERVISED_GROUP


def groups() -> list[str]:
    """Every column group: the weighting modules with a benchmark encoding, ``unsupervised``
    first, then in the order of ``all_encodings``."""
    return list(dict.fromkeys(group_of(e) for e in all_encodings()))


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
    """The benchmark's encodings: ``"all"`` -> ``all_encodings`` but ``UNIT_LENGTH_ALIASES``
    (each method once); a list of column groups (``group_of``: ``unsupervised``, ``bns``, ...,
    params.yaml's ``benchmark.weightings``) -> those groups' encodings, in the order of
    ``all_encodings`` whatever the list's order; any other list is taken as it is."""
    every = [e for e in all_encodings() if e not in UNIT_LENGTH_ALIASES]
    if weightings == "all":
        return every
    if weightings and set(weightings) <= set(groups()):
        return [e for e in every if group_of(e) in set(weightings)]
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
    func = scoring.ROWS[name][1].func
    return func(X_train, Y_train, scores, **((options or {}) if name == "mixch" else {}))
