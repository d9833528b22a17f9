"""Where the Turkish idiom benchmark's file is published, as far as figeval knows.

The paper names a repository but it could not be reached from where this was written (nor found in an index of
public repositories): no download is pinned, and the file name and columns are figeval's assumptions
(dataset.py's UPSTREAM_COLUMN, one table to edit). The file is imported from a folder and its sha256 trusted on
first import, once its columns read as declared here.
"""

from figeval.data.source import PARAGRAPHS_CHARS, SENTENCE_CHARS, WORDS_CHARS, DataFile, DatasetSource
from figeval.data.table import Column


def _turkish(name: str, required: bool = True, limit: int = SENTENCE_CHARS) -> Column:
    return Column(name, required=required, latin=True, max_chars=limit)


SOURCE = DatasetSource(
    name="turkish-idioms",
    description="An Idiom Benchmark for Turkish: 200 idioms with figurative, literal, paraphrase and similar "
    "sentences (Cavusoglu and Coltekin)",
    homepage="https://github.com/coltekin/turkish-idioms",
    commit=None,
    base_url=None,
    where="The paper (Cavusoglu and Coltekin, Section 5) says 'The current version of the dataset is available "
    "at https://github.com/coltekin/turkish-idioms'; figeval could not confirm its files, so none is pinned: "
    "download them from there (or ask the authors for the 200 idioms and 797 sentences).",
    # The sentences average about 9 tokens (Section 3): one sentence each. A description is a dictionary
    # definition, some with quotations from literature (Section 3): a paragraph or a few.
    files=(DataFile("idioms.tsv", None, columns=(
        _turkish("idiom", limit=WORDS_CHARS), _turkish("description", required=False, limit=PARAGRAPHS_CHARS),
        _turkish("figurative"), _turkish("paraphrase"), _turkish("similar"), _turkish("literal", required=False),
        Column("frequency", required=False, optional=True, max_chars=WORDS_CHARS))),),
)
