"""The play table's words in French and English: the page's labels, cards and calls as a
screen reader says them. The result card's lines come from the counter's catalog
(:func:`rebelote.web.i18n.line_text`), so both say the same."""

from __future__ import annotations

from typing import Final

from rebelote.cards import RANKS, SUITS

FR: Final[dict[str, str]] = {
    "Play a game": "Jouer une partie",
    "Play against the computer or with friends: you sit South.":
        "Contre l'ordinateur ou entre amis : vous êtes Sud.",
    "Game": "Jeu",
    "Rules": "Règles",
    "official": "officielles",
    "house": "maison",
    "Target": "Objectif",
    "Bots' level": "Niveau des robots",
    "Pace of the bots": "Rythme des robots",
    "instant": "immédiat",
    "fast": "rapide",
    "normal": "normal",
    "slow": "lent",
    "Keep North's seat for a friend": "Garder la place de Nord pour un ami",
    "Keep East and West for friends": "Garder Est et Ouest pour des amis",
    "Turn clock": "Temps par coup",
    "none": "aucun",
    "Your name": "Votre nom",
    "Sit down": "S'asseoir",
    "Start the table": "Ouvrir la table",
    "Table": "Table",
    "Deal": "Donne",
    "deals": "donne(s)",
    "Dealer": "Donneur",
    "dealer": "donneur",
    "to play": "à jouer",
    "Your turn": "À vous",
    "Waiting for": "On attend",
    "You": "Vous",
    "Partner": "Partenaire",
    "Us": "Nous",
    "Them": "Eux",
    "North": "Nord", "East": "Est", "South": "Sud", "West": "Ouest",
    "bot": "robot",
    "waiting for a friend": "on attend un ami",
    "The clock ran out: your bot plays for you.":
        "Le temps est écoulé : votre robot joue pour vous.",
    "I'm back": "Je reviens",
    "The table waits for a friend at": "La table attend un ami à la place",
    "Seats kept for friends": "Places gardées pour des amis",
    "Let bots play these seats": "Confier ces places aux robots",
    "away: its bot plays": "absent : son robot joue",
    "Auction": "Enchères",
    "Turned card": "Carte retournée",
    "Take": "Prendre",
    "Pass": "Passer",
    "Coinche": "Coinche",
    "Surcoinche": "Surcoinche",
    "Bid": "Annoncer",
    "Contract": "Contrat",
    "Trump": "Atout",
    "Your hand": "Votre main",
    "Playable cards are highlighted.": "Les cartes jouables sont mises en avant.",
    "Trick": "Pli",
    "Current trick": "Pli en cours",
    "Last trick": "Dernier pli",
    "won by": "remporté par",
    "leads": "entame",
    "Declarations": "Annonces",
    "Shown": "Montré",
    "belote": "belote",
    "rebelote": "rebelote",
    "Do not declare": "Ne pas annoncer",
    "Points this deal": "Points de la donne",
    "Score": "Score",
    "Score sheet": "Feuille de marque",
    "Marks": "Marque",
    "Totals": "Totaux",
    "Result of deal": "Résultat de la donne",
    "Download the record": "Télécharger l'enregistrement",
    "Checked shuffle": "Battage vérifiable",
    "Commitment of this deal": "Engagement de cette donne",
    "Seed": "Graine",
    "Salt": "Sel",
    "The revealed seed and salt give the commitment shown before the deal, and the cards "
    "dealt: verified.":
        "La graine et le sel révélés redonnent l'engagement affiché avant la donne, et les "
        "cartes distribuées : vérifié.",
    "Verification failed": "Échec de la vérification",
    "Your browser recomputed the commitment: it is the one shown before the deal.":
        "Votre navigateur a recalculé l'engagement : c'est celui affiché avant la donne.",
    "Your browser recomputed the commitment: it is NOT the one shown before the deal.":
        "Votre navigateur a recalculé l'engagement : ce n'est PAS celui affiché avant la "
        "donne.",
    "Your browser recomputed the commitment from the seed and salt; it did not see this deal "
    "before it ended.":
        "Votre navigateur a recalculé l'engagement depuis la graine et le sel ; il n'a pas vu "
        "cette donne avant sa fin.",
    "This browser cannot compute SHA-256 on a page served without HTTPS: check the record "
    "with rebelote verify.":
        "Ce navigateur ne calcule pas de SHA-256 sur une page servie sans HTTPS : vérifiez "
        "l'enregistrement avec rebelote verify.",
    "Invite friends": "Inviter des amis",
    "Join code": "Code",
    "Invite link": "Lien d'invitation",
    "Scan to join": "Scanner pour rejoindre",
    "Free seats": "Places libres",
    "Hand my seat back to the bot": "Rendre ma place au robot",
    "Won by": "Victoire de",
    "The game is over.": "La partie est terminée.",
    "New game": "Nouvelle partie",
    "Join the table": "Rejoindre la table",
    "Seat": "Place",
    "any free seat": "n'importe quelle place libre",
    "This table has no free seat.": "Cette table n'a plus de place libre.",
    "You have no seat at this table.": "Vous n'avez pas de place à cette table.",
    "no-trump": "sans atout",
    "all-trump": "tout atout",
    "spades": "pique", "hearts": "cœur", "diamonds": "carreau", "clubs": "trèfle",
    "pass": "passe",
    "take": "prend",
    "coinche": "coinche",
    "surcoinche": "surcoinche",
    "capot": "capot",
    "generale": "générale",
    "tierce": "tierce", "cinquante": "cinquante", "cent": "cent", "carre": "carré",
    "made": "réussi", "failed": "chuté", "litige": "litige", "void": "passe",
    "plays": "joue",
    "play": "jouez",
    "bids": "annonce",
    "Bots play at a short pace; the page follows live.":
        "Les robots jouent à leur rythme ; la page suit en direct.",
    "Live updates stopped: reconnecting…": "Mise à jour interrompue : reconnexion…",
    "Analysis": "Analyse",
    "Analysis of the deal, card by card": "Analyse de la donne, carte par carte",
    "Each card against the best one, every hand visible (double-dummy solver): what it cost "
    "in card points of its team and in the deal's mark.":
        "Chaque carte face à la meilleure, toutes les mains visibles (solveur à cartes "
        "ouvertes) : ce qu'elle a coûté en points de son équipe et en marque de la donne.",
    "Card": "Carte",
    "Value": "Valeur",
    "Best": "Meilleure",
    "Cost": "Coût",
    "Cost in the mark": "Coût en marque",
    "Total cost": "Coût total",
    "Back to the table": "Retour à la table",
    "Play": "Jouer",
    "Counter": "Compteur",
    "Refused": "Refusé",
}

_RANK_FR: Final = {"7": "sept", "8": "huit", "9": "neuf", "T": "dix", "J": "valet",
                   "Q": "dame", "K": "roi", "A": "as"}
_RANK_EN: Final = {"7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack",
                   "Q": "queen", "K": "king", "A": "ace"}
_RANK_SHOWN: Final = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "V", "Q": "D", "K": "R",
                      "A": "A"}
_RANK_SHOWN_EN: Final = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "J", "Q": "Q",
                         "K": "K", "A": "A"}
_SUIT_SYMBOL: Final = dict(zip(SUITS, ("♠", "♥", "♦", "♣"), strict=True))
_SUIT_WORD: Final = dict(zip(SUITS, ("spades", "hearts", "diamonds", "clubs"), strict=True))
SEAT_WORDS: Final = {"N": "North", "E": "East", "S": "South", "W": "West"}


def tr(lang: str, text: str) -> str:
    """``text`` (English) in ``lang``."""
    return FR.get(text, text) if lang == "fr" else text


def card_face(card: str, lang: str) -> str:
    """A card as printed on it: ``V♥``, ``10♠`` (``J♥`` in English)."""
    ranks = _RANK_SHOWN if lang == "fr" else _RANK_SHOWN_EN
    return ranks[card[0]] + _SUIT_SYMBOL[card[1]]


def card_words(card: str, lang: str) -> str:
    """A card as a screen reader says it: ``valet de cœur``, ``jack of hearts``."""
    if lang == "fr":
        return f"{_RANK_FR[card[0]]} de {tr(lang, _SUIT_WORD[card[1]])}"
    return f"{_RANK_EN[card[0]]} of {_SUIT_WORD[card[1]]}"


def is_red(card: str) -> bool:
    return card[1] in ("H", "D")


#: The bots of the registry as the start form names them (a spec it does not know is shown as
#: it is written).
_BOT_WORDS: Final = {"random": "random play", "heuristic": "heuristic (quick)",
                     "pimc": "search (pimc)"}
_LEVEL_WORDS: Final = {"default": "about a quarter of a second a card", "fast": "fast",
                       "strong": "strong"}
FR.update({"random play": "au hasard", "heuristic (quick)": "heuristique (rapide)",
           "search (pimc)": "recherche (pimc)",
           "about a quarter of a second a card": "un quart de seconde par carte",
           "strong": "fort"})


def bot_words(spec: str, lang: str) -> str:
    """A bot's spec as the start form says it: ``recherche (pimc) · rapide`` for ``pimc:fast``.

    >>> bot_words("pimc:fast", "fr"), bot_words("heuristic", "en"), bot_words("odd:9", "fr")
    ('recherche (pimc) · rapide', 'heuristic (quick)', 'odd · 9')
    """
    name, _, level = spec.partition(":")
    out = tr(lang, _BOT_WORDS.get(name, name))
    if level:
        out += " · " + tr(lang, _LEVEL_WORDS.get(level, level))
    return out


def bid_words(bid: str, lang: str) -> str:
    """A call as said: ``90 cœur``, ``passe``, ``capot pique``, ``coinche``."""
    return " ".join(tr(lang, w) for w in bid.split())


def seat_word(seat: str, lang: str) -> str:
    return tr(lang, SEAT_WORDS[seat])


assert set(_RANK_FR) == set(RANKS)
