"""The unsupervised weightings of the benchmark: no class information, their code is
termweight.encoding (the base encodings, BM25's saturated TF, scikit-learn's TfidfTransformer) and
termweight.contingency (idf). This module names them, so that their benchmark columns have a file
of their own here like every other weighting's (``binary-idf``, idf on binary, is one of them)."""

#: BM25 = saturated TF scaled by the training idf; the two ``sklearn_*`` are scikit-learn's
#: ``TfidfTransformer()`` and its ``sublinear_tf=True``
ENCODINGS = ("binary", "tf", "tfidf", "ltc", "bm25tf-idf", "sklearn_tfidf",
             "sklearn_sublinear_tfidf")

WEIGHTINGS = ()
