"""Snakemake's rules, built from the stage declaration (``workflow/stages.yaml``) that dvc.yaml is
generated from (``termweight.pipeline.dvcyaml``).

A declared stage with a ``snakemake:`` block (or a list of them, e.g. one per ``mode``) becomes
Snakemake rule(s) running the stage's own
command (the generated one: the same words, parameters resolved, code dependencies derived), for
one part of its work per job. The block holds only what Snakemake needs beside DVC's stage; the
DVC generator ignores it. Its keys (all optional):

``rule``
    the rule's name (default: the stage's); ``${key}`` (or ``${item...}``) in it makes one rule
    per ``foreach`` or ``matrix`` item.
``key``
    the wildcard that stands for a ``foreach`` key (one rule over every item); for a ``matrix``,
    a list of its names, each a wildcard (one rule over every combination).
``fanout``
    ``{wildcard: domain}``: the jobs a DVC run of the stage is cut into, e.g. one per CV seed.
    A domain is ``{range: k}`` (``0 .. k-1``), ``{keys: k}`` (a mapping's keys or a list),
    ``{splits: k}`` (the split names of a protocol), ``{folds: k}`` (of k-fold), ``{repeats: k}``
    (of k random splits), ``{weightings: k}`` (the benchmark's weightings, ``all`` spelled out),
    with ``k`` a dotted params.yaml key (``${key}``, ``{wildcard}`` and
    ``${item...}`` resolved first); ``default`` is the value when the key is absent, ``map``
    renames values (``keys`` only). The wildcards fill the command's ``{placeholders}`` and
    its outputs.
``options``, ``before``
    the command-line options that pick a job's part (``--names {split}``), inserted before the
    option ``before`` (default: at the end).
``define``
    ``{placeholder: template}``: a placeholder of the command made of the wildcards
    (``{run}`` is ``{learner}_{rep}``), filled like them.
``fill``
    ``false``: the command keeps its ``{placeholders}`` (the options alone pick the part).
``expand``
    ``{placeholder: domain}``: an input or output path with a ``{placeholder}`` that is not a
    wildcard stands for every value of the domain (the command keeps the template).
``input``, ``output``
    the job's files, where they are not the stage's: the default is the stage's dependencies
    (outputs), each directory replaced by the paths of the command that lie inside it.
``whole``
    ``true``: a directory the stage depends on or writes is the job's file as it is (the
    default is the command's paths inside it).
``log``
    the job's log (default: the command's ``--log`` with ``logs/dvc/`` made ``logs/``).
``tracked``
    the params.yaml values whose change reruns the job: a dotted key (``key?``: None when absent),
    ``{keys: k}`` (a mapping's keys), ``{k: [names]}`` (those entries of a mapping),
    ``{k: {except: [names]}}`` (the others) or ``{benchmark_run: "bench_<dataset>.<field>"}`` (a
    value of the benchmark's generic run, ``termweight.settings.benchmark_runs``).
``drop``
    ``[{when: condition, options: [...], paths: [...]}]``: unless the condition holds, the
    options (with their values) are left out of the command and the paths out of the files.
``threads``
    ``job_cores`` for a job that runs worker processes (``--jobs {threads}`` in ``options``):
    the Snakefile's ``JOB_CORES``.
``mode``
    ``step`` or ``split``: built only under that ``--config fanout=`` (default: both).
``when``
    the condition for the stage to have rules at all, and to be in dvc.yaml (an explicit
    ``when``; ``termweight.pipeline.dvcyaml.included``). A condition is a dotted key (present and
    not empty) or ``"<name> in <dotted key>"``. Default for a paper's stage: the params.yaml
    section its name starts with (``ferreira_run`` -> ``ferreira``).

Reports (``snakemake --report``): the outputs under ``reports/`` that are PNG figures, JSON
metrics or tables carry the paper's category and caption (the top-level ``snakemake: papers:``
block of the declaration, by stage-name prefix), subcategory their folder (``Tables`` ...).
Each paper's target (``snakemake <paper>``) is its stages' outputs under ``reports/`` (or every
output of a stage whose block says ``target: all``); ``target: <name>`` puts a stage's outputs
in the target ``<name>`` of the top-level ``snakemake: targets:`` list (not a paper's).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from termweight.errors import ConfigError
from termweight.pipeline.dvcyaml import DECLARATION, _lookup, _resolve, holds

_WILD = re.compile(r"(?<!\$)\{([a-z_]+)\}")
_LOG = re.compile(r"--log (\S+)")


def _value(params: dict, dotted: str, where: str, optional: bool = False):
    try:
        return _lookup(params, dotted, where)
    except ConfigError:
        if optional:
            return None
        raise


_RUNS: list = []  # [(params, its benchmark runs)]: the last params object seen


def _benchmark_runs(params: dict) -> dict:
    """``termweight.settings.benchmark_runs(params)``, computed once per params object (Snakemake
    builds every rule from one config: it was recomputed for each of ~2,800 tracked values)."""
    from termweight.settings import benchmark_runs

    if not _RUNS or _RUNS[0][0] is not params:
        _RUNS[:] = [(params, benchmark_runs(params))]
    return _RUNS[0][1]


class _Context:
    """One job's substitutions: wildcards (``{w}``), then ``${key}``/``${item...}``/``${a.b}``."""

    def __init__(self, key, item, params, wildcards, where):
        self.key, self.item, self.params, self.wildcards, self.where = (
            key, item, params, wildcards, where)

    def __call__(self, text: str) -> str:
        text = _WILD.sub(lambda m: str(self.wildcards.get(m.group(1), m.group(0))), text)
        return _resolve(text, self.key, self.item, self.params, self.where)

    def domain(self, spec) -> list[str]:
        from termweight.splits import split_names

        (kind, dotted), = ((k, v) for k, v in spec.items() if k not in ("map", "default"))
        value = _value(self.params, self(dotted), self.where, optional="default" in spec)
        if value is None:
            value = spec["default"]
        if kind == "range":
            return [str(i) for i in range(int(value))]
        if kind == "keys":
            return [str(spec.get("map", {}).get(v, v)) for v in value]
        if kind == "splits":
            return split_names(value)
        if kind == "folds":
            return split_names({"type": "kfold", "folds": value})
        if kind == "repeats":
            return split_names({"type": "random", "repeats": value})
        if kind == "weightings":  # the benchmark's weightings ("all": every registered one)
            from termweight.weighting import benchmark_encodings

            return benchmark_encodings(value)
        raise ConfigError(f"{self.where}: unknown domain {kind!r}")

    def tracked(self, specs) -> list:
        out = []
        for spec in specs:
            if isinstance(spec, str):
                out.append(_value(self.params, self(spec.rstrip("?")), self.where,
                                  optional=spec.endswith("?")))
                continue
            (dotted, sel), = spec.items()
            if dotted == "keys":
                out.append(list(_value(self.params, self(sel), self.where)))
                continue
            if dotted == "benchmark_run":  # a value of the benchmark's generic run
                run, field = self(sel).split(".", 1)
                out.append(_lookup(_benchmark_runs(self.params)[run], field, self.where))
                continue
            section = _value(self.params, self(dotted), self.where)
            if isinstance(sel, dict):
                out.append({k: v for k, v in section.items() if k not in sel["except"]})
            else:
                out.append({k: section[k] for k in sel})
        return out


def _expand(paths: list[str], ctx: _Context, domains: dict) -> list[str]:
    """Each path with its non-wildcard ``{placeholders}`` taken over their domains, in the order
    the domains are declared (a domain may name an earlier placeholder)."""
    out = []
    for path in paths:
        names = [n for n in domains if "{" + n + "}" in path]
        if not names:
            out.append(path)
            continue

        def walk(i, values, names=names, path=path):
            if i == len(names):
                sub = _Context(ctx.key, ctx.item, ctx.params, {**ctx.wildcards, **values},
                               ctx.where)
                out.append(sub(path))
                return
            sub = _Context(ctx.key, ctx.item, ctx.params, {**ctx.wildcards, **values}, ctx.where)
            for v in sub.domain(domains[names[i]]):
                walk(i + 1, {**values, names[i]: v})

        walk(0, {})
    return out


def _drop_options(words: list[str], options) -> list[str]:
    out, i = [], 0
    while i < len(words):
        if words[i] in options:
            i += 1
            while i < len(words) and not words[i].startswith("--"):
                i += 1
            continue
        out.append(words[i])
        i += 1
    return out


def _inside(path: str, root: str) -> bool:
    return path.startswith(root.rstrip("/") + "/")


def _is_dir(path: str) -> bool:
    return "." not in path.rsplit("/", 1)[-1]


def _paths(entries) -> list[str]:
    return [next(iter(e)) if isinstance(e, dict) else e for e in entries or []]


def _job(body: dict, sm: dict, ctx: _Context, pattern: bool = False) -> dict:
    """One job: its command, files, log and tracked values (``pattern``: only the outputs and the
    log, wildcards kept)."""
    dropped_opts, dropped_paths = [], set()
    for d in sm.get("drop", []):
        if not holds(ctx(d["when"]), ctx.params):
            dropped_opts += d.get("options", [])
            dropped_paths |= {ctx(p) for p in d.get("paths", [])}
    # ``fill: false``: the command keeps its {placeholders}, the options pick the job's part
    # (``define``: placeholders of the command that are made of the wildcards, e.g. {run})
    defined = {n: ctx(t) for n, t in sm.get("define", {}).items()}
    cmd = _Context(ctx.key, ctx.item, ctx.params, {**ctx.wildcards, **defined}, ctx.where)(
        body["cmd"]) if sm.get("fill", True) else _Context(
        ctx.key, ctx.item, ctx.params, {}, ctx.where)(body["cmd"])
    default_log = _LOG.search(cmd).group(1).replace("logs/dvc/", "logs/", 1)
    log = ctx(sm["log"]) if "log" in sm else default_log
    words = _drop_options(shlex.split(cmd), dropped_opts)
    words[words.index("--log") + 1] = log
    if "options" in sm:
        extra = shlex.split(ctx(sm["options"]))
        at = words.index(sm["before"]) if "before" in sm else len(words)
        words[at:at] = extra
    cmd = shlex.join(words).replace("'{threads}'", "{threads}")
    domains = sm.get("expand", {})

    def files(kind: str, declared) -> list[str]:
        stage_paths = [ctx(p) for p in _paths(body.get(kind))]
        if kind == "outs":
            stage_paths += [ctx(p) for p in _paths(body.get("metrics"))]
        if declared is not None:
            code = [p for p in stage_paths if p.endswith(".py")]
            paths = code + [ctx(p) for p in declared]
        else:
            paths = []
            for p in stage_paths:
                if _is_dir(p) and not p.endswith(".py") and not sm.get("whole"):
                    inside = [w for w in words if _inside(w, p)]
                    if not inside:
                        raise ConfigError(f"{ctx.where}: no path of the command lies in {p}: "
                                          f"declare the rule's `{kind}`")
                    paths += inside
                else:
                    paths.append(p)
        paths = [p for p in _expand(paths, ctx, domains) if p not in dropped_paths]
        return list(dict.fromkeys(paths))

    if pattern:
        return {"log": log, "output": files("outs", sm.get("output"))}
    return {"cmd": cmd, "log": log,
            "input": files("deps", sm.get("input")),
            "output": files("outs", sm.get("output")),
            "tracked": _tracked(ctx, sm)}


def _tracked(ctx: _Context, sm: dict):
    if "tracked" not in sm:
        return None
    t = sm["tracked"]
    return ctx.tracked(t) if isinstance(t, list) else ctx.tracked([t])[0]


def _section(value, params: dict, where: str):
    if isinstance(value, str):
        return _lookup(params, re.fullmatch(r"\$\{([^{}]+)\}", value.strip()).group(1), where)
    return value


def _foreach(stage: dict, params: dict, where: str) -> list[tuple]:
    """(key, item) of each DVC instance: ``foreach`` (a mapping or list) or ``matrix`` (item: a
    mapping of one value per name, key: the values joined by ``-`` as DVC names them)."""
    if "matrix" in stage:
        names = list(stage["matrix"])
        values = [list(_section(stage["matrix"][n], params, where)) for n in names]
        combos = [[]]
        for vs in values:
            combos = [c + [v] for c in combos for v in vs]
        return [("-".join(map(str, c)), dict(zip(names, c, strict=True))) for c in combos]
    if "foreach" not in stage:
        return [(None, None)]
    each = _section(stage["foreach"], params, where)
    return list(each.items()) if isinstance(each, dict) else [(v, v) for v in each]


def _rule_specs(name: str, stage: dict, sm: dict, params: dict) -> list[dict]:
    where = f"{DECLARATION}: stages/{name}/snakemake"
    body = stage.get("do", stage)
    rule = sm.get("rule", name)
    keyname = sm.get("key")
    per_item = "${" in rule
    specs: dict[str, dict] = {}
    for key, item in _foreach(stage, params, where):
        rname = _resolve(rule, key, item, params, where) if per_item else rule
        spec = specs.setdefault(rname, {"name": rname, "wildcards": {}, "jobs": {}})
        if isinstance(keyname, list):  # a matrix: one wildcard per name
            base = {n: str(item[n]) for n in keyname}
        else:
            base = {} if per_item or key is None else {keyname: str(key)}
        for w, v in base.items():
            if v not in spec["wildcards"].setdefault(w, []):
                spec["wildcards"][w].append(v)
        fan = sm.get("fanout", {})
        combos = [{}]
        for w, dom in fan.items():  # a domain may name the wildcards before it
            combos = [{**c, w: v} for c in combos
                      for v in _Context(key, item, params, {**base, **c}, where).domain(dom)]
        for combo in combos:
            for w, v in combo.items():
                if v not in spec["wildcards"].setdefault(w, []):
                    spec["wildcards"][w].append(v)
            wild = {**base, **combo}
            ctx = _Context(key, item, params, wild, where)
            spec["jobs"][tuple(sorted(wild.items()))] = _job(body, sm, ctx)
        # the output and log patterns: wildcards kept
        if isinstance(keyname, list):
            sym_item = {n: "{" + n + "}" for n in keyname}
            sym = "-".join(sym_item.values())
        elif per_item or key is None:
            sym, sym_item = key, item
        else:  # the key is a wildcard (an output naming an item's field fails the check below)
            sym = "{" + keyname + "}"
            sym_item = sym if item == key else item
        pattern_ctx = _Context(sym, sym_item, params,
                               {w: "{" + w + "}" for w in [*base, *fan]}, where)
        pat = _job(body, sm, pattern_ctx, pattern=True)
        for field in ("output", "log"):
            if spec.setdefault(field, pat[field]) != pat[field]:
                raise ConfigError(f"{where}: the items of rule {rname} have other {field}s")
    return list(specs.values())


def snakemake_rules(root: Path, params: dict, rules_dir: str = "workflow/rules",
                    fanout: str = "step") -> tuple[list[dict], dict[str, dict]]:
    """The rules of every declared stage with a ``snakemake`` block whose condition holds (and
    whose ``mode``, if any, is ``fanout``), in the declaration's order, and the targets: each
    paper's and each of the top-level ``snakemake: targets:`` (name -> ``files``, ``paper``).
    A rule: ``name``, ``wildcards`` (name -> values), ``output`` and ``log`` patterns,
    ``threads``, ``report`` (output -> category, subcategory, caption) and ``jobs`` (sorted
    wildcard items -> ``cmd``, ``input``, ``output``, ``log``, ``tracked``). Captions are made
    relative to ``rules_dir``, where the rules are defined. The declarations are
    workflow/stages.yaml's and each paper package's ``stages.yaml``
    (``termweight.pipeline.dvcyaml.declarations``)."""
    from termweight.pipeline.dvcyaml import declarations

    rules: dict[str, dict] = {}
    targets: dict[str, dict] = {}
    for where, decl in declarations(root, params):
        _declared_rules(root, where, decl, params, rules_dir, fanout, rules, targets)
    return list(rules.values()), {n: {**t, "files": list(dict.fromkeys(t["files"]))}
                                  for n, t in targets.items()}


def _papers_of(root: Path, where: str, decl: dict) -> tuple[dict, str | None]:
    """``(paper name -> {category, caption (root-relative or absolute)}, the package's paper)``
    of one declaration: workflow/stages.yaml's ``snakemake: papers:``; a paper package's
    ``snakemake: paper:`` (its caption relative to the package), for every stage it declares."""
    top = decl.get("snakemake") or {}
    if "paper" not in top:
        return top.get("papers", {}), None
    home = Path(where).parent
    if not home.is_absolute():
        home = root / home
    own = home.name
    return {own: {**top["paper"], "caption": str(home / top["paper"]["caption"])}}, own


def _declared_rules(root: Path, where: str, decl: dict, params: dict, rules_dir: str,
                    fanout: str, rules: dict, targets: dict) -> None:
    """The rules and targets of one declaration's ``snakemake`` blocks (``snakemake_rules``)."""
    import os

    from termweight.pipeline.dvcyaml import _stage

    papers, own = _papers_of(root, where, decl)
    for name, d, sm in _blocks(decl):
        if sm.get("mode", fanout) != fanout:
            continue
        section = own or name.split("_", 1)[0]
        paper = papers.get(section)
        if not holds(sm.get("when", section if paper else None), params):
            continue
        # a stage grouped by code is several generated stages: their jobs make one rule
        for stage in _stage(name, d, params, registered=True).values():
            for spec in _rule_specs(name, stage, sm, params):
                spec["threads"] = sm.get("threads", 1)
                spec["report"] = {}
                for o in spec["output"]:
                    if paper and o.startswith("reports/") and (
                            o.endswith((".png", ".json")) or o.startswith("reports/tables/")):
                        caption = Path(paper["caption"])
                        spec["report"][o] = {"category": paper["category"],
                                             "subcategory": o.split("/")[1].capitalize(),
                                             "caption": os.path.relpath(
                                                 caption, root / rules_dir if
                                                 caption.is_absolute() else rules_dir)}
                target = sm.get("target")
                if paper or target not in (None, "all"):
                    t = targets.setdefault(section if paper else target,
                                           {"files": [], "paper": bool(paper)})
                    t["files"] += [o for job in spec["jobs"].values() for o in job["output"]
                                   if target is not None or o.startswith("reports/")]
                _merge(rules, spec, name)
    for name in (decl.get("snakemake") or {}).get("targets", []):  # defined even when empty
        targets.setdefault(name, {"files": [], "paper": False})


def _blocks(decl: dict):
    """(stage name, stage, block) for each ``snakemake`` block (a stage may have a list)."""
    for name, d in (decl.get("stages") or {}).items():
        blocks = d.get("snakemake")
        for sm in blocks if isinstance(blocks, list) else [blocks] if blocks else []:
            yield name, d, sm


def _merge(rules: dict, spec: dict, stage: str) -> None:
    have = rules.get(spec["name"])
    if have is None:
        rules[spec["name"]] = spec
        return
    for field in ("output", "log", "threads", "report"):
        if have[field] != spec[field]:
            raise ConfigError(f"{DECLARATION}: stages/{stage}: the groups of rule {spec['name']} "
                              f"have other {field}s")
    for w, values in spec["wildcards"].items():
        have["wildcards"].setdefault(w, []).extend(
            v for v in values if v not in have["wildcards"][w])
    have["jobs"].update(spec["jobs"])


def _job_of(spec: dict):
    """A rule's job for the wildcards Snakemake matched (the jobs are made in advance)."""
    names = sorted(spec["wildcards"])

    def job(wildcards):
        return spec["jobs"][tuple((n, wildcards[n]) for n in names)]

    return job


def job_input(spec: dict):
    """The rule's input function."""
    job = _job_of(spec)
    return lambda wildcards: job(wildcards)["input"]


def job_params(spec: dict) -> dict:
    """The rule's params: ``cmd`` (the job's command, run by ``shell: "{params.cmd}"``) and, where
    declared, ``tracked`` (values whose change reruns the job)."""
    job = _job_of(spec)
    if spec.get("threads", 1) != 1:  # the command's {threads}: the job's (derived: not tracked)
        params = {"cmd": lambda wildcards, threads: job(wildcards)["cmd"].replace(
            "{threads}", str(threads))}
    else:
        params = {"cmd": lambda wildcards: job(wildcards)["cmd"]}
    if any(j["tracked"] is not None for j in spec["jobs"].values()):
        params["tracked"] = lambda wildcards: job(wildcards)["tracked"]
    return params
