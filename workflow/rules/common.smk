# What the rules share: the params, the code a step computes with, the tracked params.
import functools
import glob
import hashlib
import os

from codefiles import digest, key  # workflow/scripts/codefiles.py
from termweight.experiments.papers import papers as declared_papers

ENV = "../../envs/termweight.yaml"  # relative to this folder: `snakemake --use-conda`
EXPERIMENTS = config["experiments"]
BENCHMARK = config.get("benchmark", {})
CORPORA = config["corpora"]
# the papers: each declares itself in src/termweight/experiments/<paper>/ (termweight.experiments.papers)
PAPERS = list(declared_papers())


wildcard_constraints:
    dataset="[a-z0-9][a-z0-9_]*",  # "20news" starts with a digit
    exp="|".join(sorted(EXPERIMENTS)),
    encoding="[a-z0-9_]+(-[a-z0-9_]+)?",
    weighting="[a-z0-9_]+",
    learner="[a-z0-9_]+",
    key="[^/]+",


def code(*modules):
    """The code ``modules`` compute with, as a param: each module's digest over the files of
    src/termweight it imports (workflow/scripts/codefiles.py), so that an edit of those files
    reruns the job, and of no other file. dvc.yaml's stage reads the same digests from
    data/code.yaml, the `code` rule's output. Computed for the jobs a run needs only."""
    return lambda wildcards: digests_of(modules)


@functools.cache
def digests_of(modules):
    return {key(m): digest(m, src="src") for m in modules}


def weighting_file(module):
    return f"src/termweight/weightings/{module}.py"


def tracked(*keys):
    """The values of params.yaml's ``keys`` (dotted, with {wildcards}; ``key?`` may be absent), as
    a rule's params: a change reruns the job (Snakemake's params trigger), as DVC's ``params:``
    do."""

    def values(wildcards):
        out = {}
        for key in keys:
            name = key.format(**wildcards).removesuffix("?")  # "key?": optional
            try:
                out[name] = cfg(name)
            except KeyError:
                if not key.endswith("?"):
                    raise
        return out

    return values


def splits_of(protocol):
    from termweight.splits import split_names

    return split_names(protocol)


EXPERIMENT_REPORTS = [
    path
    for exp in EXPERIMENTS
    for path in (
        f"reports/metrics/{exp}.json",
        f"reports/tables/{exp}.tex",
        f"reports/figures/{exp}.pdf",
        f"reports/figures/{exp}.png",
        f"reports/figures/{exp}.csv",
        f"reports/macros/{exp}.tex",
    )
]


@functools.cache
def committed_results_digest():
    """SHA-256 over (path, content) of every result under reports/ that no generic experiment
    makes: the papers' and the benchmark's committed results, which the report and the headlines
    read without making them inputs (an input would let the default target rerun a paper for
    hours); as a param, their content reruns the two rules when it changes."""
    h = hashlib.sha256()
    own = set(EXPERIMENT_REPORTS)
    pats = ("reports/metrics/*.json", "reports/tables/*", "reports/figures/*", "reports/macros/*.tex")
    for p in sorted({p for pat in pats for p in glob.glob(pat)}):
        if p in own or p.endswith("provenance.tex"):
            continue
        h.update(p.encode() + b"\0")
        with open(p, "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


def shown(paper, path):
    """A paper's output as ``snakemake --report`` shows it: its tables (.tex), figures (.png) and
    metrics (.json) under the paper's title (its declaration, termweight.experiments.papers),
    subcategory the folder, caption the package's caption.rst; any other file as it is."""
    folder = path.split("/")[1]
    if (folder, path.rsplit(".", 1)[1]) not in {("tables", "tex"), ("figures", "png"),
                                                ("metrics", "json")}:
        return path
    title = declared_papers()[paper].title.replace("\\&", "&").replace("\\ ", " ")
    return report(path, category=title, subcategory=folder.capitalize(),
                  caption=f"../../src/termweight/experiments/{paper}/caption.rst")


def cfg(key):
    """params.yaml's value at a dotted ``key``."""
    node = config
    for part in key.split("."):
        node = node[part]
    return node


def item(section, field):
    """A param function: ``field`` of the entry ``{key}`` of the mapping ``section``."""
    return lambda w: cfg(section)[w.key][field]


def item_path(template, section):
    """An input function: ``template`` filled with the entry ``{key}`` of ``section``."""
    return lambda w: template.format(key=w.key, **cfg(section)[w.key])


# --- inputs of the corpora, experiments and benchmark rules ---

def prepare_code(wildcards):
    """The prepare step's code and that of the module declaring the dataset."""
    kind = "text" if wildcards.dataset in CORPORA.get("text", {}) else "vectors"
    return digests_of(("termweight.steps.data",
                       f"termweight.datasets.{CORPORA[kind][wildcards.dataset]['module']}"))


def experiment_corpus(wildcards):
    d = EXPERIMENTS[wildcards.exp]["dataset"]
    return [f"data/corpus/{d}/counts.npz", f"data/corpus/{d}/meta.json", f"data/corpus/{d}/terms.txt"]


def score_modules(wildcards):
    """The weighting modules of the experiment's scores (idf is termweight.contingency's)."""
    from termweight.scoring import ROWS

    modules = {ROWS[m][0] for m in EXPERIMENTS[wildcards.exp].get("scores", [])}
    return [weighting_file(m) for m in sorted(modules - {None})]


def corpus_of(dataset):
    return [f"data/corpus/{dataset}/counts.npz", f"data/corpus/{dataset}/meta.json",
            f"data/corpus/{dataset}/terms.txt"]


def column_inputs(stats=True):
    def inputs(w):
        return [weighting_file(w.weighting), "data/benchmark/settings.json", *corpus_of(w.dataset),
                f"data/benchmark/splits/bench_{w.dataset}",
                *([f"data/benchmark/stats/bench_{w.dataset}"] if stats else [])]

    return inputs

