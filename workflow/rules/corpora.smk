# The corpora of params.yaml's `corpora:`: raw files -> documents -> tokens -> counts (text), or
# the corpus straight from term vectors (vectors). dvc.yaml: prepare, prepare_vectors, tokenize,
# count.
rule prepare:
    input:
    output:
        "data/documents/{dataset}/documents.parquet",
        "data/documents/{dataset}/documents.json",
    wildcard_constraints:
        dataset="|".join(CORPORA.get("text", {})),
    params:
        code=prepare_code,
    log:
        "logs/prepare/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} prepare --dataset {wildcards.dataset}"
        " --out data/documents/{wildcards.dataset} --raw data/raw/{wildcards.dataset} --params params.yaml"


rule prepare_vectors:
    input:
    output:
        "data/corpus/{dataset}/counts.npz",
        "data/corpus/{dataset}/meta.json",
        "data/corpus/{dataset}/terms.txt",
    wildcard_constraints:
        dataset="|".join(CORPORA.get("vectors", {})),
    params:
        code=prepare_code,
    log:
        "logs/prepare/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} prepare --dataset {wildcards.dataset}"
        " --out data/corpus/{wildcards.dataset} --raw data/raw/{wildcards.dataset} --params params.yaml"


rule tokenize:
    input:
        "data/documents/{dataset}/documents.parquet",
        "data/documents/{dataset}/documents.json",
    output:
        "data/tokens/{dataset}.parquet",
    params:
        code=code("termweight.steps.data"),
    log:
        "logs/tokenize/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} tokenize --documents data/documents/{wildcards.dataset}"
        " --out {output}"


rule count:
    input:
        "data/documents/{dataset}/documents.parquet",
        "data/documents/{dataset}/documents.json",
        "data/tokens/{dataset}.parquet",
    output:
        "data/corpus/{dataset}/counts.npz",
        "data/corpus/{dataset}/meta.json",
        "data/corpus/{dataset}/terms.txt",
    wildcard_constraints:
        dataset="|".join(CORPORA.get("text", {})),
    params:
        code=code("termweight.steps.data"),
    log:
        "logs/count/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} count --documents data/documents/{wildcards.dataset}"
        " --tokens data/tokens/{wildcards.dataset}.parquet --out data/corpus/{wildcards.dataset}"
