"""The learned value of partial boards: models that ship in the wheel, evaluated in C.

* :mod:`ofc_fast.learned.model`: read, check, write and evaluate model files
  (:class:`ValueModel`, :func:`load_model`, :func:`shipped_model`).
* :mod:`ofc_fast.learned.train`: the training command (``python -m
  ofc_fast.learned.train``; needs the ``learn`` extra: torch), see docs/learned.md.

The bots that use a model: :class:`~ofc_fast.bots.ValueBot` (registry name
``value``) and :class:`~ofc_fast.bots.SearchBot` (``search``; its default
``model="auto"``).

>>> from ofc_fast import rules
>>> from ofc_fast.learned import shipped_model
>>> shipped_model(rules.PINEAPPLE, 2).players
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

__all__ = [
    "FEATURES",
    "FORMAT_VERSION",
    "MODEL_DIR",
    "ModelSpec",
    "ValueModel",
    "load_model",
    "model_bytes",
    "resolve_model",
    "rules_hash",
    "shipped_model",
    "write_model",
]

if TYPE_CHECKING:
    from .model import (
        FEATURES,
        FORMAT_VERSION,
        MODEL_DIR,
        ModelSpec,
        ValueModel,
        load_model,
        model_bytes,
        resolve_model,
        rules_hash,
        shipped_model,
        write_model,
    )
else:
    __getattr__, __dir__ = lazy_exports(
        globals(),
        {
            ".model": (
                "FEATURES",
                "FORMAT_VERSION",
                "MODEL_DIR",
                "ModelSpec",
                "ValueModel",
                "load_model",
                "model_bytes",
                "resolve_model",
                "rules_hash",
                "shipped_model",
                "write_model",
            )
        },
    )
