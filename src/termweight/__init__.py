"""termweight: term weighting, ordinal encoding and feature selection for text classification.

The library is pure Python over NumPy/SciPy sparse matrices and knows nothing of Snakemake or DVC;
the workflow calls it through one CLI (``python -m termweight``).
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
