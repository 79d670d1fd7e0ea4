"""The command line for two audiences: the few commands first, the pipeline steps apart; `list`
outside the repository; which datasets are here; `run` and `version`."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

import pytest

from termweight.runner import cli


def tw(*args, cwd, env=None):
    return subprocess.run([sys.executable, "-m", "termweight", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300, env=env)


def _sections(text: str) -> dict[str, str]:
    """``title`` -> body of each ``title:`` section of a help text."""
    parts = re.split(r"^(\S[^\n]*):\n", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def test_help_lists_the_commands_first_and_the_steps_apart(tmp_path):
    res = tw("--help", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    sections = _sections(res.stdout)
    titles = list(sections)
    assert titles.index("commands") < titles.index(cli.STEPS_TITLE) < titles.index("options")
    commands = re.findall(r"^  (\S+)", sections["commands"], re.M)
    assert commands == list(cli.USER_COMMANDS)
    steps = sections[cli.STEPS_TITLE]
    for paper in ("esuli", "mukras", "forman", "kim", "ferreira"):  # one line per paper
        assert len([ln for ln in steps.splitlines() if ln.startswith(f"  {paper}-{{")]) == 1
    assert "  kim-{split,select,fit," in steps
    assert len(res.stdout.splitlines()) < 80
    for name in ("prepare", "encode", "headlines", "report-macros"):
        assert re.search(rf"\b{name}\b", steps), name


def test_every_sub_command_is_shown_once():
    ap = cli.build_parser(["--help"])
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    text = ap.format_help()
    steps = _sections(text)[cli.STEPS_TITLE]
    shown = set()
    for names in re.findall(r"^  (\S.*?)(?:  |$)", steps, re.M):
        m = re.fullmatch(r"([\w]+)-\{(.*)\}", names)
        shown |= ({f"{m[1]}-{t}" for t in m[2].split(",")} if m
                  else {n.strip() for n in names.split(",")})
    assert shown | set(cli.USER_COMMANDS) == set(sub.choices)
    assert not shown & set(cli.USER_COMMANDS)


def test_a_step_still_parses_its_arguments():
    """Snakemake rules and dvc.yaml call the steps by their names: unchanged."""
    args = cli.build_parser(["kim-fit", "--help"]).parse_args(
        ["prepare", "--dataset", "bbc", "--out", "x"])
    assert args.command == "prepare" and args.dataset == "bbc"
    ap = cli.build_parser(["kim-fit"])
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    assert "kim-fit" in sub.choices and "esuli-boost" not in sub.choices  # only kim imported


def test_version_command_is_the_version_option(tmp_path):
    a, b = tw("version", cwd=tmp_path), tw("--version", cwd=tmp_path)
    assert a.returncode == b.returncode == 0 and a.stdout == b.stdout and a.stderr == ""


@pytest.mark.parametrize("kind", ["datasets", "metrics", "encodings", "learners"])
def test_list_needs_no_params_file(tmp_path, kind):
    res = tw("list", kind, cwd=tmp_path)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert len(res.stdout.splitlines()) > 3


def test_list_experiments_outside_the_repository_lists_the_papers(tmp_path):
    from termweight.experiments.papers import papers

    res = tw("list", "experiments", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "no params.yaml" in res.stderr and "error" not in res.stderr
    names = [ln.split()[0] for ln in res.stdout.splitlines()]
    assert names == [*papers(), "papers"]


def test_list_datasets_says_what_is_here(tmp_path):
    """Available from the raw directory or the mirror, missing with the file and its source."""
    (tmp_path / "mirror/spambase").mkdir(parents=True)
    for name in ("spambase.data", "spambase.names"):
        (tmp_path / "mirror/spambase" / name).write_text("x")
    (tmp_path / "data/raw/oh0").mkdir(parents=True)
    (tmp_path / "data/raw/oh0/oh0.wc.arff").write_text("x")
    (tmp_path / "mirror/forman19").mkdir()
    (tmp_path / "mirror/forman19/SOURCE.md").write_text("where")
    res = tw("list", "datasets", "--mirror", "mirror", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    lines = {ln.split()[0]: ln for ln in res.stdout.splitlines()}
    assert lines["spambase"].split()[2] == "available" and "files in mirror/spambase" in \
        lines["spambase"]
    assert lines["oh0"].split()[2] == "available" and "data/raw/oh0" in lines["oh0"]
    assert lines["bbc"].split()[2] == "bundled"
    fbis = lines["fbis"]
    assert fbis.split()[2] == "missing"
    assert "needs fbis.wc.arff under data/raw/fbis or mirror/forman19" in fbis
    assert "19MclassTextWc.zip" in fbis and "see mirror/forman19/SOURCE.md" in fbis
    # the archive at hand in the mirror is enough: prepare takes the file out of it
    (tmp_path / "mirror/forman19/19MclassTextWc.zip").write_text("x")
    lines = {ln.split()[0]: ln for ln in tw("list", "datasets", "--mirror", "mirror",
                                             cwd=tmp_path).stdout.splitlines()}
    assert lines["fbis"].split()[2] == "available"


def test_list_datasets_reads_the_mirror_of_the_params_file(repo):
    """In the repository: params.yaml's mirror, as prepare (the shared datasets are here)."""
    res = tw("list", "datasets", "--raw", "no/such/{dataset}", cwd=repo)
    assert res.returncode == 0, res.stderr
    lines = {ln.split()[0]: ln for ln in res.stdout.splitlines()}
    if (repo / "../shared/datasets/spambase/spambase.data").is_file():
        assert lines["spambase"].split()[2] == "available"
        assert "../shared/datasets/spambase" in lines["spambase"]


def test_run_outside_the_repository_is_one_line(tmp_path):
    res = tw("run", "-n", cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.count("\n") == 1 and "no Snakefile" in res.stderr


def test_run_calls_snakemake_in_the_checkout(tmp_path, monkeypatch):
    """`run` = snakemake --cores N [-n] targets, in the checkout found above the cwd; its status."""
    from termweight.steps import workflow

    (tmp_path / "Snakefile").write_text("")
    (tmp_path / "params.yaml").write_text("")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    calls = []

    def fake_run(cmd, cwd, check):
        calls.append((cmd, cwd))
        return subprocess.CompletedProcess(cmd, 3)

    monkeypatch.setattr(workflow.subprocess, "run", fake_run)
    monkeypatch.setattr(workflow, "snakemake_command", lambda: ["snakemake"])
    assert cli.main(["run", "--cores", "2", "-n", "kim", "esuli"]) == 3
    assert calls == [(["snakemake", "--cores", "2", "-n", "kim", "esuli"], tmp_path)]


def test_every_sub_commands_usage_line_names_it():
    """`termweight <name> --help` starts `usage: termweight <name> ...` (argparse's sub-parsers
    took the main parser's whole usage line as their prefix)."""
    ap = cli.build_parser(["--help"])
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    for name, parser in sub.choices.items():
        usage = parser.format_usage()
        assert usage.startswith(f"usage: termweight {name} "), (name, usage)
        assert "<command>" not in usage, name


#: the pipeline's packages hidden, as on a core install (`pip install termweight`)
CORE_ONLY = """
import sys
for m in {modules!r}:
    sys.modules[m] = None
from termweight.runner.cli import main
raise SystemExit(main({argv!r}))
"""


def test_help_works_on_a_core_install(tmp_path):
    def core(argv):
        code = CORE_ONLY.format(modules=sorted(cli.WORKFLOW_MODULES), argv=argv)
        return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)

    res = core(["--help"])
    assert res.returncode == 0, res.stderr
    steps = _sections(res.stdout)[cli.STEPS_TITLE]
    assert "pip install 'termweight[workflow]'" in " ".join(steps.split())
    assert "  prepare, tokenize, count" in steps  # the generic steps are listed as usual
    res = core(["kim-fit", "--help"])  # a step that needs the extra: one line, exit 2
    assert res.returncode == 2 and res.stderr.strip().count("\n") == 0, res.stderr
    assert "pip install 'termweight[workflow]'" in res.stderr
