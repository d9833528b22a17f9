"""Where FFE-HALLU's files are published, pinned by their sha256 (`figeval data fetch ffe-hallu`)."""

from figeval.data.source import DataFile, DatasetSource

_COMMIT = "58dfdbdc7a50dbd80acbeba5b057ae7cabe40f77"

SOURCE = DatasetSource(
    name="ffe-hallu",
    description="FFE-HALLU: 200 authentic and 200 fabricated Persian idioms/proverbs (Hosseini et al., EACL 2026)",
    homepage="https://github.com/hfaezeh77/FFE-Hallu-Benchmark",
    commit=_COMMIT,
    base_url=f"https://raw.githubusercontent.com/hfaezeh77/FFE-Hallu-Benchmark/{_COMMIT}/",
    files=(
        DataFile("Authentic FFEs.csv", "91ad222822e903106d169ba9c0b310082a6bd4dcb2823e13be2e4ed648284432"),
        DataFile("Fake FFEs.csv", "fbfa773757fcb634ba799adc486b087648d641a02a3180691d3f08ef6e3b75cc"),
    ),
)
