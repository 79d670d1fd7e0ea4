"""Tokenising, stop-word removal, Porter stemming and the document-term count matrix.

Pipeline ([methods: preprocessing][methods-preprocessing]; Esuli & Sebastiani, Mukras et al., Kim):

1. lower-case (Unicode ``str.lower``);
2. split into maximal runs of letters and digits (``[^\\W_]+``): punctuation separates tokens,
   so ``don't`` -> ``don``, ``t``;
3. drop every token that contains a digit (``mp3``, ``1987``);
4. drop stop words: scikit-learn's ``ENGLISH_STOP_WORDS`` (318 words, the Glasgow Information
   Retrieval Group list), a fixed and documented English list;
5. stem with the ORIGINAL Porter (1980) algorithm: PyStemmer's ``porter`` (the Snowball port of
   the 1980 algorithm, not the later "English"/Porter2 stemmer or NLTK's extended default).

The count matrix is built once over the whole corpus (tokenising uses no labels, so this leaks
nothing); each split later keeps only the columns present in its training rows. Columns are the
terms in sorted order, so the matrix is the same whatever the document order of the run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

STOP_WORDS = frozenset(ENGLISH_STOP_WORDS)
_TOKEN = re.compile(r"[^\W_]+")
_DIGIT = re.compile(r"\d")


class Tokenizer:
    """Callable ``text -> list of stems`` implementing the module's five steps."""

    def __init__(self, stop_words: Iterable[str] = STOP_WORDS, stem: bool = True):
        self.stop_words = frozenset(stop_words)
        self.stemmer = None
        if stem:
            import Stemmer  # PyStemmer, the workflow extra: only stemming needs it

            self.stemmer = Stemmer.Stemmer("porter")

    def __call__(self, text: str) -> list[str]:
        words = [w for w in _TOKEN.findall(text.lower())
                 if not _DIGIT.search(w) and w not in self.stop_words]
        return self.stemmer.stemWords(words) if self.stemmer is not None else words


def tokenize_all(texts: Iterable[str], tokenizer: Tokenizer | None = None) -> list[str]:
    """Tokenise every text; each result is the stems joined by single spaces."""
    tok = tokenizer or Tokenizer()
    return [" ".join(tok(t)) for t in texts]


def count_matrix(token_strings: list[str]) -> tuple[sp.csr_matrix, list[str]]:
    """Document-term count matrix (CSR int32) and the sorted vocabulary from space-joined tokens."""
    docs = [s.split() for s in token_strings]
    vocab = sorted({t for d in docs for t in d})
    index = {t: j for j, t in enumerate(vocab)}
    lengths = np.fromiter((len(d) for d in docs), dtype=np.int64, count=len(docs))
    cols = np.fromiter((index[t] for d in docs for t in d), dtype=np.int64, count=int(lengths.sum()))
    rows = np.repeat(np.arange(len(docs)), lengths)
    X = sp.csr_matrix((np.ones(cols.size, dtype=np.int32), (rows, cols)),
                      shape=(len(docs), len(vocab)), dtype=np.int32)
    X.sum_duplicates()
    X.sort_indices()
    return X, vocab
