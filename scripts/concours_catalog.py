"""Fill the French catalog of the concours's gettext domain from the template and compile both
languages' catalogs: ``python scripts/concours_catalog.py`` after ``pybabel extract`` (see
src/rebelote/locale/concours.cfg). A translation in FRENCH wins over the catalog's; a
message missing from FRENCH below and from the catalog stops the script."""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

LOCALE = Path(__file__).resolve().parent.parent / "src" / "rebelote" / "locale"
FRENCH = {
    "Point difference": "Différence de points", "Best partie": "Meilleure partie",
    "Fewest points against": "Moins de points encaissés", "Seeded draw": "Tirage au sort",
    "half a partie": "une demi-partie", "the partie's average": "la moyenne de la partie",
    "a win with fixed points": "une victoire à points fixes", "nothing": "rien",
    "Name": "Nom", "Game": "Jeu", "Rules": "Règles", "Parties": "Parties",
    "Deals per partie": "Donnes par partie", "Target": "Objectif", "Format": "Formule",
    "Ranking": "Classement", "Tie-breaks": "Départages", "Exempt": "Exempt",
    "Exempt's points": "Points de l’exempt", "Draw": "Tirage", "Withdrawal": "Abandon",
    "Seed": "Graine", "Teams": "Équipes", "Team": "Équipe", "Partie": "Partie",
    "Table": "Table", "Scores": "Scores", "Prizes": "Lots", "Belotes": "Belotes",
    "Capots": "Capots",
    "Table %(t)s, partie %(k)s: the result is saved, but check the sheet.":
        "Table %(t)s, partie %(k)s : le résultat est enregistré, mais vérifiez la feuille.",
    "Table %(t)s": "Table %(t)s", "Rank": "Rang", "Points": "Points", "Won": "Gagnées",
    "Against": "Contre", "Prize": "Lot", "withdrawn": "abandon",
    "Partie %(k)s of %(n)s": "Partie %(k)s sur %(n)s",
    "%(done)s of %(n)s tables done": "%(done)s tables terminées sur %(n)s",
    "The draw is coming": "Le tirage arrive", "seed %(seed)s": "graine %(seed)s",
    "Where do I sit?": "Où suis-je ?", "partie %(k)s": "partie %(k)s", "table": "table",
    "exempt": "exempt", "Final ranking": "Classement final", "%(n)s won": "%(n)s gagnées",
    "Concours": "Concours",
    "This concours needs its organiser's link": "Ce concours demande le lien de l’organisateur",
    "No such concours": "Concours introuvable",
    "Open the organiser's link on this device, or start a new concours.":
        "Ouvrez le lien de l’organisateur sur cet appareil, ou créez un nouveau concours.",
    "The link is wrong, or the concours was never created here.":
        "Le lien est faux, ou ce concours n’a jamais été créé ici.",
    "New concours": "Nouveau concours",
    "Concours: a club tournament": "Concours : un tournoi de club",
    "Belote, coinche or contrée: register the teams, draw each partie, let each table count on "
    "a phone or type the paper sheets, show the ranking on the wall.":
        "Belote, coinche ou contrée : inscrivez les équipes, tirez chaque partie, laissez chaque "
        "table compter sur un téléphone ou saisissez les feuilles, affichez le classement au mur.",
    "My concours": "Mes concours",
    "Concours of the festival committee": "Concours du comité des fêtes",
    "Belote": "Belote", "Coinche": "Coinche", "Contrée": "Contrée",
    "No declarations (the paper sheets' sums can then be checked in belote)":
        "Sans annonces (en belote, la somme des feuilles peut alors être vérifiée)",
    "or a target": "ou un objectif",
    "A number of deals, a target, or both: the target ends the partie, the deals cap it.":
        "Un nombre de donnes, un objectif, ou les deux : l’objectif termine la partie, les "
        "donnes la limitent.",
    "Doublettes formées": "Doublettes formées",
    "À la mêlée (players drawn into pairs each partie)":
        "À la mêlée (joueurs tirés en paires à chaque partie)",
    "Total points": "Total des points", "Parties won, then points": "Parties gagnées, puis points",
    "Tie-breaks, in order": "Départages, dans l’ordre", "Tie-break %(n)s": "Départage %(n)s",
    "Exempt (an odd count)": "Exempt (nombre impair)", "Half a partie": "Une demi-partie",
    "The partie's average": "La moyenne de la partie",
    "A win, with fixed points": "Une victoire, à points fixes", "Nothing": "Rien",
    "Exempt's points (a win)": "Points de l’exempt (victoire)",
    "Draw after partie 1": "Tirage après la partie 1",
    "By ranking order": "Dans l’ordre du classement",
    "At random each time": "Au hasard à chaque fois",
    "A team that withdraws": "Une équipe qui abandonne", "Keeps its points": "Garde ses points",
    "Is ranked last": "Est classée dernière",
    "Seed of the draw (shown to all; empty: drawn now)":
        "Graine du tirage (montrée à tous ; vide : tirée maintenant)",
    "Teams, one per line (players after a colon)":
        "Équipes, une par ligne (les joueurs après deux-points)",
    "Les As: Anne, Marc": "Les As : Anne, Marc", "Create the concours": "Créer le concours",
    "%(n)s parties": "%(n)s parties", "%(n)s deals": "%(n)s donnes",
    "to %(target)s": "en %(target)s", "À la mêlée": "À la mêlée",
    "ranked by points": "classement aux points",
    "ranked by parties won, then points": "classement aux parties gagnées, puis aux points",
    "Seed of the draw": "Graine du tirage", "Room screen": "Écran de la salle",
    "Ranking (PDF)": "Classement (PDF)",
    "%(n)s tables repeat a meeting: no draw without one exists.":
        "%(n)s tables se rencontrent à nouveau : aucun tirage ne l’évite.",
    "%(done)s of %(n)s tables have their result.": "%(done)s tables sur %(n)s ont leur résultat.",
    "Draw (PDF)": "Tirage (PDF)", "Where do I sit? (PDF)": "Où suis-je ? (PDF)",
    "Table sheets (PDF)": "Feuilles de table (PDF)",
    "Links and QR codes for the tables' phones": "Liens et QR codes pour les téléphones des tables",
    "Draw partie %(k)s": "Tirer la partie %(k)s",
    "The concours is over: here is the final ranking.":
        "Le concours est terminé : voici le classement final.",
    "Partie %(k)s: tables": "Partie %(k)s : tables", "%(points)s points": "%(points)s points",
    "Points of %(team)s": "Points de %(team)s", "Sheet": "Feuille", "Deals": "Donnes",
    "Correct": "Corriger", "Save": "Enregistrer", "Clear": "Effacer",
    "counted on the phone": "compté au téléphone",
    "being counted on a phone": "en cours sur un téléphone",
    "check the sheet": "feuille à vérifier", "counter": "compteur",
    "Swap team": "Échanger l’équipe", "with team": "avec l’équipe", "Swap": "Échanger",
    "Draw again": "Refaire le tirage", "Cancel this draw": "Annuler ce tirage",
    "Teams (%(n)s)": "Équipes (%(n)s)", "Players (%(n)s)": "Joueurs (%(n)s)",
    "Players (by commas)": "Joueurs (séparés par des virgules)", "Fee paid": "Inscription payée",
    "Register": "Inscrire", "plays from partie %(k)s": "joue dès la partie %(k)s",
    "from partie %(k)s": "dès la partie %(k)s",
    "withdrew after partie %(k)s": "abandon après la partie %(k)s",
    "paid": "payé", "not paid": "à payer",
    "Withdraw team %(n)s": "Déclarer l’abandon de l’équipe %(n)s",
    "paid: team %(n)s": "payé : équipe %(n)s", "not paid: team %(n)s": "à payer : équipe %(n)s",
    "withdraw": "déclarer l’abandon", "Parties and prizes": "Parties et lots",
    "Number of parties (add one, or end early)":
        "Nombre de parties (en ajouter une, ou finir plus tôt)",
    "Prizes, one per line from the first rank": "Lots, un par ligne à partir du premier",
    "Tables' phones": "Téléphones des tables",
    "Partie %(k)s: each table's phone": "Partie %(k)s : le téléphone de chaque table",
    "Scan the table's code with a phone: it opens the counter for that table, teams and rules "
    "set. When the partie ends, its result goes to the concours.":
        "Scannez le code de la table avec un téléphone : il ouvre le compteur de cette table, "
        "équipes et règles déjà réglées. À la fin de la partie, le résultat part au concours.",
    "Back to the concours": "Retour au concours",
    "QR code of table %(t)s": "QR code de la table %(t)s",
    "Open the counter of table %(t)s": "Ouvrir le compteur de la table %(t)s",
    "Result entered: %(a)s – %(b)s": "Résultat saisi : %(a)s – %(b)s",
    "partie %(k)s of %(n)s": "partie %(k)s sur %(n)s",
    "Draw of partie %(k)s": "Tirage de la partie %(k)s", "vs": "contre",
    "Exempt: %(teams)s": "Exempt : %(teams)s",
    "Where do I sit? Partie %(k)s": "Où suis-je ? Partie %(k)s", "No.": "N°",
    "Opponents": "Adversaires", "Deal": "Donne", "TOTAL": "TOTAL",
    "Signatures:": "Signatures :", "Table sheets, partie %(k)s": "Feuilles de table, partie %(k)s",
    "The organiser's link, for another device": "Le lien de l’organisateur, pour un autre "
                                                "appareil",
    "Whoever holds it can change the concours: keep it to yourself.":
        "Qui le détient peut modifier le concours : gardez-le pour vous.",
    "The organiser's link": "Le lien de l’organisateur",
    "Organise this concours on this device?": "Organiser ce concours sur cet appareil ?",
    "This organiser's link lets this device change the concours %(name)s. Add it only if its "
    "organiser gave it to you.":
        "Ce lien de l’organisateur permet à cet appareil de modifier le concours %(name)s. "
        "Ajoutez-le seulement si son organisateur vous l’a donné.",
    "Add this concours": "Ajouter ce concours", "Not now": "Pas maintenant",
    "with %(who)s": "avec %(who)s", "Player": "Joueur",
    "after %(k)s of %(n)s parties": "après %(k)s parties sur %(n)s", "Diff.": "Diff.",
    'to the team that did not take':
        "à l’équipe qui n’a pas pris",
    'to nobody':
        "à personne",
    "Litige on a partie's last deal":
        "Litige à la dernière donne d’une partie",
    'Too many concours created from your address: try again in %(s)s s.':
        "Trop de concours créés depuis votre adresse\u00a0: réessayez dans %(s)s s.",
    'Team %(n)s, %(name)s, has withdrawn: it is in no partie drawn from now on.':
        "L’équipe %(n)s, %(name)s, abandonne\u00a0: elle n’est plus dans aucune partie "
        "tirée désormais.",
    'Take the withdrawal back':
        "Annuler l’abandon",
    'The draw of partie %(k)s is cancelled: draw it again when you are ready (the same seed'
    ' gives the same first draw).':
        "Le tirage de la partie %(k)s est annulé\u00a0: tirez-la de nouveau quand vous êtes"
        " prêt (la même graine redonne le même premier tirage).",
    'Put it back (%(a)s – %(b)s)':
        "Le remettre (%(a)s – %(b)s)",
    "Table %(t)s, partie %(k)s: the phone's result is back.":
        "Table %(t)s, partie %(k)s\u00a0: le résultat du téléphone est revenu.",
    'Table %(t)s, partie %(k)s: its result is forgotten.':
        "Table %(t)s, partie %(k)s\u00a0: son résultat est effacé.",
    'Forget the result of table %(t)s?':
        "Effacer le résultat de la table %(t)s\u00a0?",
    'corrected by the organiser (the phone counted %(a)s – %(b)s)':
        "corrigé par l’organisateur (le téléphone avait compté %(a)s – %(b)s)",
    "Draw partie %(k)s again? Its tables change, and the phones' links of this draw stop working.":
        "Tirer de nouveau la partie %(k)s\u00a0? Ses tables changent, et les liens des "
        "téléphones de ce tirage ne marchent plus.",
    "Cancel the draw of partie %(k)s? The phones' links of this draw stop working; you can "
    "draw it again.":
        "Annuler le tirage de la partie %(k)s\u00a0? Les liens des téléphones de ce tirage "
        "ne marchent plus\u00a0; vous pourrez la tirer de nouveau.",
    'Fee':
        "Inscription",
    'Withdraw team %(n)s, %(name)s? It will be in no partie drawn from now on.':
        "Déclarer l’abandon de l’équipe %(n)s, %(name)s\u00a0? Elle ne sera dans aucune "
        "partie tirée désormais.",
    'Take back the withdrawal of team %(n)s':
        "Annuler l’abandon de l’équipe %(n)s",
    'take the withdrawal back':
        "annuler l’abandon",
    'No result yet: nobody is ranked.':
        "Aucun résultat encore\u00a0: personne n’est classé.",
    'not ranked yet':
        "pas encore classée",
    'Teams (no result yet)':
        "Équipes (aucun résultat encore)",
    'no. %(n)s':
        "n° %(n)s",
    "A litige on a partie's last deal (no next deal to win its points)":
        "Un litige à la dernière donne d’une partie (pas de donne suivante pour gagner ses points)",
    'Its points go to the team that did not take':
        "Ses points vont à l’équipe qui n’a pas pris",
    'Its points go to nobody':
        "Ses points ne vont à personne",
    'litige on the last deal: its points to the team that did not take':
        "litige à la dernière donne\u00a0: ses points à l’équipe qui n’a pas pris",
    'litige on the last deal: its points to nobody':
        "litige à la dernière donne\u00a0: ses points à personne",
    'One of %(n)s tables has its result.': '1 table sur %(n)s a son résultat.',
    'One partie': '1 partie',
    'One deal': '1 donne',
    'One of %(n)s tables done': '1 table terminée sur %(n)s',
    'after one of %(n)s parties': 'après 1 partie sur %(n)s',
    "Too many counter games opened from your address: try again in %(s)s s.":
        "Trop de parties de compteur ouvertes depuis votre adresse\u00a0: réessayez dans %(s)s s.",
}


def main() -> int:
    with (LOCALE / "concours.pot").open("rb") as f:
        template = read_po(f)
    missing = []
    for lang in ("fr", "en"):
        folder = LOCALE / lang / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        po_path = folder / "concours.po"
        old: dict[str, str] = {}
        if po_path.exists():
            with po_path.open("rb") as f:
                old = {m.id: m.string for m in read_po(f) if m.id}
        catalog = Catalog(locale=lang, domain="concours", project="rebelote")
        for m in template:
            if not m.id:
                continue
            if lang == "fr":
                string = FRENCH.get(m.id) or old.get(m.id, "")
                if not string:
                    missing.append(m.id)
            else:
                string = ""
            catalog.add(m.id, string, flags=m.flags)
        with po_path.open("wb") as f:
            write_po(f, catalog, omit_header=False, no_location=True, width=100)
        with (folder / "concours.mo").open("wb") as f:
            write_mo(f, catalog)
    for m in missing:
        print(f"no French for {m!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
