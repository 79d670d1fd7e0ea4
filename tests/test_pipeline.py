"""The pipeline's one declaration: dvc.yaml generated from workflow/stages.yaml, code dependencies
derived from the imports and the same in both tools, and a module edit that makes exactly the
steps that import it out of date, under `snakemake -n` and `dvc status` alike."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from workflow_utils import DVC_SLICE, REPO, SMK_SLICE, copy_project, run

from termweight.pipeline import codedeps, codedigest, dvcyaml
from termweight.splits import split_names


def _short(files):
    return {f.removeprefix("src/termweight/") for f in files}


def test_committed_dvc_yaml_is_a_fresh_generation():
    fresh = dvcyaml.generate(REPO)
    committed = (REPO / "dvc.yaml").read_text(encoding="utf-8")
    assert committed == fresh, "dvc.yaml is stale: run `python -m termweight dvc-yaml`"


def test_dvc_yaml_check_refuses_a_stale_file(tmp_path):
    for name in ("params.yaml", "dvc.yaml"):
        shutil.copy2(REPO / name, tmp_path / name)
    (tmp_path / "workflow").mkdir()
    shutil.copy2(REPO / dvcyaml.DECLARATION, tmp_path / dvcyaml.DECLARATION)
    assert run(["python", "-m", "termweight", "dvc-yaml", "--check"], tmp_path).returncode == 0
    with open(tmp_path / "dvc.yaml", "a") as fh:
        fh.write("# edited by hand\n")
    res = run(["python", "-m", "termweight", "dvc-yaml", "--check"], tmp_path, check=False)
    assert res.returncode == 2 and "dvc.yaml: stale" in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    run(["python", "-m", "termweight", "dvc-yaml"], tmp_path)
    assert (tmp_path / "dvc.yaml").read_text() == dvcyaml.generate(REPO)


def test_a_stage_exists_when_its_condition_holds():
    """DVC has the stages whose Snakemake rules exist: without benchmark.sensitivity (or
    ferreira.multiclass) dvc.yaml has no sensitivity (multiclass) stage; an empty matrix name
    gives no stage either."""
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    have = dvcyaml.generated_stages(REPO, params)
    assert {"benchmark_sensitivity_column", "benchmark_sensitivity_aggregate",
            "benchmark_sensitivity", "ferreira_multiclass", "benchmark_external"} <= set(have)
    assert have["benchmark_sensitivity_column"]["matrix"]["dataset"] == \
        params["benchmark"]["sensitivity"]["datasets"]
    del params["benchmark"]["sensitivity"]
    del params["ferreira"]["multiclass"]
    params["benchmark"]["external"] = False
    without = dvcyaml.generated_stages(REPO, params)
    # the sensitivity columns are one stage per weighting's code (``_bns``, ``_mixch``, ...)
    gone = set(have) - set(without)
    assert {s for s in gone if not s.startswith("benchmark_sensitivity_column_")} == {
        "benchmark_sensitivity_column", "benchmark_sensitivity_aggregate",
        "benchmark_sensitivity", "ferreira_multiclass", "benchmark_external"}
    assert {"benchmark_sensitivity_column_mixch", "benchmark_sensitivity_column_bns"} <= gone
    params["benchmark"]["sensitivity"] = {"datasets": [], "normalize": "none"}
    assert "benchmark_sensitivity_column" not in dvcyaml.generated_stages(REPO, params)


def test_the_declaration_lists_no_python_file():
    text = (REPO / dvcyaml.DECLARATION).read_text()
    listed = [ln for ln in text.splitlines()
              if re.match(r"\s*-\s*src/termweight/\S+\.py\s*$", ln)]
    assert not listed, f"{dvcyaml.DECLARATION}: code dependencies are derived, remove {listed}"


def test_every_params_key_list_follows_params_yaml():
    """The lists that used to be kept in step by hand are generated: Kim's report depends on the
    fits of every key of kim.datasets (r8_l2 and webkb_l2 included) and writes their tables."""
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    keys = list(params["kim"]["datasets"])
    assert {f"data/kim/{k}/fit" for k in keys} <= set(stages["kim_report"]["deps"])
    outs = {next(iter(o)) if isinstance(o, dict) else o for o in stages["kim_report"]["outs"]}
    assert {f"reports/tables/kim_{k}.tex" for k in keys} <= outs
    used = set(dvcyaml.datasets_used(params))
    prepared = {d for n, s in stages.items() if n.startswith("prepare_") for d in s["foreach"]}
    assert prepared == used


def test_code_dependencies_follow_the_imports():
    kim_fit = _short(codedeps.command_code("kim-fit"))
    assert {"experiments/kim/__init__.py", "learners/kim.py", "learners/_bundle.py",
            "statistics.py", "scoring.py", "encoding.py"} <= kim_fit
    # the report's code and the other papers' learners are not the fit's
    assert not {"experiments/kim/report.py", "reporting.py", "learners/boosting.py",
                "learners/modest.py", "cli.py"} & kim_fit
    assert {"experiments/kim/report.py", "reporting.py"} <= _short(
        codedeps.command_code("kim-report"))
    # the benchmark's encode runs mix-ch (weighting -> learners/kim.py): the gap found by reading;
    # mix-ch finishes a capped SVM step with mini-max's exact solver (finish_hinge_svm), so the
    # bundle solver's compiled loops are the encode's code too; the boosting learners are not
    encode = _short(codedeps.command_code("encode"))
    assert {"weighting.py", "learners/kim.py", "learners/_bundle.py", "encoding.py"} <= encode
    assert not {"learners/boosting.py", "learners/modest.py"} & encode
    assert "learners/boosting.py" in _short(codedeps.command_code("esuli-boost"))
    # a dataset's prepare step: its own module, not another dataset's
    bbc = _short(codedeps.command_code("prepare", ("termweight.datasets.bbc",)))
    assert "datasets/bbc.py" in bbc and not {"datasets/reuters.py", "datasets/arff.py"} & bbc


def test_only_the_mixch_columns_depend_on_kims_learner_and_settings():
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    for name, stage in stages.items():
        if "weighting" not in stage.get("matrix", {}):
            continue
        kim = "src/termweight/learners/kim.py" in dvcyaml.digested_code(stages, name)
        mixch = stage["matrix"]["weighting"] == ["ntf-mixch"]
        assert kim == mixch == ("benchmark.mixch" in stage.get("params", [])), name
        # the learners and protocol reach a column through the resolved settings file only
        assert "data/benchmark/settings.json" in stage["deps"], name
        read_elsewhere = {"seed", "benchmark.learners", "benchmark.tuning", "benchmark.C",
                          "benchmark.relative_C", "benchmark.max_iter"}
        if name.startswith("benchmark_curves_column"):
            # a learning curve's column draws its nested subsamples of the split with the seed
            # (termweight.subsample.learning_curve_splits): it computes with it
            read_elsewhere.discard("seed")
        assert not read_elsewhere & set(stage.get("params", [])), name
    # under the tuned protocol the fixed-C settings are read by no step
    assert not {"benchmark.C", "benchmark.relative_C", "benchmark.max_iter"} & set(
        stages["benchmark_settings"]["params"])


def test_no_stage_depends_on_runner_code():
    """Runner code (reading and validating params, atomic writes, checks, the pool, errors) is
    no stage's dependency; what it calls in tracked modules is (io -> formats)."""
    runner = set(codedeps.runner_modules())
    assert {"termweight", "termweight._lazy", "termweight.config", "termweight.errors",
            "termweight.intermediates", "termweight.io", "termweight.parallel",
            "termweight.steps.common"} <= runner
    files = {codedeps.relative(codedeps._modules()[m]) for m in runner}
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    for name, stage in stages.items():
        deps = set(stage.get("do", stage).get("deps", [])) | set(dvcyaml.digested_code(stages,
                                                                                       name))
        assert not deps & files, (name, sorted(deps & files))
    # walked through: io's writers decide no bytes, termweight.formats does
    assert "formats.py" in _short(codedeps.command_code("encode"))
    # validation is not followed: the downloader is prepare's code only
    assert "datasets/download.py" not in _short(codedeps.command_code("split"))
    assert "datasets/download.py" in _short(codedeps.command_code("prepare"))


def test_both_tools_list_the_same_code():
    """Snakemake's rules take their code inputs from the same derivation as dvc.yaml."""
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    for name, stage in stages.items():
        if name.startswith(codedigest.STAGE_PREFIX):
            continue
        body = stage.get("do", stage)
        assert not [d for d in body.get("deps", []) if d.endswith(".py")], name  # a digest
        code = sorted(dvcyaml.digested_code(stages, name))
        cmd = re.search(r"termweight (?:--log \S+ )?([a-z][a-z0-9-]*)", body["cmd"]).group(1)
        extra = ()
        if name.startswith("prepare_"):
            module = next(iter(stage["foreach"].values()))["module"]
            extra = (f"termweight.datasets.{module}",)
        if "weighting" in stage.get("matrix", {}) and name.startswith("benchmark_"):
            for w in stage["matrix"]["weighting"]:  # `code_by: weighting`: each item's own code
                assert code == codedeps.command_code(cmd, extra, dvcyaml.weighting_entries(w)), w
            continue
        assert code == codedeps.command_code(cmd, extra), name


def test_snakemake_rules_follow_the_declaration_and_params_yaml():
    """The five papers' (and the benchmark's) rules are built from workflow/stages.yaml: every
    stage of the papers has rules (its `snakemake:` block), none is kept in dvc.yaml, and what
    params.yaml leaves out is left out of the rules (Ferreira without multiclass and Dexter: no
    multiclass rule, no --multiclass or --dexter-test option, none of their files)."""
    from termweight.pipeline import smkrules

    params = yaml.safe_load((REPO / "params.yaml").read_text())
    decl = yaml.safe_load((REPO / dvcyaml.DECLARATION).read_text())
    papers = ("esuli", "mukras", "kim", "forman", "ferreira")
    declared = [n for n in decl["stages"] if n.split("_")[0] in papers]
    assert all("snakemake" in decl["stages"][n] for n in declared)
    assert "snakemake" not in (REPO / "dvc.yaml").read_text()
    rules, targets = smkrules.snakemake_rules(REPO, params)
    names = {r["name"] for r in rules}
    assert {n for n in declared if n not in ("ferreira_split", "kim_split")} <= names
    assert {t for t, v in targets.items() if v["paper"]} == set(papers)
    # the benchmark's report also writes the per-learner files DVC cannot name; without the
    # benchmark: section, `snakemake benchmark` still exists and has nothing to do
    assert "reports/tables/benchmark_linearsvc.tex" in targets["benchmark"]["files"]
    no_bench = {k: v for k, v in params.items() if k != "benchmark"}
    rules, targets = smkrules.snakemake_rules(REPO, no_bench)
    assert targets["benchmark"]["files"] == []
    assert not [r for r in rules if r["name"].startswith("benchmark")]

    small = {**params, "ferreira": {**params["ferreira"], "datasets": {
        "spambase": params["ferreira"]["datasets"]["spambase"]}}}
    del small["ferreira"]["multiclass"]
    rules, targets = smkrules.snakemake_rules(REPO, small)
    by_name = {r["name"]: r for r in rules}
    assert "ferreira_multiclass" not in by_name and "ferreira_split_dexter" not in by_name
    collect, = by_name["ferreira_collect"]["jobs"].values()
    assert "--multiclass" not in collect["cmd"] and "--dexter-test" not in collect["cmd"]
    assert not [p for p in collect["input"] if "multiclass" in p or "dexter" in p]
    assert "reports/tables/ferreira_fig1.tex" not in by_name["ferreira_tables"]["output"]
    runs = by_name["ferreira_run"]["jobs"]
    assert len(runs) == len(split_names(small["ferreira"]["datasets"]["spambase"]["protocol"]))


def test_a_paper_package_declares_snakemake_blocks_too(tmp_path, monkeypatch):
    """A paper package's stages.yaml may carry `snakemake:` blocks as workflow/stages.yaml's
    stages do: such a stage gets the block's rules (its fan-out, report() captions under the
    package's `snakemake: paper:`, the paper's target), and is not also given the generic
    one-rule-per-instance of a stage without a block."""
    from termweight.pipeline import smkrules

    home = tmp_path / "src/termweight/experiments/toy"
    home.mkdir(parents=True)
    (home / "caption.rst").write_text("Toy.\n")
    toy = {"snakemake": {"paper": {"category": "Toy (2026)", "caption": "caption.rst"}},
           "stages": {
               "toy_run": {  # a block: one job per dataset, its table in the report
                   "foreach": "${toy.datasets}",
                   "do": {"cmd": "python -m termweight --log logs/dvc/toy/${key}.log headlines "
                                 "--out reports/tables/toy_${key}.csv",
                          "params": ["toy"], "outs": ["reports/tables/toy_${key}.csv"]},
                   "snakemake": {"rule": "toy_run", "key": "dataset"}},
               "toy_note": {  # no block: the generic rule
                   "cmd": "python -m termweight --log logs/dvc/toy/note.log headlines "
                          "--out reports/metrics/toy.json",
                   "outs": ["reports/metrics/toy.json"]}}}
    (home / "stages.yaml").write_text(yaml.safe_dump(toy))
    params = {"toy": {"datasets": {"bbc": {}, "tr11": {}}}}
    where = str(home / "stages.yaml")
    monkeypatch.setattr(dvcyaml, "declarations",
                        lambda root, p: [(dvcyaml.DECLARATION, {"stages": {}}), (where, toy)])
    rules, targets = smkrules.snakemake_rules(tmp_path, params)
    rule, = rules
    assert rule["name"] == "toy_run" and rule["wildcards"] == {"dataset": ["bbc", "tr11"]}
    assert rule["output"] == ["reports/tables/toy_{dataset}.csv"]
    assert rule["report"][rule["output"][0]] == {
        "category": "Toy (2026)", "subcategory": "Tables",
        "caption": "../../src/termweight/experiments/toy/caption.rst"}
    assert targets == {"toy": {"files": ["reports/tables/toy_bbc.csv",
                                         "reports/tables/toy_tr11.csv"], "paper": True}}
    generic = dvcyaml.package_instances(tmp_path, params)["toy"]
    assert [i["rule"] for i in generic] == ["toy_note"]


def test_the_source_has_no_import_cycle():
    graph = codedeps.import_graph()
    state: dict[str, int] = {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt in graph and state.get(nxt) is None:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if state.get(node) is None:
            visit(node, [node])


def test_the_cli_is_a_thin_dispatcher():
    """Issue #29's bound: the step bodies live in ``termweight.steps`` and the experiments, so
    ``cli.py`` (parser, dispatch, plugin discovery) stays at 250 lines or fewer."""
    cli = Path(codedeps.__file__).parents[1] / "cli.py"
    assert len(cli.read_text().splitlines()) <= 250


def test_the_library_never_imports_the_pipeline_layer():
    graph = codedeps.import_graph()
    offenders = sorted(m for m, targets in graph.items()
                       if not m.startswith(("termweight.pipeline", "termweight.steps",
                                            "termweight.cli", "termweight.__main__"))
                       and any(t.startswith("termweight.pipeline") for t in targets))
    assert not offenders, offenders


# --- a module edit, both tools --------------------------------------------------------------------

#: the stages `dvc repro table@slice figure@slice` runs (and Snakemake's `experiments` target)
SLICE_STAGES = ["prepare_bbc@bbc", "tokenize@bbc", "count@bbc"] + [
    f"{s}@slice" for s in ("split", "stats", "score", "encode", "train", "predict", "evaluate",
                           "aggregate", "table", "figure")]


def _stale_dvc(project: Path) -> set[str]:
    out = run(["dvc", "status", "--json", "--with-deps", *DVC_SLICE], project).stdout.strip()
    return set(json.loads(out or "{}"))


@pytest.mark.slow
@pytest.mark.parametrize("module", ["learners/kim.py", "weighting.py", "statistics.py",
                                    "datasets/bbc.py", "datasets/arff.py", "reporting.py"])
def test_an_edited_module_makes_exactly_its_importers_stale(slice_smk, tmp_path, module):
    project = copy_project(slice_smk, tmp_path / "p")
    assert _stale_dvc(project) == set()
    path = project / "src/termweight" / module
    path.write_text(path.read_text() + "\n_AN_EDIT = 1\n")
    generated = yaml.safe_load((project / "dvc.yaml").read_text())["stages"]
    expected = {s for s in SLICE_STAGES
                if f"src/termweight/{module}" in dvcyaml.digested_code(generated, s)}
    # DVC: the code digest of each of those stages (and only theirs) is out of date
    assert _stale_dvc(project) == {codedigest.STAGE_PREFIX + s.split("@")[0]
                                   for s in expected}, module
    # Snakemake: the jobs whose resolved inputs hold the module (a dry run with every job, so
    # that each job's own inputs are printed) are the same stages, and a plain dry run reruns
    # each of them (Snakemake reruns a job whose input is newer than its outputs)
    stages = _dvc_stages(project)
    every, problems = _by_stage(_snakemake_jobs(project, SMK_SLICE, "--forceall"), stages)
    assert not problems and set(every) == set(SLICE_STAGES), problems
    assert {s for s, jobs in every.items()
            if any(f"src/termweight/{module}" in j["input"] for j in jobs)} == expected
    scheduled, _ = _by_stage(_snakemake_jobs(project, SMK_SLICE), stages)
    assert expected <= set(scheduled), (module, sorted(scheduled))
    if not expected:
        assert not scheduled


# --- one graph: Snakemake's jobs are DVC's stages, up to the fan-out -------------------------------

#: options a Snakemake job adds to a DVC stage's command to do one part of it (its fan-out)
FANOUT_OPTIONS = {"--names", "--repeat", "--unit", "--fold", "--learners", "--reps", "--encoding",
                  "--jobs", "--log"}
#: Snakemake outputs that no DVC stage declares, and why
SNAKEMAKE_ONLY = {
    "reports/macros/provenance.tex": "the build stamp (git commit) is not a pure function of the "
                                     "dependencies: kept out of DVC's hashes",
    "reports/provenance.json": "the build stamp's JSON record (commit, environment, input MD5s)",
    "reports/paper.pdf": "prints the build stamp",
}
#: the benchmark report's per-learner and per-measure files: DVC cannot name outputs after the
#: values of a params list, they are listed in reports/metrics/benchmark.json instead
BENCHMARK_FILES = re.compile(r"reports/(tables|figures)/benchmark_(?!tests\.tex)[\w-]+\.\w+$")


def _dry_jobs(text: str) -> list[dict]:
    jobs = []
    for block in re.split(r"\n(?=\[[^\n]*\]\n(?:local)?rule )", text):
        m = re.search(r"^(?:local)?rule (\w+):", block, re.M)
        cmd = re.search(r"^Shell command: (.*)$", block, re.M)
        if not m or not cmd:
            continue
        field = {k: (re.search(rf"^\s*{k}: ([^\n]*)", block, re.M) or re.match("", "")).group(0)
                 for k in ("input", "output")}
        jobs.append({"rule": m.group(1), "cmd": cmd.group(1),
                     "input": [p for p in field["input"].split(": ", 1)[-1].split(", ") if p],
                     "output": [p for p in field["output"].split(": ", 1)[-1].split(", ") if p]})
    return jobs


def _within(path: str, roots) -> str | None:
    for r in roots:
        if path == r or path.startswith(r.rstrip("/") + "/"):
            return r
    return None


def _command_matches(dvc_cmd: str, smk_cmd: str) -> tuple[bool, set[str]]:
    """Whether a Snakemake job's command is the DVC stage's command for one part of its work:
    equal after removing the options the DVC command lacks (the fan-out: which split, which
    seed) and --log/--jobs, each ``{placeholder}`` of the DVC command standing for a value."""
    d, s = shlex.split(dvc_cmd), shlex.split(smk_cmd)

    def strip(words, keep):
        out, dropped, i = [], set(), 0
        while i < len(words):
            w = words[i]
            if w.startswith("--") and (w not in keep or w in ("--log", "--jobs")):
                dropped.add(w)
                i += 1
                while i < len(words) and not words[i].startswith("--"):
                    i += 1
                continue
            out.append(w)
            i += 1
        return out, dropped

    d, _ = strip(d, set(d))
    s, dropped = strip(s, set(d))
    if len(d) != len(s):
        return False, dropped
    for a, b in zip(d, s, strict=True):
        pattern = re.escape(a)
        pattern = re.sub(r"\\\{[a-z_]+\\\}", r"[^/ ]+", pattern)
        if not re.fullmatch(pattern, b):
            return False, dropped
    return True, dropped


def _snakemake_jobs(root: Path, targets: list[str], *options: str) -> list[dict]:
    """The jobs of a dry run (`snakemake -n -p`) in ``root``, with the project's own src/."""
    import subprocess

    from workflow_utils import env

    e = env()
    if root != REPO:  # a project's own src/ (a module or package a test wrote there)
        e["PYTHONPATH"] = str(root / "src")
    res = subprocess.run(["snakemake", *targets, "-n", "-p", "--cores", "2", *options], cwd=root,
                         env=e, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    return _dry_jobs(res.stdout + res.stderr)


def _dvc_stages(root: Path) -> dict[str, dict]:
    """DVC's stages in ``root``: name -> cmd, deps (files, not params) and outs; a stage's code
    digest (``data/code/<stage>.json``) stands for the files its ``code_<stage>`` hashes, and
    the digest stages themselves are left out (DVC's record of the code: Snakemake's rules
    take the files as inputs)."""
    from dvc.dependency.param import ParamsDependency
    from dvc.repo import Repo

    with Repo(str(root)) as repo:
        stages = {s.name: {"cmd": s.cmd, "deps": [str(d.def_path) for d in s.deps
                                                  if not isinstance(d, ParamsDependency)],
                           "outs": [str(o.def_path) for o in s.outs]}
                  for s in repo.index.stages}
    code = {name: dvcyaml.digested_code(stages, name) for name in stages}
    return {name: {**s, "deps": [d for d in s["deps"] if not d.startswith(
                codedigest.DIRECTORY + "/")] + code[name]}
            for name, s in stages.items() if not name.startswith(codedigest.STAGE_PREFIX)}


def _by_stage(jobs: list[dict], stages: dict) -> tuple[dict[str, list[dict]], list[str]]:
    """Jobs grouped by the DVC stage that declares their outputs, and the jobs that fit none."""
    owner = {o: name for name, s in stages.items() for o in s["outs"]}
    by_stage: dict[str, list[dict]] = {}
    problems = []
    for job in jobs:
        if not job["output"]:
            continue  # a target rule (all, papers, <paper>): it runs nothing
        owners = {owner[r] for p in job["output"] if (r := _within(p, owner))}
        orphans = [p for p in job["output"] if not _within(p, owner)
                   and p not in SNAKEMAKE_ONLY and not BENCHMARK_FILES.match(p)]
        if len(owners) != 1 or orphans:
            problems.append(f"rule {job['rule']}: outputs {orphans or job['output'][:3]} belong "
                            f"to {sorted(owners) or 'no DVC stage'}")
            continue
        by_stage.setdefault(owners.pop(), []).append(job)
    return by_stage, problems


def one_graph_problems(root: Path, targets: list[str], fanout: str,
                       only_owned: bool = False) -> list[str]:
    """What differs between the Snakemake jobs of ``targets`` and the DVC stages of ``root``: each
    job must belong to one DVC stage (by its outputs), run that stage's command for a part of its
    work and read only what the stage depends on; each stage (``only_owned``: each stage that owns
    a job's output) must have its dependencies read and its outputs written by its jobs."""
    stages = _dvc_stages(root)
    by_stage, problems = _by_stage(
        _snakemake_jobs(root, targets, "--forceall", "--config", f"fanout={fanout}"), stages)
    for name, stage in stages.items():
        group = by_stage.get(name)
        if not group:
            if not only_owned:
                problems.append(f"DVC stage {name}: no Snakemake job")
            continue
        deps = [d for d in stage["deps"] if not d.endswith(".py")]
        for job in group:
            ok, dropped = _command_matches(stage["cmd"], job["cmd"])
            if not ok or not dropped <= FANOUT_OPTIONS:
                problems.append(f"{name}: rule {job['rule']} runs `{job['cmd']}`, DVC "
                                f"`{stage['cmd']}`")
            code = sorted(p for p in job["input"] if p.endswith(".py"))
            if code != sorted(d for d in stage["deps"] if d.endswith(".py")):
                problems.append(f"{name}: rule {job['rule']} has other code inputs")
            extra = [p for p in job["input"] if not p.endswith(".py") and not _within(p, deps)]
            if extra:
                problems.append(f"{name}: rule {job['rule']} reads {extra}, not a DVC dependency")
        inputs = [p for job in group for p in job["input"]]
        unused = [d for d in deps if not any(_within(p, [d]) or _within(d, [p]) for p in inputs)]
        if unused:
            problems.append(f"{name}: DVC depends on {unused}, no Snakemake job reads them")
        outputs = [p for job in group for p in job["output"]]
        missing = [o for o in stage["outs"] if not any(_within(p, [o]) for p in outputs)]
        if missing:
            problems.append(f"{name}: DVC outputs {missing} that no Snakemake job writes")
    return problems


@pytest.mark.parametrize("fanout", ["step", "split"])
def test_snakemake_and_dvc_run_one_graph(fanout):
    """For the default target, every paper and the benchmark: each Snakemake job belongs to one
    DVC stage (by its outputs), runs that stage's command for a part of its work, reads only what
    the stage depends on, and each stage's dependencies and outputs are covered by its jobs."""
    problems = one_graph_problems(REPO, ["all", "papers", "benchmark"], fanout)
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


def test_a_changed_protocol_leaves_no_old_split_in_the_directories(bbc_corpus, tmp_path):
    """4 folds then 3: the directories hold exactly what a clean run with 3 folds writes."""
    from termweight.cli import main

    bbc_corpus.save(tmp_path / "corpus")
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    exp = params["experiments"]["slice"]
    exp["encodings"] = ["binary", "tf"]
    for folds in (4, 3):
        exp["protocol"].update(folds=folds, repeats=1)
        (tmp_path / "params.yaml").write_text(yaml.safe_dump(params))
        common = ["--params", str(tmp_path / "params.yaml"), "--exp", "slice"]
        split, stats = f"{tmp_path}/splits/{{split}}.npz", f"{tmp_path}/stats/{{split}}.npz"
        scores, enc = f"{tmp_path}/scores/{{split}}.npz", f"{tmp_path}/enc/{{encoding}}/{{split}}.npz"
        for argv in (["split", *common, "--corpus", f"{tmp_path}/corpus", "--out-dir",
                      f"{tmp_path}/splits"],
                     ["stats", *common, "--corpus", f"{tmp_path}/corpus", "--split", split,
                      "--out", stats],
                     ["score", *common, "--stats", stats, "--out", scores],
                     ["encode", *common, "--jobs", "1", "--corpus", f"{tmp_path}/corpus",
                      "--split", split, "--stats", stats, "--scores", scores, "--out", enc]):
            assert main(argv) == 0, argv
        if folds == 4:  # an encoding taken out, too
            exp["encodings"] = ["binary"]
    want = {"r0f0.npz", "r0f1.npz", "r0f2.npz"}
    for d in ("splits", "stats", "scores", "enc/binary"):
        assert {p.name for p in (tmp_path / d).glob("*.npz")} == want, d
    assert not list((tmp_path / "enc/tf").glob("*.npz"))


@pytest.mark.slow
def test_the_stale_table_and_the_docs_quoting_it_are_current():
    """benchmarks/results/stale_table.json ("after") is what benchmarks/stale_table.py measures on
    this dvc.yaml, and the docs quote its counts for scoring.py's table and its BNS metric."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("stale_table", REPO / "benchmarks/stale_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    committed = json.loads((REPO / "benchmarks/results/stale_table.json").read_text())["after"]
    old = os.getcwd()
    try:
        os.chdir(REPO)
        now = module.measure()
    finally:
        os.chdir(old)
    assert now["stales"] == committed["stales"] and now["stages"] == committed["stages"]
    assert now["definition_stales"] == committed["definition_stales"]
    named = committed["definition_stales"]
    for doc in ("docs/benchmark.md", "docs/extending.md"):
        text = " ".join((REPO / doc).read_text().split())
        assert f"{named['src/termweight/scoring.py:METRICS']:,} of the {committed['stages']:,}" \
            in text, doc
        assert f"{named['src/termweight/scoring.py:bns']:,} for `bns`" in text, doc


def test_a_dry_run_prints_one_line_per_job():
    """`snakemake -n kim`: each job is one line saying what it computes (rule, wildcards,
    outputs), not Snakemake's block of 25-50 derived code inputs."""
    from workflow_utils import env

    e = {k: v for k, v in env().items() if k != "TERMWEIGHT_JOB_DETAILS"}
    res = subprocess.run(["snakemake", "-n", "kim", "--quiet", "reason"], cwd=REPO, env=e,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    total = int(re.search(r"^total\s+(\d+)$", res.stdout, re.M).group(1))
    lines = re.findall(r"^Job \d+: (\w+)", res.stdout, re.M)
    assert len(lines) == total and "kim" in lines  # every job, the target rule's too
    assert "input:" not in res.stdout and "src/termweight/" not in res.stdout
