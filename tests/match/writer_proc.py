"""A writer process for the crash test: plays seeded hands into a match database forever.

After each committed event it prints ``match seq sha256(body)`` and flushes, so the parent
knows exactly which events it may demand after killing this process with SIGKILL.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from scoring.match import MatchStore
from tests.match.simtable import SimTable


def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    store = MatchStore.open(path)
    ruleset = rng.choice(["shandong", "shanghai", "liaoyang"])
    mid = store.new_match(ruleset, {}, ["a", "b", "c", "d"], rng.randrange(4), who="writer")
    while True:
        match = store.load(mid)
        table = SimTable(rng, ruleset, match.options, match.dealer, match.counters)
        for event in table.play():
            match = store.append_event(mid, event, who="writer")
            row = match.log[-1]
            body = json.dumps(row.event.to_json(), sort_keys=True)
            print(mid, row.seq, hashlib.sha256(body.encode()).hexdigest(), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
