"""Dashboard labels in English and Chinese; tile and scoring-item names stay Chinese in both."""

from __future__ import annotations

WINDS = "东南西北"

_TEXT: dict[str, tuple[str, str]] = {
    # key: (English, 中文)
    "app_title": ("mjtable — mahjong table assistant", "mjtable 麻将桌助手"),
    "seat": ("Seat", "座位"),
    "dealer": ("dealer 庄", "庄家"),
    "waits": ("听 waits", "听牌"),
    "not_ready": ("not ready", "未听牌"),
    "left": ("left", "剩"),
    "melds": ("melds", "副露"),
    "flowers": ("flowers 花", "花牌"),
    "score": ("Score", "计分"),
    "match": ("Match", "比赛"),
    "table": ("Table", "麻将机"),
    "log": ("Log", "记录"),
    "pattern": ("Pattern", "牌型"),
    "item": ("Item", "项目"),
    "value": ("Value", "数值"),
    "note": ("Note", "说明"),
    "share": ("Share", "每份"),
    "payments": ("Payments", "支付"),
    "transfers": ("Who pays whom", "付款明细"),
    "next_dealer": ("Next dealer", "下一庄"),
    "confirm_hand": ("Confirm hand", "确认本局"),
    "load_hand": ("Load hand record…", "载入牌局记录…"),
    "no_hand": ("No finished hand yet.", "尚无完成的牌局。"),
    "cannot_score": ("Cannot score", "无法计分"),
    "new_match": ("New match…", "新比赛…"),
    "open_match": ("Open match…", "打开比赛…"),
    "export": ("Export…", "导出…"),
    "language": ("中文", "English"),
    "ruleset": ("Ruleset", "规则"),
    "options": ("Options", "选项"),
    "option_derived": ("default (from the rules)", "默认（按规则）"),
    "timer": ("Timer", "计时"),
    "timer_enable": ("Referee timer (the ruleset's turn clocks)", "裁判计时（规则的出牌时限）"),
    "timer_tip": ("15 s for 换牌 after the deal, 20 s to discard or to answer a claim",
                  "发牌后换牌15秒，出牌或吃碰杠和20秒"),
    "timer_stop": ("Stop: the player acted", "停止：玩家已操作"),
    "timer_idle": ("no clock running", "未计时"),
    "timer_expired": ("Time is up for seat {}: {}", "{}号座位超时：{}"),
    "players": ("Players", "玩家"),
    "first_dealer": ("First dealer", "首庄"),
    "random": ("random", "随机"),
    "hand": ("Hand", "局"),
    "total": ("Total", "总分"),
    "level": ("Level 等级", "等级"),
    "counters": ("Counters", "计数"),
    "dice": ("Dice", "骰子"),
    "break_wall": ("Break the wall", "开牌位置"),
    "port": ("Port", "端口"),
    "connect": ("Connect", "连接"),
    "disconnect": ("Disconnect", "断开"),
    "simulator": ("simulated table", "模拟麻将机"),
    "shuffle": ("Shuffle", "洗牌"),
    "raise": ("Raise", "升牌"),
    "lower": ("Lower", "降牌"),
    "roll_dice": ("Roll dice", "掷骰"),
    "state": ("State", "状态"),
    "faults": ("Faults", "故障"),
    "audit": ("Audit log", "通信记录"),
    "camera": ("Camera", "摄像头"),
    "camera_ok": ("camera: live", "摄像头：正常"),
    "camera_lost": ("camera: lost, reconnecting", "摄像头：断开，重连中"),
    "camera_off": ("camera: off", "摄像头：关闭"),
    "pick_tile": ("Pick the right tile", "选择正确的牌"),
    "suggestions": ("Suggestions", "建议"),
    "who": ("Who", "操作人"),
    "why": ("Why", "原因"),
    "misread": ("misread", "识别错误"),
    "add_meld": ("Add meld…", "添加副露…"),
    "remove_meld": ("Remove meld", "删除副露"),
    "add_flower": ("Add flower…", "添加花牌…"),
    "remove_flower": ("Remove flower", "删除花牌"),
    "corrections": ("Corrections", "更正记录"),
    "zoom_fit": ("Fit", "适应窗口"),
    "player_n": ("Player {}", "玩家{}"),
    "hidden_tiles": ("{} tiles hidden", "{}张暗牌"),
    "not_shown": ("hand not recorded", "手牌未记录"),
    "not_seen": ("no standing tiles seen", "未看到手牌"),
    "winner": ("wins 和", "和牌"),
    "rules": ("Rules", "规则说明"),
    "table_section": ("Table", "整局"),
    "camera_none": ("camera: none", "摄像头：无"),
    "camera_no_models": ("camera: video only (no models)", "摄像头：仅视频（无模型）"),
    "camera_failed": ("camera: failed", "摄像头：故障"),
    "camera_skipped": ("camera: frames skipped", "摄像头：跳过的帧"),
    "camera_replay": ("camera: replaying the video", "摄像头：重播视频"),
    "camera_ended": ("camera: the video ended", "摄像头：视频已结束"),
    "hand_kept": ("the hand is kept as far as seen; nothing is logged until a person confirms",
                  "本局保留至所见为止；经人确认前不记录"),
    "no_hand_to_correct": ("No hand to correct yet: a recognized win or a loaded record comes "
                           "first.", "尚无可更正的牌局：需先识别和牌或载入记录。"),
    "recognized": ("Hand recognized", "已识别和牌"),
    "showdown_seen_again": ("The camera shows the hand just logged again; not added twice.",
                            "摄像头再次看到刚记录的这手牌；不重复记录。"),
    "not_logged": ("not logged", "未记录"),
    "example_saved": ("Saved as a training example: {}", "已保存为训练样本：{}"),
    "example_not_saved": ("training example not saved", "训练样本未保存"),
    "recognized_pending": ("A win was recognized; confirm or clear the current hand first.",
                           "已识别新的和牌；请先确认或清除当前牌局。"),
    "not_usable": ("Recognized win not usable", "识别的和牌无法使用"),
    "no_match_open": ("No match is open: the hand is scored but not logged.",
                      "未打开比赛：本局已计分但未记录。"),
    "clear_hand": ("Clear", "清除"),
    "hands": ("hands played", "已打局数"),
    "events": ("events", "条记录"),
    "exported": ("Exported to", "已导出到"),
    "draw": ("荒庄 draw", "荒庄"),
    "source": ("from", "来源"),
    "wall_of": ("wall of {}, after {} stacks", "{}的牌墙，跳过{}墩"),
    "identify": ("Identify", "识别"),
    "show_polls": ("show status polls", "显示状态轮询"),
    "rescan_ports": ("List the serial ports again", "重新扫描串口"),
    "how_won": ("Won by", "和牌方式"),
    "how_won_tip": ("The camera cannot see who discarded the winning tile: say it here.",
                    "摄像头看不到谁打出的和张，请在此指定。"),
    "referee_call": ("referee's call", "裁判判定"),
    "recognized_as": ("Hand recognized: {} wins with {}, taken as {}",
                      "已识别和牌：{} 以 {} 和牌，按{}计"),
    "recognized_draw": ("Hand recognized: drawn (the wall played out, no win seen)",
                        "已识别：荒庄（牌墙摸完，未见和牌）"),
    "wall_wait": ("{} roll so far; the rules need another", "已掷{}次，规则需要再掷"),
    "not_connected": ("not connected to a table", "未连接麻将机"),
    "meld_prompt": ("pung:EEE, chow:567m, kong:1111m, ckong:2222p — add @SEAT for the seat it "
                    "was claimed from", "pung:EEE、chow:567m、kong:1111m、ckong:2222p，"
                    "可加 @座位 表示从谁处吃碰"),
    "flower_prompt": ("f1..f8 or 梅兰菊竹春夏秋冬", "f1..f8 或 梅兰菊竹春夏秋冬"),
    "reopen_hint": ("Double-click a hand to reopen it for correction.",
                    "双击某局可重新打开并更正。"),
}

# scoring units and detail keys as a referee reads them (rulesets name themselves: ``label``)
_WORDS: dict[str, tuple[str, str]] = {
    "fan": ("fan", "番"), "hua": ("hua", "花"), "x": ("×", "倍"), "le": ("le", "勒"),
    "point": ("pt", "分"), "cap": ("cap", "封顶"), "count": ("×", "个"), "seat": ("seat", "座"),
    "claims": ("claims", "次"),
    "bao": ("bao", "宝"), "multiplier": ("multiplier", "倍数"), "formula": ("formula", "算式"),
    "reading": ("reading", "拆分"), "readings_tried": ("readings tried", "尝试的拆分"),
    "floors": ("floors", "底"), "chengbao_payer": ("承包 payer", "承包者"),
    "melds": ("melds", "副露"), "hun_stood_for": ("混 stood for", "混代替"),
    "value": ("value", "数值"), "f_w": ("f_w", "f_w"),
    "draw_threshold": ("draw threshold", "流局线"), "bao_tile": ("宝 tile", "宝牌"),
    "indicator": ("indicator", "翻牌"), "hun": ("混", "混"), "jiqiang": ("鸡枪", "鸡枪"),
    "yao": ("幺", "幺"), "losers": ("losers", "输家"), "contracts": ("contracts", "承包"),
    "hun_discarded": ("混 discarded", "打出的混"),
    "huangzhuang_streak": ("荒庄", "荒庄"), "huangfan": ("荒番", "荒番"),
    "offline": ("offline", "离线"), "idle": ("idle", "空闲"), "shuffling": ("shuffling", "洗牌中"),
    "raising": ("raising", "升牌中"), "busy": ("busy", "忙"), "error": ("error", "故障"),
    "connect": ("connect", "连接"), "disconnect": ("disconnect", "断开"),
    "lower": ("lower", "降牌"), "dice": ("dice", "掷骰"), "self_draw": ("self-drawn", "自摸"),
    "discard": ("on a discard", "点炮"),
    "sample": ("the sample hand", "示例"), "camera": ("the camera", "摄像头"),
    "file": ("a file", "文件"), "entered": ("entered", "手动录入"),
}

_lang = 0  # 0 English, 1 Chinese


def set_language(lang: str) -> None:
    global _lang
    if lang not in ("en", "zh"):
        raise ValueError(f"language must be 'en' or 'zh', got {lang!r}")
    _lang = 0 if lang == "en" else 1


_qt_translator: object = None


def install_qt_translations(app: object) -> None:
    """Qt's own words (OK, Cancel, Open, ...) in Chinese when the labels are Chinese."""
    global _qt_translator
    from PySide6.QtCore import QLibraryInfo, QTranslator

    if _qt_translator is not None:
        app.removeTranslator(_qt_translator)  # type: ignore[attr-defined]
        _qt_translator = None
    if _lang == 1:
        translator = QTranslator(app)  # type: ignore[arg-type]
        if translator.load("qtbase_zh_CN",
                           QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            app.installTranslator(translator)  # type: ignore[attr-defined]
            _qt_translator = translator


def system_language() -> str:
    """``zh`` when the system's locale is Chinese (LANG, LC_ALL, or the desktop's), else ``en``."""
    from PySide6.QtCore import QLocale

    return "zh" if QLocale.system().language() == QLocale.Language.Chinese else "en"


def language() -> str:
    return "en" if _lang == 0 else "zh"


def tr(key: str) -> str:
    return _TEXT[key][_lang]


def word(key: str) -> str:
    """A known word (ruleset, unit, detail key, table state) in the language; else itself."""
    from scoring.rulesets.registry import get_ruleset, known_rulesets

    pair = get_ruleset(key).label if key in known_rulesets() else _WORDS.get(key)
    return key if not pair or not pair[_lang] else pair[_lang]


def wind(seat: int, dealer: int) -> str:
    return WINDS[(seat - dealer) % 4]


def default_players() -> list[str]:
    """Names of a match's players before anyone types theirs."""
    return [tr("player_n").format(k + 1) for k in range(4)]


def seat_name(seat: int, dealer: int, players: list[str] | None = None) -> str:
    """The one naming of a seat everywhere on screen: its wind this hand and its player."""
    names = players or default_players()
    return f"{wind(seat, dealer)} {names[seat]}"
