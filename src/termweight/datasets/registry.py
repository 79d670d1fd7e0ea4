"""Dataset declarations: one :class:`DatasetSpec` per dataset, registered by name.

A declaration says where the raw files come from (canonical URLs, or a Python package's data),
their SHA-256, and which parser turns them into either :class:`~termweight.datasets.documents.Documents`
(text that still needs tokenising) or a :class:`~termweight.corpus.Corpus` (ready-made vectors).
Adding a dataset = adding one ``register(DatasetSpec(...))`` call (and a parser for a new format).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from termweight.errors import ConfigError

UNPINNED = ""  # a ``sha256`` value meaning "no checksum could be confirmed for this file"


@dataclass(frozen=True)
class ArchiveSource:
    """A canonical archive that contains a file which has no download URL of its own.

    ``sha256`` of the archive may be :data:`UNPINNED` when it could not be confirmed; the member
    itself is always checked against its own :attr:`FileSpec.sha256` after it is taken out.
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

    kind: ``"text"`` parsers return Documents (tokenised later by termweight.text);
          ``"vectors"`` parsers return a Corpus directly (ARFF counts, SVM-light, Spambase...).
    parser: ``parser(raw_dir: Path, options: dict) -> Documents | Corpus``.
    mirror_subdir: folder of this dataset inside a mirror directory (e.g. ``../shared/datasets``).
    """

    name: str
    kind: Literal["text", "vectors"]
    parser: Callable
    files: tuple[FileSpec, ...] = ()
    mirror_subdir: str | None = None
    description: str = ""
    citation: str = ""
    options: dict = field(default_factory=dict)


DATASETS: dict[str, DatasetSpec] = {}


def register(spec: DatasetSpec) -> DatasetSpec:
    if spec.name in DATASETS:
        raise ValueError(f"dataset {spec.name!r} declared twice")
    DATASETS[spec.name] = spec
    return spec


def get_dataset(name: str) -> DatasetSpec:
    try:
        return DATASETS[name]
    except KeyError:
        known = ", ".join(sorted(DATASETS))
        raise ConfigError(f"unknown dataset {name!r}; known datasets: {known}") from None


def raw_dir_for(root: Path, name: str) -> Path:
    return Path(root) / name
