"""Where FFE-HALLU's files are published, pinned by their sha256 (`figeval data fetch ffe-hallu`)."""

from figeval.data.source import SENTENCE_CHARS, WORDS_CHARS, DataFile, DatasetSource

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

# The longest cell of a file a person gives FFE-HALLU's commands (a fake set, translation pairs, a paraphrase or
# review sheet), ten times or more the published files' longest (measured: an expression of 49 characters, a
# meaning of 173): a longer cell is a quote left open or text pasted into the wrong cell, refused, not asked.
EXPRESSION_CHARS = WORDS_CHARS
"""An expression, a category, a yes/no or a row number."""
MEANING_CHARS = SENTENCE_CHARS
"""A meaning or paraphrase, a few '|'-separated equivalents, a check's reason, a reviewer's note."""
