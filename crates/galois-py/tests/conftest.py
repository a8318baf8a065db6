"""Shared fixtures: the vector directory (a missing one is a failure, not a skip)."""
import glob
import json
import os
import pathlib

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def vectors_dir() -> pathlib.Path:
    env = os.environ.get("GALOIS_VECTORS_DIR")
    # tests/ -> galois-py -> crates -> repo; the vectors sit beside the repo.
    return pathlib.Path(env) if env else (HERE / ".." / ".." / ".." / ".." / "shared" / "vectors").resolve()


def load_cases(algorithms):
    """(file, case) for every case of the given algorithms in every JSON file."""
    d = vectors_dir()
    files = sorted(glob.glob(str(d / "*.json")))
    out = []
    for f in files:
        with open(f) as fh:
            doc = json.load(fh)
        assert doc.get("schema") == "vectors-v1", f
        if doc["algorithm"] in algorithms:
            for t in doc["tests"]:
                out.append((os.path.basename(f), doc["algorithm"], t))
    return files, out


@pytest.fixture(scope="session")
def vector_files():
    d = vectors_dir()
    files = sorted(glob.glob(str(d / "*.json")))
    assert files, f"no vector files in {d} (set GALOIS_VECTORS_DIR)"
    return files
