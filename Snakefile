# termweight: raw text -> counts -> splits -> statistics -> scores -> encodings -> models
# -> predictions -> metrics -> tables and figures. Every rule calls `python -m termweight`.
import sys

from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version

sys.path.insert(0, f"{workflow.basedir}/workflow/scripts")
# this checkout's own code, whatever `pip install -e` pointed at (src/termweight/checkout.py)
sys.path.insert(0, f"{workflow.basedir}/src")
import dvc_sync  # noqa: E402  (workflow glue: the lock between Snakemake and DVC, DVC's cache)
import scheduler_fix  # noqa: E402  (workflow glue: one scheduler re-evaluation timer, not one per job)

scheduler_fix.apply()

min_version("9.0")

from termweight.config import check_config_files, check_workflow_config  # noqa: E402

# aliases, duplicate keys, size: one line, before Snakemake's config merge expands aliases
check_config_files(["params.yaml"])


configfile: "params.yaml"


# How the generic experiments are cut into jobs (an execution choice, not a parameter: the
# outputs are the same bytes either way, so it is not in params.yaml): "step" = one job per step
# over all splits, as DVC's stages (the default: fastest on one machine); "split" = one job per
# split and encoding (`--config fanout=split`, set by the Slurm profile).
FANOUT = config.pop("fanout", "step")
if FANOUT not in ("step", "split"):
    raise WorkflowError(f"--config fanout={FANOUT!r}: use 'step' or 'split'")


# strict (duplicate keys, integers, finite numbers) and short: one line naming file, key, value, rule
check_workflow_config(config, workflow.configfiles, "workflow/schemas/params.schema.yaml")


include: "workflow/rules/common.smk"
# (the data steps and the generic chain, in either fan-out, are declared in workflow/stages.yaml:
# workflow/rules/declared.smk builds their rules)

include: "workflow/rules/report.smk"
include: "workflow/rules/report_paper.smk"
include: "workflow/rules/metrics.smk"
include: "workflow/rules/declared.smk"  # the rules of workflow/stages.yaml and the paper packages


rule all:
    message:
        None if JOB_LINE is None else "{rule}: every output of the target is up to date"
    input:
        all_reports(),
        REPORT_OUTPUTS,  # reports/paper.pdf (workflow/rules/report_paper.smk)
        HEADLINES,  # reports/headlines.json, `dvc metrics show` (workflow/rules/metrics.smk)
    default_target: True


rule experiments:
    message:
        None if JOB_LINE is None else "{rule}: every output of the target is up to date"
    input:
        all_reports(),


rule papers:
    message:
        None if JOB_LINE is None else "{rule}: every output of the target is up to date"
    input:
        PAPER_TARGETS,


onstart:
    # Snakemake and DVC never run at once here: refuse while `dvc repro` runs, and hold DVC's
    # repository lock until this run ends so that a `dvc repro` started meanwhile is refused.
    try:
        dvc_sync.hold_checkout_lock(workflow.basedir)
    except dvc_sync.CheckoutBusy as exc:
        raise WorkflowError(str(exc)) from None


onsuccess:
    # Outputs byte-identical to dvc.lock go into DVC's cache (hashed here; dvc.lock untouched).
    dvc_sync.report_to_dvc(workflow.basedir)
    dvc_sync.release_checkout_lock()


onerror:
    dvc_sync.release_checkout_lock()
