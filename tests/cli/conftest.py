"""Every test of the commands records its games under a temporary data folder,
never in the user's own (`play` saves to the per-user data folder by default)."""
import pytest


@pytest.fixture(autouse=True)
def private_data_folder(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
