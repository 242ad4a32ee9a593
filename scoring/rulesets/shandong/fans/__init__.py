"""The 番 items of Shandong, each created once; the evaluator owns order and the 推倒和 rule."""

from scoring.rulesets.shandong.fans.base import Fan
from scoring.rulesets.shandong.fans.shapes import PengPengHe, QiDui, YiTiaoLong
from scoring.rulesets.shandong.fans.suits import HunYiSe, JiangYiSe, QingYiSe
from scoring.rulesets.shandong.fans.timing import DiHe, GangShangKaiHua, TianHe
from scoring.rulesets.shandong.fans.tuidaohe import TuiDaoHe

# 大和 items in the spec's table order; any one of them replaces 推倒和, and they add.
BIG_HANDS: tuple[Fan, ...] = (
    HunYiSe(), YiTiaoLong(), GangShangKaiHua(), PengPengHe(), QiDui(),
    DiHe(), QingYiSe(), JiangYiSe(), TianHe(),
)
SMALL_HAND: Fan = TuiDaoHe()

__all__ = ["BIG_HANDS", "SMALL_HAND", "Fan"]
