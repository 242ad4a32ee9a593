"""The HTML pages, in Chinese and English: live standings, a table, the referee desk.

Pages are static shells; ``/static/app.js`` fills them from the JSON API and the server-sent
event stream, writing every value with ``textContent`` (never as HTML), and the
Content-Security-Policy allows scripts from this server only. The referee's token is typed into
the desk and kept in the tab's ``sessionStorage``; it travels as an ``Authorization`` header,
never as a cookie, so another site cannot make the browser write for the referee.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

CSP = ("default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; "
       "img-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "standings": "Standings", "table": "Table", "referee": "Referee desk",
        "rank": "#", "player": "Player", "points": "Points", "score": "Score",
        "adjustments": "Penalties/bonuses", "firsts": "1st places", "tables": "Tables",
        "round": "Round", "seat": "Seat", "hands": "Hands", "place": "Place",
        "status": "Status", "last_events": "Last events", "live": "live",
        "final": "final", "provisional": "provisional", "token": "Referee token",
        "penalty": "Penalty or bonus", "points_hint": "points (negative: penalty)",
        "round_latest": "round (latest)",
        "why": "Reason", "send": "Send", "amend": "Amend or strike a hand",
        "target": "Event #", "strike": "strike it", "event_json": "corrected event (JSON)",
        "substitute": "Seat a substitute", "substitute_name": "substitute",
        "from_hand": "from hand", "close": "Close a round", "seat_next": "Seat a round",
        "writes": "Every write", "exports": "Exports", "zero_sum": "Zero-sum check",
        "ok": "every hand, table and round sums to zero", "other_lang": "中文",
        "who": "Who", "what": "What", "when": "When", "saved": "saved",
        "connecting": "connecting…", "from_standings": "from the standings",
        "from_schedule": "fixed schedule", "by": "by",
    },
    "zh": {
        "standings": "排名", "table": "桌", "referee": "裁判台",
        "rank": "名次", "player": "选手", "points": "顺位分", "score": "得分",
        "adjustments": "罚分/奖分", "firsts": "第一名次数", "tables": "局数",
        "round": "轮", "seat": "座位", "hands": "盘数", "place": "名次",
        "status": "状态", "last_events": "最近事件", "live": "实时",
        "final": "已结束", "provisional": "进行中", "token": "裁判令牌",
        "penalty": "罚分或奖分", "points_hint": "分数（负数为罚分）",
        "round_latest": "轮（默认最近一轮）",
        "why": "原因", "send": "提交", "amend": "更正或删除一盘",
        "target": "事件号", "strike": "删除", "event_json": "更正后的事件（JSON）",
        "substitute": "安排替补", "substitute_name": "替补", "from_hand": "从第几盘起",
        "close": "结束一轮", "seat_next": "排座一轮", "writes": "全部写入记录",
        "exports": "导出", "zero_sum": "零和检查", "ok": "每盘、每桌、每轮合计为零",
        "other_lang": "English", "who": "谁", "what": "什么", "when": "时间",
        "saved": "已保存", "connecting": "连接中…", "from_standings": "按排名",
        "from_schedule": "固定赛程", "by": "裁判",
    },
}


def language(query: str | None, accept: str) -> str:
    if query in TEXT:
        return query
    return "zh" if accept.lower().startswith("zh") else "en"


def render(name: str, lang: str, params: dict[str, str]) -> str:
    t = TEXT[lang]
    other = "en" if lang == "zh" else "zh"
    attrs = " ".join(f'data-{k}="{html.escape(str(v))}"' for k, v in params.items()
                     if k in ("round", "table") and str(v).isdigit())
    title = {"standings": t["standings"], "table": t["table"], "referee": t["referee"]}[name]
    body = BODIES[name]
    return f"""<!doctype html>
<html lang="{'zh-CN' if lang == 'zh' else 'en'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mjtable · {html.escape(title)}</title>
<style>{STYLE}</style></head>
<body data-page="{name}" data-lang="{lang}" {attrs}>
<nav><a href="/?lang={lang}">{t['standings']}</a>
 · <a href="/referee?lang={lang}">{t['referee']}</a>
 · <a id="other-lang" href="?lang={other}">{t['other_lang']}</a>
 · <span id="conn">{t['connecting']}</span></nav>
<h1 id="title">{html.escape(title)}</h1>
{body}
<script id="i18n" type="application/json">{_json(t)}</script>
<script src="/static/app.js"></script>
</body></html>"""


def _json(data: object) -> str:
    """JSON inside a <script> element: no "<" that could close it."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


STYLE = """body{font-family:system-ui,"WenQuanYi Micro Hei",sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em}
th{background:#f3f3f3}.tied td{color:#666}nav{margin-bottom:1em}fieldset{margin:.6em 0}
.error{color:#b00}.ok{color:#070}input,select,textarea{margin:.15em}"""

BODIES = {
    "standings": """<table id="standings"><thead></thead><tbody></tbody></table>
<h2 data-t="tables"></h2><div id="tables"></div>
<h2 data-t="adjustments"></h2><ul id="adjustments"></ul>
<h2 data-t="zero_sum"></h2><p id="zero-sum"></p>
<h2 data-t="exports"></h2><p><a href="/export/standings.csv">standings.csv</a> ·
<a href="/export/standings.json">standings.json</a> · <a href="/export/rounds.csv">rounds.csv</a> ·
<a href="/export/rounds.json">rounds.json</a></p>""",
    "table": """<table id="seats"><thead></thead><tbody></tbody></table>
<p><span data-t="hands"></span>: <b id="hands"></b> · <span data-t="status"></span>:
<span id="status"></span></p><h2 data-t="last_events"></h2><ol id="events"></ol>""",
    "referee": """<label><span data-t="token"></span> <input id="token" type="password" size="60"
autocomplete="off"></label> <span id="result" role="status"></span>
<fieldset id="f-penalty"><legend data-t="penalty"></legend>
<select name="player" id="penalty-player"></select>
<input name="round" type="number" min="1" data-ph="round_latest" size="10">
<input name="points" type="number" step="any" data-ph="points_hint">
<input name="why" data-ph="why" size="30"><button data-t="send"></button></fieldset>
<fieldset id="f-amend"><legend data-t="amend"></legend>
<input name="round" type="number" min="1" data-ph="round" size="4">
<input name="table" type="number" min="1" data-ph="table" size="4">
<input name="target" type="number" min="1" data-ph="target" size="6">
<label><input name="strike" type="checkbox"> <span data-t="strike"></span></label>
<textarea name="event" rows="2" cols="40" data-ph="event_json"></textarea>
<input name="why" data-ph="why" size="30"><button data-t="send"></button></fieldset>
<fieldset id="f-substitute"><legend data-t="substitute"></legend>
<input name="round" type="number" min="1" data-ph="round" size="4">
<input name="table" type="number" min="1" data-ph="table" size="4">
<input name="seat" type="number" min="0" max="3" data-ph="seat" size="3">
<input name="substitute" data-ph="substitute_name">
<input name="from_hand" type="number" min="1" data-ph="from_hand" size="4">
<input name="why" data-ph="why" size="30"><button data-t="send"></button></fieldset>
<fieldset id="f-close"><legend data-t="close"></legend>
<input name="round" type="number" min="1" data-ph="round" size="4">
<input name="why" data-ph="why" size="30"><button data-t="send"></button></fieldset>
<fieldset id="f-seat"><legend data-t="seat_next"></legend>
<input name="round" type="number" min="1" data-ph="round" size="4">
<select name="from"><option value="standings" data-t="from_standings"></option>
<option value="schedule" data-t="from_schedule"></option></select>
<input name="why" data-ph="why" size="30"><button data-t="send"></button></fieldset>
<h2 data-t="writes"></h2><table id="writes"><tbody></tbody></table>""",
}

SCRIPT = (Path(__file__).with_name("app.js"))


async def script(request: Request) -> Response:
    return Response(SCRIPT.read_text(encoding="utf-8"), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})
