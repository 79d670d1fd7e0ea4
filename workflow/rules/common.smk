# Shared helpers: experiment lookups, split names, and the one CLI every rule calls.
import glob

from termweight.config import check_names
from termweight.datasets import DATASETS
from termweight.splits import split_names

check_names(config, source="params.yaml (Snakemake config)")

EXPERIMENTS = config["experiments"]
TEXT_DATASETS = sorted(n for n, spec in DATASETS.items() if spec.kind == "text")
VECTOR_DATASETS = sorted(n for n, spec in DATASETS.items() if spec.kind == "vectors")
# Paper rule files append their final outputs here (see rule `papers` in the Snakefile).
PAPER_TARGETS = []
ENV = "../../envs/termweight.yaml"


wildcard_constraints:
    dataset="[a-z0-9][a-z0-9_]*",  # "20news" starts with a digit
    # only the configured experiments: paper outputs like reports/metrics/<paper>.json must not
    # match the generic per-experiment rules
    exp="|".join(sorted(EXPERIMENTS)),
    split="[a-z0-9]+",
    encoding="[a-z]+(-[a-z0-9_]+)?",


def dataset_of(wildcards):
    return EXPERIMENTS[wildcards.exp]["dataset"]


def corpus_dir(wildcards):
    return f"data/corpus/{dataset_of(wildcards)}"


def corpus_files(wildcards):
    base = corpus_dir(wildcards)
    return [f"{base}/counts.npz", f"{base}/meta.json", f"{base}/terms.txt"]


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
        )
    ]
