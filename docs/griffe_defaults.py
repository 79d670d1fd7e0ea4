"""Griffe extension for the API pages: the Default column of a parameter table is the signature's.

Griffe's numpy parser reads a default from the docstring: ``name : type, default=value`` gives
``value``, and a choice set ``name : {"a", "b"}, default="b"`` gives its FIRST choice ("a", the
numpydoc rule that the default is listed first), even when the line says ``default="b"`` and for a
required parameter (``X : {array-like, sparse matrix}`` would show "array-like"). Here every
parameter of a Parameters (or Other Parameters) section takes its default from the signature
(``__init__``'s for a class): the source's expression, or "required" when there is none.
tests/test_docstrings.py checks that the ``default=value`` written in a docstring says the same.

Loaded by mkdocs.yml (``extensions`` of the python handler); not part of the package.
"""

from __future__ import annotations

from typing import Any

import griffe


class SignatureDefaults(griffe.Extension):
    """Replace docstring defaults with the signature's, for every object of a loaded package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._walk(pkg, set())

    def _walk(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        if obj.is_function or obj.is_class:
            self._fix(obj)
        for member in obj.members.values():
            if not member.is_alias:
                self._walk(member, seen)

    @staticmethod
    def _fix(obj: griffe.Object) -> None:
        if obj.docstring is None or obj.docstring.parser is None:
            return
        try:
            parameters = obj.parameters
        except (AttributeError, KeyError):
            return
        names = {p.name: p for p in parameters}
        for section in obj.docstring.parsed:  # parsed once here, and cached for the templates
            if section.kind not in (griffe.DocstringSectionKind.parameters,
                                    griffe.DocstringSectionKind.other_parameters):
                continue
            for item in section.value:
                name = item.name.lstrip("*")
                if name in names:
                    item.value = names[name].default
