"""`[tool.migrate-roots]`: every key checked, each bad value a one-line error naming the key."""

from __future__ import annotations

import pytest

from migrate_roots.config import ConfigError, SettingError, Settings, load_settings


def test_defaults_and_both_spellings():
    assert Settings.from_mapping({}) == Settings()
    settings = Settings.from_mapping({"param-name": "workspace_dir", "path_params": ("a", "b"), "jobs": 4})
    assert (
        settings.param_name == "workspace_dir" and settings.path_params == ["a", "b"] and settings.jobs == 4
    )
    assert Settings.from_mapping({"target-version": "3.8"}).target == (3, 8)


@pytest.mark.parametrize(
    ("data", "key", "problem"),
    [
        ({"param_nam": "x"}, "param_nam", "unknown key"),
        ({"select": "MR101"}, "select", "list of strings"),
        ({"exclude": ["a", 1]}, "exclude", "list of strings"),
        ({"jobs": 0}, "jobs", "between 1 and 256"),
        ({"jobs": 257}, "jobs", "between 1 and 256"),
        ({"jobs": True}, "jobs", "valid integer"),
        ({"jobs": "2"}, "jobs", "valid integer"),
        ({"markers": "no"}, "markers", "valid boolean"),
        ({"allowlist-env": 3}, "allowlist-env", "valid string"),
        ({"shim-module": "my-shim"}, "shim-module", "not a Python identifier"),
        # Sweep H, r07: a keyword passed, then every file failed with an internal error.
        ({"param-name": "from"}, "param-name", "is a Python keyword"),
        ({"param-name": "None"}, "param-name", "is a Python keyword"),
        ({"shim-module": "class"}, "shim-module", "is a Python keyword"),
        ({"target-version": "3"}, "target-version", "not a version like 3.10"),
        ({"target_version": "2.7"}, "target-version", "not a version like 3.10"),
    ],
)
def test_bad_values_name_the_key(data, key, problem):
    with pytest.raises(SettingError) as caught:
        Settings.from_mapping(data)
    assert caught.value.key == key and problem in caught.value.problem


def test_load_settings_reports_the_file(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.migrate-roots]\njobs = 0\n")
    with pytest.raises(
        ConfigError, match=r"pyproject\.toml: \[tool\.migrate-roots\] jobs: .*between 1 and 256"
    ):
        load_settings(tmp_path, {})


def test_requires_python_sets_the_target_and_flags_win(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nrequires-python = ">=3.9"\n[tool.migrate-roots]\njobs = 3\n'
    )
    settings = load_settings(tmp_path, {"jobs": 1, "select": None})
    assert settings.target == (3, 9) and settings.jobs == 1


def test_settings_are_frozen():
    with pytest.raises(AttributeError):
        Settings().jobs = 3  # type: ignore[misc]
