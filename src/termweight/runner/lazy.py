"""Names a package exports on first access (PEP 562), so importing it stays cheap."""

from __future__ import annotations

from importlib import import_module


def lazy_exports(namespace: dict, exports: dict[str, str]):
    """``(__getattr__, __dir__)`` for the package whose globals are ``namespace``: a name of
    ``exports`` (name -> defining module) is imported from its module when first used."""

    def __getattr__(name: str):
        if name in exports:
            value = getattr(import_module(exports[name]), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(namespace) | set(namespace.get("__all__", ())))

    return __getattr__, __dir__
