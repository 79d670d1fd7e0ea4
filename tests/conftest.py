"""Shared fixtures: repository paths, the dataset mirror, and the BBC corpus parsed once."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def pytest_configure(config) -> None:
    """The tests test this checkout's code: pyproject's ``pythonpath = ["src"]`` puts its ``src/``
    first, whichever clone the venv was installed from; a session that still imports another copy
    (a termweight imported before, ``python -I``) is refused in one line naming both."""
    import termweight

    imported = Path(termweight.__file__).resolve().parent
    own = REPO / "src" / "termweight"
    if imported != own:
        pytest.exit(f"the tests are this checkout's ({own}), but Python imports termweight from "
                    f"{imported}: run pytest without -I, or `pip install -e .` here", returncode=2)
    from termweight.runner.checkout import pin_blas

    pin_blas()  # as every pipeline step: the same BLAS kernel and one thread, before numpy loads


MIRROR = Path(os.environ.get("TERMWEIGHT_MIRROR", REPO.parent / "shared" / "datasets"))


@pytest.fixture(autouse=True)
def _root_logging_restored():
    """A step run in-process (``termweight.runner.cli.main``) points the root logger at this test's
    captured stderr (``logging.basicConfig(force=True)``); later tests must not log into that
    closed stream."""
    import logging

    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not MIRROR.is_dir():
        pytest.skip(f"dataset mirror {MIRROR} not found (set TERMWEIGHT_MIRROR)")
    return MIRROR


@pytest.fixture(scope="session")
def bbc_documents():
    from termweight.datasets import get_dataset

    return get_dataset("bbc").parser(None, {})


@pytest.fixture(scope="session")
def bbc_corpus(bbc_documents):
    """The BBC count matrix exactly as the pipeline's tokenize + count steps build it."""
    import numpy as np
    import scipy.sparse as sp

    from termweight.corpus import Corpus
    from termweight.text import count_matrix, tokenize_all

    X, vocab = count_matrix(tokenize_all(bbc_documents.texts))
    idx = {c: i for i, c in enumerate(bbc_documents.classes)}
    y = np.array([idx[labs[0]] for labs in bbc_documents.labels])
    Y = sp.csr_matrix((np.ones(y.size, np.uint8), (np.arange(y.size), y)))
    return Corpus("bbc", X, Y, bbc_documents.classes, vocab, bbc_documents.doc_ids,
                  np.array(bbc_documents.subset))


def tool(name: str) -> str:
    """Path of a console script of the active environment (snakemake, dvc)."""
    import sys

    candidate = Path(sys.executable).parent / name
    found = str(candidate) if candidate.exists() else shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed")
    return found


# --------------------------------------------------------------- shared small projects
# Each real workflow run below is built ONCE per test run (once across pytest-xdist's workers too:
# the first worker that needs it builds it under a file lock, the others wait and reuse it).
# A shared project is read-only: a test that runs a tool in it, or changes it, takes its own
# copy with ``workflow_utils.copy_project`` (mtimes kept, so both tools still see it up to date).


#: shared project fixture -> the xdist group of the tests that use it (directly or through another
#: fixture): one worker runs them all, so the project is built once and no worker waits for it
SHARED_GROUPS = {"slice_dvc": "slice", "slice_smk": "slice", "slice_reported": "slice",
                 "tiny_bench_dvc": "tiny_bench", "tiny_bench_smk": "tiny_bench",
                 "papers_tiny": "papers"}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(config, items):
    """One xdist group per shared project; else one per module for the tests that share a
    module-scoped fixture (built once, on one worker). An explicit ``xdist_group`` mark wins.
    The real workflow runs (``slow``) go first, so that the many short tests fill both workers
    at the end instead of one long run finishing alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        groups = sorted({SHARED_GROUPS[f] for f in item.fixturenames if f in SHARED_GROUPS})
        if not groups:
            defs = getattr(item, "_fixtureinfo", None)
            defs = defs.name2fixturedefs.values() if defs else ()
            if any(d[-1].scope == "module" for d in defs):
                groups = [item.module.__name__]
        if groups:
            item.add_marker(pytest.mark.xdist_group("+".join(groups)))


def _shared_dir(tmp_path_factory) -> Path:
    """A directory every xdist worker of this test run sees (the session's basetemp without xdist)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the workers' basetemps are siblings under the run's own directory
    path = base / "shared-projects"
    path.mkdir(exist_ok=True)
    return path


def shared_project(tmp_path_factory, name: str, build) -> Path:
    """``build(path)`` once per test run; later callers get the built ``path``.

    A build that failed is not retried by the next test that needs it: that test fails at once
    with the first failure's message (so one broken build is one error, not one per consumer).
    """
    from filelock import FileLock

    base = _shared_dir(tmp_path_factory)
    path, done, failed = base / name, base / f"{name}.done", base / f"{name}.failed"
    with FileLock(str(base / f"{name}.lock")):
        if failed.exists():
            pytest.fail(f"shared project {name!r} failed to build earlier in this run:\n"
                        f"{failed.read_text()}")
        if not done.exists():
            if path.exists():
                shutil.rmtree(path)
            try:
                build(path)
            except Exception as exc:  # an interrupt is no broken build
                failed.write_text(f"{type(exc).__name__}: {exc}"[-6000:])
                raise
            done.write_text("built\n")
    return path


@pytest.fixture(scope="session")
def slice_dvc(tmp_path_factory) -> Path:
    """The small offline config (``workflow_utils.SMALL``) after ``dvc repro`` of its table and figure."""
    from workflow_utils import DVC_SLICE, SMALL, make_project, run

    def build(path):
        make_project(path, SMALL)
        run(["dvc", "repro", "--quiet", *DVC_SLICE], path)

    return shared_project(tmp_path_factory, "slice_dvc", build)


@pytest.fixture(scope="session")
def slice_smk(tmp_path_factory, slice_dvc) -> Path:
    """The same config after ``snakemake experiments --cores 2``, run with ``slice_dvc``'s dvc.lock in
    place (as in a clone that has the committed lock); its log is ``<path>.log`` beside it."""
    from workflow_utils import SMALL, SMK_SLICE, copy_lock, make_project, run

    def build(path):
        make_project(path, SMALL)
        copy_lock(slice_dvc, path)
        res = run(["snakemake", *SMK_SLICE, "--cores", "2"], path)
        path.with_suffix(".log").write_text(res.stdout + res.stderr)

    return shared_project(tmp_path_factory, "slice_smk", build)


@pytest.fixture(scope="session")
def slice_reported(tmp_path_factory, slice_smk) -> Path:
    """``slice_smk`` after the README's run command (``snakemake --cores 2``: headlines, the PDF
    when TeX is installed)."""
    from workflow_utils import copy_project, run

    def build(path):
        copy_project(slice_smk, path)
        run(["snakemake", "--cores", "2", "--quiet"], path)

    return shared_project(tmp_path_factory, "slice_reported", build)


@pytest.fixture(scope="session")
def tiny_bench_dvc(tmp_path_factory, mirror) -> Path:
    """``workflow_utils.TINY_BENCHMARK`` after ``dvc repro benchmark_report``; its log beside it."""
    from workflow_utils import BENCH, make_project, run, tiny_benchmark_params

    def build(path):
        make_project(path, tiny_benchmark_params(mirror))
        res = run(["dvc", "repro", f"{BENCH}benchmark_report"], path, timeout=900)
        path.with_suffix(".log").write_text(res.stdout + res.stderr)

    return shared_project(tmp_path_factory, "tiny_bench_dvc", build)


@pytest.fixture(scope="session")
def tiny_bench_smk(tmp_path_factory, mirror, tiny_bench_dvc) -> Path:
    """The same config after Snakemake built the benchmark's report (the fastText row and the
    external checks of the `benchmark` target are not run here), with ``tiny_bench_dvc``'s
    dvc.lock in place."""
    from workflow_utils import copy_lock, make_project, run, tiny_benchmark_params

    def build(path):
        make_project(path, tiny_benchmark_params(mirror))
        copy_lock(tiny_bench_dvc, path)
        run(["snakemake", "--cores", "2", "reports/metrics/benchmark.json"], path, timeout=900)

    return shared_project(tmp_path_factory, "tiny_bench_smk", build)


@pytest.fixture(scope="session")
def papers_tiny(tmp_path_factory, mirror) -> Path:
    """All five papers on their tiny configs (``workflow_utils.PAPERS_TINY``, the real datasets)
    after ONE ``snakemake --cores 2 papers``; beside it, ``<path>.dryrun.log``: the dry run of
    ``papers`` right after (each paper's test checks that it had nothing to do)."""
    from workflow_utils import make_project, papers_tiny_params, run

    def build(path):
        make_project(path, papers_tiny_params(mirror))
        run(["snakemake", "papers", "--cores", "2", "--quiet"], path, timeout=1800)
        res = run(["snakemake", "papers", "-n", "--cores", "1"], path)
        path.with_suffix(".dryrun.log").write_text(res.stdout + res.stderr)

    return shared_project(tmp_path_factory, "papers_tiny", build)
