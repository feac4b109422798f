"""The points table (*tableau des points*): a printable aide-mémoire of every value of the game.

Every number on it is read from the engine, never retyped: card values from
:func:`rebelote.rules.card_values`, orders from :func:`rebelote.rules.card_powers`, deal and
capot totals from :class:`rebelote.rules.Rules`, declarations from :mod:`rebelote.declarations`,
the belote from :mod:`rebelote.rules`, and the scoring examples are the source documents' deals
scored by :func:`rebelote.scoring.score_deal`. If a rule changes in the engine, the table
follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from fpdf.fonts import FontFace

from rebelote.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    EIGHT,
    HEARTS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SEVEN,
    SPADES,
    TEN,
)
from rebelote.declarations import CARRE_POINTS, CARRE_POINTS_NO_TRUMP, sequence_points
from rebelote.rules import (
    ALL_TRUMP,
    BELOTE_POINTS,
    CAPOT_LAST_TRICK,
    CONTRACTS,
    DIX_DE_DER,
    NO_TRUMP,
    Rules,
    card_powers,
    card_values,
    round_mark,
)
from rebelote.scoring import score_deal
from rebelote.sheets.document import (
    ACCENT,
    BAND_FILL,
    FONT,
    HEAD_FILL,
    MARGIN,
    Align,
    SheetDocument,
)
from rebelote.sheets.labels import CARRE_OF, RANK_NAMES, RANK_SHORT, check_lang, text
from rebelote.sheets.rule_words import counting_rows, preset_label, rules_name
from rebelote.sheets.words import describe
from rebelote.summary import DealSummary

# The declarations, strongest carré first: sequences of 3, 4 and 5+ cards, carrés by rank.
SEQUENCES: Final = (("decl.tierce", 3), ("decl.cinquante", 4), ("decl.cent", 5))
CARRE_ORDER: Final = (JACK, NINE, ACE, TEN, KING, QUEEN, EIGHT, SEVEN)

_ROW_H: Final = 6.2


def _suit_row(values: tuple[int, ...], suit: int) -> tuple[int, ...]:
    """The values of one suit's eight cards, by rank index."""
    return values[suit * 8:suit * 8 + 8]


def _order(powers: tuple[int, ...], lang: str) -> str:
    ranks = sorted(range(8), key=lambda r: -powers[r])
    return " ".join(RANK_SHORT[lang][r] for r in ranks)


def _card_values_section(pdf: SheetDocument, official: Rules, house: Rules) -> None:
    lang = pdf.lang
    pdf.section(text(lang, "table.cards"))
    columns = (
        _suit_row(card_values(SPADES), SPADES),  # spades as trump
        _suit_row(card_values(HEARTS), SPADES),  # spades as a plain suit
        _suit_row(card_values(NO_TRUMP, official.no_trump_aces), SPADES),
        _suit_row(card_values(NO_TRUMP, house.no_trump_aces), SPADES),
        _suit_row(card_values(ALL_TRUMP, official.no_trump_aces, official.all_trump_scale),
                  SPADES),
    )
    widths = (34.0, 29.0, 29.0, 30.0, 30.0, 30.0)
    aligns: tuple[Align, ...] = ("L", "C", "C", "C", "C", "C")
    heads = [text(lang, "table.col.card"), text(lang, "table.col.trump"),
             text(lang, "table.col.plain"),
             text(lang, "table.col.nt_official", ace=official.no_trump_aces),
             text(lang, "table.col.nt_house", ace=house.no_trump_aces),
             text(lang, "table.col.all_trump")]
    pdf.head_row(widths, heads, 2 * _ROW_H, aligns=aligns)
    trump_powers = _suit_row(card_powers(SPADES), SPADES)
    ranks = sorted(range(8), key=lambda r: -trump_powers[r])  # J 9 A 10 K Q 8 7
    for i, rank in enumerate(ranks):
        cells = [f"{RANK_NAMES[lang][rank]} ({RANK_SHORT[lang][rank]})"]
        cells += [str(col[rank]) for col in columns]
        pdf.grid_row(widths, cells, _ROW_H, size=9.5, aligns=aligns,
                     fill=BAND_FILL if i % 2 else None)
    totals = [text(lang, "table.suit_total")] + [str(sum(col)) for col in columns]
    pdf.grid_row(widths, totals, _ROW_H, size=9.5, style="B", fill=HEAD_FILL, aligns=aligns)
    pdf.ln(1)
    pdf.paragraph(text(lang, "table.order",
                       trump=_order(_suit_row(card_powers(SPADES), SPADES), lang),
                       plain=_order(_suit_row(card_powers(HEARTS), SPADES), lang)))
    pdf.ln(2)


def _totals_section(pdf: SheetDocument, official: Rules, house: Rules) -> None:
    lang = pdf.lang
    pdf.section(text(lang, "table.totals"))
    widths = (82.0, 30.0, 40.0, 30.0)
    aligns: tuple[Align, ...] = ("L", "C", "C", "C")
    heads = [text(lang, k) for k in ("table.col.what", "table.col.suit", "table.col.nt",
                                      "table.col.at")]
    pdf.head_row(widths, heads, 2 * _ROW_H, aligns=aligns)
    rows: list[tuple[str, str, str, str]] = []

    def line(label: str, official_of: int, nt_official: int, nt_house: int, at: int) -> None:
        rows.append((label, str(official_of), f"{nt_official} / {nt_house}", str(at)))

    for key, method in (("table.cards_total", "card_total"), ("table.deal_total", "deal_total"),
                        ("table.capot_total", "capot_total"), ("table.fall_base", "fall_base"),
                        ("table.capot_base", "capot_base")):
        label = text(lang, key, last=CAPOT_LAST_TRICK)
        line(label, getattr(official, method)(HEARTS), getattr(official, method)(NO_TRUMP),
             getattr(house, method)(NO_TRUMP), getattr(official, method)(ALL_TRUMP))
        if key == "table.cards_total":
            rows.append((text(lang, "table.dix_de_der"), str(DIX_DE_DER), str(DIX_DE_DER),
                         str(DIX_DE_DER)))
    for i, row in enumerate(rows):
        pdf.grid_row(widths, row, _ROW_H, size=9.5, aligns=aligns,
                     fill=BAND_FILL if i % 2 else None,
                     style="B" if i in (2, 3) else "")
    pdf.ln(3)


def _carre_groups() -> list[tuple[int, ...]]:
    """The ranks in :data:`CARRE_ORDER`, neighbours worth the same in both modes together."""
    groups: list[tuple[int, ...]] = []
    for rank in CARRE_ORDER:
        value = (CARRE_POINTS[rank], CARRE_POINTS_NO_TRUMP[rank])
        if groups and (CARRE_POINTS[groups[-1][0]], CARRE_POINTS_NO_TRUMP[groups[-1][0]]) == value:
            groups[-1] = (*groups[-1], rank)
        else:
            groups.append((rank,))
    return groups


def _no_declarations_section(pdf: SheetDocument, rules: Rules) -> None:
    """A rule set without declarations (contrée): only the belote, taken or not."""
    lang = pdf.lang
    pdf.section(text(lang, "table.declarations"))
    prenable = text(lang, "decl.prenable" if rules.belote_prenable else "decl.imprenable")
    pdf.paragraph(text(lang, "decl.none", prenable=prenable))
    pdf.ln(2)


def _declarations_section(pdf: SheetDocument) -> None:
    lang = pdf.lang
    pdf.section(text(lang, "table.declarations"))
    widths = (102.0, 40.0, 40.0)
    aligns: tuple[Align, ...] = ("L", "C", "C")
    heads = [text(lang, k) for k in ("table.col.declaration", "table.col.points",
                                      "table.col.nt_points")]
    pdf.grid_row(widths, heads, _ROW_H + 1, size=8.5, style="B", fill=HEAD_FILL, aligns=aligns)
    rows: list[tuple[str, str, str]] = [
        (text(lang, key), str(sequence_points(n)), str(sequence_points(n)))
        for key, n in SEQUENCES
    ]
    for ranks in _carre_groups():
        names = text(lang, "decl.carre.or").join(CARRE_OF[lang][r] for r in ranks)
        rows.append((text(lang, "decl.carre", ranks=names), str(CARRE_POINTS[ranks[0]]),
                     str(CARRE_POINTS_NO_TRUMP[ranks[0]])))
    rows.append((text(lang, "decl.belote"), str(BELOTE_POINTS), "—"))
    for i, row in enumerate(rows):
        pdf.grid_row(widths, row, _ROW_H, size=9.5, aligns=aligns,
                     fill=BAND_FILL if i % 2 else None)
    pdf.ln(1)
    pdf.paragraph(text(lang, "decl.note"))
    pdf.ln(2)


def _examples() -> dict[str, tuple[DealSummary, Rules]]:
    """One deal for each scoring case (the source documents' examples), scored by the engine."""
    belote = Rules.preset("official", "belote")
    coinche = Rules.preset("official", "coinche")

    def b(**kw: Any) -> tuple[DealSummary, Rules]:
        return DealSummary(game="belote", trump=HEARTS, **kw), belote

    def c(**kw: Any) -> tuple[DealSummary, Rules]:
        return DealSummary(game="coinche", **kw), coinche

    return {
        "case.b.made": b(taker="NS", points=(98, 64), belote=(1, 0)),
        "case.b.failed": b(taker="EW", points=(96, 66), declarations=(50, 0)),
        "case.b.litige": b(taker="EW", points=(91, 71), declarations=(0, 20)),
        "case.b.capot": b(taker="NS", points=(252, 0), capot="NS", belote=(1, 0),
                          declarations=(0, 20)),
        "case.c.made": c(taker="NS", trump=SPADES, contract=90, points=(97, 65)),
        "case.c.failed": c(taker="NS", trump=DIAMONDS, contract=110, points=(86, 76),
                           belote=(1, 0), declarations=(0, 20)),
        "case.c.coinche": c(taker="NS", trump=SPADES, contract=100, coinche=2, points=(96, 66),
                            belote=(1, 0), declarations=(20, 0)),
        "case.c.surcoinche": c(taker="NS", trump=DIAMONDS, contract=90, coinche=4,
                               points=(104, 58)),
        "case.c.capot": c(taker="NS", trump=CLUBS, contract=100, points=(252, 0), capot="NS",
                          belote=(1, 0), declarations=(0, 20)),
    }


def example_text(lang: str, deal: DealSummary, rules: Rules) -> str:
    """A deal and its marks in one line: ``NS ♥ : NS 98 + belote, EW 64 → 118 / 64``."""
    score = score_deal(deal, rules)
    out = f"{describe(lang, deal)} → {score.score[0]} / {score.score[1]}"
    if score.held_over:
        out += " (" + text(lang, "sheet.reserve", points=score.held_over) + ")"
    return out


def _rounding_text() -> str:
    return ", ".join(f"{n} → {round_mark(n)}" for n in (187, 85, 84))


def _cases_section(pdf: SheetDocument, official: Rules) -> None:
    lang = pdf.lang
    pdf.section(text(lang, "table.cases"))
    args = {
        "deal": official.deal_total(HEARTS),
        "capot": official.capot_total(HEARTS),
        "capot_contract": DealSummary(game="coinche", contract="capot").contract_value(official),
        "fall": official.fall_base(HEARTS),
        "capot_base": official.capot_base(HEARTS),
        "low": CONTRACTS[0],
        "high": CONTRACTS[-1],
        "generale": official.generale_value,
    }
    examples = _examples()
    groups: Sequence[tuple[str, Sequence[str]]] = (
        ("case.belote", ("case.b.made", "case.b.failed", "case.b.litige", "case.b.capot")),
        ("case.coinche", ("case.c.made", "case.c.failed", "case.c.coinche",
                          "case.c.surcoinche", "case.c.capot", "case.c.rounding")),
    )
    pdf.set_font(FONT, "", 8)
    head_face = FontFace(emphasis="BOLD", fill_color=HEAD_FILL, size_pt=8.5)
    group_face = FontFace(emphasis="BOLD", fill_color=BAND_FILL, size_pt=9)
    example_face = FontFace(color=ACCENT, size_pt=8)
    with pdf.table(col_widths=(26, 96, 60), width=pdf.body_width,
                   text_align=("LEFT", "LEFT", "LEFT"), line_height=3.9, padding=(1.1, 1.4),
                   headings_style=head_face, first_row_as_headings=True) as table:
        heading = table.row()
        for key in ("table.col.case", "table.col.rule", "table.col.example"):
            heading.cell(text(lang, key))
        for group, cases in groups:
            row = table.row()
            row.cell(text(lang, group, **args), colspan=3, style=group_face)
            for case in cases:
                row = table.row()
                row.cell(text(lang, case))
                row.cell(text(lang, case + ".rule", **args))
                if case in examples:
                    example = example_text(lang, *examples[case])
                else:
                    example = _rounding_text()
                row.cell(example, style=example_face)
    pdf.set_x(MARGIN)


# -- the rule set's ways of counting ---------------------------------------------------------
_COUNTING_CASES: Final = (
    ("table.counting.made", "made", 1),
    ("table.counting.coinched", "made", 2),
    ("table.counting.surcoinched", "made", 4),
    ("table.counting.failed", "failed", 1),
    ("table.counting.failed_coinched", "failed", 2),
)


def counting_examples(rules: Rules) -> list[tuple[str, int, int]]:
    """The survey's worked example under ``rules``, scored by the engine: for each case its
    label key, the takers' mark and the defense's. Contract 100♥; made: the takers 110 trick
    points with the belote, the defense 52; failed: 70 with the belote, the defense 92."""
    out: list[tuple[str, int, int]] = []
    for key, case, coinche in _COUNTING_CASES:
        points = (110, 52) if case == "made" else (70, 92)
        deal = DealSummary(game=rules.game, taker="NS", trump=HEARTS, points=points,
                           contract=100, coinche=coinche, belote=(1, 0))
        score = score_deal(deal, rules).score
        out.append((key, score[0], score[1]))
    return out


_EXAMPLE_WIDTHS: Final = (62.0, 60.0, 60.0)


def _counting_section(pdf: SheetDocument, rules: Rules) -> None:
    lang = pdf.lang
    pdf.section(text(lang, "table.counting", rules=rules_name(lang, rules)))
    widths = (90.0, 92.0)
    aligns: tuple[Align, ...] = ("L", "L")
    for i, (label, value) in enumerate(counting_rows(lang, rules)):
        pdf.grid_row(widths, (label, value), _ROW_H, size=9, aligns=aligns,
                     fill=BAND_FILL if i % 2 else None)
    pdf.ln(1)
    pdf.paragraph(text(lang, "table.counting.example"))
    heads = ("", text(lang, "table.col.takers"), text(lang, "table.col.defense"))
    pdf.grid_row(_EXAMPLE_WIDTHS, heads, _ROW_H, size=9, aligns=("L", "C", "C"), fill=HEAD_FILL)
    for i, (key, taker, defense) in enumerate(counting_examples(rules)):
        pdf.grid_row(_EXAMPLE_WIDTHS, (text(lang, key), str(taker), str(defense)), _ROW_H, size=9.5,
                     aligns=("L", "C", "C"), fill=BAND_FILL if i % 2 else None)
    pdf.ln(2)


def points_table_pdf(lang: str = "fr", rules: Rules | None = None) -> bytes:
    """The points table as a PDF (A4 portrait), in French (``fr``, default) or English (``en``).

    With the ``rules`` of a coinche or contrée game, it opens with that rule set's ways of
    counting in words and the survey's worked example scored under them; a rule set without
    declarations shows only its belote (taken or not), and a contrée rule set leaves out the
    scoring cases of the other games.

    >>> points_table_pdf()[:5]
    b'%PDF-'
    """
    lang = check_lang(lang)
    official = Rules.preset("official", "coinche")
    house = Rules.preset("house", "coinche")
    chosen = rules is not None and rules.has_auction
    note = (text(lang, "table.note.rules", rules=preset_label(lang, rules.game, rules.name))
            if rules is not None and chosen else text(lang, "table.note"))
    pdf = SheetDocument(lang, text(lang, "table.title"), note)
    pdf.add_page()
    if rules is not None and chosen:  # the table's own rules first
        _counting_section(pdf, rules)
        if pdf.get_y() > pdf.bottom - 80:
            pdf.add_page()
    _card_values_section(pdf, official, house)
    if pdf.get_y() > pdf.bottom - 50:
        pdf.add_page()
    _totals_section(pdf, official, house)
    if pdf.get_y() > pdf.bottom - 40:
        pdf.add_page()
    if rules is not None and chosen and not rules.declarations:
        _no_declarations_section(pdf, rules)
    else:
        _declarations_section(pdf)
    # the scoring cases of the source documents' belote and coinche; a contrée rule set's own
    # cases are its counting section's
    if rules is None or rules.game != "contree":
        if pdf.get_y() > pdf.bottom - 110:
            pdf.add_page()
        _cases_section(pdf, official)
    return pdf.pdf_bytes()
