"""The long fuzz run: the CI suite's targets (tests/fuzz/targets.py), many more cases.

Run: ``python bench/fuzz.py [--cases 100000] [--seed 1] [--target record ...]``. Prints the
cases tried per target, the crashes (an exception other than the target's own error types,
first few shown with the input that caused them) and the hangs (a case over ``--hang`` seconds,
5 by default, interrupted by a timer), then the rate. Exits 1 if anything crashed or hung.

Goal (issue 19): ``--cases 100000``: 0 crashes, 0 hangs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzz.targets import TARGETS, Target


class Hang(BaseException):
    """Raised by the alarm in a case that runs past the limit."""


def mutate(rng: random.Random, data: bytes) -> bytes:
    """A few random edits: flip a bit, cut, duplicate a run, insert junk, splice a number."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not out:
            out += rng.randbytes(rng.randint(1, 16))
            continue
        i = rng.randrange(len(out))
        op = rng.randrange(6)
        if op == 0:
            out[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            del out[i:i + rng.randint(1, 32)]
        elif op == 2:
            out[i:i] = out[i:i + rng.randint(1, 64)] * rng.randint(1, 8)
        elif op == 3:
            out[i:i] = rng.randbytes(rng.randint(1, 8))
        elif op == 4:
            out[i:i] = str(rng.choice([0, -1, 2**31, 2**63, 10**18, 10**19, 10**40])).encode()
        else:
            out[i] = rng.choice(b'[]{}",:0123456789-eE.ntfu\\')
    return bytes(out)


def hostile(rng: random.Random, seed: bytes) -> bytes:
    """A valid JSON object with one value made hostile: deep, huge, odd type, NaN."""
    try:
        obj = json.loads(seed)
    except ValueError:
        return mutate(rng, seed)
    if not isinstance(obj, dict) or not obj:
        return mutate(rng, seed)
    node = obj
    while True:  # walk down a random path
        key = rng.choice(sorted(node))
        child = node[key]
        if isinstance(child, dict) and child and rng.random() < 0.6:
            node = child
            continue
        break
    depth = rng.choice([2, 40, 1000, 100_000])
    node[key] = rng.choice([
        None, True, -1, 0, 2**63, -(10**30), 10**4000, 1e308, float("nan"), float("inf"), "",
        "x" * 10_000, [], {}, [None] * 50, {"type": None}, rng.random(),
        "[" * depth, [[[[]]]], "🀄" * 20, "\udcff",
    ])
    try:
        text = json.dumps(obj, allow_nan=True)
    except (ValueError, OverflowError):  # 10**4000 has too many digits for str()
        text = json.dumps(obj, default=str)
    if isinstance(node[key], str) and node[key].startswith("[["):
        text = text.replace(json.dumps(node[key]), node[key] + "]" * rng.choice([0, depth]))
    return text.encode("utf-8", "surrogatepass")


def case(rng: random.Random, target: Target) -> bytes:
    kind = rng.random()
    seed = rng.choice(target.seeds)
    if kind < 0.1:
        return rng.randbytes(rng.randint(0, 600))
    if kind < 0.45 and seed[:1] in (b"{", b"["):
        return hostile(rng, seed)
    return mutate(rng, seed)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=100_000, help="cases in all (default 100000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hang", type=float, default=5.0, help="seconds that make a case a hang")
    ap.add_argument("--target", action="append", choices=[t.name for t in TARGETS],
                    help="only these targets (default: all, in turn)")
    ap.add_argument("--show", type=int, default=5, help="crashes to print in full")
    ap.add_argument("--save", type=Path, help="write each crashing or hanging input here")
    ap.add_argument("--decoder-noise", action="store_true",
                    help="keep libpng/libjpeg's complaints about broken images on stderr")
    args = ap.parse_args()
    if not args.decoder_noise:  # the C decoders print every broken image they are given
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
    targets = [t for t in TARGETS if not args.target or t.name in args.target]
    rng = random.Random(args.seed)
    tried: Counter[str] = Counter()
    crashes: Counter[str] = Counter()
    hangs: Counter[str] = Counter()
    accepted: Counter[str] = Counter()  # cases that passed every check (the rest: refused)
    slowest: dict[str, float] = {t.name: 0.0 for t in targets}
    shown = 0

    def alarm(*_: object) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    t0 = time.perf_counter()
    try:
        for n in range(args.cases):
            target = targets[n % len(targets)]
            data = case(rng, target)
            tried[target.name] += 1
            signal.setitimer(signal.ITIMER_REAL, args.hang)
            start = time.perf_counter()
            try:
                target.run(data)
                accepted[target.name] += 1
            except target.allowed:
                pass
            except Hang:
                hangs[target.name] += 1
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / f"hang-{target.name}-{n}.bin").write_bytes(data)
                print(f"HANG {target.name} (case {n}): {data[:200]!r}", flush=True)
            except Exception as exc:
                crashes[f"{target.name}: {type(exc).__name__}"] += 1
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / f"crash-{target.name}-{n}.bin").write_bytes(data)
                if shown < args.show:
                    shown += 1
                    where = traceback.extract_tb(exc.__traceback__)[-1]
                    print(f"CRASH {target.name}: {type(exc).__name__}: {str(exc)[:200]} "
                          f"({Path(where.filename).name}:{where.lineno})\n"
                          f"  input ({len(data)} bytes): {data[:300]!r}", flush=True)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                slowest[target.name] = max(slowest[target.name], time.perf_counter() - start)
    finally:
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - t0
    total = sum(tried.values())
    for name, count in sorted(tried.items()):
        crashed = sum(v for k, v in crashes.items() if k.startswith(name + ":"))
        print(f"{name:<12} {count:>8} cases ({accepted[name]:>6} accepted)  {crashed:>4} crashes"
              f"  {hangs[name]:>3} hangs  slowest case {slowest[name]:.3f} s")
    for what, count in sorted(crashes.items()):
        print(f"  crash kind {what}: {count}")
    print(f"cases tried: {total}; crashes found: {sum(crashes.values())}; hangs (> {args.hang:g} "
          f"s): {sum(hangs.values())}; {elapsed:.1f} s, {total / max(elapsed, 1e-9):.0f} "
          "cases/s")
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
