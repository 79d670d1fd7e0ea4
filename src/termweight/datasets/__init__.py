"""Dataset declarations, download/verification and parsers.

Importing this package registers every declared dataset in :data:`DATASETS`.
"""

from termweight.datasets import bbc  # noqa: F401  (registers "bbc")
from termweight.datasets.documents import Documents
from termweight.datasets.registry import DATASETS, DatasetSpec, FileSpec, get_dataset, register

__all__ = ["DATASETS", "DatasetSpec", "Documents", "FileSpec", "get_dataset", "register"]
