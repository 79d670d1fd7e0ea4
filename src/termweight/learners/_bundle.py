"""Compiled inner loops of the exact mini-max solver ([`MiniMax`][termweight.learners.kim.MiniMax]).

numba (no ``fastmath``): every sum runs in one fixed order, without BLAS, so the same numbers
come out on every machine, whatever the OpenBLAS kernel. Compiled once and cached in the user's
cache directory (``cache_dir``), never beside this file: an editable install or a read-only
site-packages gets no ``__pycache__/*.nbi``/``*.nbc`` files in its source tree.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from numba import njit
from numba.core import config as numba_config


def cache_dir() -> Path:
    """Where the compiled loops are cached: ``$NUMBA_CACHE_DIR`` when the user set it (numba's
    own setting, for every numba function), else ``$XDG_CACHE_HOME/termweight/numba`` (default
    ``~/.cache/termweight/numba``). numba keeps one sub-folder per source directory in it."""
    user = os.environ.get("NUMBA_CACHE_DIR") or numba_config.CACHE_DIR
    if user:
        return Path(user)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "termweight" / "numba"


def _cached(func):
    """``njit(cache=True)`` with the cache in ``cache_dir``.

    numba picks a function's cache location when it is decorated, from ``numba.config.CACHE_DIR``
    (``$NUMBA_CACHE_DIR``; unset, it writes beside the source file). The setting is lent to
    numba for this module's functions only and put back: other numba code keeps its own.
    """
    saved = numba_config.CACHE_DIR
    numba_config.CACHE_DIR = str(cache_dir())
    try:
        return njit(cache=True)(func)
    finally:
        numba_config.CACHE_DIR = saved


@_cached
def dot(a, b):
    """``sum_i a_i b_i`` in index order."""
    s = 0.0
    for i in range(a.size):
        s += a[i] * b[i]
    return s


@_cached
def rows_dot(A, slots, a, out):
    """``out[k] = A[slots[k]] . a`` (a new cut against the kept ones)."""
    for k in range(slots.size):
        row = A[slots[k]]
        s = 0.0
        for t in range(a.size):
            s += row[t] * a[t]
        out[k] = s


@_cached
def rows_combine(A, slots, wts, out):
    """``out = sum_k wts[k] A[slots[k]]`` over the nonzero weights, in slot order."""
    out[:] = 0.0
    for k in range(slots.size):
        if wts[k] != 0.0:
            row = A[slots[k]]
            wk = wts[k]
            for t in range(out.size):
                out[t] += wk * row[t]


@_cached
def _project_simplex(v, out):
    """Euclidean projection of ``v`` onto the probability simplex into ``out``."""
    u = np.sort(v)[::-1]
    css = 0.0
    theta = 0.0
    for k in range(u.size):
        css += u[k]
        t = (css - 1.0) / (k + 1)
        if u[k] - t > 0.0:
            theta = t
    for j in range(v.size):
        d = v[j] - theta
        out[j] = d if d > 0.0 else 0.0


@_cached
def _symv(G, x, out):
    n = x.size
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += G[i, j] * x[j]
        out[i] = s


@_cached
def _lambda_max(G):
    """Largest eigenvalue of the PSD ``G`` by power iteration, as an upper bound: the Rayleigh
    quotient after 50 steps times 1.05 (FISTA below backtracks if it is still too small)."""
    n = G.shape[0]
    x = np.ones(n) / np.sqrt(n)
    y = np.empty(n)
    lam = 0.0
    for _ in range(50):
        _symv(G, x, y)
        nrm = np.sqrt(dot(y, y))
        if nrm <= 0.0:
            return 0.0
        lam = dot(x, y)
        for i in range(n):
            x[i] = y[i] / nrm
    return 1.05 * lam


@_cached
def simplex_qp(G, c, C, mu, tol, max_iter):
    """FISTA for ``min_{mu in simplex} f(mu) = 0.5 C mu'G mu - c'mu`` from ``mu`` (warm start).

    Step ``1/L``, ``L`` from ``_lambda_max`` doubled while the FISTA descent condition fails;
    adaptive restart when ``f`` rises (O'Donoghue & Candes 2015); stops when the Frank-Wolfe gap
    ``g.x - min g`` <= ``tol`` (it bounds the suboptimality). Returns the new ``mu``."""
    T = c.size
    x = mu.copy()
    Gx = np.empty(T)
    _symv(G, x, Gx)
    g = C * Gx - c
    if dot(g, x) - g.min() <= tol:
        return x
    L = C * max(_lambda_max(G), 1e-300)
    yk = x.copy()
    Gy = Gx.copy()
    t = 1.0
    fprev = 0.5 * C * dot(x, Gx) - dot(c, x)
    x_new = np.empty(T)
    Gx_new = np.empty(T)
    step = np.empty(T)
    for _ in range(max_iter):
        gy = C * Gy - c
        fy = 0.5 * C * dot(yk, Gy) - dot(c, yk)
        while True:
            for i in range(T):
                step[i] = yk[i] - gy[i] / L
            _project_simplex(step, x_new)
            _symv(G, x_new, Gx_new)
            f = 0.5 * C * dot(x_new, Gx_new) - dot(c, x_new)
            d2 = 0.0
            lin = 0.0
            for i in range(T):
                di = x_new[i] - yk[i]
                d2 += di * di
                lin += gy[i] * di
            if f <= fy + lin + 0.5 * L * d2 + 1e-12 * abs(fy):
                break
            L *= 2.0
        if f > fprev and t > 1.0:  # momentum overshot: restart from the last accepted point
            t = 1.0
            yk[:] = x
            Gy[:] = Gx
            continue
        t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
        beta = (t - 1.0) / t_new
        for i in range(T):
            yk[i] = x_new[i] + beta * (x_new[i] - x[i])
            Gy[i] = Gx_new[i] + beta * (Gx_new[i] - Gx[i])
        x[:] = x_new
        Gx[:] = Gx_new
        t = t_new
        fprev = f
        for i in range(T):
            g[i] = C * Gx[i] - c[i]
        if dot(g, x) - g.min() <= tol:  # Frank-Wolfe gap bounds suboptimality
            break
    return x


@_cached
def loss_slope(A0, dM, k):
    """Derivative at ``k`` of ``sum_i max_j (A0_ij - k dM_ij)_+`` (the active piece of each row:
    the first maximal ``j``): ``-sum_i dM_{i j*(i)}`` over the rows whose maximum is > 0."""
    n, J = A0.shape
    s = 0.0
    for i in range(n):
        best = A0[i, 0] - k * dM[i, 0]
        jb = 0
        for j in range(1, J):
            v = A0[i, j] - k * dM[i, j]
            if v > best:
                best = v
                jb = j
        if best > 0.0:
            s -= dM[i, jb]
    return s


@_cached
def qp_value(G, c, C, mu):
    """``c'mu - 0.5 C mu'G mu`` (the master dual's value: a lower bound on the objective)."""
    Gm = np.empty(mu.size)
    _symv(G, mu, Gm)
    return dot(c, mu) - 0.5 * C * dot(mu, Gm)


@_cached
def minimax_cut(indptr, indices, data, Bt, M, y, R, a):
    """Kim eq. (4) from the margins ``M`` (n, J): ``a = -sum_{i active} y_i R_ij* b_j* * x_i``
    with ``j* = argmin_j m_ij`` (first on ties), active where ``m_ij* < 1``; ``Bt`` = bases
    transposed (n_features, J), ``R`` the row scales (n, J; ones for none). Fills ``a`` (over the
    features) and returns ``(loss, number of active documents, sum of their y)``. Only the
    active rows are read."""
    n, J = M.shape
    a[:] = 0.0
    loss = 0.0
    n_active = 0
    ysum = 0.0
    for i in range(n):
        jb = 0
        m = M[i, 0]
        for j in range(1, J):
            if M[i, j] < m:
                m = M[i, j]
                jb = j
        if m < 1.0:
            loss += 1.0 - m
            n_active += 1
            ysum += y[i]
            coef = y[i] * R[i, jb]
            for p in range(indptr[i], indptr[i + 1]):
                t = indices[p]
                a[t] -= coef * data[p] * Bt[t, jb]
    return loss, n_active, ysum


def minimax_margins(indptr, indices, data, BW, y, R, shift, M):
    """``M[i, j] = y_i (R_ij x_i.(b_j * w) + shift)`` for every document and base, into ``M``
    (``BW`` = ``(b_j * w)`` transposed, (n_features, J); ``shift`` = intercept_scaling * w0).
    Five bases (Kim's) have an unrolled loop: twice as fast as the general one."""
    (_margins5 if M.shape[1] == 5 else _margins)(indptr, indices, data, BW, y, R, shift, M)


@_cached
def _margins(indptr, indices, data, BW, y, R, shift, M):
    n, J = M.shape
    acc = np.empty(J)
    for i in range(n):
        acc[:] = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            t = indices[p]
            x = data[p]
            for j in range(J):
                acc[j] += x * BW[t, j]
        for j in range(J):
            M[i, j] = y[i] * (R[i, j] * acc[j] + shift)


@_cached
def _margins5(indptr, indices, data, BW, y, R, shift, M):
    for i in range(M.shape[0]):
        a0 = a1 = a2 = a3 = a4 = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            t = indices[p]
            x = data[p]
            a0 += x * BW[t, 0]
            a1 += x * BW[t, 1]
            a2 += x * BW[t, 2]
            a3 += x * BW[t, 3]
            a4 += x * BW[t, 4]
        yi = y[i]
        M[i, 0] = yi * (R[i, 0] * a0 + shift)
        M[i, 1] = yi * (R[i, 1] * a1 + shift)
        M[i, 2] = yi * (R[i, 2] * a2 + shift)
        M[i, 3] = yi * (R[i, 3] * a3 + shift)
        M[i, 4] = yi * (R[i, 4] * a4 + shift)
