"""Shared fixtures: the vector directory (a missing one is a failure, not a skip)."""
import glob
import json
import os
import pathlib

import pytest

HERE = pathlib.Path(__file__).resolve().parent


VECTORS = (HERE / ".." / ".." / ".." / "vectors").resolve()


def vector_paths():
    """The repository's vectors/, plus files of $GALOIS_VECTORS_DIR not already there."""
    files = sorted(glob.glob(str(VECTORS / "*.json")))
    extra = os.environ.get("GALOIS_VECTORS_DIR")
    if extra:
        names = {os.path.basename(f) for f in files}
        files += [f for f in sorted(glob.glob(os.path.join(extra, "*.json"))) if os.path.basename(f) not in names]
    return files


def load_cases(algorithms):
    """(file, case) for every case of the given algorithms in every JSON file."""
    files = vector_paths()
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
    files = vector_paths()
    assert len(files) >= 6, f"expected the project's vector files in {VECTORS}"
    return files
