from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def idioms_imported() -> Path:
    """The fixture file imported as the turkish-idioms dataset (trusted on first import: it is unpinned)."""
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    return import_folder(get_source("turkish-idioms"), FIXTURES)
