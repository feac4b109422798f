"""The words printed on the sheets and written in CSV files, by key.

The English texts are written here, one flat dict from a key to a text; the other languages
come from the project's one translation system, the gettext catalogs (:mod:`rebelote.catalogs`:
the key is the message's context, the English text its id), which the pages read too. Texts
with ``{name}`` slots are filled by :func:`text`. The sheets never print a word that is not
here.

>>> text("fr", "outcome.failed"), text("en", "winner", team="Nous", deal=7)
('chute', 'Winner: Nous, after deal 7')
"""

from __future__ import annotations

from typing import Final

from rebelote.catalogs import pgettext
from rebelote.errors import InputError

LANGS: Final = ("fr", "en")

_EN: Final[dict[str, str]] = {
    "game.belote": "Classic belote",
    "game.coinche": "Coinche",
    "rules.official": "official rules",
    "rules.house": "house rules",
    "team.default.0": "Us",
    "team.default.1": "Them",
    "target": "Game to {target}",
    "target.blank": "Game to ______ points",
    "versus": "{a} versus {b}",
    "sheet.title": "Score sheet",
    "sheet.col.deal": "Deal",
    "sheet.col.taker": "Taker",
    "sheet.col.trump": "Trump",
    "sheet.col.contract": "Contract",
    "sheet.col.marks": "Marks",
    "sheet.col.total": "Total",
    "sheet.col.outcome": "Outcome",
    "sheet.start": "Start",
    "sheet.carried": "Brought forward",
    "sheet.totals": "Totals",
    "sheet.reserve": "{points} held over",
    "sheet.reserve.waiting": "Litige reserve: {points}, for the next deal played.",
    "sheet.no_winner": "No winner yet.",
    "sheet.hint.belote": (
        "Taker: the team that took. Trump: ♠ ♥ ♦ ♣, NT (no-trump) or AT (all-trump). "
        "Outcome: made, failed (dedans) or litige."
    ),
    "sheet.hint.coinche": (
        "Contract: 80 to 160, capot or générale; ×2 coinched, ×4 surcoinched. "
        "Outcome: made or failed. Marks rounded to ten (official rules)."
    ),
    "winner": "Winner: {team}, after deal {deal}",
    "page": "Page {page} of {pages}",
    "footer": "rebelote · {title}",
    "trump.short.4": "NT",
    "trump.short.5": "AT",
    "trump.0": "spades",
    "trump.1": "hearts",
    "trump.2": "diamonds",
    "trump.3": "clubs",
    "trump.4": "no-trump",
    "trump.5": "all-trump",
    "contract.capot": "capot",
    "contract.generale": "générale",
    "coinche.2": "coinched",
    "coinche.4": "surcoinched",
    "outcome.made": "made",
    "outcome.failed": "failed",
    "outcome.litige": "litige",
    "outcome.void": "passed",
    "outcome.adjust": "adjustment",
    "yes": "yes",
    "word.declarations": "declarations",
    "word.belote": "belote",
    "word.capot": "capot",
    "table.title": "Points table",
    "table.cards": "Card values",
    "table.col.card": "Card",
    "table.col.trump": "Trump",
    "table.col.plain": "Plain suit",
    "table.col.nt_official": "No-trump\n(official, ace {ace})",
    "table.col.nt_house": "No-trump\n(house, ace {ace})",
    "table.col.all_trump": "All-trump",
    "table.suit_total": "One suit",
    "table.order": (
        "Order, strongest first — trump (and all-trump): {trump}; "
        "plain suit and no-trump: {plain}"
    ),
    "table.totals": "Totals of a deal",
    "table.col.what": "",
    "table.col.suit": "Suit trump",
    "table.col.nt": "No-trump\n(official / house)",
    "table.col.at": "All-trump",
    "table.cards_total": "Cards",
    "table.dix_de_der": "Dix de der (last trick)",
    "table.deal_total": "Deal",
    "table.capot_total": "Capot (all eight tricks, last trick {last})",
    "table.fall_base": "Failed coinche (deal rounded)",
    "table.capot_base": "Coinche capot (rounded)",
    "table.declarations": "Declarations and belote",
    "table.col.declaration": "Declaration",
    "table.col.points": "Points",
    "table.col.nt_points": "No-trump",
    "decl.tierce": "Tierce (3 cards in sequence)",
    "decl.cinquante": "Cinquante (4 cards)",
    "decl.cent": "Cent (5 cards or more)",
    "decl.carre": "Carré {ranks}",
    "decl.carre.or": " or ",
    "decl.belote": "Belote-rebelote (king and queen of trump)",
    "decl.note": (
        "Only one team scores declarations: the one showing the strongest. "
        "Belote always stays with its team; all-trump: one per suit; no-trump: none."
    ),
    "table.cases": "Scoring a deal",
    "table.col.case": "Case",
    "table.col.rule": "Who marks what",
    "table.col.example": "Example",
    "case.belote": "Classic belote (exact points)",
    "case.coinche": (
        "Coinche (contract {low} to {high}, capot {capot_contract}, générale {generale})"
    ),
    "case.b.made": "Made",
    "case.b.made.rule": "Taker's total above the defense's: each team marks its total.",
    "case.b.failed": "Failed (dedans)",
    "case.b.failed.rule": (
        "Taker's total below: the defense marks {deal} + all declarations + its belote; "
        "the takers keep their belote."
    ),
    "case.b.litige": "Litige",
    "case.b.litige.rule": (
        "Equal totals: the defense marks its total; the takers' total (belote aside) is held "
        "over for the team that wins the next deal."
    ),
    "case.b.capot": "Capot",
    "case.b.capot.rule": "The takers win all eight tricks: {capot} + belote + all declarations.",
    "case.c.made": "Made",
    "case.c.made.rule": (
        "Total ≥ contract and > defense: the takers mark their total + the contract, "
        "the defense its total."
    ),
    "case.c.failed": "Failed",
    "case.c.failed.rule": (
        "The defense marks {fall} + the contract + all declarations + its belote; the takers "
        "keep their belote. A tie fails."
    ),
    "case.c.coinche": "Coinched ×2",
    "case.c.coinche.rule": (
        "Made: ({fall} + declarations + belote + contract) × 2 to the takers ({capot_base} if "
        "capot), the defense keeps its belote. Failed: the defense marks the double."
    ),
    "case.c.surcoinche": "Surcoinched ×4",
    "case.c.surcoinche.rule": "As coinched, multiplied by 4.",
    "case.c.capot": "Capot",
    "case.c.capot.rule": (
        "All eight tricks: {capot} + belote + all declarations + the contract "
        "({capot_base} when it was bid)."
    ),
    "case.c.rounding": "Rounding",
    "case.c.rounding.rule": (
        "Each mark to the nearest ten, 5 up (official rules); the contract is judged on "
        "exact totals."
    ),
    "example.score": "{ns} / {ew}",
    "table.note": "Values taken from the rebelote engine (official rules unless stated).",
    "table.note.rules": "Values taken from the rebelote engine, for the rules: {rules}.",
    "decl.none": (
        "These rules are played without declarations: only the belote (king and queen of "
        "trump) counts, 20 points. {prenable}"
    ),
    "decl.prenable": "It can be taken: when the contract fails, it goes to the defense.",
    "decl.imprenable": "It stays with its team, even when the contract fails.",
    # the counter's new-game page and sheet (rule sets)
    "web.game.contree": "Contrée",
    "web.target.rules": "as the rules say",
    "web.presets": "Table rules",
    "web.preset.ffb": (
        "FFB 2016 table: points made + bid; failed: 160 + contract + belote; coinched "
        "320 + 2 × contract, surcoinched 640 + 4 × contract; capot 500; rounded 5 up; 2000."
    ),
    "web.preset.ffb-ludique": (
        "“Équipe Ludique” edition: coinched 160 + 2 × contract, surcoinched 160 + 3 × "
        "contract; capot a 250 contract; rounded 6 up; last deal exact."
    ),
    "web.preset.cannes-2016": (
        "French championship 2016: base 162, coinched 162 + 2 × contract, surcoinched ×3; "
        "capot 270; rounded 6 up; last deal exact; 2001 points."
    ),
    "web.preset.annonces": (
        "Points bid: the winner of the deal marks the contract alone (× 2 coinched, × 4 "
        "surcoinched); no rounding; 1000 points."
    ),
    "web.preset.exact": "The FFB 2016 table counted exactly, not rounded.",
    "web.options": "Change the counting",
    "web.options.hint": "A setting left on “as the rules say” keeps the chosen rules' value.",
    "web.as_rules": "as the rules say",
    "group.counting": "Counting",
    "group.belote": "Belote",
    "group.contract": "Contract",
    "group.capot": "Capot",
    "group.rounding": "Rounding",
    "group.end": "End of the game",
    "web.shared": "Shared rules",
    "web.rules_text": "Rules as text",
    "web.rules_text.hint": (
        "These rules come from a shared link; they replace the choices under Rules. Empty the "
        "field to choose yourself."
    ),
    "web.share": "Share these rules",
    "web.share.hint": "This link or QR code opens a new game with the same rules.",
    "web.share.qr": "QR code of the rules link",
    "web.share.table": "Play these rules at a table, against the computer or with friends",
    "web.shared.table": "This table will play the rules of a shared link: {rules}.",
    "web.shared.other": "choose other rules",
    "web.points_table": "Points table of these rules (PDF)",
    # contrée and the ways of counting (docs/counting.md)
    "game.contree": "Contrée",
    "rules.ffb": "FFB (2016 table)",
    "rules.ffb-ludique": "FFB “Équipe Ludique”",
    "rules.cannes-2016": "French championship, Cannes 2016",
    "rules.annonces": "points bid only",
    "rules.exact": "FFB, not rounded",
    "rules.changed": "{rules}, changed: {options}",
    "sheet.hint.contree": (
        "Contract: 80 to 160 or capot; ×2 contré, surcontré. Outcome: made or failed. "
        "No declarations; the contract alone decides."
    ),
    "opt.counting": "Counting",
    "opt.counting.made_plus_bid": "points made + points bid",
    "opt.counting.made": "points made (flat sums for coinche and capot)",
    "opt.counting.bid": "points bid only",
    "opt.failure_base": "Base of a fall or a coinche",
    "opt.failure_base.160": "160 (the deal rounded)",
    "opt.failure_base.162": "162 (the deal exact)",
    "opt.failure_base.0": "0 (the contract only)",
    "opt.coinche_form": "Coinche",
    "opt.coinche_form.whole": "(base + contract) × 2",
    "opt.coinche_form.contract": "base + contract × 2",
    "opt.coinche_form.flat": "flat 320 / 640",
    "opt.coinche_form.base": "base × 2 + contract",
    "opt.surcoinche": "Surcoinche",
    "opt.surcoinche.4": "× 4",
    "opt.surcoinche.3": "× 3",
    "opt.belote_prenable": "Belote prenable (to the defense on a fall)",
    "opt.belote_multiplied": "Belote multiplied by the coinche",
    "opt.belote_counts_for_contract": "Belote counts toward the contract",
    "opt.must_outscore": "The takers must also beat the defense",
    "opt.declarations": "Declarations",
    "opt.generale": "Générale",
    "opt.capot_bid": "Capot bid",
    "opt.capot_bid.contract": "a contract ({value})",
    "opt.capot_bid.prime": "a prime of 500 (1000 coinched, 2000 surcoinched)",
    "opt.capot_value": "Value of a capot contract",
    "opt.capot_unbid": "Capot not bid",
    "opt.capot_unbid.252": "252 (cards and a last trick of 100)",
    "opt.capot_unbid.250": "250",
    "opt.capot_failed": "Capot bid and failed",
    "opt.capot_failed.formula": "as a fall (base + the capot's value)",
    "opt.capot_failed.prime": "500 to the defense",
    "opt.rounding": "Rounding",
    "opt.rounding.nearest": "to the ten, 5 up (85 → 90)",
    "opt.rounding.six_up": "to the ten, 6 up (85 → 80, 86 → 90)",
    "opt.rounding.none": "none, exact",
    "opt.rounding_scope": "What is rounded",
    "opt.rounding_scope.mark": "the whole mark",
    "opt.rounding_scope.points": "the points made, before the contract",
    "opt.last_deal_exact": "Last deal counted exactly",
    "opt.target": "Target",
    "opt.target_rule": "End of the game",
    "opt.target_rule.reach": "reach the target",
    "opt.target_rule.exceed": "pass the target",
    "opt.pair": "{option}: {value}",
    "opt.on": "yes",
    "opt.off": "no",
    "table.counting": "Counting: {rules}",
    "table.counting.example": (
        "Example: contract 100 ♥, the takers make 110 with the belote, the defense 52; "
        "failed: 70 + 20 belote against 92."
    ),
    "table.counting.made": "Made",
    "table.counting.coinched": "Made, coinched",
    "table.counting.surcoinched": "Made, surcoinched",
    "table.counting.failed": "Failed",
    "table.counting.failed_coinched": "Failed, coinched",
    "table.counting.marks": "{taker} / {defense}",
    "table.col.takers": "Takers",
    "table.col.defense": "Defense",
    # the CSV file's header row and lines about the game (rebelote.export)
    "csv.col.deal": "Deal",
    "csv.col.taker": "Taker",
    "csv.col.trump": "Trump",
    "csv.col.contract": "Contract",
    "csv.col.coinche": "Coinche",
    "csv.col.points.NS": "Points NS",
    "csv.col.points.EW": "Points EW",
    "csv.col.declarations.NS": "Declarations NS",
    "csv.col.declarations.EW": "Declarations EW",
    "csv.col.belote.NS": "Belote NS",
    "csv.col.belote.EW": "Belote EW",
    "csv.col.capot": "Capot",
    "csv.col.generale": "Générale",
    "csv.col.held_over": "Litige in",
    "csv.col.outcome": "Outcome",
    "csv.col.marks.NS": "Marks NS",
    "csv.col.marks.EW": "Marks EW",
    "csv.col.totals.NS": "Total NS",
    "csv.col.totals.EW": "Total EW",
    "csv.meta.game": "Game",
    "csv.meta.rules": "Rules",
    "csv.meta.options": "Options",
    "csv.meta.target": "Target",
    "csv.meta.teams": "Teams",
    "csv.meta.start": "Start",
}

#: Every label in each language: English as written above, French from the catalogs (the
#: label's key is its message's context).
LABELS: Final[dict[str, dict[str, str]]] = {
    "en": _EN,
    "fr": {key: pgettext("fr", key, english) if english else ""
           for key, english in _EN.items()},
}

RANK_NAMES: Final[dict[str, tuple[str, ...]]] = {
    # by rank index 7 8 9 10 J Q K A
    "fr": ("Sept", "Huit", "Neuf", "Dix", "Valet", "Dame", "Roi", "As"),
    "en": ("Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"),
}
CARRE_OF: Final[dict[str, tuple[str, ...]]] = {
    "fr": ("de sept", "de huit", "de neuf", "de dix", "de valets", "de dames", "de rois",
           "d’as"),
    "en": ("of sevens", "of eights", "of nines", "of tens", "of jacks", "of queens", "of kings",
           "of aces"),
}
RANK_SHORT: Final[dict[str, tuple[str, ...]]] = {
    "fr": ("7", "8", "9", "10", "V", "D", "R", "A"),
    "en": ("7", "8", "9", "10", "J", "Q", "K", "A"),
}


def check_lang(lang: object) -> str:
    """``lang`` if the sheets speak it, else an :class:`InputError` naming ``lang``."""
    if isinstance(lang, str) and lang in LABELS:
        return lang
    raise InputError("lang", f"{lang!r} is not a language of the sheets ({', '.join(LANGS)})")


def text(lang: str, key: str, **args: object) -> str:
    """The text of ``key`` in ``lang``, its ``{slots}`` filled from ``args``."""
    template = LABELS[check_lang(lang)][key]
    return template.format(**args) if args else template
