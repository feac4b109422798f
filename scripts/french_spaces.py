"""Put French typography's no-break spaces into the French catalogs, in place.

    python scripts/french_spaces.py src/rebelote/locale/fr/LC_MESSAGES/*.po
    pybabel compile -d src/rebelote/locale -D rebelote
    pybabel compile -f -d src/rebelote/locale -D concours

A plain space (or none) before ``: ; ! ?`` that ends a clause becomes a no-break space
(U+00A0), and « » get one inside: what ``tests/test_french.py`` checks in every message. Only
the ``msgstr`` lines change (the header's fields are left alone), byte for byte elsewhere, so
a catalog edited by several people merges cleanly afterwards. It prints how many lines it
changed in each file.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

NBSP = "\u00a0"
_HEADER_FIELD = re.compile(r"^[A-Za-z-]+: .*\\n$")


def fix(text: str) -> str:
    """``text`` (a catalog string, escapes as written) with its no-break spaces.

    >>> fix('Contrat 90 : réussi ; « belote » ?') == (
    ...     'Contrat 90\\u00a0: réussi\\u00a0; «\\u00a0belote\\u00a0»\\u00a0?')
    True
    >>> fix(fix('« a » : b')) == fix('« a » : b')  # once is enough
    True
    >>> fix('https://x.org/a?b=1 à 12:30')
    'https://x.org/a?b=1 à 12:30'
    """
    text = re.sub(r"[ \u202f]?([:;!?])(?=$|[\s\"»)\]}\\])", lambda m: NBSP + m.group(1), text)
    text = text.replace(NBSP + NBSP, NBSP)
    text = re.sub("«[ \u202f\u00a0]?", "«" + NBSP, text)
    return re.sub("[ \u202f\u00a0]?»", NBSP + "»", text)


def fix_file(path: Path) -> int:
    """Fix the ``msgstr`` lines of the catalog at ``path``; the number of lines changed."""
    out: list[str] = []
    changed = 0
    in_msgstr = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("msgstr"):
            in_msgstr = True
        elif line.startswith(("msgid", "msgctxt", "#")) or not line.strip():
            in_msgstr = False
        if in_msgstr and '"' in line:
            head, _, body = line.partition('"')
            body = body.removesuffix('"')
            if not _HEADER_FIELD.match(body):
                new = head + '"' + fix(body) + '"'
                changed += new != line
                line = new
        out.append(line)
    path.write_text("\n".join(out), encoding="utf-8")
    return changed


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    for name in argv:
        print(f"{name}: {fix_file(Path(name))} lines changed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
