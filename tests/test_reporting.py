"""The LaTeX table (booktabs) and figure writers."""

import shutil
import subprocess

import pandas as pd
import pytest

from termweight.reporting import latex_escape, latex_table, write_latex_table


def test_booktabs_table(tmp_path):
    frame = pd.DataFrame({"Encoding": ["binary", "tf_idf"], "F1": [0.91234, 0.8]})
    tex = latex_table(frame, r"Caption 50\%", "tab:x")  # the caption is LaTeX
    for needle in (r"\toprule", r"\midrule", r"\bottomrule", r"\caption{Caption 50\%}",
                   r"\label{tab:x}", r"tf\_idf", "0.9123"):
        assert needle in tex
    write_latex_table(tmp_path / "t.tex", frame, "c", "tab:y")
    assert (tmp_path / "t.tex").read_text().startswith(r"\begin{table}")


def test_latex_escape():
    assert latex_escape("a_b & 5% #1 $x") == r"a\_b \& 5\% \#1 \$x"


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_table_compiles_with_pdflatex(tmp_path):
    frame = pd.DataFrame({"Encoding": ["binary-bns"], "Micro-F1": ["0.9 $\\pm$ 0.01"]})
    write_latex_table(tmp_path / "t.tex", frame, "c", "tab:z", escape=False)
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\\usepackage{booktabs}"
                                      "\\begin{document}\\input{t.tex}\\end{document}\n")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "doc.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / "doc.pdf").exists()
