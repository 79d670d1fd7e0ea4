# The code digests: data/code.yaml, one MD5 per module of src/termweight (dvc.yaml's stage `code`).

rule code:
    """data/code.yaml: each module's code digest (workflow/scripts/codefiles.py), which dvc.yaml's
    stages read as a params file. No rule reads it (they compute the same digests themselves:
    ``code``), so no target asks for it: `snakemake data/code.yaml` rewrites it."""
    input:
        sorted(glob.glob("src/termweight/**/*.py", recursive=True)),
        "workflow/scripts/codefiles.py",
    output:
        "data/code.yaml",
    log:
        "logs/code.log",
    conda:
        ENV
    shell:
        "python workflow/scripts/codefiles.py --log {log} --src src --out {output}"
