"""The data folder: platformdirs default without an author level, overrides, helpers."""

from __future__ import annotations

from pathlib import Path

from desktop_app.core import paths


def test_default_has_no_author_level(monkeypatch):
    monkeypatch.delenv(paths.ENV_DATA_DIR, raising=False)
    default = paths.default_data_dir()
    assert default.name == "LexMem"
    assert default.parent.name != "LexMem"  # no LexMem/LexMem (appauthor=False)


def test_override_wins_and_is_created(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.ENV_DATA_DIR, str(tmp_path / "env"))
    chosen = paths.resolve_data_dir(tmp_path / "cli" / "data")
    assert chosen == (tmp_path / "cli" / "data").resolve()
    assert chosen.is_dir()


def test_environment_override(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.ENV_DATA_DIR, str(tmp_path / "env"))
    assert paths.resolve_data_dir(None) == (tmp_path / "env").resolve()


def test_helpers_live_inside_the_data_folder(tmp_path):
    d = paths.resolve_data_dir(tmp_path)
    for p in (paths.settings_file(d), paths.log_file(d), paths.lock_file(d), paths.backups_dir(d)):
        assert Path(p).resolve().is_relative_to(d)
    assert paths.log_dir(d).is_dir() and paths.backups_dir(d).is_dir()
