"""Dataset declarations: one ``DatasetSpec`` per dataset, registered by name.

A declaration says where the raw files come from (canonical URLs, or a Python package's data),
their SHA-256, and which parser turns them into either ``Documents``
(text that still needs tokenising) or a ``Corpus`` (ready-made vectors).
Adding a dataset = one ``register(DatasetSpec(...))`` call in a module of this package (a new
file is picked up by ``termweight.datasets`` itself), plus a parser for a new format.

A dataset's prepare stage lists the module that declares it (params.yaml's ``corpora:`` names
it) and what the declaring modules import: editing one dataset's file reruns that dataset alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from termweight.runner.errors import ConfigError

UNPINNED = ""  # a ``sha256`` value meaning "no checksum could be confirmed for this file"


@dataclass(frozen=True)
class ArchiveSource:
    """A canonical archive that contains a file which has no download URL of its own.

    ``sha256`` of the archive may be ``UNPINNED`` when it could not be confirmed; the member
    itself is always checked against its own ``FileSpec.sha256`` after it is taken out.
    ``member`` is the path inside the archive (default: the unique member whose path ends with
    the file's name).
    """

    name: str
    urls: tuple[str, ...]
    sha256: str = UNPINNED
    member: str | None = None


@dataclass(frozen=True)
class FileSpec:
    """One raw file (or archive) of a dataset.

    ``name`` is the file name inside the dataset's raw directory and inside a mirror directory
    (it may contain ``/`` for files in sub-folders); ``urls`` are tried in order; ``sha256`` is
    checked before anything is parsed. ``mirror_sha256`` is the SHA-256 of a documented repack in
    the mirror that is not byte-identical to the canonical file (same content, e.g. a re-created
    tar.gz); a mirror copy may match either hash, a download must match ``sha256``. ``archive``
    names the canonical archive to take the file from when it has no URL of its own.
    """

    name: str
    urls: tuple[str, ...]
    sha256: str
    extract: bool = False  # unpack a .tar.gz / .zip after verification
    mirror_sha256: str | None = None
    archive: ArchiveSource | None = None


@dataclass(frozen=True)
class DatasetSpec:
    """Everything the pipeline needs to know to obtain and parse one dataset.

    Attributes
    ----------
    name : str
        The name ``params.yaml`` and ``python -m termweight list datasets`` use.
    kind : {"text", "vectors"}
        ``"text"``: the parser returns ``Documents`` (tokenised later by ``termweight.text``);
        ``"vectors"``: it returns a ``Corpus`` directly (ARFF counts, SVM-light, Spambase...).
    parser : callable
        ``parser(raw_dir: Path, options: dict) -> Documents | Corpus``; ``raw_dir`` holds
        ``files`` (a folder with the same names, e.g. the mirror's folder of the dataset).
    files : tuple of FileSpec, default=()
        The raw files; empty for data inside a Python package (BBC).
    mirror_subdir : str or None, default=None
        Folder of this dataset inside a mirror directory (e.g. ``../shared/datasets``).
    description : str, default=""
        One line for ``list datasets``.
    citation : str, default=""
        The reference to cite.
    options : dict, default={}
        Passed to ``parser`` as its second argument.
    package_sha256 : str, default=""
        For data read from an installed package (BBC), the digest its parser checks.

    Examples
    --------
    >>> from termweight.datasets import get_dataset
    >>> spec = get_dataset("spambase")
    >>> spec.kind, spec.mirror_subdir, [f.name for f in spec.files]
    ('vectors', 'spambase', ['spambase.data', 'spambase.names'])
    """

    name: str
    kind: Literal["text", "vectors"]
    parser: Callable
    files: tuple[FileSpec, ...] = ()
    mirror_subdir: str | None = None
    description: str = ""
    citation: str = ""
    options: dict = field(default_factory=dict)
    # data shipped inside a Python package (no ``files``): the one SHA-256 its parser verifies
    package_sha256: str = UNPINNED


DATASETS: dict[str, DatasetSpec] = {}
_DECLARED_IN: dict[str, str] = {}  # dataset name -> module that registered it

PACKAGE = "termweight.datasets"


def register(spec: DatasetSpec) -> DatasetSpec:
    if spec.name in DATASETS:
        raise ValueError(f"dataset {spec.name!r} declared twice")
    DATASETS[spec.name] = spec
    _DECLARED_IN[spec.name] = sys._getframe(1).f_globals.get("__name__", "")
    return spec


def _short(module: str | None) -> str | None:
    """``termweight.datasets.x`` -> ``x`` (None for modules outside the package)."""
    if module and module.startswith(PACKAGE + "."):
        return module[len(PACKAGE) + 1:].split(".")[0]
    return None


def declared_in(name: str) -> str:
    """The module that registered dataset ``name`` (``termweight.datasets.<module>``)."""
    get_dataset(name)
    return _DECLARED_IN[name]


def get_dataset(name: str) -> DatasetSpec:
    """The declaration of dataset ``name``; a ``ConfigError`` naming the known ones if none.

    Examples
    --------
    >>> get_dataset("bbc").kind
    'text'
    """
    try:
        return DATASETS[name]
    except KeyError:
        known = ", ".join(sorted(DATASETS))
        raise ConfigError(f"unknown dataset {name!r}; known datasets: {known}") from None


def raw_dir_for(root: Path, name: str) -> Path:
    """The raw directory of dataset ``name`` under ``root`` (``root / name``)."""
    return Path(root) / name
