"""Issue 14: the package installs with one `pip install` as an abi3 wheel with
type stubs, and the README's command is the one scripts/test-py.sh runs."""
import importlib.metadata
import pathlib

import galois_aead

REPO = pathlib.Path(__file__).resolve().parents[3]
COMMAND = "pip install ./crates/galois-py"


def test_readme_command_is_the_tested_one():
    readme = (REPO / "README.md").read_text()
    script = (REPO / "scripts" / "test-py.sh").read_text()
    assert COMMAND in readme
    assert "-m " + COMMAND in script  # run as "$VENV/bin/python -m pip install ./crates/galois-py"


def test_installed_as_an_abi3_wheel_with_stubs():
    dist = importlib.metadata.distribution("galois-aead")
    wheel = dist.read_text("WHEEL")
    tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    assert tags and all("-abi3-" in t and t.startswith("cp311-") for t in tags), wheel
    files = {str(f) for f in dist.files}
    for f in ("galois_aead/py.typed", "galois_aead/_galois.pyi", "galois_aead/__init__.py"):
        assert f in files, sorted(files)
    # the imported package is the installed one, not the source tree
    here = pathlib.Path(galois_aead.__file__).resolve()
    assert "site-packages" in here.parts, here
    assert dist.version == galois_aead.__version__
