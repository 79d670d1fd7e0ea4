# The rules of the paper PACKAGES that declare their steps (termweight.experiments.papers): each
# stage of the package's stages.yaml becomes one rule per instance, with the same command, the
# same inputs and outputs and the same code (derived from the imports) as its DVC stage, so
# nothing is written twice. A package paper needs no rule file: `snakemake <paper>` runs it.
# (The five reproduced papers keep their hand-written rule files, which the one-graph test holds
# to their DVC stages.) An output whose last part has no file extension is a directory.
from pathlib import Path

from termweight.pipeline.dvcyaml import package_instances, params_values


for _paper, _insts in package_instances(Path(workflow.basedir), config).items():
    _outs = []
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
            conda:
                ENV
            shell:
                _i["cmd"].replace("{", "{{").replace("}", "}}")

    PAPER_TARGETS.extend(_outs)

    rule:
        name:
            _paper
        input:
            _outs,
