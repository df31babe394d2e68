"""Fitting one net (torch, from the ``learn`` extra; imported only by the training
command).  The input and target scalings are folded into the first and last layers,
so the weights written are the whole model.  Private to :mod:`ofc_fast.learned.train`."""

from __future__ import annotations

import importlib
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from .._native import ffi, lib
from ..arena import sigint_deferred
from ..errors import ModelError
from .model import ValueModel

__all__ = ["c_check", "fit", "import_extra", "require_torch"]


_TORCH = threading.Lock()  # held by the fit using torch's process-wide state


def import_extra(name: str) -> Any:
    """The module ``name`` of an extra (torch, matplotlib; typed loosely), imported
    whole: Ctrl-C while it loads (seconds, the first time) stops the run once the
    import has ended.  Cut half-way, it left a module that no later import in the
    process could finish (a session's next train() failed with "partially
    initialized module 'torch'"), and torch's sometimes aborted in its C++ code
    (pybind11's terminate, exit 134).  ImportError without it."""
    with sigint_deferred():
        return importlib.import_module(name)


def require_torch() -> Any:
    """The torch module (the learn extra, typed loosely); a ModelError saying what to
    install without it."""
    try:
        return import_extra("torch")
    except ImportError:
        raise ModelError(
            "training a value model needs torch: pip install 'ofc-fast[learn]'"
        ) from None


def fit(
    x: npt.NDArray[Any],
    y: npt.NDArray[Any],
    *,
    seed: int,
    hidden: tuple[int, ...] = (64, 64),
    epochs: int = 40,
    batch: int = 512,
    lr: float = 2e-3,
    check: npt.NDArray[Any] | None = None,
) -> tuple[
    list[tuple[npt.NDArray[Any], npt.NDArray[Any]]], dict[str, Any], npt.NDArray[Any]
]:
    """Fit an MLP (ReLU) to y ~ f(x); returns its layers (W (out, in), b (out,)) with
    the scalings folded in, a summary (train / validation mean squared error), and
    torch's own output of the fitted net (float32, unscaled) on the rows of ``check``
    (default: none), which the C forward pass of the written file must reproduce.
    One thread and torch's generator seeded from ``seed``; the caller's thread count
    and generator state are as they were afterwards.  Both are torch's, one per
    process: fits called from several threads run one at a time (:data:`_TORCH`), so
    that each is the fit of its seed and the thread count is restored last."""
    torch = require_torch()
    with _TORCH:
        threads = torch.get_num_threads()
        try:  # (set inside it: a Ctrl-C just after left torch on one thread)
            torch.set_num_threads(1)
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(seed % 2**64)  # seed + cards can pass 2**64 - 1
                return _fit(torch, x, y, seed, hidden, epochs, batch, lr, check)
        finally:
            torch.set_num_threads(threads)


def _fit(
    torch: Any,
    x: npt.NDArray[Any],
    y: npt.NDArray[Any],
    seed: int,
    hidden: tuple[int, ...],
    epochs: int,
    batch: int,
    lr: float,
    check: npt.NDArray[Any] | None,
) -> tuple[
    list[tuple[npt.NDArray[Any], npt.NDArray[Any]]], dict[str, Any], npt.NDArray[Any]
]:
    """:func:`fit` with torch set up (one thread, seeded)."""
    rng = np.random.default_rng(seed)
    mu, sd = _scaling(x)
    ym, ys = float(y.mean()), float(y.std() or 1.0)
    xs = torch.tensor((x - mu) / sd, dtype=torch.float32)
    yt = torch.tensor((y - ym) / ys, dtype=torch.float32)[:, None]
    order = rng.permutation(len(x))
    n_val = max(1, len(x) // 10)
    val, train = order[:n_val], order[n_val:]
    sizes = [x.shape[1], *hidden, 1]
    layers: list[Any] = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i + 2 < len(sizes):
            layers.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*layers)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-6)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    best: tuple[float, Any] = (float("inf"), None)
    history = []
    for _ in range(epochs):
        perm = torch.tensor(rng.permutation(train))
        net.train()
        for i in range(0, len(perm), batch):
            idx = perm[i : i + batch]
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(net(xs[idx]), yt[idx])
            loss.backward()
            opt.step()
        sched.step()
        net.eval()
        with torch.no_grad():
            v = float(torch.nn.functional.mse_loss(net(xs[val]), yt[val])) * ys * ys
        history.append(v)
        if v < best[0]:
            best = (v, {k: t.clone() for k, t in net.state_dict().items()})
    assert best[1] is not None
    net.load_state_dict(best[1])
    with torch.no_grad():
        tr = float(torch.nn.functional.mse_loss(net(xs[train]), yt[train])) * ys * ys
        rows = np.zeros((0, x.shape[1])) if check is None else check
        xc = torch.tensor((rows - mu) / sd, dtype=torch.float32)
        check_y = net(xc)[:, 0].double().numpy() * ys + ym
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    out = []
    for i, m in enumerate(linear):
        w = m.weight.detach().double().numpy()
        b = m.bias.detach().double().numpy()
        if i == 0:
            b = b - w @ (mu / sd)
            w = w / sd[None, :]
        if i == len(linear) - 1:
            w, b = w * ys, b * ys + ym
        out.append((w.astype(np.float32), b.astype(np.float32)))
    return (
        out,
        {
            "train_mse": tr,
            "val_mse": best[0],
            "target_var": float(y.var()),
            "epochs": epochs,
            "val_history": history,
            "samples": len(x),
        },
        check_y,
    )


def _scaling(x: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Each input's mean and standard deviation, in float64; a constant input gets 1.

    In float32 a constant column's deviation can come out near 1e-6 from rounding
    alone; divided by that, its weight would fold into the first layer as a number
    near a million, and the file's float32 weights would no longer give the fitted
    net's output.
    """
    x64 = x.astype(np.float64)
    mu = x64.mean(0)
    sd = x64.std(0)
    sd[sd < 1e-6 * np.maximum(1.0, np.abs(mu))] = 1.0
    return mu, sd


def c_check(model: ValueModel, saved: dict[int, dict[str, npt.NDArray[Any]]]) -> float:
    """Largest |C value - fitted net's value| over the saved check inputs (each net
    step's ``check_x`` and ``check_y``): the model file against torch's own output."""
    worst = 0.0
    out = ffi.new("double *")
    for cards, d in saved.items():
        for x, y in zip(d["check_x"], d["check_y"]):
            lib.ofc_vm_eval(
                model.c, cards, ffi.from_buffer("float[]", np.ascontiguousarray(x)), out
            )
            worst = max(worst, abs(out[0] - float(y)))
    return worst
