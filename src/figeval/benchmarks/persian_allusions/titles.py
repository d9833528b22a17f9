"""Which titles of the Persian allusions data name one allusion (paper Section 3.1: "127 distinct allusions from
the Persian Poems dataset, including variant forms").

Variant forms of one allusion are one entry: spellings that normalize alike (Arabic YEH/KAF, ZWNJ, diacritics), a
leading word naming the kind of story ("داستان", "حضرت") and an honorific ("(ع)"). A parenthesised qualifier
names the story and keeps two stories of one figure apart ("سلیمان (انگشتری)" and "سلیمان (مور)").
"""

from __future__ import annotations

import re

from figeval.text import expression_key, normalize_persian

# Words that name the kind of story, not the allusion: "داستان یوسف و زلیخا" is "یوسف و زلیخا".
_TITLE_PREFIXES = ("داستان", "قصه", "ی", "ماجرای", "حکایت", "حضرت")  # "ی": of "قصه‌ی" once ZWNJ is a space
_PARENTHESIS = re.compile(r"[(（]([^)）]*)[)）]")
# Honorifics written after a holy name, "یوسف (ع)", "محمد (ص)": how the name is written, not which story.
_HONORIFICS = frozenset(expression_key(h) for h in ("ع", "ص", "س", "ره", "رض", "عج", "علیه السلام",
                                                     "علیها السلام", "علیهم السلام"))
# The same honorifics as single signs (ARABIC SIGN SALLALLAHOU ALAYHE WASSALLAM, ALAYHE ASSALLAM, ...).
_HONORIFIC_SIGNS = re.compile("[\u0610-\u061a\ufdfa\ufdfb]")


def _title_words(text: str) -> str:
    """A title or its qualifier without a leading "داستان", "قصه", "ماجرای", "حکایت" or "حضرت", as a key."""
    words = normalize_persian(text).replace("\u200c", " ").split()
    while len(words) > 1 and words[0] in _TITLE_PREFIXES:
        words = words[1:]
    return expression_key(" ".join(words))


def figure_and_story(title: str) -> tuple[str, str]:
    """The two parts of a title as keys: the figure or story named ("سلیمان"), and the story its parentheses
    name ("انگشتری" of "سلیمان (انگشتری)"; empty when none). An honorific in parentheses names no story."""
    title = _HONORIFIC_SIGNS.sub("", title)
    stories = [key for key in (_title_words(inside) for inside in _PARENTHESIS.findall(title))
               if key and key not in _HONORIFICS]
    return _title_words(_PARENTHESIS.sub(" ", title)), "|".join(stories)


def allusion_key(title: str) -> str:
    """What two spellings of one allusion share (Section 3.1 counts allusions "including variant forms"): the
    normalized title without a leading "داستان", "قصه", "ماجرای", "حکایت" or "حضرت" and without an honorific
    ("(ع)"); a parenthesised qualifier names the story and stays: "سلیمان (انگشتری)" and "سلیمان (مور)" are two
    allusions, and a bare "سلیمان" is a third (which story it means is not written)."""
    figure, story = figure_and_story(title)
    return f"{figure}({story})" if story else figure


def title_merges(titles: list[str]) -> dict[str, list[str]]:
    """The allusions spelled more than one way among `titles` (PersPoems' allusion column): their first spelling
    -> every spelling, for review."""
    spellings: dict[str, list[str]] = {}
    for title in titles:
        variants = spellings.setdefault(allusion_key(title), [])
        if title not in variants:
            variants.append(title)
    return {variants[0]: variants for variants in spellings.values() if len(variants) > 1}


def stories_apart(titles: list[str]) -> dict[str, list[str]]:
    """The figures with more than one entry among the knowledge list's `titles` (two stories, or the bare name
    beside a named story): the first entry's title -> every entry's, for review."""
    by_figure: dict[str, list[str]] = {}
    for title in titles:
        by_figure.setdefault(figure_and_story(title)[0], []).append(title)
    return {same[0]: same for same in by_figure.values() if len(same) > 1}


def named_figures(title: str) -> frozenset[str]:
    """The figures a title names, as keys: its figure part whole, and each figure a story of two joins with "و"
    ("یوسف و زلیخا" names یوسف و زلیخا, یوسف and زلیخا)."""
    title = _HONORIFIC_SIGNS.sub("", title)
    words = normalize_persian(_PARENTHESIS.sub(" ", title)).replace("\u200c", " ").split()
    while len(words) > 1 and words[0] in _TITLE_PREFIXES:
        words = words[1:]
    parts: list[str] = []
    current: list[str] = []
    for word in [*words, "و"]:
        if word == "و":
            parts.append(expression_key(" ".join(current)))
            current = []
        else:
            current.append(word)
    return frozenset(part for part in [*parts, figure_and_story(title)[0]] if part)


def unnamed_story_of_one_figure(title: str, other: str) -> bool:
    """Whether two titles name a figure in common and at least one of them leaves its story unnamed ("سلیمان"
    beside "سلیمان (مور)", "یوسف (ع)" beside "یوسف و زلیخا"): which story the bare name means is not written, so
    it may be the other's, and neither is a wrong option when the other is the answer."""
    story, other_story = figure_and_story(title)[1], figure_and_story(other)[1]
    return bool(named_figures(title) & named_figures(other)) and not (story and other_story)


def story_hint(title: str, titles: list[str], where: str) -> str:
    """For a title not among `titles` whose figure is there under another story: the titles to write instead."""
    figure = figure_and_story(title)[0]
    same = [known for known in titles if figure_and_story(known)[0] == figure]
    return f" {where} has {same}: name the story as it does." if same else ""
