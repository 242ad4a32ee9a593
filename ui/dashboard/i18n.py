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
}

_lang = 0  # 0 English, 1 Chinese


def set_language(lang: str) -> None:
    global _lang
    if lang not in ("en", "zh"):
        raise ValueError(f"language must be 'en' or 'zh', got {lang!r}")
    _lang = 0 if lang == "en" else 1


def language() -> str:
    return "en" if _lang == 0 else "zh"


def tr(key: str) -> str:
    return _TEXT[key][_lang]


def wind(seat: int, dealer: int) -> str:
    return WINDS[(seat - dealer) % 4]
