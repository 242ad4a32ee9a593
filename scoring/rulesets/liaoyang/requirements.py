"""The win requirements, each a named check on one reading; a refusal names the first one failed.

Order (also the order of the refusal): 三门齐, 开门 (闭门胡 only by self-draw), 有幺九, 有横,
手把一 only with 飘和. 七对 needs 三门齐 and 有幺九 only. The shape itself (4 sets and exactly one
pair, or 七对) is checked by the hand engine before any reading exists.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.rulesets.liaoyang.facts import Reading
from scoring.tiles import YAOJIU, is_dragon

NOT_A_SHAPE = ("not a winning shape: Liaoyang needs 4 sets and exactly one pair, or 七对 "
               "(the 混 may stand for any tile)")
HUN_DISCARDED = "discarded a 混 this hand and can no longer win"

SAN_MEN_QI = "三门齐: characters, dots and bamboo must all be present"
KAI_MEN = ("开门: a hand that never made a 吃, 碰, 明杠 or 补杠 (a 暗杠 does not open) may win by "
           "self-draw only (闭门胡)")
YOU_YAO_JIU = "有幺九: needs at least one 1, 9 or honor tile (melds included)"
YOU_HENG = "有横: needs a pung or kong (concealed counts), or else a pair of dragons"
SHOU_BA_YI = ("手把一: all four sets laid down is allowed only with 飘和 (every set a pung or "
              "kong)")


def _san_men_qi(r: Reading) -> bool:
    # a group (and a meld) lies in one suit, so its first tile (as read) names it
    suits = {g.tiles[0] // 9 for g in r.decomposition.groups if g.tiles[0] < 27}
    return len(suits | r.hand.meld_number_suits) == 3


def _kai_men(r: Reading) -> bool:
    return r.is_seven_pairs or r.hand.is_open or r.hand.win.is_self_draw


def _you_yao_jiu(r: Reading) -> bool:
    return not YAOJIU.isdisjoint(r.tiles)


def _you_heng(r: Reading) -> bool:
    if r.is_seven_pairs or r.concealed_pungs:
        return True
    if r.hand.has_identical_meld:
        return True
    pair = r.pair
    return pair is not None and is_dragon(pair.tiles[0])


def _shou_ba_yi(r: Reading) -> bool:
    return r.is_seven_pairs or len(r.hand.melds) < 4 or r.is_all_pungs


REQUIREMENTS: tuple[tuple[str, Callable[[Reading], bool]], ...] = (
    (SAN_MEN_QI, _san_men_qi),
    (KAI_MEN, _kai_men),
    (YOU_YAO_JIU, _you_yao_jiu),
    (YOU_HENG, _you_heng),
    (SHOU_BA_YI, _shou_ba_yi),
)


def failures(reading: Reading) -> list[str]:
    """Every requirement this reading fails, in the order above (empty: the hand may win)."""
    return [reason for reason, ok in REQUIREMENTS if not ok(reading)]


def first_failure(reading: Reading) -> str | None:
    for reason, ok in REQUIREMENTS:
        if not ok(reading):
            return reason
    return None
