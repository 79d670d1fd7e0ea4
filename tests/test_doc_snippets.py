"""Every snippet in README.md, CONTRIBUTING.md and docs/ runs as written, and every link resolves.

- ```python blocks of a file run in order, in one fresh interpreter, from the repository root.
- ```bash blocks: every command runs. Workflow commands that would compute for minutes or hours
  are checked without computing: `snakemake ...` as a dry run (`-n`: its targets, rules and DAG
  must resolve), `dvc repro STAGES` as `dvc status STAGES` (the stages must exist and their
  pipeline must resolve), `restore-from-dvc STAGES -- TARGETS` as both; `dvc dag ...` (it
  writes nothing) runs as written. The README's quick-start block is
  run whole by tests/test_quickstart.py and .ci/run, so it is skipped here.
- ```yaml blocks that are params.yaml fragments are merged into params.yaml and validated
  against the schema.
- A block with a title (```python title="src/termweight/datasets/x.py"```, ```yaml
  title="params.yaml"```) is a FILE of a tutorial: it is not run as a snippet; the page's bash
  commands are checked in a copy of the project with those files written (and the params merged),
  and tests/test_extending.py runs the tutorial for real.
- Relative links ``[text](path)`` and images must name files that exist.

tests/test_docs.py checks the API reference and builds the documentation site.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from workflow_utils import REPO, env

DOCS = sorted([REPO / "README.md", REPO / "CONTRIBUTING.md", *(REPO / "docs").rglob("*.md")])
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```", re.M | re.S)
TITLE = re.compile(r'title="([^"]+)"')


def blocks(path: Path, lang: str) -> list[str]:
    """The untitled blocks of language ``lang`` (titled blocks are tutorial files)."""
    return [body for kind, info, body in FENCE.findall(path.read_text())
            if kind == lang and not TITLE.search(info)]


#: titled blocks that are fragments to merge into the project's file, not whole files
FRAGMENTS = ("params.yaml", "workflow/schemas/params.schema.yaml", "dvc.yaml")


def tutorial_files(path: Path) -> dict[str, str]:
    """The titled blocks of a page: file path -> content (fragments of the same file merged)."""
    out: dict[str, str] = {}
    for _, info, body in FENCE.findall(path.read_text()):
        m = TITLE.search(info)
        if not m:
            continue
        name = m.group(1)
        if name in FRAGMENTS and name in out:
            body = yaml.safe_dump(merge_params(yaml.safe_load(out[name]), yaml.safe_load(body)),
                                  sort_keys=False)
        out[name] = body
    return out


def merge_schema(root: Path, frag: dict) -> None:
    """Add a page's schema fragment (``properties:`` entries) to the project's schema."""
    path = root / "workflow/schemas/params.schema.yaml"
    schema = yaml.safe_load(path.read_text())
    schema["properties"].update(frag.get("properties", {}))
    path.write_text(yaml.safe_dump(schema, sort_keys=False))


def merge_params(base: dict, frag: dict) -> dict:
    """``frag`` over ``base``, mappings merged key by key at every depth (a list replaces)."""
    merged = dict(base)
    for key, value in frag.items():
        merged[key] = (merge_params(merged[key], value) if isinstance(value, dict)
                       and isinstance(merged.get(key), dict) else value)
    return merged


def merge_stages(root: Path, frag: dict) -> None:
    """Append a page's ``dvc.yaml`` stanzas to the project's, as a user adds them by hand."""
    text = yaml.safe_dump({"stages": frag["stages"]}, sort_keys=False).split("\n", 1)[1]
    with open(root / "dvc.yaml", "a") as fh:
        fh.write(text)


def tutorial_project(path: Path, dest: Path) -> Path:
    """A copy of the project with the page's tutorial files written (params merged)."""
    from workflow_utils import make_project

    files = tutorial_files(path)
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    if "params.yaml" in files:
        params = merge_params(params, yaml.safe_load(files.pop("params.yaml")))
    root = make_project(dest, params)
    schema = files.pop("workflow/schemas/params.schema.yaml", None)
    if schema is not None:  # the page's entries added to the schema's sections
        merge_schema(root, yaml.safe_load(schema))
    stages = files.pop("dvc.yaml", None)
    if stages is not None:  # the page's stanzas appended to dvc.yaml
        merge_stages(root, yaml.safe_load(stages))
    for rel, body in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)
    return root


def ids(path: Path) -> str:
    return str(path.relative_to(REPO))


def commands(block: str) -> list[list[str]]:
    """The simple commands of a bash block (comments dropped, `&&` chains split)."""
    out = []
    for line in block.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        out.extend(shlex.split(part) for part in line.split("&&"))
    return out


def sh(argv, cwd=REPO, timeout=600):
    e = env()
    if cwd != REPO:  # a tutorial project: its own src/ (with the tutorial's files) comes first
        e["PYTHONPATH"] = str(Path(cwd) / "src")
    res = subprocess.run(argv, cwd=cwd, env=e, capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, (f"{shlex.join(argv)} failed:\n{res.stdout[-2000:]}\n"
                                 f"{res.stderr[-2000:]}")
    return res


#: snakemake options that take a value (the rest of a command's words are its targets)
SMK_VALUE_OPTIONS = {"--cores", "-c", "--jobs", "-j", "--profile", "--config", "--configfile"}


def plan(argvs: list[list[str]]) -> tuple[dict, list[str], list[list[str]]]:
    """The checks that documented commands need, merged: ``{snakemake options: targets}`` (one dry
    run per distinct set of options), the DVC stages (one `dvc status`), and the other commands."""
    snakemake: dict[tuple[str, ...], list[str]] = {}
    stages: list[str] = []
    others: list[list[str]] = []

    def add(opts, targets):
        merged = snakemake.setdefault(tuple(opts), [])
        merged.extend(t for t in (targets or ["all"]) if t not in merged)  # none: the default

    for argv in argvs:
        prog = argv[0]
        if prog == "snakemake":
            opts, targets, words = [], [], iter(argv[1:])
            for word in words:
                if not word.startswith("-"):
                    targets.append(word)
                elif word in ("--cores", "-c"):  # changes no plan: one dry run for any count
                    next(words)
                else:
                    opts += [word, next(words)] if word in SMK_VALUE_OPTIONS else [word]
            add(opts, targets)
        elif prog == "dvc" and argv[1] == "repro":
            stages.extend(a for a in argv[2:] if a not in stages)
        elif prog.endswith("restore-from-dvc"):
            assert (REPO / prog).stat().st_mode & 0o111, f"{prog} is not executable"
            args = [a for a in argv[1:] if a != "--no-pull"]
            cut = args.index("--") if "--" in args else len(args)
            stages.extend(a for a in args[:cut] if a not in stages)
            add([], args[cut + 1:])
        elif prog == "python" or prog.endswith("/python"):
            others.append([sys.executable, *argv[1:]])
        elif prog == "dvc" and argv[1] == "dag":  # reads the graph, writes nothing: run it
            others.append(argv)
        else:
            pytest.fail(f"no rule to check the documented command {shlex.join(argv)!r}: add one to "
                        "tests/test_doc_snippets.py")
    return snakemake, stages, others


def checks(argvs: list[list[str]]) -> list[list[str]]:
    """The commands that check ``argvs``: `snakemake ...` as a dry run (`-n`: its targets, rules
    and DAG must resolve), `dvc repro STAGES` as `dvc status STAGES`, `restore-from-dvc STAGES --
    TARGETS` as both, `python ...` and `dvc dag ...` for real."""
    snakemake, stages, others = plan(argvs)
    return ([["snakemake", *targets, *opts, "-n", "--quiet", "rules"]  # --quiet takes words
             for opts, targets in snakemake.items()]
            + ([["dvc", "status", *stages]] if stages else []) + others)


def check_commands(argvs: list[list[str]], cwd=REPO) -> None:
    """Every command of ``argvs`` resolves, with one dry run and one `dvc status` for all of them
    (two at a time: the machine's cores). A merged check that fails is retried command by command
    so that the message names the documented command that fails."""
    from concurrent.futures import ThreadPoolExecutor

    def ok(argv):
        try:
            sh(argv, cwd)
        except AssertionError:
            return False
        return True

    merged = checks(argvs)
    with ThreadPoolExecutor(2) as pool:
        failed = [c for c, good in zip(merged, pool.map(ok, merged), strict=True) if not good]
    for check in failed:
        for argv in argvs:
            for single in checks([argv]):
                if single[0] == check[0]:
                    sh(single, cwd)  # fails with the documented command and its output
        sh(check, cwd)  # fails only when merged: show that


def documented_commands(path: Path) -> list[list[str]]:
    """The commands of a page's bash blocks, the README's quick start excepted (it runs whole in
    tests/test_quickstart.py and .ci/run)."""
    return [argv for block in blocks(path, "bash") if "python3 -m venv" not in block
            for argv in commands(block)]


@pytest.mark.parametrize("path", [p for p in DOCS if blocks(p, "python")], ids=ids)
def test_python_snippets_run(path, tmp_path):
    script = tmp_path / "snippets.py"
    script.write_text("\n\n".join(blocks(path, "python")))
    res = subprocess.run([sys.executable, str(script)], cwd=REPO, env=env(), capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, f"{path.name}:\n{res.stderr[-3000:]}"


@pytest.mark.slow
def test_bash_snippets_resolve():
    """The commands of every page but the tutorials, checked in this repository all at once."""
    pages = [p for p in DOCS if blocks(p, "bash") and not tutorial_files(p)]
    check_commands([argv for p in pages for argv in documented_commands(p)])


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in DOCS if blocks(p, "bash") and tutorial_files(p)],
                         ids=ids)
def test_tutorial_bash_snippets_resolve(path, tmp_path):
    """A tutorial's commands, in a copy of the project with the page's files written."""
    check_commands(documented_commands(path), tutorial_project(path, tmp_path / "project"))


def yaml_fragments(path: Path) -> list[str]:
    files = tutorial_files(path)
    return blocks(path, "yaml") + ([files["params.yaml"]] if "params.yaml" in files else [])


@pytest.mark.parametrize("path", [p for p in DOCS if yaml_fragments(p)], ids=ids)
def test_yaml_snippets_are_valid_params(path):
    from termweight.datasets import DATASETS
    from termweight.runner import config

    schema = yaml.safe_load((REPO / "workflow/schemas/params.schema.yaml").read_text())
    page_schema = tutorial_files(path).get("workflow/schemas/params.schema.yaml")
    if page_schema:  # the page's own schema entries (a new paper's section)
        schema["properties"].update(yaml.safe_load(page_schema).get("properties", {}))
    base = yaml.safe_load((REPO / "params.yaml").read_text())
    before = set(DATASETS)
    try:
        for rel, body in tutorial_files(path).items():  # the tutorial's dataset declarations
            if rel.startswith("src/termweight/datasets/") and rel.endswith(".py"):
                exec(compile(body, rel, "exec"), {"__name__": "tutorial"})
        added = {Path(rel).stem for rel in tutorial_files(path)  # the page's weighting modules:
                 if rel.startswith("src/termweight/weightings/")}  # tests/test_benchmark_tools.py
        for block in yaml_fragments(path):
            frag = yaml.safe_load(block)
            assert isinstance(frag, dict), block
            if added and "modules" in frag.get("benchmark", {}):
                frag["benchmark"]["modules"] = [m for m in frag["benchmark"]["modules"]
                                                if m not in added]
            merged = merge_params(base, frag)
            config.validate(merged, schema, source=f"{path.name} snippet")
            config.check_names(merged, source=f"{path.name} snippet")
    finally:
        for name in set(DATASETS) - before:
            del DATASETS[name]


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("path", DOCS, ids=ids)
def test_links_resolve(path):
    for target in LINK.findall(path.read_text()):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file = (path.parent / target.split("#", 1)[0]).resolve()
        assert file.exists(), f"{path.name}: broken link {target}"


def test_readme_is_a_front_page():
    assert len((REPO / "README.md").read_text().splitlines()) <= 150
    # its results table is the one the metrics give
    sh([sys.executable, "-m", "termweight", "report-summary", "--readme", "README.md", "--check"])


def test_paper_pages_show_the_claims_of_the_metrics():
    """Each docs/papers page's claims block is the one its metrics JSON gives."""
    sh([sys.executable, "-m", "termweight", "report-summary", "--docs", "docs/papers", "--check"])


def _dvc_graph():
    """Stage -> (deps, outs) of dvc.yaml's paper stages (no foreach: those are the generic ones)."""
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    graph = {}
    for name, st in stages.items():
        if "foreach" in st:
            continue
        outs = [o if isinstance(o, str) else next(iter(o))
                for key in ("outs", "metrics", "plots") for o in st.get(key, [])]
        graph[name] = (st.get("deps", []), outs)
    return graph


@pytest.mark.parametrize("paper", ["esuli", "mukras", "forman", "kim", "ferreira"])
def test_each_papers_dvc_command_rebuilds_all_its_reports(paper):
    """The `dvc repro` line of docs/papers/<paper>.md reaches every stage of the paper that
    writes into reports/ (dvc repro esuli_report once left esuli_figure stale)."""
    graph = _dvc_graph()
    page = REPO / "docs/papers" / f"{paper}.md"
    targets = [a for block in blocks(page, "bash") for argv in commands(block)
               if argv[:2] == ["dvc", "repro"] for a in argv[2:]]
    producer = {o: s for s, (_, outs) in graph.items() for o in outs}

    def upstream(stage, seen):
        if stage in seen or stage not in graph:
            return seen
        seen.add(stage)
        for dep in graph[stage][0]:
            for out, s in producer.items():
                if dep == out or dep.startswith(out.rstrip("/") + "/") or out.startswith(dep + "/"):
                    upstream(s, seen)
        return seen

    reached = set()
    for t in targets:
        upstream(t, reached)
    needed = {s for s, (_, outs) in graph.items() if s.startswith(paper + "_")
              and any(o.startswith("reports/") for o in outs)}
    assert needed <= reached, f"{page.name}: `dvc repro` misses {sorted(needed - reached)}"
