import pytest

# The seeds CI runs: each draws one benchmark's scenario (seed % the benchmarks) and its combinations of runs.
CI_SEEDS = tuple(range(12))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "seed" in metafunc.fixturenames:
        many = metafunc.config.getoption("--many")
        metafunc.parametrize("seed", [*CI_SEEDS, *range(1000, 1000 + many)])
