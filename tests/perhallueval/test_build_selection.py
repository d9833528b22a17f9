"""Step 1 of the PerHalluEval build: every source file read together, an item id given twice refused."""

from pathlib import Path

import pytest

from figeval.benchmarks.perhallueval.build_selection import select
from figeval.errors import DataError


def test_selection_reads_every_split_and_refuses_an_id_twice(tmp_path: Path):
    # PN-Summary's 93,207 articles (Section 3.1) are its three splits together.

    header = "id\ttitle\tarticle\tsummary\tcategory\n"
    train = tmp_path / "train.csv"
    dev = tmp_path / "dev.csv"
    train.write_text(header + "".join(f"t{i}\tعنوان\tمتن خبر شماره {i} درباره‌ی ورزش است.\tخلاصه {i}\tورزشی\n"
                                      for i in range(30)), encoding="utf-8")
    dev.write_text(header + "".join(f"d{i}\tعنوان\tمتن خبر دیگر {i} " + "بسیار " * i + "طولانی.\tخلاصه\tسیاسی\n"
                                    for i in range(10)), encoding="utf-8")
    messages: list[str] = []
    for out in ("out1", "out2"):
        (tmp_path / out).mkdir()
    chosen = select("summarization", [train, dev], 40, 0, tmp_path / "out1", messages.append)
    assert len(chosen) == 40 and {item.id[0] for item in chosen} == {"t", "d"}
    assert "step 1: 40 source items from train.csv, dev.csv" in messages
    with pytest.raises(DataError, match=r"train.csv: item id 't0' is also in train.csv"):
        select("summarization", [train, train], 10, 0, tmp_path / "out2", messages.append)
