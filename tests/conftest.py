"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """(a folder the client shares as its root, a folder passed as the argument); spaces get percent-encoded."""
    base = tmp_path_factory.mktemp("ws")
    client_dir = base / "client project"
    arg_dir = base / "argument dir"
    client_dir.mkdir()
    arg_dir.mkdir()
    return client_dir, arg_dir
