"""Dataset declarations, download/verification and parsers.

Importing this package imports every module in it, and each module registers the datasets it
declares in ``DATASETS``: a new file with a ``register(DatasetSpec(...))`` call is picked up
without editing any other file.
"""

import importlib as _importlib
import pkgutil as _pkgutil

from termweight.datasets.documents import Documents
from termweight.datasets.fetch import fetch
from termweight.datasets.registry import (
    DATASETS,
    DatasetSpec,
    FileSpec,
    code_files,
    get_dataset,
    register,
)

for _info in sorted(_pkgutil.iter_modules(__path__), key=lambda i: i.name):
    _importlib.import_module(f"{__name__}.{_info.name}")

__all__ = ["DATASETS", "DatasetSpec", "Documents", "FileSpec", "code_files", "fetch", "get_dataset",
           "register"]
