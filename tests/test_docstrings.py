"""The docstrings that the API reference renders: the defaults they state are the signatures'
defaults, every estimator has a running example, and no page or docstring points to the private
spec file or uses a Sphinx role (the site is built by mkdocstrings, numpy style, Markdown)."""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import re
import warnings
from pathlib import Path

import pytest
from sklearn.base import BaseEstimator

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "termweight"
DOCS = REPO / "docs"

# --- what the API pages render -------------------------------------------------------------------

DIRECTIVE = re.compile(r"^::: +([\w.]+)[ \t]*\n((?:[ \t]+.*\n?)*)", flags=re.M)


def documented_modules() -> list[tuple[str, bool]]:
    """``(module, members rendered?)`` for every ``::: module`` entry of docs/api/*.md."""
    found = []
    for page in sorted((DOCS / "api").glob("*.md")):
        for name, options in DIRECTIVE.findall(page.read_text(encoding="utf-8")):
            found.append((name, not re.search(r"^\s+members:\s*false\s*$", options, flags=re.M)))
    return found


def documented_objects() -> list[tuple[str, object]]:
    """``(qualified name, object)`` of every public class and function defined in a documented
    module (with members), and of every public method defined in such a class."""
    found = []
    for name, members in documented_modules():
        module = importlib.import_module(name)
        found.append((name, module))
        if not members:
            continue
        for attr, obj in sorted(vars(module).items()):
            if attr.startswith("_") or getattr(obj, "__module__", None) != name:
                continue
            if inspect.isfunction(obj):
                found.append((f"{name}.{attr}", obj))
            elif inspect.isclass(obj):
                found.append((f"{name}.{attr}", obj))
                for meth, func in sorted(vars(obj).items()):
                    if isinstance(func, staticmethod | classmethod):
                        func = func.__func__
                    if not meth.startswith("_") and inspect.isfunction(func):
                        found.append((f"{name}.{attr}.{meth}", func))
    return found


OBJECTS = documented_objects()

# --- numpydoc Parameters sections ----------------------------------------------------------------

SECTION = re.compile(r"^(\w[\w ]*)\n-{3,}\s*$", flags=re.M)
PARAM_LINE = re.compile(r"^(\*{0,2}\w+(?:\s*,\s*\*{0,2}\w+)*)\s*:\s*(.*?)\s*$")
DEFAULT = re.compile(r"(?:^|[,(\s])default(?P<sep>\s*=\s*|\s*:\s*|\s+(?:is\s+)?)(?P<value>.+?)\s*$")


def default_text(match) -> str:
    """The value of a ``default=value`` match, without a closing parenthesis or full stop that
    belongs to the sentence (``(default 1000).``)."""
    text = match.group("value").strip()
    while text.endswith((".", ")")) and (text.endswith(".") and not text[:-1].isdigit()
                                         or text.count(")") > text.count("(")):
        text = text[:-1].rstrip()
    return text


def parameters(doc: str) -> list[tuple[str, str]]:
    """``(name, type spec)`` of each entry of the Parameters (and Other Parameters) sections."""
    heads = list(SECTION.finditer(doc))
    entries = []
    for i, head in enumerate(heads):
        if head.group(1).strip() not in ("Parameters", "Other Parameters"):
            continue
        end = heads[i + 1].start() if i + 1 < len(heads) else len(doc)
        for line in doc[head.end():end].splitlines():
            if not line or line[0].isspace():
                continue
            m = PARAM_LINE.match(line)
            if m:
                for name in m.group(1).split(","):
                    entries.append((name.strip().lstrip("*"), m.group(2)))
    return entries


def signature_of(obj):
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        return inspect.signature(target)
    except (TypeError, ValueError):
        return None


def same_default(text: str, default) -> bool:
    """Does the docstring's ``default=<text>`` state the signature's ``default``?"""
    text = text.strip().rstrip(".").strip()
    if text.startswith("``") and text.endswith("``"):
        text = text[2:-2]
    elif text.startswith("`") and text.endswith("`"):
        text = text[1:-1]
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = ast  # a sentinel that equals nothing
    if value is not ast:
        try:
            if type(value) is type(default) or (
                    isinstance(value, int | float) and isinstance(default, int | float)
                    and not isinstance(value, bool) and not isinstance(default, bool)):
                return bool(value == default)
        except Exception:
            return False
        return False
    names = {repr(default), str(default)}
    if callable(default):
        names |= {getattr(default, "__name__", ""), getattr(default, "__qualname__", "")}
    if isinstance(default, float) and default == float("inf"):
        names |= {"np.inf", "numpy.inf", "inf", "math.inf"}
    return text in names


def check_defaults(qualname: str, obj) -> tuple[list[str], list[str]]:
    """``(mismatches, non-canonical forms)`` of the defaults stated in ``obj``'s docstring."""
    doc = inspect.getdoc(obj) or ""
    sig = signature_of(obj)
    if sig is None or not doc:
        return [], []
    bad, forms = [], []
    for name, spec in parameters(doc):
        m = DEFAULT.search(spec)
        if name not in sig.parameters:
            if m and not any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
                bad.append(f"{qualname}: documents {name!r} (default {default_text(m)}), "
                           "which the signature does not have")
            continue
        if not m:
            continue
        if m.group("sep").strip() != "=":
            forms.append(f"{qualname}({name}): {spec!r}")
        default = sig.parameters[name].default
        if default is inspect.Parameter.empty:
            bad.append(f"{qualname}({name}): the docstring says default {default_text(m)}, "
                       "the signature has no default")
        elif not same_default(default_text(m), default):
            bad.append(f"{qualname}({name}): the docstring says default {default_text(m)}, "
                       f"the signature {default!r}")
    return bad, forms


@pytest.mark.parametrize("qualname, obj", [pytest.param(q, o, id=q) for q, o in OBJECTS
                                           if not inspect.ismodule(o)])
def test_documented_defaults_are_the_signatures(qualname, obj):
    """``name : type, default=value`` in a Parameters section states the signature's default."""
    bad, forms = check_defaults(qualname, obj)
    for form in forms:
        warnings.warn(f"default not written as 'default=value': {form}", stacklevel=1)
    assert not bad, "\n".join(bad)


def test_the_defaults_checker_catches_a_wrong_default():
    def f(kind="tf", norm=None, n=10, alpha=0.5, how="max"):
        """Parameters
        ----------
        kind : {"binary", "tf"}, default="binary"
        norm : {"l2"} or None, default=None
        n : int, default 10
        alpha : float, default: 0.5
        how : str, default='max'
        """
        return (kind, norm, n, alpha, how)

    def g(n_rounds=1000, tol=1.5):
        """Parameters
        ----------
        n_rounds : int
            number of rounds (default 1000).
        tol : float
            stop here (default: 1.5).
        """
        return n_rounds, tol

    bad, forms = check_defaults("f", f)
    assert bad == ["f(kind): the docstring says default \"binary\", the signature 'tf'"]
    assert len(forms) == 2
    assert check_defaults("g", g) == ([], [])  # a default in the description is not checked
    assert same_default("1000", 1000) and same_default("1e-4", 1e-4)
    assert not same_default("True", 1) and not same_default("'1'", 1)


def test_api_pages_document_objects():
    assert len(OBJECTS) > 30
    assert {"termweight.encoding.TermEncoder", "termweight.scoring.one_vs_rest"} <= dict(OBJECTS).keys()


# --- Examples of the estimators ------------------------------------------------------------------

ESTIMATOR_MODULES = ("termweight.encoding", "termweight.selection", "termweight.multiclass",
                     "termweight.learners")


def estimators() -> list[tuple[str, type]]:
    found = {}
    for name in ESTIMATOR_MODULES:
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", None) or dir(module):
            if attr.startswith("_"):
                continue
            obj = getattr(module, attr)
            if (inspect.isclass(obj) and issubclass(obj, BaseEstimator)
                    and obj.__module__.startswith("termweight")):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return sorted(found.items())


ESTIMATORS = estimators()


def test_every_family_has_estimators():
    assert len(ESTIMATORS) >= 15, [q for q, _ in ESTIMATORS]


@pytest.mark.parametrize("qualname, cls", [pytest.param(q, c, id=q) for q, c in ESTIMATORS])
def test_estimator_has_a_running_example(qualname, cls):
    """An ``Examples`` section with at least one ``>>>`` line, whose doctest passes (kept small;
    no time is asserted: a loaded machine made a 10 s bound fail)."""
    doc = inspect.getdoc(cls) or ""
    heads = [m.group(1).strip() for m in SECTION.finditer(doc)]
    assert "Examples" in heads, f"{qualname} has no Examples section"
    module = importlib.import_module(cls.__module__)
    tests = doctest.DocTestFinder(recurse=False).find(cls, qualname, module=module,
                                                      globs=dict(vars(module)))
    assert tests and any(t.examples for t in tests), f"{qualname}: no >>> line in its docstring"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    report = []
    for test in tests:
        runner.run(test, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{qualname}: doctest failed\n" + "".join(report)


# --- no private spec, no Sphinx roles ------------------------------------------------------------


def test_no_reference_to_the_private_spec_file():
    """Users of the package do not have the project's METHODS.md: link docs/methods.md instead."""
    files = [*SRC.rglob("*.py"), *DOCS.rglob("*.md"), REPO / "README.md"]
    bad = [f"{p.relative_to(REPO)}:{i}" for p in files
           for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
           if "METHODS.md" in line]
    assert not bad, "\n".join(bad)


SPHINX_ROLE = re.compile(r":(?:func|class|meth|data|mod|attr|ref|obj|exc):`")


def docstrings(path: Path):
    """``(line, docstring)`` of the module, and of every class and function, of one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield (node.body[0].lineno, doc)


def test_no_sphinx_role_in_any_docstring():
    """mkdocstrings renders Markdown: write [`x`][termweight.module.x] (an object on the API
    pages) or ``x``, not a Sphinx role, which would be printed as it is."""
    bad = [f"{p.relative_to(REPO)}:{line}: {role}" for p in sorted(SRC.rglob("*.py"))
           for line, doc in docstrings(p) for role in sorted(set(SPHINX_ROLE.findall(doc)))]
    assert not bad, "\n".join(bad)
