from pathlib import Path

import pytest
from support import SHARED_DLX


@pytest.fixture
def shared_dlx() -> Path:
    """Knuth-format files beside the project (../shared); the test skips when they are absent."""
    if not SHARED_DLX.is_dir():
        pytest.skip("../shared/data/dlx is not present")
    return SHARED_DLX
