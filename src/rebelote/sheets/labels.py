"""The words printed on the sheets and written in CSV headers, French first, then English.

Each language is one flat dict from a key to a text; texts with ``{name}`` slots are filled by
:func:`text`. The sheets never print a word that is not here, so adding a language is adding
one dict.

>>> text("fr", "outcome.failed"), text("en", "winner", team="Nous", deal=7)
('chute', 'Winner: Nous, after deal 7')
"""

from __future__ import annotations

from typing import Final

from rebelote.errors import InputError

LANGS: Final = ("fr", "en")

_FR: Final[dict[str, str]] = {
    # games, rule sets, teams
    "game.belote": "Belote classique",
    "game.coinche": "Belote coinchée",
    "rules.official": "règles officielles",
    "rules.house": "règles maison",
    "team.default.0": "Nous",
    "team.default.1": "Eux",
    "target": "Partie en {target} points",
    "target.blank": "Partie en ______ points",
    "versus": "{a} contre {b}",
    # score sheet
    "sheet.title": "Feuille de marque",
    "sheet.col.deal": "Donne",
    "sheet.col.taker": "Preneur",
    "sheet.col.trump": "Atout",
    "sheet.col.contract": "Contrat",
    "sheet.col.marks": "Marque",
    "sheet.col.total": "Total",
    "sheet.col.outcome": "Issue",
    "sheet.start": "Départ",
    "sheet.carried": "Report",
    "sheet.totals": "Totaux",
    "sheet.reserve": "réserve {points}",
    "sheet.reserve.waiting": "Litige en réserve : {points} points pour la prochaine donne jouée.",
    "sheet.no_winner": "Pas encore de vainqueur.",
    "sheet.hint.belote": (
        "Preneur : l’équipe qui a pris. Atout : ♠ ♥ ♦ ♣, SA (sans atout) ou TA (tout atout). "
        "Issue : réussi, chute (dedans) ou litige."
    ),
    "sheet.hint.coinche": (
        "Contrat : 80 à 160, capot ou générale ; ×2 coinché, ×4 surcoinché. "
        "Issue : réussi ou chute. Marques arrondies à la dizaine (règles officielles)."
    ),
    "winner": "Vainqueur : {team}, après la donne {deal}",
    "page": "Page {page} / {pages}",
    "footer": "rebelote · {title}",
    # trump modes, short (sheet) and long (CSV)
    "trump.short.4": "SA",
    "trump.short.5": "TA",
    "trump.0": "pique",
    "trump.1": "cœur",
    "trump.2": "carreau",
    "trump.3": "trèfle",
    "trump.4": "sans-atout",
    "trump.5": "tout-atout",
    "contract.capot": "capot",
    "contract.generale": "générale",
    "coinche.2": "coinché",
    "coinche.4": "surcoinché",
    "outcome.made": "réussi",
    "outcome.failed": "chute",
    "outcome.litige": "litige",
    "outcome.void": "donne nulle",
    "outcome.adjust": "ajustement",
    "yes": "oui",
    "word.declarations": "annonces",
    "word.belote": "belote",
    "word.capot": "capot",
    # points table
    "table.title": "Tableau des points",
    "table.cards": "Valeur des cartes",
    "table.col.card": "Carte",
    "table.col.trump": "Atout",
    "table.col.plain": "Hors atout",
    "table.col.nt_official": "Sans atout\n(officiel, as {ace})",
    "table.col.nt_house": "Sans atout\n(maison, as {ace})",
    "table.col.all_trump": "Tout atout",
    "table.suit_total": "Total d’une couleur",
    "table.order": (
        "Ordre, de la plus forte à la plus faible — à l’atout (et au tout atout) : {trump} ; "
        "hors atout et sans atout : {plain}"
    ),
    "table.totals": "Totaux d’une donne",
    "table.col.what": "",
    "table.col.suit": "Couleur d’atout",
    "table.col.nt": "Sans atout\n(officiel / maison)",
    "table.col.at": "Tout atout",
    "table.cards_total": "Cartes",
    "table.dix_de_der": "Dix de der (dernier pli)",
    "table.deal_total": "Donne",
    "table.capot_total": "Capot (les huit plis, dernier pli {last})",
    "table.fall_base": "Chute à la coinche (donne arrondie)",
    "table.capot_base": "Capot à la coinche (arrondi)",
    "table.declarations": "Annonces et belote",
    "table.col.declaration": "Annonce",
    "table.col.points": "Points",
    "table.col.nt_points": "Sans atout",
    "decl.tierce": "Tierce (3 cartes qui se suivent)",
    "decl.cinquante": "Cinquante (4 cartes)",
    "decl.cent": "Cent (5 cartes ou plus)",
    "decl.carre": "Carré {ranks}",
    "decl.carre.or": " ou ",
    "decl.belote": "Belote-rebelote (roi et dame d’atout)",
    "decl.note": (
        "Une seule équipe marque ses annonces : celle qui montre la plus forte. "
        "La belote reste toujours à l’équipe qui l’a (imprenable) ; "
        "tout atout : une par couleur ; sans atout : aucune."
    ),
    "table.cases": "Marquer une donne",
    "table.col.case": "Cas",
    "table.col.rule": "Qui marque quoi",
    "table.col.example": "Exemple",
    "case.belote": "Belote classique (au point près)",
    "case.coinche": (
        "Coinche (contrat {low} à {high}, capot {capot_contract}, générale {generale})"
    ),
    "case.b.made": "Réussi",
    "case.b.made.rule": "Total du preneur supérieur à la défense : chacun marque son total.",
    "case.b.failed": "Chute (dedans)",
    "case.b.failed.rule": (
        "Total du preneur inférieur : la défense marque {deal} + toutes les annonces + sa "
        "belote ; le preneur garde sa belote."
    ),
    "case.b.litige": "Litige",
    "case.b.litige.rule": (
        "Totaux égaux : la défense marque son total ; celui du preneur (hors belote) est mis "
        "en réserve pour l’équipe qui gagne la donne suivante."
    ),
    "case.b.capot": "Capot",
    "case.b.capot.rule": (
        "Le preneur fait les huit plis : {capot} + sa belote + toutes les annonces."
    ),
    "case.c.made": "Réussi",
    "case.c.made.rule": (
        "Total ≥ contrat et > défense : le preneur marque son total + le contrat, "
        "la défense son total."
    ),
    "case.c.failed": "Chute",
    "case.c.failed.rule": (
        "La défense marque {fall} + le contrat + toutes les annonces + sa belote ; "
        "le preneur garde sa belote. Égalité : chute."
    ),
    "case.c.coinche": "Coinché ×2",
    "case.c.coinche.rule": (
        "Réussi : ({fall} + annonces + belote + contrat) × 2 au preneur ({capot_base} si "
        "capot), la défense garde sa belote. Chuté : la défense marque le double."
    ),
    "case.c.surcoinche": "Surcoinché ×4",
    "case.c.surcoinche.rule": "Comme coinché, multiplié par 4.",
    "case.c.capot": "Capot",
    "case.c.capot.rule": (
        "Les huit plis : {capot} + belote + toutes les annonces + le contrat "
        "({capot_base} s’il a été demandé)."
    ),
    "case.c.rounding": "Arrondi",
    "case.c.rounding.rule": (
        "Chaque marque à la dizaine la plus proche, 5 au-dessus (règles officielles) ; "
        "le contrat se juge sur les totaux exacts."
    ),
    "example.score": "{ns} / {ew}",
    "table.note": "Valeurs tirées du moteur de rebelote (règles officielles sauf mention).",
    "table.note.rules": "Valeurs tirées du moteur de rebelote, pour les règles : {rules}.",
    "decl.none": (
        "Ces règles se jouent sans annonces : seule la belote (roi et dame d’atout) compte, "
        "20 points. {prenable}"
    ),
    "decl.prenable": "Elle est prenable : si le contrat chute, elle va à la défense.",
    "decl.imprenable": "Elle reste à l’équipe qui l’a, même si le contrat chute.",
    # the counter's new-game page and sheet (rule sets)
    "web.game.contree": "Contrée",
    "web.target.rules": "selon les règles",
    "web.presets": "Règles de la table",
    "web.preset.ffb": (
        "Barème FFB 2016 : points faits + demandés ; chute : 160 + contrat + belote ; "
        "contré 320 + 2 × contrat, surcontré 640 + 4 × contrat ; capot 500 ; arrondi "
        "5 au-dessus ; 2000 points."
    ),
    "web.preset.ffb-ludique": (
        "Édition « Équipe Ludique » : contré 160 + 2 × contrat, surcontré 160 + 3 × contrat ; "
        "capot contrat de 250 ; arrondi 6 au-dessus ; dernière donne au point près."
    ),
    "web.preset.cannes-2016": (
        "Championnat de France 2016 : base 162, contré 162 + 2 × contrat, surcontré ×3 ; "
        "capot 270 ; arrondi 6 au-dessus ; dernière donne au point près ; 2001 points."
    ),
    "web.preset.annonces": (
        "Points annoncés : le gagnant de la donne marque le contrat seul (× 2 contré, × 4 "
        "surcontré) ; pas d’arrondi ; 1000 points."
    ),
    "web.preset.exact": "Barème FFB 2016 compté au point près, sans arrondi.",
    "web.options": "Modifier le comptage",
    "web.options.hint": (
        "Chaque réglage laissé sur « selon les règles » garde la valeur des règles choisies."
    ),
    "web.as_rules": "selon les règles",
    "group.counting": "Comptage",
    "group.belote": "Belote",
    "group.contract": "Contrat",
    "group.capot": "Capot",
    "group.rounding": "Arrondi",
    "group.end": "Fin de partie",
    "web.shared": "Règles partagées",
    "web.rules_text": "Règles en texte",
    "web.rules_text.hint": (
        "Ces règles viennent d’un lien partagé ; elles remplacent les choix de la rubrique "
        "Règles. Videz le champ pour choisir vous-même."
    ),
    "web.share": "Partager ces règles",
    "web.share.hint": (
        "Ce lien ou ce code QR ouvre une nouvelle partie avec les mêmes règles."
    ),
    "web.share.qr": "Code QR du lien des règles",
    "web.share.table": "Jouer ces règles à une table contre l’ordinateur ou entre amis",
    "web.shared.table": "Cette table jouera les règles d’un lien partagé : {rules}.",
    "web.shared.other": "choisir d’autres règles",
    "web.points_table": "Tableau des points de ces règles (PDF)",
    # contrée and the ways of counting (docs/counting.md)
    "game.contree": "Belote contrée",
    "rules.ffb": "FFB (barème 2016)",
    "rules.ffb-ludique": "FFB « Équipe Ludique »",
    "rules.cannes-2016": "Championnat de France, Cannes 2016",
    "rules.annonces": "points annoncés",
    "rules.exact": "FFB sans arrondi",
    "rules.changed": "{rules}, modifiées : {options}",
    "sheet.hint.contree": (
        "Contrat : 80 à 160 ou capot ; ×2 contré, surcontré. Issue : réussi ou chute. "
        "Sans annonces ; le contrat seul décide."
    ),
    "opt.counting": "Comptage",
    "opt.counting.made_plus_bid": "points faits + points demandés",
    "opt.counting.made": "points faits (sommes fixes à la coinche et au capot)",
    "opt.counting.bid": "points annoncés seuls",
    "opt.failure_base": "Base d’une chute ou d’une coinche",
    "opt.failure_base.160": "160 (la donne arrondie)",
    "opt.failure_base.162": "162 (la donne exacte)",
    "opt.failure_base.0": "0 (le contrat seul)",
    "opt.coinche_form": "Coinche",
    "opt.coinche_form.whole": "(base + contrat) × 2",
    "opt.coinche_form.contract": "base + contrat × 2",
    "opt.coinche_form.flat": "sommes fixes 320 / 640",
    "opt.coinche_form.base": "base × 2 + contrat",
    "opt.surcoinche": "Surcoinche",
    "opt.surcoinche.4": "× 4",
    "opt.surcoinche.3": "× 3",
    "opt.belote_prenable": "Belote prenable (à la défense si le contrat chute)",
    "opt.belote_multiplied": "Belote multipliée par la coinche",
    "opt.belote_counts_for_contract": "Belote comptée pour le contrat",
    "opt.must_outscore": "Le preneur doit aussi battre la défense",
    "opt.declarations": "Annonces",
    "opt.generale": "Générale",
    "opt.capot_bid": "Capot demandé",
    "opt.capot_bid.contract": "un contrat ({value})",
    "opt.capot_bid.prime": "une prime de 500 (1000 contré, 2000 surcontré)",
    "opt.capot_value": "Valeur du contrat capot",
    "opt.capot_unbid": "Capot non demandé",
    "opt.capot_unbid.252": "252 (cartes et 100 de der)",
    "opt.capot_unbid.250": "250",
    "opt.capot_failed": "Capot demandé et chuté",
    "opt.capot_failed.formula": "comme une chute (base + valeur du capot)",
    "opt.capot_failed.prime": "500 à la défense",
    "opt.rounding": "Arrondi",
    "opt.rounding.nearest": "à la dizaine, 5 au-dessus (85 → 90)",
    "opt.rounding.six_up": "à la dizaine, 6 au-dessus (85 → 80, 86 → 90)",
    "opt.rounding.none": "aucun, au point près",
    "opt.rounding_scope": "Ce qui est arrondi",
    "opt.rounding_scope.mark": "la marque entière",
    "opt.rounding_scope.points": "les points faits, avant le contrat",
    "opt.last_deal_exact": "Dernière donne comptée au point près",
    "opt.target": "But de la partie",
    "opt.target_rule": "Fin de partie",
    "opt.target_rule.reach": "atteindre le but",
    "opt.target_rule.exceed": "dépasser le but",
    "opt.pair": "{option} : {value}",
    "opt.on": "oui",
    "opt.off": "non",
    "table.counting": "Comptage : {rules}",
    "table.counting.example": (
        "Exemple : contrat 100 ♥, le preneur fait 110 avec la belote, la défense 52 ; "
        "chuté : 70 + 20 de belote contre 92."
    ),
    "table.counting.made": "Réussi",
    "table.counting.coinched": "Réussi contré",
    "table.counting.surcoinched": "Réussi surcontré",
    "table.counting.failed": "Chuté",
    "table.counting.failed_coinched": "Chuté contré",
    "table.counting.marks": "{taker} / {defense}",
    "table.col.takers": "Preneur",
    "table.col.defense": "Défense",
}

_EN: Final[dict[str, str]] = {
    "game.belote": "Classic belote",
    "game.coinche": "Coinche",
    "rules.official": "official rules",
    "rules.house": "house rules",
    "team.default.0": "Us",
    "team.default.1": "Them",
    "target": "Game to {target} points",
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
    "sheet.reserve.waiting": "Litige reserve: {points} points wait for the next deal played.",
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
    "outcome.void": "void",
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
}

LABELS: Final[dict[str, dict[str, str]]] = {"fr": _FR, "en": _EN}

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
