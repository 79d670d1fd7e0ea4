"""The code a pipeline step runs, derived from the imports: both tools' code dependencies.

A step is one sub-command of ``python -m termweight``; its entry point is the function the
sub-command calls (found by building the CLI's parser: nothing else is executed). The files it
depends on are found by reading the source with ``ast``, following names from the entry:

- a function or class: the module's file, the module's import-time code, the imports inside the
  function's body, and the module's own functions, classes and constants that it names;
- a constant (``TABLE = {...}``): the functions and constants its value names (a table of
  functions runs them only when a function that uses the table runs);
- ``from termweight.a import f``: ``f`` as above; ``from termweight import a`` (or ``import
  termweight.a as a``) followed by ``a.f``: ``f`` as above, and all of ``termweight.a`` when the
  name ``a`` is used otherwise (passed on, ``getattr``);
- import-time code (outside every function): its imports, the functions it calls (and passes to
  a call: a callback registered at import), decorators and base classes; importing ``a.b.c`` runs
  the ``__init__.py`` of ``a`` and ``a.b``;
- a module that declares ``DISCOVERS = "<package>"``: its functions that call
  ``importlib.import_module`` import every module of that package (plugin discovery), whose
  import-time code is followed;
- a package's lazy re-exports (PEP 562 ``__getattr__``) are read from its ``if TYPE_CHECKING:``
  imports, which name the defining module; other ``if TYPE_CHECKING:`` blocks are left out.

Other dynamic imports (``importlib.import_module``) are not followed: a step whose
code is found that way names the extra modules itself (a dataset's declaring module for
``prepare``). The dispatcher (``termweight.cli``, ``termweight.__main__``) is not a dependency:
it parses arguments and calls the step, and every argument is in the step's command, which both
tools track.

Runner code is not a dependency either: code that can only pass or raise (reading and validating
params.yaml, atomic writes, input checks, the worker pool, errors, the package's lazy exports)
cannot change a result's bytes. Two module-level declarations say which:

- ``RUNNER = True``: the module's file is never a dependency, but the walk goes on through it, so
  whatever it calls in other modules still is (``io.save_arrays`` -> ``formats.write_npz``);
- ``PASS_OR_RAISE = ("check", ...)``: these functions (validation) are not followed at all.

A table of functions of which each item of a stage runs one (the benchmark's learned weightings)
is declared ``PER_ITEM = ("<TABLE>", ...)``: a stage generated per item (``code_by`` in
workflow/stages.yaml) does not follow it, and adds the one row its item runs instead (entry
``module:TABLE/key``, ``row_entry``: that row's text is in the digest, and what its value names is
followed), so an edit to one metric, or to its row, reruns only the items that run it.

Anything that fills a default, derives a setting or formats bytes lives in a tracked module
(``termweight.settings``, ``termweight.formats``); tests/test_codedeps.py holds that no stage
lists a runner module.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "termweight"
#: the package's source directory, and how the workflow files name it (paths relative to the
#: repository root, where Snakefile and dvc.yaml are)
SOURCE = Path(__file__).resolve().parents[1]
SOURCE_PREFIX = "src/termweight"
DISPATCHER = frozenset({"termweight.cli", "termweight.__main__"})


@dataclass
class _Scope:
    """What one function or class (or a module's import-time code) imports and names."""

    #: (module, imported name or None, the local name it binds)
    imports: list[tuple[str, str | None, str]] = field(default_factory=list)
    names: set[str] = field(default_factory=set)  # every name it reads
    attrs: set[tuple[str, str]] = field(default_factory=set)  # ``a.f`` as ("a", "f")
    bare: set[str] = field(default_factory=set)  # names read other than as ``a.f``


@dataclass
class _Module:
    name: str
    path: Path
    is_package: bool
    toplevel: _Scope = field(default_factory=_Scope)  # the import-time code
    #: names the import-time code calls, or uses as decorators and base classes
    toplevel_called: set[str] = field(default_factory=set)
    defs: dict[str, _Scope] = field(default_factory=dict)  # top-level function or class
    constants: dict[str, set[str]] = field(default_factory=dict)  # name -> names its value reads
    reexports: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    discovers: str | None = None  # ``DISCOVERS = "<package>"``: it imports that package's modules
    runner: bool = False  # ``RUNNER = True``: walked through, never a dependency itself
    pass_or_raise: frozenset[str] = frozenset()  # ``PASS_OR_RAISE = (...)``: not followed
    per_item: frozenset[str] = frozenset()  # ``PER_ITEM = (...)``: tables chosen from per item
    #: a dict literal's rows: table -> {key: the names its value reads}
    rows: dict[str, dict[str, set[str]]] = field(default_factory=dict)


@functools.cache
def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(SOURCE.rglob("*.py")):
        parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _resolve_from(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    base = node.module or ""
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[:len(parts) - node.level + 1]
        base = ".".join(parts + ([node.module] if node.module else []))
    return base


def _ours(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def _scope(nodes, module: str, is_package: bool) -> _Scope:
    s = _Scope()
    attr_values: set[int] = set()

    def visit(node):
        if _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for a in node.names:
                if _ours(a.name):
                    # ``import termweight.a.b`` binds ``termweight``; ``as c`` binds the module
                    s.imports.append((a.name, None, a.asname or a.name.split(".")[0]))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_from(node, module, is_package)
            if _ours(base):
                s.imports.extend((base, a.name, a.asname or a.name) for a in node.names)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            s.attrs.add((node.value.id, node.attr))
            attr_values.add(id(node.value))
        elif isinstance(node, ast.Name):
            s.names.add(node.id)
            if id(node) not in attr_values:
                s.bare.add(node.id)
        for child in ast.iter_child_nodes(node):
            visit(child)

    for n in nodes:
        visit(n)
    return s


@functools.cache
def _parse(name: str) -> _Module:
    path = _modules()[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mod = _Module(name, path, path.name == "__init__.py")
    toplevel_nodes = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            # a function's body runs when it is called; a class's methods likewise
            mod.defs[node.name] = _scope([node], name, mod.is_package)
            heads = list(node.decorator_list)
            if isinstance(node, ast.ClassDef):
                heads += node.bases
            toplevel_nodes += heads
            mod.toplevel_called |= {n.id for h in heads for n in ast.walk(h)
                                    if isinstance(n, ast.Name)}
            continue
        toplevel_nodes.append(node)
        if _is_type_checking(node):
            for imp in _scope(node.body, name, mod.is_package).imports:
                mod.reexports[imp[2]] = imp[:2]
            continue
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, ast.AnnAssign | ast.AugAssign) else [])
        declared = (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and getattr(node.targets[0], "id", None))
        if declared == "DISCOVERS" and isinstance(node.value, ast.Constant):
            mod.discovers = node.value.value
        elif declared == "RUNNER":
            mod.runner = ast.literal_eval(node.value) is True
        elif declared == "PASS_OR_RAISE":
            mod.pass_or_raise = frozenset(ast.literal_eval(node.value))
        elif declared == "PER_ITEM":
            mod.per_item = frozenset(ast.literal_eval(node.value))
        for t in targets:
            if isinstance(t, ast.Name) and getattr(node, "value", None) is not None:
                mod.constants.setdefault(t.id, set()).update(
                    n.id for n in ast.walk(node.value) if isinstance(n, ast.Name))
                if isinstance(node.value, ast.Dict):
                    mod.rows[t.id] = {k.value: {n.id for n in ast.walk(v)
                                                if isinstance(n, ast.Name)}
                                      for k, v in zip(node.value.keys, node.value.values,
                                                      strict=True)
                                      if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):  # what a call made at import may call later: its
                # function and its arguments (a callback registered: ``register(Spec(parser=f))``)
                mod.toplevel_called |= {n.id for n in ast.walk(sub) if isinstance(n, ast.Name)}
    mod.toplevel = _scope(toplevel_nodes, name, mod.is_package)
    return mod


class _Closure:
    """The files reached from a set of entry points."""

    def __init__(self, per_item: bool = False):
        self.files: set[Path] = set()
        self._seen: set[tuple[str, str]] = set()
        self.per_item = per_item  # leave the ``PER_ITEM`` tables out (the item names its entry)

    # -- whole modules and import-time code ------------------------------------------------------

    def module(self, name: str) -> None:
        """All of ``name``: its import-time code and every function, class and constant."""
        if name not in _modules() or (name, "*") in self._seen:
            return
        self._seen.add((name, "*"))
        self.import_time(name)
        mod = _parse(name)
        self.names(name, sorted(set(mod.defs) | set(mod.constants)))

    def import_time(self, name: str) -> None:
        if name not in _modules() or (name, "<import>") in self._seen:
            return
        self._seen.add((name, "<import>"))
        parts = name.split(".")
        for i in range(1, len(parts)):  # importing a.b.c runs a/__init__.py and a/b/__init__.py
            self.import_time(".".join(parts[:i]))
        mod = _parse(name)
        if not mod.runner:
            self.files.add(mod.path)
        self._scope(name, mod.toplevel, {})
        self.names(name, sorted(mod.toplevel_called & (set(mod.defs) | set(mod.constants))))

    # -- names -------------------------------------------------------------------------------------

    def name_in(self, module: str, attr: str) -> None:
        """``attr`` of ``module``: a submodule, function, class, constant or re-export."""
        if f"{module}.{attr}" in _modules():
            self.module(f"{module}.{attr}")
            return
        if module not in _modules():
            return
        mod = _parse(module)
        self.import_time(module)
        if attr in mod.defs or attr in mod.constants:
            self.names(module, [attr])
        elif attr in mod.reexports:
            target, sub = mod.reexports[attr]
            self.name_in(target, sub) if sub else self.module(target)
        elif attr not in mod.toplevel.names and not any(i[2] == attr for i in mod.toplevel.imports):
            self.module(module)  # unknown to the parser (made dynamically): all of it

    def names(self, module: str, todo: list[str]) -> None:
        """Follow the functions, classes and constants of ``module`` named in ``todo``."""
        mod = _parse(module)
        aliases = {i[2]: i for i in mod.toplevel.imports}
        while todo:
            d = todo.pop()
            if (module, d) in self._seen:
                continue
            if self.per_item and d in mod.per_item:  # each item adds the row it runs
                continue
            self._seen.add((module, d))
            if d in mod.pass_or_raise:  # validation: it passes or raises, nothing else
                continue
            table, row, key = d.partition(ROW)
            if row:  # one row of a table (``METRICS/bns``): the names its value reads
                for n in mod.rows[table][key]:
                    if n in mod.defs or n in mod.constants:
                        todo.append(n)
                    elif n in aliases:
                        self._import(aliases[n], {n}, set(), set())
                continue
            if d in mod.defs:
                scope = mod.defs[d]
                if mod.discovers and ("import_module" in scope.names
                                      or ("importlib", "import_module") in scope.attrs):
                    # plugin discovery: this function imports every module of that package
                    for m in sorted(_modules()):
                        if m.startswith(mod.discovers + ".") and m != module:
                            self.import_time(m)
                self._scope(module, scope, aliases)
                todo.extend(n for n in scope.names if n in mod.defs or n in mod.constants)
            elif d in mod.constants:
                for n in mod.constants[d]:
                    if n in mod.defs or n in mod.constants:
                        todo.append(n)
                    elif n in aliases:  # a constant made of imported names
                        self._import(aliases[n], {n}, set(), set())
            elif d in aliases:
                self._import(aliases[d], {d}, set(), set())

    def _scope(self, module: str, scope: _Scope, outer: dict) -> None:
        """The imports a scope makes, and the module-level imports it uses (``outer``)."""
        local = {i[2] for i in scope.imports}
        for imp in scope.imports:
            self._import(imp, scope.names, scope.attrs, scope.bare)
        for alias, imp in outer.items():
            if alias in scope.names and alias not in local:
                self._import(imp, scope.names, scope.attrs, scope.bare)

    def _import(self, imp, names, attrs, bare) -> None:
        module, attr, alias = imp
        if attr is None and alias != module:  # ``import termweight.a.b as c``: c is a.b
            target = module
        elif attr is None:  # ``import termweight.a.b`` binds ``termweight``: all of a.b
            self.module(module)
            return
        elif f"{module}.{attr}" in _modules():  # ``from termweight import a``: a module
            target = f"{module}.{attr}"
        else:
            self.name_in(module, attr)
            return
        self.import_time(target)
        if alias in bare:  # the module itself is passed on or inspected: all of it
            self.module(target)
        for a, used in attrs:
            if a == alias:
                self.name_in(target, used)


def relative(path: Path) -> str:
    """A file of the package as the workflow files name it: ``src/termweight/...``."""
    return f"{SOURCE_PREFIX}/{path.relative_to(SOURCE).as_posix()}"


def _dispatcher_files() -> set[Path]:
    return {_modules()[m] for m in DISPATCHER if m in _modules()}


#: an entry ``module:TABLE/key``: one row of a dict literal (``row_entry``)
ROW = "/"


def row_entry(module: str, table: str, key: str) -> tuple[str, str] | None:
    """``(module, "TABLE/key")``, the entry of one row of table ``TABLE`` (a dict literal of
    ``module``: a ``PER_ITEM`` table), or None when the literal has no such key (a row added
    at run time, ``scoring.register_weighting``: its module's import-time code holds it)."""
    return (module, f"{table}{ROW}{key}") if key in _parse(module).rows.get(table, {}) else None


def _closure(entries, per_item: bool = False) -> _Closure:
    c = _Closure(per_item)
    for module, func in entries:
        if func is None:
            c.module(module)
        else:
            c.import_time(module)
            c.names(module, [func])
    return c


def code_files(entries: list[tuple[str, str | None]], per_item: bool = False) -> list[str]:
    """Sorted ``src/termweight/...`` paths reached from ``entries``: (module, function, or None
    for the whole module); ``per_item``: the ``PER_ITEM`` tables are not followed."""
    files = _closure(entries, per_item).files - _dispatcher_files()
    return sorted(relative(p) for p in files)


def entry_specs(command: str, extra_modules: tuple[str, ...] = (),
                item_entries: tuple[tuple[str, str], ...] | None = None) -> list[str]:
    """What ``command_code`` walks from, as words: ``module:function`` of the sub-command, of
    each item entry, ``module:*`` of each extra module, then ``per-item`` when the ``PER_ITEM``
    tables are left out (``termweight.pipeline.codedigest`` walks them again)."""
    module, func = command_entries()[command]
    words = [f"{module}:{func}", *(f"{m}:*" for m in extra_modules),
             *(f"{m}:{f}" for m, f in (item_entries or ()))]
    return list(dict.fromkeys(words)) + (["per-item"] if item_entries is not None else [])


def parse_specs(words) -> tuple[list[tuple[str, str | None]], bool]:
    """``entry_specs`` back to ``(entries, per_item)`` (``*``: the whole module, None)."""
    entries = []
    for w in words:
        if w == "per-item":
            continue
        module, _, func = w.partition(":")
        entries.append((module, None if func == "*" else func))
    return entries, "per-item" in words


def reached(entries: list[tuple[str, str | None]], per_item: bool = False,
            ) -> dict[str, frozenset[str] | None]:
    """``{src/termweight/... path: the top-level names of that file the walk reached}`` for the
    files of ``code_files`` (None: all of the file), what a per-definition digest hashes
    besides each file's import-time code (``termweight.pipeline.codedigest``)."""
    c = _closure(entries, per_item)
    out: dict[str, frozenset[str] | None] = {}
    by_path = {p: m for m, p in _modules().items()}
    for path in c.files - _dispatcher_files():
        module = by_path[path]
        names = {d for m, d in c._seen if m == module}
        mod = _parse(module)
        rows = {f"{t}{ROW}{k}" for t, keys in mod.rows.items() for k in keys}
        out[relative(path)] = (None if "*" in names else
                               frozenset(names & (set(mod.defs) | set(mod.constants) | rows)))
    return out


@functools.cache
def command_entries() -> dict[str, tuple[str, str]]:
    """Sub-command of ``python -m termweight`` -> (module, function) it runs."""
    from termweight.cli import build_parser

    parser = build_parser(["--help"])
    out = {}
    for action in parser._subparsers._group_actions:  # the one sub-parsers action
        for name, sub in action.choices.items():
            func = sub.get_default("func")
            if func is not None:
                out[name] = (func.__module__, func.__qualname__.split(".")[0])
    return out


@functools.cache
def command_code(command: str, extra_modules: tuple[str, ...] = (),
                 item_entries: tuple[tuple[str, str], ...] | None = None) -> list[str]:
    """The files sub-command ``command`` runs (plus all of ``extra_modules``); with
    ``item_entries`` ((module, function) pairs, maybe none), one item's code: the ``PER_ITEM``
    tables left out, those entries in."""
    entries = command_entries()
    if command not in entries:
        raise KeyError(f"no sub-command {command!r} in python -m termweight")
    return code_files([entries[command], *((m, None) for m in extra_modules),
                       *(item_entries or ())], per_item=item_entries is not None)


def runner_modules() -> list[str]:
    """The modules that declare ``RUNNER = True`` (never a stage's dependency)."""
    return sorted(name for name in _modules() if _parse(name).runner)


def import_graph() -> dict[str, set[str]]:
    """Module -> the termweight modules it imports (anywhere in it), for the cycle test."""
    graph = {}
    for name in _modules():
        mod = _parse(name)
        targets = set()
        for scope in [mod.toplevel, *mod.defs.values()]:
            for module, attr, _ in scope.imports:
                sub = f"{module}.{attr}" if attr else None
                targets.add(sub if sub in _modules() else module)
        graph[name] = targets - {name}
    return graph
