"""Shanghai patterns, 花 sources, the 杠开/大吊车 floor and the ×2 multipliers, one class each."""

from scoring.rulesets.shanghai.fans.floors import FLOORS, DaDiaoChe, GangKai
from scoring.rulesets.shanghai.fans.flowers import FLOWER_SOURCES, flower_items
from scoring.rulesets.shanghai.fans.multipliers import MULTIPLIERS, HuangFan, KaiBao, MenQing
from scoring.rulesets.shanghai.fans.patterns import (
    PATTERNS,
    BaHuaQi,
    FengPeng,
    FengYiSe,
    HunPeng,
    HunYiSe,
    Pattern,
    PengPengHu,
    QingPeng,
    QingYiSe,
)

__all__ = [
    "FLOORS", "FLOWER_SOURCES", "MULTIPLIERS", "PATTERNS", "BaHuaQi", "DaDiaoChe", "FengPeng",
    "FengYiSe", "GangKai", "HuangFan", "HunPeng", "HunYiSe", "KaiBao", "MenQing", "Pattern",
    "PengPengHu", "QingPeng", "QingYiSe", "flower_items",
]
