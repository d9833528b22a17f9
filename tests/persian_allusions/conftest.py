from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def allusions_imported() -> Path:
    """The fixture files imported as the persian-allusions dataset (unpinned: trusted on first import)."""
    from figeval._registry import get_source
    from figeval.data.store import import_folder

    return import_folder(get_source("persian-allusions"), FIXTURES)
