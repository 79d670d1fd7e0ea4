"""Shared fixtures: repository paths, the dataset mirror, and the BBC corpus parsed once."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MIRROR = Path(os.environ.get("TERMWEIGHT_MIRROR", REPO.parent / "shared" / "datasets"))


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not MIRROR.is_dir():
        pytest.skip(f"dataset mirror {MIRROR} not found (set TERMWEIGHT_MIRROR)")
    return MIRROR


@pytest.fixture(scope="session")
def bbc_documents():
    from termweight.datasets import get_dataset

    return get_dataset("bbc").parser(None, {})


@pytest.fixture(scope="session")
def bbc_corpus(bbc_documents):
    """The BBC count matrix exactly as the pipeline's tokenize + count steps build it."""
    import numpy as np
    import scipy.sparse as sp

    from termweight.corpus import Corpus
    from termweight.text import count_matrix, tokenize_all

    X, vocab = count_matrix(tokenize_all(bbc_documents.texts))
    idx = {c: i for i, c in enumerate(bbc_documents.classes)}
    y = np.array([idx[labs[0]] for labs in bbc_documents.labels])
    Y = sp.csr_matrix((np.ones(y.size, np.uint8), (np.arange(y.size), y)))
    return Corpus("bbc", X, Y, bbc_documents.classes, vocab, bbc_documents.doc_ids,
                  np.array(bbc_documents.subset))


def tool(name: str) -> str:
    """Path of a console script of the active environment (snakemake, dvc)."""
    import sys

    candidate = Path(sys.executable).parent / name
    found = str(candidate) if candidate.exists() else shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed")
    return found
