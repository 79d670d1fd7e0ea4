"""mix-ch gives the same bits on every CPU: its sums do not go through BLAS, whose kernel (and
so the order of a sum) OpenBLAS picks per CPU. ``OPENBLAS_CORETYPE`` forces three x86 kernels
in one machine; before the fix the three fits below differed (every run of this script with
the BLAS sums printed a different digest per kernel)."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

SCRIPT = """
import hashlib, warnings
import numpy as np, scipy.sparse as sp
from termweight.experiments.kim import kim_bases
from termweight.learners.kim import MixCH
warnings.simplefilter("ignore")
rng = np.random.default_rng(0)
X = sp.random(300, 2000, density=0.05, random_state=1, format="csr")
X.data = rng.random(X.nnz)
y = (X @ rng.normal(size=2000) + 0.3 * rng.normal(size=300) > 0).astype(int)
B = rng.random((5, 2000)) + 0.1
h = hashlib.sha256(kim_bases(X, np.eye(2)[y]).tobytes())
for C in (1.0, 100.0):
    est = MixCH(base_weights=B, C=C, max_iter=20, svm_max_iter=50).fit(X, y)
    for a in (est.alpha_, est.coef_, np.asarray(est.history_["objective"])):
        h.update(np.ascontiguousarray(a, dtype=np.float64).tobytes())
print(h.hexdigest())
"""


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                    reason="OPENBLAS_CORETYPE names x86 kernels")
def test_mixch_is_the_same_under_every_blas_kernel():
    import os

    out = set()
    for kernel in ("Haswell", "Prescott", "SkylakeX"):
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel}
        res = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                             text=True, timeout=300)
        assert res.returncode == 0, res.stderr[-2000:]
        out.add(res.stdout.strip())
    assert len(out) == 1, out
