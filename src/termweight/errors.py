"""Exceptions that name the file (and record) at fault, so a user never sees a numpy traceback."""


class TermweightError(Exception):
    """Base class: every error the CLI reports as a one-line message."""


class DataError(TermweightError):
    """Bad input data: names the file and, where known, the line or record."""

    def __init__(self, path, message, line=None):
        where = f"{path}" if line is None else f"{path}:{line}"
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line


class ChecksumError(DataError):
    """A file's SHA-256 differs from the declared one."""

    def __init__(self, path, expected, actual):
        super().__init__(path, f"SHA-256 mismatch: expected {expected}, got {actual}")
        self.expected = expected
        self.actual = actual


class ConfigError(TermweightError):
    """An invalid configuration (unknown key, bad value, unknown dataset or method)."""
