"""Helpers for tests that run the real workflow (Snakemake, DVC) in a temporary project."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]

# The small offline configuration the workflow tests run: BBC, 2 folds x 1 repeat, 2 encodings.
SMALL = {
    "mirror": None,
    "seed": 7,
    "experiments": {
        "slice": {
            "dataset": "bbc",
            "protocol": {"type": "kfold", "folds": 2, "repeats": 1, "stratified": True},
            "scores": ["idf", "bns"],
            "encodings": ["binary", "binary-bns"],
            "learner": {"name": "linearsvc", "C": 1.0},
        }
    },
}


#: The slice's final DVC stages (upstream stages come with them) and Snakemake target; the papers'
#: stages and rules are in a project too but not run on SMALL.
DVC_SLICE = ["table@slice", "figure@slice"]
SMK_SLICE = ["experiments"]

TEX_TOOLS = ("latexmk", "pdflatex", "pdftotext")


def require_tex():
    """Skip without TeX, except in CI (CI=true), where .ci/run installs it and its absence fails."""
    import pytest

    from termweight.experiments import report

    missing = [t for t in TEX_TOOLS if shutil.which(t) is None]
    if not missing:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI must have {', '.join(missing)} (.ci/run installs them with apt-get)")
    pytest.skip(f"{', '.join(missing)} not installed ({report.TEX_INSTALL_HINT})")


def pdf_text(pdf: Path) -> str:
    """The PDF's text (pdftotext), whitespace collapsed: lines break anywhere."""
    out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    return " ".join(out.stdout.split())


def env():
    e = dict(os.environ)
    # Snakemake's full job blocks (rule, input, output: what the tests parse) instead of the
    # one-line job messages a person sees (workflow/rules/common.smk, JOB_LINE)
    e.setdefault("TERMWEIGHT_JOB_DETAILS", "1")
    e["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{e.get('PATH', '')}"
    e.pop("SLURM_CONF", None)
    return e


def run(cmd, cwd, check=True, timeout=900):
    res = subprocess.run(cmd, cwd=cwd, env=env(), capture_output=True, text=True, timeout=timeout,
                         shell=isinstance(cmd, str))
    if check and res.returncode != 0:
        raise AssertionError(f"{cmd} failed ({res.returncode}):\n{res.stdout[-3000:]}\n"
                             f"{res.stderr[-3000:]}")
    return res


#: the pipeline's two dvc.yaml files: the root's and the benchmark's (a dvc.lock of its own)
DVC_FILES = ("dvc.yaml", "workflow/benchmark/dvc.yaml")
#: how DVC names a stage of the benchmark's file from the repository's root
BENCH = "workflow/benchmark/dvc.yaml:"


def make_project(path: Path, params: dict) -> Path:
    """Copy the workflow and library sources into ``path`` with its own params.yaml.

    ``params`` overrides top-level keys of the repository's params.yaml (dvc.yaml needs every
    section it names to parse; each tool runs only what a test targets).
    """
    path.mkdir(parents=True, exist_ok=True)
    for name in ("Snakefile", "dvc.yaml", ".dvcignore"):
        shutil.copy2(REPO / name, path / name)
    shutil.copytree(REPO / "envs", path / "envs")
    shutil.copytree(REPO / "workflow", path / "workflow",  # with the benchmark's dvc.yaml
                    ignore=shutil.ignore_patterns("__pycache__", ".snakemake*", "dvc.lock"))
    shutil.copytree(REPO / "src", path / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    # the code digests the stages read (data/code.yaml, in git as in a clone)
    (path / "data").mkdir(exist_ok=True)
    shutil.copy2(REPO / "data/code.yaml", path / "data/code.yaml")
    # committed measurements that stages read: the seconds of the benchmark's columns (its
    # report's cost table) and of Ferreira's selectors (the cost claim)
    # (every one dvc.yaml names)
    (path / "benchmarks/results").mkdir(parents=True, exist_ok=True)
    for name in sorted({n for f in DVC_FILES for n in re.findall(r"benchmarks/results/([\w.-]+)",
                                                                   (REPO / f).read_text())}):
        shutil.copy2(REPO / "benchmarks/results" / name, path / "benchmarks/results" / name)
    # the hand-written LaTeX report (reports/paper.tex, reports/sections/)
    (path / "reports").mkdir(exist_ok=True)
    if (REPO / "reports/paper.tex").exists():
        shutil.copy2(REPO / "reports/paper.tex", path / "reports/paper.tex")
        shutil.copytree(REPO / "reports/sections", path / "reports/sections")
    merged = yaml.safe_load((REPO / "params.yaml").read_text()) | params
    (path / "params.yaml").write_text(yaml.safe_dump(merged, sort_keys=False))
    run(["dvc", "init", "--no-scm", "-q"], path)
    run(["dvc", "config", "core.analytics", "false"], path)
    shutil.copytree(REPO / ".dvc/plots", path / ".dvc/plots")  # the figures' plot template
    return path


#: the stanzas of dvc.yaml written for the experiment `slice` (one stage per encoding): another
#: experiment copies them with its name (docs/extending.md)
PER_ENCODING = ("score", "encode", "train", "predict", "evaluate")


def add_experiment_stages(root: Path, exp: str) -> None:
    """Copy dvc.yaml's per-encoding stanzas of the slice for experiment ``exp``, as
    docs/extending.md tells a DVC user: ``<stanza>_<exp>``, every ``slice`` replaced."""
    path = root / "dvc.yaml"
    stages = yaml.safe_load(path.read_text())["stages"]
    added = {f"{name}_{exp}": yaml.safe_load(yaml.safe_dump(stages[name]).replace("slice", exp))
             for name in PER_ENCODING}
    text = yaml.safe_dump({"stages": added}, sort_keys=False).split("\n", 1)[1]
    with open(path, "a") as fh:
        fh.write(text)


def copy_lock(src: Path, dest: Path) -> None:
    """What git keeps of a DVC run besides its committed outputs: its dvc.lock files."""
    for f in DVC_FILES:
        lock = Path(f).with_name("dvc.lock")
        if (src / lock).exists():
            shutil.copy2(src / lock, dest / lock)


def copy_project(src: Path, dest: Path) -> Path:
    """A private copy of a built project (a shared one of conftest.py): files, DVC's cache and
    Snakemake's metadata, with their mtimes, so that neither tool sees anything to redo."""
    shutil.copytree(src, dest, symlinks=True)
    return dest


#: measured times, not results: what each benchmark column cost (benchmark-column
#: --out-seconds, a side file beside the column; benchmarks/results keeps them)
MEASURED = ("data/benchmark/seconds/", "data/benchmark/sensitivity/seconds/")


def digests(root: Path) -> dict[str, str]:
    """SHA-256 of every result file under data/ and reports/ (not the measured times of
    ``MEASURED``)."""
    out = {}
    for sub in ("data", "reports"):
        for p in sorted((root / sub).rglob("*")):
            rel = p.relative_to(root).as_posix()
            if p.is_file() and ".dvc" not in p.parts and p.name != ".snakemake_timestamp" \
                    and not rel.startswith(MEASURED):
                out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def mtimes(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns
            for sub in ("data", "reports") for p in (root / sub).rglob("*") if p.is_file()}


def nothing_to_do(root: Path, targets=()) -> bool:
    res = run(["snakemake", "-n", "--cores", "1", *targets], root)
    return "Nothing to be done" in res.stdout + res.stderr


#: A tiny benchmark (two of Forman's smallest sets, 2-fold CV, three weightings, two learners):
#: the DVC and Slurm runs of the benchmark family are compared with Snakemake's on it.
#: a NEW weighting, written as a module of its own (docs/benchmark.md, "Adding a weighting")
GSS_MODULE = '''"""GSS coefficient (Galavotti, Sebastiani & Simi 2000)."""

from termweight.weightings import Weighting


def gss(tp, fp, fn, tn):
    """GSS: P(t,c) P(~t,~c) - P(t,~c) P(~t,c)."""
    return (tp * tn - fp * fn) / (tp + fp + fn + tn) ** 2


WEIGHTINGS = (Weighting("gss", gss, "P(t,c) P(~t,~c) - P(t,~c) P(~t,c) (GSS)", bases=("tf",)),)
'''


TINY_BENCHMARK = {
    "datasets": {"tr11": {}, "tr12": {}},
    "protocol": {"type": "kfold", "folds": 2, "repeats": 1, "stratified": True},
    "weightings": ["tfidf", "tf-bns", "tf-igm"],
    "modules": ["unsupervised", "bns", "igm"],
    "learners": ["linearsvc", "mnb"],
    "C": 1.0,
    "relative_C": True,
    "max_iter": 1000,
    "mixch": {"C": 1.0, "max_iter": 5, "tol": 0.001},
    "tuning": {"normalize": "l2", "C": [0.1, 1.0, 10.0], "alpha": [0.01, 0.1, 1.0], "folds": 2},
    "measures": ["headline_macro_f1", "macro_f1", "accuracy"],
    "baseline": "tfidf",
    "alpha": 0.05,
    # the studies off (dvc.yaml's stanzas need their keys)
    "sensitivity": {"datasets": [], "normalize": "none"},
    "curves": {"datasets": [], "fractions": [0.5], "repeats": 1, "weightings": [], "modules": []},
    "second_seed": {"seed": 1, "datasets": []},
}


def tiny_benchmark_params(mirror) -> dict:
    """params.yaml overrides of the tiny benchmark project (conftest's ``tiny_bench_*``)."""
    return {**SMALL, "mirror": str(mirror), "benchmark": TINY_BENCHMARK}


#: The benchmark's report outputs (reports/), for the learners of TINY_BENCHMARK.
TINY_BENCHMARK_REPORTS = ["reports/metrics/benchmark.json", "reports/macros/benchmark.tex",
                          "reports/tables/benchmark_datasets.csv",
                          "reports/tables/benchmark_datasets.tex",
                          "reports/tables/benchmark_linearsvc.tex",
                          "reports/tables/benchmark_mnb.tex"]


#: Each paper's tiny configuration (its own section of params.yaml); tests/test_<paper>.py checks
#: its paper's outputs of ONE run of the `papers` target with all five (conftest's ``papers_tiny``).
FORMAN_CFG = {"folds": 4, "repeats": 1, "bases": ["binary", "tf"],
              "scalings": ["none", "idf", "bns", "logodds"], "C": 1.0, "max_iter": 1000,
              "selection": {"selectors": ["ig", "bns"], "scalings": ["none", "bns"],
                            "counts": [10, 100]},
              "positive_bins": [5, 10, 15, 20, 25]}
PAPERS_TINY = {
    "esuli": {"dataset": "reuters21578", "rounds": 5, "learners": ["adaboost_mh", "mp_boost"],
              "representations": ["binary", "ordinal"], "svm_C": 1.0},
    "mukras": {
        "datasets": {"beauty": {"dataset": "amazon_beauty", "per_class": 12}},
        "folds": 3,
        "features": [10, 100, 3000],
        "ranges": [[10, 100], [100, 3000]],
        "selectors": ["ig", "ig+linear", "chi2+linear"],
        "classifiers": ["nb", "svm", "fh"],
        "fh_selectors": ["ig", "ig+linear"],
        "prp_columns": "both",
        "svm_C": 1.0,
        "alpha": 0.05,
    },
    "forman": {**FORMAN_CFG, "datasets": ["tr23", "tr12"]},
    "kim": {
        "datasets": {"webkb": {"dataset": "cachopo_webkb", "repeats": 1}},
        "methods": ["idf", "rf", "or", "mix-ch", "mini-max"],
        "validation": {"fraction": 0.3, "C_grid": [1.0]},
        "minimax": {"tol": 0.01, "max_iter": 100, "subgradient_iter": 30},
        "convergence": {"dataset": "webkb", "split": "r0", "task": "course", "C": [1.0],
                        "subgradient_iter": 30, "exact_iter": 30, "exact_tol": 0.001},
    },
    "ferreira": {"svm_C": 1.0, "modest_rounds": 15, "datasets": {"spambase": {
        "n_features": 54,
        "protocol": {"type": "balanced", "train_per_class": 500, "test_per_class": 500,
                     "repeats": 2},
        "m": [10, 30], "classifiers": ["svm", "modest"],
        "td_methods": ["method1", "method2", "fisher", "rp_paper"],
        "tdi_methods": ["mim", "cmim"]}}},
}


def papers_tiny_params(mirror) -> dict:
    """params.yaml overrides of the five papers' tiny project (conftest's ``papers_tiny``)."""
    return {**SMALL, "mirror": str(mirror), **PAPERS_TINY}
