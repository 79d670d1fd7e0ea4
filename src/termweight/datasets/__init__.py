"""Dataset declarations, download/verification and parsers.

Importing this package imports every module in it, and each module registers the datasets it
declares in ``DATASETS``: a new file with a ``register(DatasetSpec(...))`` call is picked up
without editing any other file.
"""

import importlib as _importlib
import pkgutil as _pkgutil
from typing import TYPE_CHECKING

from termweight.datasets.documents import Documents
from termweight.datasets.registry import (
    DATASETS,
    DatasetSpec,
    FileSpec,
    get_dataset,
    register,
)
from termweight.runner.lazy import lazy_exports

if TYPE_CHECKING:  # ``fetch`` is imported on first use: only ``prepare`` downloads
    from termweight.datasets.download import fetch

#: the package's own machinery, which declares no dataset (``download`` loads on first use)
_MACHINERY = {"documents", "download", "registry"}

for _info in sorted(_pkgutil.iter_modules(__path__), key=lambda i: i.name):
    if _info.name in _MACHINERY:
        continue
    _importlib.import_module(f"{__name__}.{_info.name}")

__all__ = ["DATASETS", "DatasetSpec", "Documents", "FileSpec", "fetch", "get_dataset",
           "register"]

__getattr__, __dir__ = lazy_exports(globals(), {"fetch": "termweight.datasets.download"})
