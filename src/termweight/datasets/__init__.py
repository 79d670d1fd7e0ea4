"""Dataset declarations, download/verification and parsers.

Importing this package registers every declared dataset in :data:`DATASETS`.
"""

from termweight.datasets import (  # noqa: F401  (each module registers its datasets)
    arff,
    bbc,
    cachopo,
    newsgroups,
    ordinal,
    rcv1,
    reuters,
    vectors,
)
from termweight.datasets.documents import Documents
from termweight.datasets.fetch import fetch
from termweight.datasets.registry import DATASETS, DatasetSpec, FileSpec, get_dataset, register

__all__ = ["DATASETS", "DatasetSpec", "Documents", "FileSpec", "fetch", "get_dataset", "register"]
