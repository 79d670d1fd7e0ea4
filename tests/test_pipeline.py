"""The pipeline's two declarations, dvc.yaml and the Snakemake rules, describe one graph: stage for
job, the same command, outputs, inputs and params; each stage lists exactly the code its step
imports (workflow/scripts/codefiles.py), never the runner's, and the weighting modules it
computes with."""

from __future__ import annotations

import functools
import re
import shlex
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "workflow" / "scripts"))

#: rules that are targets (no command) or that read committed results the other tool lists as a
#: directory: the report reads every result under reports/ (DVC: the directories, so `dvc repro`
#: reproduces everything; Snakemake: the generic experiments' files, and the papers' and the
#: benchmark's committed results as a content hash, so the default target never reruns a paper)
TARGETS = {"all", "experiments", "papers", "benchmark", "esuli", "mukras", "forman", "kim",
           "ferreira"}


@functools.cache
def dvc_stages(root: Path = REPO) -> dict[str, dict]:
    """DVC's stages as DVC itself resolves dvc.yaml and workflow/benchmark/dvc.yaml: name -> cmd,
    deps, outs, params (values), code (the digests it reads from data/code.yaml)."""
    from dvc.repo import Repo

    params = yaml.safe_load((root / "params.yaml").read_text())
    digests = yaml.safe_load((root / "data/code.yaml").read_text())
    out = {}
    with Repo(str(root)) as repo:
        for stage in repo.index.stages:
            keys, code = {}, {}
            for dep in stage.deps:
                if hasattr(dep, "params") and Path(dep.def_path).as_posix() == "data/code.yaml":
                    code.update({k: digests.get(k) for k in dep.params})  # the code it reads
                elif hasattr(dep, "params"):  # a ParamsDependency: its keys of params.yaml
                    for key in dep.params or []:  # an optional key may be absent
                        if (value := _value(params, key)) is not _ABSENT:
                            keys[key] = value
                    if not dep.params:
                        keys["params.yaml"] = params
            out[stage.name] = {  # unique across the dvc.yaml files
                "cmd": stage.cmd,
                "deps": {str(Path(d.def_path)) for d in stage.deps if not hasattr(d, "params")},
                "outs": {str(Path(o.def_path)) for o in stage.outs},
                "params": keys,
                "code": code,
            }
    return out


_ABSENT = object()


def _value(params, key):
    node = params
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return _ABSENT
        node = node[part]
    return node


@functools.cache
def snakemake_jobs(root: Path = REPO, targets=("all", "benchmark", "papers", "data/code.yaml")
                   ) -> dict[str, dict]:
    """Snakemake's jobs for ``targets`` (the default target, every paper, the benchmark and the
    code digests), forced
    (every job, whatever is on disk): first output -> rule, command, inputs, outputs, params.

    Another project's jobs are read in a process of its own, on that project's ``src/``: a
    project with a new dataset or paper module declares what this process has not imported."""
    if Path(root).resolve() == REPO:
        return _jobs(root, targets)
    import json
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "jobs.json"
        code = ("import json, sys; from test_pipeline import _jobs; "
                "json.dump({k: {**v, 'deps': sorted(v['deps']), 'outs': sorted(v['outs'])} "
                "for k, v in _jobs(sys.argv[1], tuple(sys.argv[3:])).items()}, "
                "open(sys.argv[2], 'w'))")
        env = {**os.environ,
               "PYTHONPATH": os.pathsep.join([str(Path(root) / "src"), str(Path(__file__).parent)])}
        res = subprocess.run([sys.executable, "-c", code, str(root), str(out), *targets], env=env,
                             capture_output=True, text=True, check=False)
        assert res.returncode == 0, res.stderr[-3000:]
        jobs = json.loads(out.read_text())
    return {k: {**v, "deps": set(v["deps"]), "outs": set(v["outs"])} for k, v in jobs.items()}


def _jobs(root, targets) -> dict[str, dict]:
    """:func:`snakemake_jobs`, in this process."""
    import os

    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import DAGSettings, OutputSettings, ResourceSettings

    here = os.getcwd()
    os.chdir(root)
    try:
        with SnakemakeApi(OutputSettings()) as api:
            wf = api.workflow(resource_settings=ResourceSettings(cores=1),
                              snakefile=Path("Snakefile"), workdir=Path("."))
            dag_api = wf.dag(DAGSettings(targets=set(targets), forceall=True))
            workflow = dag_api.workflow_api._workflow
            workflow.dag_settings = dag_api.dag_settings
            workflow._prepare_dag(forceall=True, ignore_incomplete=True, lock_warn_only=True,
                                  nolock=True)
            workflow._build_dag()
            jobs = {}
            for job in workflow.dag.jobs:
                if job.rule.name in TARGETS or job.shellcmd is None:  # a target: no command
                    continue
                outputs = sorted(str(o) for o in job.output)
                jobs[outputs[0]] = {
                    "rule": job.rule.name, "cmd": " ".join(job.shellcmd.split()),
                    "deps": {str(i) for i in job.input}, "outs": set(outputs),
                    "params": dict(job.params.items()).get("tracked", {}),
                    "code": dict(job.params.items()).get("code", {}),
                }
            return jobs
    finally:
        os.chdir(here)


def _pairs(root: Path = REPO):
    """(stage name, stage, job) for every DVC stage, matched to the job with its first output."""
    jobs = snakemake_jobs(root)
    for name, stage in sorted(dvc_stages(root).items()):
        yield name, stage, jobs.get(sorted(stage["outs"])[0])


def graph_problems(root: Path = REPO, only=None) -> list[str]:
    """What differs between the stages of ``root``'s dvc.yaml (those named in ``only``, if given)
    and Snakemake's jobs: a missing job, another command, other params, outputs or inputs."""
    bad = []
    for name, stage, job in _pairs(root):
        if only is not None and name.split("@")[0] not in only:
            continue
        if job is None:
            bad.append(f"{name}: no Snakemake job")
            continue
        if " ".join(stage["cmd"].split()) != job["cmd"]:
            bad.append(f"{name}: command\n  dvc: {stage['cmd']}\n  smk: {job['cmd']}")
        if stage["params"] != job["params"]:
            bad.append(f"{name}: params dvc {sorted(stage['params'])} smk {sorted(job['params'])}")
        if stage["code"] != job["code"]:
            bad.append(f"{name}: code dvc {stage['code']} smk {job['code']}")
        if stage["outs"] != job["outs"]:
            bad.append(f"{name}: outputs dvc {sorted(stage['outs'])} smk {sorted(job['outs'])}")
        if any(not _covered(i, stage["deps"]) for i in job["deps"]):
            bad.append(f"{name}: inputs {sorted(job['deps'] - stage['deps'])[:5]} not in dvc.yaml")
    return bad


def test_every_stage_is_a_job_and_every_job_a_stage():
    stages, jobs = dvc_stages(), snakemake_jobs()
    missing = [n for n, s, job in _pairs() if job is None and n != "report"]
    firsts = {sorted(s["outs"])[0] for s in stages.values()}
    extra = [j["rule"] + ": " + out for out, j in jobs.items()
             if out not in firsts and j["rule"] != "report"]
    assert not missing, f"DVC stages without a Snakemake job: {missing[:10]}"
    assert not extra, f"Snakemake jobs without a DVC stage: {extra[:10]}"


def test_each_stage_and_its_job_run_the_same_command_with_the_same_params():
    bad = []
    for name, stage, job in _pairs():
        if job is None:
            continue
        if " ".join(stage["cmd"].split()) != job["cmd"]:
            bad.append(f"{name}: command\n  dvc: {stage['cmd']}\n  smk: {job['cmd']}")
        elif name != "report" and stage["params"] != job["params"]:
            bad.append(f"{name}: params dvc {sorted(stage['params'])} smk {sorted(job['params'])}")
    assert not bad, "\n".join(bad[:10])


def _covered(path: str, deps: set[str]) -> bool:
    return any(path == d or path.startswith(d.rstrip("/") + "/") for d in deps)


def test_each_stage_and_its_job_read_and_write_the_same_files():
    """Outputs equal; inputs equal, a DVC directory dependency standing for the files of it the
    job lists (the benchmark's and the report's directories of results)."""
    bad = []
    for name, stage, job in _pairs():
        if job is None:
            continue
        if name != "report" and stage["outs"] != job["outs"]:
            bad.append(f"{name}: outputs dvc-only {stage['outs'] - job['outs']} "
                       f"smk-only {job['outs'] - stage['outs']}")
        smk_only = {i for i in job["deps"] if not _covered(i, stage["deps"])}
        dvc_only = {d for d in stage["deps"] - job["deps"]
                    if not any(_covered(i, {d}) for i in job["deps"])}
        if smk_only or (dvc_only and name != "report"):
            bad.append(f"{name}: inputs dvc-only {sorted(dvc_only)[:5]} smk-only {sorted(smk_only)[:5]}")
    assert not bad, "\n".join(bad[:10])


# --- the code each stage lists --------------------------------------------------------------------

@functools.cache
def step_modules() -> dict[str, str]:
    """Sub-command -> the module of its handler (the step's code starts there)."""
    import argparse

    from termweight.runner.cli import build_parser

    parser = build_parser(["--help"])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {name: p.get_default("func").__module__ for name, p in sub.choices.items()
            if p.get_default("func") is not None}


def _step(cmd: str) -> str:
    argv = shlex.split(cmd)[3:]  # python -m termweight ...
    while argv[0].startswith("-"):
        argv = argv[2:] if argv[0] == "--log" else argv[1:]
    return argv[0]


def test_each_stage_reads_the_code_digest_of_its_step():
    """A stage's code is the digest (data/code.yaml) of its step's module, and for prepare of the
    module declaring the dataset too; it lists no other file of src/termweight than weighting
    modules. Its Snakemake job has the same digests as a param (the graph tests)."""
    from codefiles import key

    corpora = yaml.safe_load((REPO / "params.yaml").read_text())["corpora"]
    bad = []
    for name, stage in sorted(dvc_stages().items()):
        if name == "code":
            continue
        want = {key(step_modules()[_step(stage["cmd"])])}
        if name.startswith("prepare"):
            k = name.split("@")[1]
            kind = "text" if k in corpora["text"] else "vectors"
            want.add(key(f"termweight.datasets.{corpora[kind][k]['module']}"))
        files = {d for d in stage["deps"] if d.startswith("src/") and d.endswith(".py")
                 and not _weighting_module(d)}
        if set(stage["code"]) != want or files or None in stage["code"].values():
            bad.append(f"{name}: code {sorted(stage['code'])}, want {sorted(want)}; files {files}")
    assert not bad, "\n".join(bad[:10])


def test_the_committed_code_digests_are_the_source_s(tmp_path):
    """data/code.yaml is what workflow/scripts/codefiles.py writes for this source (the `code`
    stage up to date): an edit to the source without it fails here and in `dvc status`."""
    from codefiles import main

    assert main(["--src", str(REPO / "src"), "--out", str(tmp_path / "code.yaml")]) == 0
    assert (tmp_path / "code.yaml").read_text() == (REPO / "data/code.yaml").read_text()


def test_a_digest_covers_the_files_a_step_imports_and_no_runner_code(tmp_path):
    """A comment added to a file the column step imports changes its digest and not that of a
    module which does not import it; one added to runner code changes none."""
    import shutil

    from codefiles import digests

    src = tmp_path / "src"
    shutil.copytree(REPO / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
    before = digests(src)
    with open(src / "termweight/encoding.py", "a") as fh:
        fh.write("# a comment\n")
    after = digests(src)
    assert after["termweight/steps/column"] != before["termweight/steps/column"]
    assert after["termweight/experiments/deviations"] == before["termweight/experiments/deviations"]
    for path in (src / "termweight/runner").glob("*.py"):
        with open(path, "a") as fh:
            fh.write("# a comment\n")
    assert digests(src) == after


def _weighting_module(path: str) -> bool:
    """A module of termweight.weightings (its __init__.py, the row type, is library code)."""
    return path.startswith("src/termweight/weightings/") and not path.endswith("/__init__.py")


def test_no_stage_lists_runner_code():
    listed = {d for s in dvc_stages().values() for d in s["deps"]}
    assert not {d for d in listed if d.startswith("src/termweight/runner")}
    assert "src/termweight/__init__.py" not in listed


def test_a_column_stage_lists_its_weighting_module_and_no_other():
    """Each benchmark column stage (grid, sensitivity, curves, second seed) runs one dataset and
    one weighting module, and lists that module's file only; params.yaml's benchmark.modules are
    the column groups (termweight.weighting.group_of) of its weightings."""
    from termweight.weighting import benchmark_encodings, group_of

    b = yaml.safe_load((REPO / "params.yaml").read_text())["benchmark"]
    assert sorted(b["modules"]) == sorted({group_of(e) for e in benchmark_encodings(b["weightings"])})
    n = 0
    for name, stage in dvc_stages().items():
        if not re.match(r"benchmark(_\w+)?_column@", name):
            continue
        module = re.search(r"--weighting (\S+)", stage["cmd"]).group(1)
        listed = {d for d in stage["deps"] if _weighting_module(d)}
        assert listed == {f"src/termweight/weightings/{module}.py"}, name
        n += 1
    assert n > 0


def test_the_papers_list_the_weightings_they_compute_with():
    """Forman's evaluation: the modules of forman.scalings; its selection: of forman.selection's
    selectors; Kim's steps: kim.py; Mukras's scores: its METRICS; the slice's score: its scores."""
    from termweight.experiments import mukras
    from termweight.scoring import ROWS

    params = yaml.safe_load((REPO / "params.yaml").read_text())

    def files(metrics):
        return {f"src/termweight/weightings/{ROWS[m][0]}.py" for m in metrics if ROWS[m][0]}

    want = {"forman_evaluate": files(params["forman"]["scalings"]),
            "forman_select": files(params["forman"]["selection"]["selectors"]),
            "kim_fit": files(ROWS["mixch"][1].needs), "mukras_score": files(mukras.METRICS),
            "score": files(params["experiments"]["slice"]["scores"])}
    for name, stage in dvc_stages().items():
        if name.split("@")[0] in want:
            listed = {d for d in stage["deps"] if _weighting_module(d)}
            assert listed == want[name.split("@")[0]], name


def test_params_list_every_corpus_a_stage_reads_with_its_declaring_module():
    from termweight.datasets.registry import declared_in

    params = yaml.safe_load((REPO / "params.yaml").read_text())
    corpora = {k: v for kind in params["corpora"].values() for k, v in kind.items()}
    for key, entry in corpora.items():
        assert declared_in(key) == f"termweight.datasets.{entry['module']}", key
    read = {m.group(1) for s in dvc_stages().values() for d in s["deps"]
            if (m := re.match(r"data/(?:corpus|documents)/([^/]+)/", d))}
    assert read <= set(corpora), sorted(read - set(corpora))


def test_the_source_has_no_import_cycle():
    from codefiles import _imports

    src = REPO / "src"
    modules = sorted(".".join(p.relative_to(src).with_suffix("").parts).removesuffix(".__init__")
                     for p in (src / "termweight").rglob("*.py"))
    graph = {m: {t for t in _imports(src, m) if t != m and not m.startswith(t + ".")}
             for m in modules}
    state: dict[str, int] = {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                pytest.fail("import cycle: " + " -> ".join(path[path.index(nxt):] + [nxt]))
            if nxt in graph and state.get(nxt) is None:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in modules:
        if state.get(node) is None:
            visit(node, [node])


def _rerun_by_code(edit: str, tmp_path) -> set[str]:
    """The stages an edit of the file ``edit`` (a comment appended) makes out of date through
    their code: those whose digests in data/code.yaml change, and those listing the file."""
    import shutil

    from codefiles import digests

    src = tmp_path / "src"
    shutil.copytree(REPO / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
    before = digests(src)
    with open(tmp_path / edit, "a") as fh:
        fh.write("# an edit\n")
    changed = {k for k, v in digests(src).items() if before[k] != v}
    return {name for name, stage in dvc_stages().items()
            if set(stage["code"]) & changed or edit in stage["deps"]}


def test_what_an_edit_reruns(tmp_path):
    """docs/workflow.md's table, on this project's graph: a weighting module reruns the stages
    computing with it (its benchmark columns, and the papers' and the slice's stages naming its
    metric); a paper's claims module its report stages only; runner code nothing; a comment in a
    core module every stage whose step imports it."""
    stages = dvc_stages()
    bns = _rerun_by_code("src/termweight/weightings/bns.py", tmp_path / "a")
    assert bns == {n for n, s in stages.items() if "src/termweight/weightings/bns.py" in s["deps"]}
    assert {n.split("@")[0] for n in bns} >= {"benchmark_column", "forman_evaluate"}
    assert all(n.endswith("-bns") for n in bns if n.startswith("benchmark_column@"))
    claims = _rerun_by_code("src/termweight/experiments/kim/claims.py", tmp_path / "b")
    assert claims and all(n.startswith("kim_") for n in claims), sorted(claims)
    assert not _rerun_by_code("src/termweight/runner/io.py", tmp_path / "c")
    core = _rerun_by_code("src/termweight/encoding.py", tmp_path / "d")
    assert {"benchmark_column@tr23-bns", "encode@tfidf"} <= core
    assert not any(n.startswith(("prepare", "tokenize", "count", "split@")) for n in core)
