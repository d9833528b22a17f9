"""The reviewed fakes sheet as a fake set (Section 3.5): what a person keeps, what is refused, and detection on
the built set beside the published one, in the report."""

import csv
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from figeval._registry import BENCHMARKS
from figeval.benchmarks.ffe_hallu.dataset import FAKE_CATEGORIES, load_fake
from figeval.benchmarks.ffe_hallu.fakes_build import FINAL_FILE, SHEET_FILE, build_fakes
from figeval.benchmarks.ffe_hallu.fakes_final import finalize_fakes
from figeval.benchmarks.ffe_hallu.tables import CONTAMINATION_KEY, TABLE_4
from figeval.benchmarks.ffe_hallu.tasks import ffe_detection
from figeval.errors import DataError, FigevalError
from figeval.results.report import build_report
from tests.ffe_hallu.test_fakes_build import ScriptedFaker, rows_of
from tests.ffe_hallu.test_tasks import scripted_fake_answers, write_replay


def test_finalize_and_detect_beside_the_published_set(ffe_hallu_imported: Path, tmp_path: Path):
    out = tmp_path / "fakes"
    build_fakes(out, 2, "mockllm/model", 0, {"custom_outputs": ScriptedFaker()}, report=lambda _: None)
    sheet = out / SHEET_FILE
    with pytest.raises(DataError, match="no row is kept; fill the 'keep' column .* or pass --keep-passing"):
        finalize_fakes(sheet, out / FINAL_FILE, keep_passing=False, report=lambda _: None)
    with pytest.raises(FigevalError, match="one of the command's inputs"):
        finalize_fakes(sheet, sheet, keep_passing=True, report=lambda _: None)

    rows = rows_of(sheet)
    rows[0]["keep"] = "yes"
    rows[1]["keep"] = "maybe"
    write_rows(sheet, rows)
    with pytest.raises(DataError, match="row 2, column 'keep' is 'maybe'; use yes or no"):
        finalize_fakes(sheet, out / FINAL_FILE, keep_passing=True, report=lambda _: None)
    rows[1]["keep"], rows[2]["fake_idiom"] = "", "کلاه سر کسی گذاشتن"  # a reviewer's edit into a real idiom
    rows[2]["keep"] = "yes"
    write_rows(sheet, rows)
    with pytest.raises(DataError, match="row 3 .* keeps 'کلاه سر کسی گذاشتن', which is an authentic FFE"):
        finalize_fakes(sheet, out / FINAL_FILE, keep_passing=True, report=lambda _: None)
    rows[2]["keep"] = "no"
    write_rows(sheet, rows)
    final, counts = finalize_fakes(sheet, out / FINAL_FILE, keep_passing=True, report=lambda _: None)
    assert sum(counts.values()) == sum(1 for row in rows if row["keep"] == "yes" or
                                       (row["keep"] == "" and row["passes"] == "yes"))
    assert all(counts[category] for category in FAKE_CATEGORIES)
    assert final.read_text(encoding="utf-8-sig").splitlines()[0] == "Fake Idiom,Source Idiom,Category"
    fakes = load_fake(final)  # the layout ffe_detection reads

    # Detection on the built file has the published set's metrics, and the log says the set is custom.
    replay = write_replay(tmp_path / "answers.jsonl", scripted_fake_answers())
    logs = tmp_path / "logs"
    [published] = inspect_eval(ffe_detection(controls=False), model=f"replay/{replay}",
                               log_dir=str(logs), display="none")
    [custom] = inspect_eval(ffe_detection(controls=False, fakes=str(final)), model=f"replay/{replay}",
                            log_dir=str(logs), display="none")
    assert published.status == custom.status == "success"

    def metric_names(log):
        return {name for score in log.results.scores for name in score.metrics}

    assert metric_names(custom) == metric_names(published)
    assert len(custom.samples) == 2 * len(fakes)
    metadata = custom.eval.metadata
    assert metadata["fake_set"] == "custom" and metadata["data_file"] == str(final)
    from figeval.data.stored import sha256_of

    assert metadata["data_sha256"] == sha256_of(final) and published.eval.metadata["fake_set"] == "published"

    # The report puts the two side by side, per category, with intervals; Table 4 gives each its own row.
    report = build_report(logs, BENCHMARKS)
    [table_4] = [t for t in report.tables if t.key == "ffe-hallu/table-4"]
    assert [row.identity.get("fakes", "") for row in table_4.rows] == ["", custom_identity := word_data(final)]
    assert table_4.identity_keys == ["fakes"] and table_4.rows[1].other_data == {"fakes": custom_identity}
    # beside the paper's rows, the run on the built fakes says it is not the paper's measurement
    [with_paper] = [t for t in build_report(logs, BENCHMARKS, paper=True).tables if t.key == "ffe-hallu/table-4"]
    assert (f"on data other than the paper's, so not the paper's measurement: {table_4.rows[1].label} "
            f"(fakes={custom_identity}).") in with_paper.notes
    # (both runs complete: Table 4's only note is its own, on figeval's columns)
    assert table_4.rows[0].cells["avg"].value == pytest.approx(0.1) and table_4.notes == list(TABLE_4.notes)
    [table] = [t for t in report.tables if t.key == CONTAMINATION_KEY]
    # the paper's category names (Section 3.4), not upstream's spellings
    assert [row.identity["category"] for row in table.rows] == ["Word Perturbation", "Semantic Inversion",
                                                               "Structural/Syntactic Mimicry",
                                                               "Cultural/Historical Fabrication", "all categories"]
    word = table.rows[0]
    # rows 1-50 of the published file are word perturbations: fake-q accepts 1-30 (1-20 "No", 21-30 unparsed),
    # real-q accepts 1-10 -> (30 + 10) / 100; the built file's rows 1-2 are its word perturbations: all accepted
    assert word.cells["published"].value == pytest.approx(0.4) and word.cells["published"].n == 50
    assert word.cells["fresh"].value == pytest.approx(1.0)
    assert word.cells["difference"].value == pytest.approx(0.6)
    assert word.cells["published"].low < 0.4 < word.cells["published"].high
    assert word.identity["fakes"] == custom_identity
    # figeval's unparsed columns, over each set's answers (both framings): the published word perturbations' fake-q
    # rows 21-30 of 100 answers; the fresh set's 4 answers were all read. Wilson of 10/100 (z^2 = 3.841459):
    # centre 11.920730 / 103.841459 = 0.114797, half-width 1.959964 / 103.841459 * sqrt(10 * 90 / 100 + 0.960365)
    # = 0.018875 * 3.156004 = 0.059568: [0.055229, 0.174366]
    published, fresh = word.cells["published_unparsed"], word.cells["fresh_unparsed"]
    assert (published.value, published.n, fresh.value, fresh.n) == (0.1, 100, 0.0, 4)
    assert (published.low, published.high) == pytest.approx((0.055229, 0.174366), abs=1e-6)
    assert table.rows[-1].cells["published_unparsed"].value == pytest.approx(10 / 400)  # all categories


def word_data(path: Path) -> str:
    from figeval.data.stored import sha256_of

    return f"{path.name}@{sha256_of(path)[:8]}"


def write_rows(sheet: Path, rows: list[dict[str, str]]) -> None:
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def test_a_sheet_row_with_an_unknown_category_is_named(ffe_hallu_imported: Path, tmp_path: Path):
    sheet = tmp_path / "review.csv"
    sheet.write_text("id,category,fake_idiom,keep\nx-001,Proverbs,گربه را دم حجله,yes\n", encoding="utf-8")
    with pytest.raises(DataError, match="row 1, column 'category' is 'Proverbs'"):
        finalize_fakes(sheet, tmp_path / "fakes.csv", keep_passing=False, report=lambda _: None)
    # a sheet reduced to the columns that matter is enough
    sheet.write_text("id,category,fake_idiom,keep\nx-001,Cultural Fabrication,گربه را دم حجله,yes\n", encoding="utf-8")
    final, counts = finalize_fakes(sheet, tmp_path / "fakes.csv", keep_passing=False, report=lambda _: None)
    assert counts["Cultural Fabrication"] == 1 and [f.expression for f in load_fake(final)] == ["گربه را دم حجله"]


def test_fakes_final_never_writes_over_the_recorded_extra_list(ffe_hallu_imported: Path, tmp_path: Path):
    out = tmp_path / "fakes"
    extra = out / "extra.csv"  # the build's own folder holds the list it was given
    out.mkdir()
    extra.write_text("farsi_idiom\nدست بالای دست بسیار است\n", encoding="utf-8")
    build_fakes(out, 1, "mockllm/model", 0, {"custom_outputs": ScriptedFaker()}, report=lambda _: None, extra=extra)
    before = extra.read_bytes()
    with pytest.raises(FigevalError, match=r"extra\.csv is one of the command's inputs"):
        finalize_fakes(out / SHEET_FILE, extra, keep_passing=True, report=lambda _: None)
    assert extra.read_bytes() == before


def test_fakes_final_refuses_a_damaged_record_or_a_lost_extra_list(ffe_hallu_imported: Path, tmp_path: Path):
    # the build checked its candidates against an extra authentic list; finalizing checks the kept rows against it
    # too, so a record it cannot read, or a list no longer there, would skip that check without a word
    out = tmp_path / "fakes"
    out.mkdir()
    extra = tmp_path / "extra.csv"
    extra.write_text("farsi_idiom\nدست بالای دست بسیار است\n", encoding="utf-8")
    build_fakes(out, 1, "mockllm/model", 0, {"custom_outputs": ScriptedFaker()}, report=lambda _: None, extra=extra)
    extra.unlink()
    with pytest.raises(DataError, match=r"build_record\.json: the build checked its fakes against the authentic list "
                                        r".*extra\.csv, which is no longer there; put it back"):
        finalize_fakes(out / SHEET_FILE, out / "fakes.csv", keep_passing=True, report=lambda _: None)
    (out / "build_record.json").write_text("{cut off", encoding="utf-8")
    with pytest.raises(FigevalError, match=r"build_record\.json is not a build record"):
        finalize_fakes(out / SHEET_FILE, out / "fakes.csv", keep_passing=True, report=lambda _: None)
    assert not (out / "fakes.csv").exists()
