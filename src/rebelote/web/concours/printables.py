"""The concours's PDFs: the draw, "où suis-je ?", the table sheets and the ranking
(:mod:`rebelote.sheets.concours`)."""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from rebelote.web import i18n
from rebelote.web.concours.deps import ConcoursDep

Number = Annotated[int, Path(ge=1, le=10_000)]
Lang = Annotated[str | None, Query(pattern="^(fr|en)$")]
#: Each partie's PDF: the function of :mod:`rebelote.sheets.concours` that draws it (imported
#: at the first request: fpdf2 is a fifth of a server's start).
_KINDS: Final = {"tirage": "draw_pdf", "ou-suis-je": "where_pdf", "feuilles": "sheets_pdf"}


def _pdf(content: bytes, name: str) -> Response:
    return Response(content, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{name}"'})


router = APIRouter(include_in_schema=False)


@router.get("/concours/{cid}/parties/{k}/{kind}.pdf")
async def partie_pdf(request: Request, cid: str, k: Number, kind: str, concours: ConcoursDep,
                     lang: Lang = None) -> Response:
    name = _KINDS.get(kind)
    if name is None:
        raise HTTPException(404, "Not Found")
    from rebelote.sheets import concours as sheets

    build = getattr(sheets, name)
    loaded = await concours.call(concours.get, cid)
    loaded.concours.partie(k)
    content = await run_in_threadpool(build, loaded.concours, k,
                                      lang or i18n.request_lang(request))
    return _pdf(content, f"{kind}-{k}.pdf")


@router.get("/concours/{cid}/classement.pdf")
async def ranking(request: Request, cid: str, concours: ConcoursDep, lang: Lang = None
                  ) -> Response:
    from rebelote.sheets.concours import ranking_pdf

    loaded = await concours.call(concours.get, cid)
    content = await run_in_threadpool(ranking_pdf, loaded.concours,
                                      lang or i18n.request_lang(request))
    return _pdf(content, "classement.pdf")
