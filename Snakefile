# termweight: raw text -> counts -> splits -> statistics -> scores -> encodings -> models
# -> predictions -> metrics -> tables and figures. Every rule runs `python -m termweight <step>`.
# The same graph as dvc.yaml, job for job (tests/test_pipeline.py): each rule here is a stage
# there, with the same command, inputs, outputs and params.
import sys

from snakemake.utils import min_version

min_version("9.0")
sys.path[:0] = [f"{workflow.basedir}/src", f"{workflow.basedir}/workflow/scripts"]  # this checkout's

from termweight.runner.config import check_config_files, check_workflow_config  # noqa: E402

check_config_files(["params.yaml"])  # one line and exit 2 on a bad file, before Snakemake reads it


configfile: "params.yaml"


check_workflow_config(config, workflow.configfiles, "workflow/schemas/params.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/code.smk"
include: "workflow/rules/corpora.smk"
include: "workflow/rules/experiments.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/benchmark.smk"


# each paper's rules, in workflow/rules/<paper>.smk with a target rule named after the paper
for paper in PAPERS:

    include: f"workflow/rules/{paper}.smk"


rule all:
    """The offline default: every generic experiment, the report (the papers' and the benchmark's
    committed results are read, not rerun: `snakemake papers`, `snakemake benchmark`) and the
    headline numbers."""
    input:
        EXPERIMENT_REPORTS,
        REPORT_OUTPUTS,
        "reports/headlines.json",
    default_target: True


rule experiments:
    """Every generic experiment's table, figure and metrics (`dvc repro table@<exp> figure@<exp>`);
    their LaTeX macros are the report's."""
    input:
        [p for p in EXPERIMENT_REPORTS if not p.startswith("reports/macros/")],


rule papers:
    input:
        [getattr(rules, paper).input for paper in PAPERS],
