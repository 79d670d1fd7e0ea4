# The rules of the paper PACKAGES that declare their steps (termweight.experiments.papers): each
# stage of the package's stages.yaml without a `snakemake:` block becomes one rule per instance,
# with the same command, the same inputs and outputs and the same code (derived from the
# imports) as its DVC stage, so nothing is written twice. A package paper needs no rule file:
# `snakemake <paper>` runs it. An output whose last part has no file extension is a directory.
# (Stages with a `snakemake:` block, in workflow/stages.yaml or a package, are built below.)
from pathlib import Path

from termweight.pipeline.dvcyaml import package_instances, params_values

_PACKAGE_OUTS = {}  # paper -> the outputs of its stages built here (part of its target)

for _paper, _insts in package_instances(Path(workflow.basedir), config).items():
    _outs = _PACKAGE_OUTS.setdefault(_paper, [])
    for _i in _insts:
        _outs += _i["outs"]

        rule:
            name:
                _i["rule"]
            input:
                code=[d for d in _i["deps"] if d.endswith(".py")],  # as derived for dvc.yaml
                deps=[d for d in _i["deps"] if not d.endswith(".py")],
            output:
                [file_or_directory(o) for o in _i["outs"]],
            params:
                tracked=params_values(_i["params"], config),
            message:
                JOB_LINE  # one line per job: what it computes (workflow/rules/common.smk)
            conda:
                ENV
            shell:
                _i["cmd"].replace("{", "{{").replace("}", "}}")


# The rules of the stages that carry a `snakemake:` block, in workflow/stages.yaml (the five
# reproduced papers, the benchmark) or in a paper package's stages.yaml: the stage's own command for one part of its work per job (its fan-out), the
# files the block names beside it, report() captions and categories, and each paper's target
# (termweight.pipeline.smkrules says what the block's keys mean).
from termweight.pipeline.smkrules import job_input, job_params, snakemake_rules

# captions relative to this file
_DECLARED_RULES, _DECLARED_TARGETS = snakemake_rules(
    Path(workflow.basedir), config, rules_dir="workflow/rules", fanout=FANOUT
)

for _spec in _DECLARED_RULES:

    rule:
        name:
            _spec["name"]
        wildcard_constraints:
            **{w: "|".join(v) for w, v in _spec["wildcards"].items()},
        input:
            job_input(_spec),
        output:
            [
                report(o, **_spec["report"][o]) if o in _spec["report"] else file_or_directory(o)
                for o in _spec["output"]
            ],
        params:
            **job_params(_spec),
        threads: JOB_CORES if _spec["threads"] == "job_cores" else _spec["threads"]
        log:
            _spec["log"],
        message:
            JOB_LINE
        conda:
            ENV
        shell:
            "{params.cmd}"


for _paper, _outs in _PACKAGE_OUTS.items():  # a package paper's target: both kinds of stage
    _t = _DECLARED_TARGETS.setdefault(_paper, {"files": [], "paper": True})
    _t["files"] = _t["files"] + [o for o in _outs if o not in _t["files"]]

for _target, _t in _DECLARED_TARGETS.items():
    if _t["paper"]:
        PAPER_TARGETS.extend(_t["files"])

    rule:
        name:
            _target
        input:
            _t["files"],
        message:
            None if JOB_LINE is None else "{rule}: every output of the target is up to date"
