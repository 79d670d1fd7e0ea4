"""Exceptions that name the file (and record) at fault, so a user never sees a numpy traceback.

Every message is ONE line (newlines in a detail are folded into spaces): the CLI prints it as
``termweight <step>: error: <message>`` and exits with status 2.
"""

import contextlib


def one_line(text, limit: int = 500) -> str:
    """``text`` with all white space runs folded to one space, cut at ``limit`` characters."""
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def os_error_line(exc: OSError) -> str:
    """An OS error (missing input, read-only directory, full disk) as ``<file>: <reason>``."""
    where = exc.filename if exc.filename is not None else "(file)"
    return f"{where}: {exc.strerror or exc}"


class TermweightError(Exception):
    """Base class: every error the CLI reports as a one-line message."""


class DataError(TermweightError):
    """Bad input data: names the file and, where known, the line or record."""

    def __init__(self, path, message, line=None):
        where = f"{path}" if line is None else f"{path}:{line}"
        super().__init__(f"{where}: {one_line(message)}")
        self.path = path
        self.line = line
        self.detail = one_line(message)


@contextlib.contextmanager
def blame(path, name: str):
    """Re-raise a ``DataError`` about the whole dataset ``name`` as one about ``path``.

    Checks that run when a parser builds its result (no documents, one class only) know only
    the dataset's name; the parser knows the file (or directory) they came from.
    """
    try:
        yield
    except DataError as exc:
        if str(exc.path) != str(name):
            raise
        raise DataError(path, exc.detail, line=exc.line) from None


class ChecksumError(DataError):
    """A file's SHA-256 differs from the declared one."""

    def __init__(self, path, expected, actual):
        super().__init__(path, f"SHA-256 mismatch: expected {expected}, got {actual}")
        self.expected = expected
        self.actual = actual


class ArchiveLimitError(DataError):
    """An archive would exceed a limit of extraction: its size, a member's size, its compression
    ratio or its number of members."""


class ConfigError(TermweightError):
    """An invalid configuration (unknown key, bad value, unknown dataset or method)."""
