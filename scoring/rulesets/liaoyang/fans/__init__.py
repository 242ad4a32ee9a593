"""The 番 items of Liaoyang, each created once, in the spec's order; the evaluator adds them."""

from scoring.rulesets.liaoyang.fans.base import LoserFan, WinnerFan
from scoring.rulesets.liaoyang.fans.closed import ShuJiaBiMen, YingJiaBiMen
from scoring.rulesets.liaoyang.fans.dragons import DaGeDa, DaGeDaLoser
from scoring.rulesets.liaoyang.fans.kongs import AnGang, AnGangLoser, MingGang, MingGangLoser
from scoring.rulesets.liaoyang.fans.seat import ZhuangJia, ZhuangJiaLoser
from scoring.rulesets.liaoyang.fans.shapes import PiaoHe, QiDui, ShouBaYi
from scoring.rulesets.liaoyang.fans.tiles import ErBaZhang, JiQiang, JiQiangLoser, SiGuiYi, SuHu
from scoring.rulesets.liaoyang.fans.win_way import (
    DianPao,
    FanTan,
    GangKai,
    HaiDiLao,
    QiangGang,
    ZiMo,
)

WINNER_FANS: tuple[WinnerFan, ...] = (
    ZhuangJia(), ZiMo(), YingJiaBiMen(), DaGeDa(), HaiDiLao(), QiangGang(), SiGuiYi(),
    AnGang(), MingGang(), SuHu(), ErBaZhang(), JiQiang(),
    GangKai(), PiaoHe(), ShouBaYi(), QiDui(),
)
LOSER_FANS: tuple[LoserFan, ...] = (
    ZhuangJiaLoser(), DianPao(), FanTan(), ShuJiaBiMen(), DaGeDaLoser(),
    MingGangLoser(), AnGangLoser(), JiQiangLoser(),
)

__all__ = ["LOSER_FANS", "WINNER_FANS", "LoserFan", "WinnerFan"]
