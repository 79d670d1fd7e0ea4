# termweight: raw text -> counts -> splits -> statistics -> scores -> encodings -> models
# -> predictions -> metrics -> tables and figures. Every rule calls `python -m termweight`.
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "params.yaml"


validate(config, "workflow/schemas/params.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/features.smk"
include: "workflow/rules/learn.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/esuli.smk"
include: "workflow/rules/mukras.smk"
include: "workflow/rules/report_paper.smk"
include: "workflow/rules/kim.smk"
include: "workflow/rules/forman.smk"
include: "workflow/rules/ferreira.smk"


rule all:
    input:
        all_reports(),
        REPORT_OUTPUTS,  # reports/paper.pdf (workflow/rules/report_paper.smk)
    default_target: True


rule experiments:
    input:
        all_reports(),


rule papers:
    input:
        PAPER_TARGETS,


onsuccess:
    shell("python workflow/scripts/commit_to_dvc.py")
