from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED_DLX = ROOT.parent / "shared" / "data" / "dlx"


@pytest.fixture
def shared_dlx() -> Path:
    """Knuth-format files beside the project (../shared); the test skips when they are absent."""
    if not SHARED_DLX.is_dir():
        pytest.skip("../shared/data/dlx is not present")
    return SHARED_DLX
SHARED_DATA = ROOT.parent / "shared" / "data"


def shared_lines(name: str) -> list[str]:
    """The lines of a file of ../shared/data; the test skips when it is absent."""
    path = SHARED_DATA / name
    if not path.is_file():
        pytest.skip(f"../shared/data/{name} is not present")
    return path.read_text().split()
