# Shared helpers: experiment lookups, split names, and the one CLI every rule calls.
import functools
import glob
import os
from pathlib import Path

from termweight.config import check_names
from termweight.pipeline.codedeps import command_code
from termweight.splits import split_names

check_names(config, source="params.yaml (Snakemake config)")

EXPERIMENTS = config["experiments"]
# Paper rule files append their final outputs here (see rule `papers` in the Snakefile).
PAPER_TARGETS = []
ENV = "../../envs/termweight.yaml"
# What a job prints when it starts (its `message:`): the step, its wildcards (dataset, split,
# key...) and its outputs, one line, not its inputs (25-50 derived code files). Snakemake's whole
# job block instead: TERMWEIGHT_JOB_DETAILS=1 in the environment (the tests parse it).
JOB_LINE = None if os.environ.get("TERMWEIGHT_JOB_DETAILS") else "{rule} {wildcards} -> {output}"


wildcard_constraints:
    dataset="[a-z0-9][a-z0-9_]*",  # "20news" starts with a digit
    # only the configured experiments: paper outputs like reports/metrics/<paper>.json must not
    # match the generic per-experiment rules
    exp="|".join(sorted(EXPERIMENTS)),
    split="[a-z0-9]+",
    encoding="[a-z]+(-[a-z0-9_]+)?",


def _job_cores():
    """Cores for a job that parallelises inside itself (worker processes; same bytes for any
    number): --cores locally. One under the cluster profile (fanout=split): there the job step
    re-reads the Snakefile and would ask srun for the node's cores, more than the job was
    allocated at submission; and 1 where Snakemake has no total (--report): reading
    workflow.cores there raises."""
    if FANOUT == "split":
        return 1
    try:
        return workflow.cores or 1
    except WorkflowError:
        return 1


JOB_CORES = _job_cores()


@functools.cache
def _code_of(command, extra_modules):
    return tuple(command_code(command, extra_modules))


def code_of(command, *extra_modules):
    """Code inputs for a job that runs ``python -m termweight <command>``, i.e. the files of
    src/termweight the sub-command imports, transitively (termweight.pipeline.codedeps), plus the
    whole of ``extra_modules``. The same list as the DVC stage's code dependencies (dvc.yaml)."""
    return list(_code_of(command, tuple(extra_modules)))


def file_or_directory(path):
    """A declared output: a directory where its last part has no file extension."""
    return directory(path) if "." not in os.path.basename(path) else path


def splits_of(exp):
    return split_names(EXPERIMENTS[exp]["protocol"])


def per_run(template):
    """Input function: ``template`` for every encoding x split of the experiment."""

    def inputs(wildcards):
        exp = EXPERIMENTS[wildcards.exp]
        return expand(template, exp=wildcards.exp, encoding=exp["encodings"],
                      split=splits_of(wildcards.exp))

    return inputs


def all_reports():
    return [
        path
        for exp in EXPERIMENTS
        for path in (
            f"reports/metrics/{exp}.json",
            f"reports/tables/{exp}.tex",
            f"reports/figures/{exp}.pdf",
            f"reports/figures/{exp}.png",
            f"reports/figures/{exp}.csv",
        )
    ]


# Results on disk that no configured experiment makes (the papers' committed reports/ files, or a
# paper just run with `snakemake papers`) are read by the report but are NOT inputs: an input
# would let Snakemake decide to regenerate them, and the default target must never start the
# papers' hours of work. Their content hash is a param instead, so the PDF is rebuilt whenever
# they change, and only then.
REPORT_GLOBS = [
    "reports/metrics/*.json",
    "reports/tables/*.tex",
    "reports/figures/*.pdf",
    "reports/macros/*.tex",
]


def _configured_reports():
    return set(all_reports() + [f"reports/macros/{e}.tex" for e in EXPERIMENTS])


@functools.cache
def other_results_digest():
    """SHA-256 over (path, content) of every on-disk result no configured experiment makes
    (computed once per Snakemake run: the report and headlines rules both track it)."""
    import hashlib

    h = hashlib.sha256()
    own = _configured_reports()
    for p in sorted({p for pat in REPORT_GLOBS for p in glob.glob(pat)}):
        if p in own or p.endswith("provenance.tex"):
            continue
        h.update(p.encode() + b"\0")
        with open(p, "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


def paper_package_files(name):
    """Each declared paper package's ``name`` file (section.tex, published.json), as a path of
    this workflow: a file of the imported termweight is taken from the project's own ``src/``,
    so the rules' inputs do not depend on which copy of termweight Python imports."""
    import termweight
    from termweight.experiments.papers import papers

    installed = Path(termweight.__file__).resolve().parent
    out = []
    for paper in papers().values():
        f = paper.file(name)
        if f is None:
            continue
        f = Path(f).resolve()
        if f.is_relative_to(installed):
            f = Path(workflow.basedir) / "src/termweight" / f.relative_to(installed)
        out.append(os.path.relpath(f, workflow.basedir))
    return out
