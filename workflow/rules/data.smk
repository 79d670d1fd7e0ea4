# Raw files -> documents -> tokens -> corpus (count matrix + labels) -> splits.


rule prepare_text:
    wildcard_constraints:
        dataset="|".join(TEXT_DATASETS),
    input:
        code=prepare_code,
    output:
        "data/documents/{dataset}/documents.parquet",
        "data/documents/{dataset}/documents.json",
    log:
        "logs/prepare/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} prepare --dataset {wildcards.dataset}"
        " --out data/documents/{wildcards.dataset} --raw data/raw/{wildcards.dataset} --params params.yaml"


rule prepare_vectors:
    wildcard_constraints:
        dataset="|".join(VECTOR_DATASETS),
    input:
        code=prepare_code,
    output:
        "data/corpus/{dataset}/counts.npz",
        "data/corpus/{dataset}/meta.json",
        "data/corpus/{dataset}/terms.txt",
    log:
        "logs/prepare/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} prepare --dataset {wildcards.dataset}"
        " --out data/corpus/{wildcards.dataset} --raw data/raw/{wildcards.dataset} --params params.yaml"


rule tokenize:
    input:
        code=code_of("tokenize"),
        docs=[
            "data/documents/{dataset}/documents.parquet",
            "data/documents/{dataset}/documents.json",
        ],
    output:
        "data/tokens/{dataset}.parquet",
    log:
        "logs/tokenize/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} tokenize --documents data/documents/{wildcards.dataset} --out {output}"


rule count:
    wildcard_constraints:
        dataset="|".join(TEXT_DATASETS),
    input:
        code=code_of("count"),
        docs=rules.tokenize.input.docs,
        tokens="data/tokens/{dataset}.parquet",
    output:
        "data/corpus/{dataset}/counts.npz",
        "data/corpus/{dataset}/meta.json",
        "data/corpus/{dataset}/terms.txt",
    log:
        "logs/count/{dataset}.log",
    conda:
        ENV
    shell:
        "python -m termweight --log {log} count --documents data/documents/{wildcards.dataset}"
        " --tokens {input.tokens} --out data/corpus/{wildcards.dataset}"


# One split rule per experiment, because the split names (its outputs) depend on the protocol.
for _exp in EXPERIMENTS:

    rule:
        name:
            f"split_{_exp}"
        input:
            expand("data/corpus/{dataset}/{file}", dataset=EXPERIMENTS[_exp]["dataset"],
                   file=["counts.npz", "meta.json", "terms.txt"]),
            code=code_of("split"),
        output:
            index=f"data/splits/{_exp}/index.json",
            splits=expand(f"data/splits/{_exp}/{{split}}.npz", split=splits_of(_exp)),
        params:
            exp=_exp,
            dataset=EXPERIMENTS[_exp]["dataset"],
            tracked=[EXPERIMENTS[_exp]["protocol"], config["seed"]],  # rerun when they change
        log:
            f"logs/split/{_exp}.log",
        conda:
            ENV
        shell:
            "python -m termweight --log {log} split --params params.yaml --exp {params.exp}"
            " --corpus data/corpus/{params.dataset} --out-dir data/splits/{params.exp}"
