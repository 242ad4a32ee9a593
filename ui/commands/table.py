"""``mjtable table``: drive an automatic table, or run a simulated one.

A thin layer over ``hardware.open_table`` and ``hardware.start_simulator``::

    mjtable table simulate [--pty | --tcp PORT] [--faults SPEC] [--seed N] [--speed X]
    mjtable table --port URL [--json] identify|status|shuffle|raise|lower|dice|count N|hide|
                                      stop|monitor
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from typing import Any

from ui.commands._numbers import SEED, number

ACTIONS = ("identify", "status", "shuffle", "raise", "lower", "dice", "count", "hide", "stop",
           "monitor")


def register(subparsers: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    _add_common(common, argparse.SUPPRESS)
    p = subparsers.add_parser(
        "table", help="drive an automatic table over serial, or simulate one",
        description="Talk to an automatic mahjong table (any pyserial URL: /dev/ttyUSB0, COM3, "
                    "socket://host:port, rfc2217://...), or run a simulated table.")
    _add_common(p, None)
    actions = p.add_subparsers(dest="action", metavar="ACTION")

    sim = actions.add_parser("simulate", help="serve a simulated table; prints its URL first")
    where = sim.add_mutually_exclusive_group()
    where.add_argument("--pty", action="store_true", help="a pseudo-terminal (default)")
    where.add_argument("--tcp", type=number(int, 0, 65535), metavar="PORT",
                       help="a TCP port (0: any free one)")
    sim.add_argument("--faults", default="", metavar="SPEC",
                     help="e.g. drop=0.01,corrupt=0.02,duplicate=0.01,delay=0.05@0.2,jam=0.1,"
                          "unplug=5:2")
    sim.add_argument("--seed", type=SEED, default=None, metavar="N",
                     help="seed for dice and faults (default: random)")
    sim.add_argument("--speed", type=number(float, 0, 10_000, above=True), default=1.0, metavar="X",
                     help="time factor: 10 makes a 12 s shuffle take 1.2 s")
    sim.add_argument("--tile-count", type=number(int, 1, 1000), default=144, metavar="N",
                     help="tiles loaded at start (default 144)")
    sim.add_argument("--protocol", default=argparse.SUPPRESS, help="default or smart")
    sim.set_defaults(func=_simulate)

    for name, text in (("identify", "model, firmware and tile count"),
                       ("status", "state, tiles, fault and counters"),
                       ("shuffle", "shuffle and wait until done"),
                       ("raise", "raise the walls and wait"), ("lower", "lower the walls and wait"),
                       ("dice", "roll the dice and print them"), ("stop", "abort; clear fault"),
                       ("count", "set the tile count"), ("hide", "hide (or --show) the tiles"),
                       ("monitor", "print events and state changes until Ctrl-C")):
        a = actions.add_parser(name, help=text, parents=[common])
        if name == "count":
            a.add_argument("n", type=number(int, 1, 1000), help="tiles in play, e.g. 136 or 144")
        if name == "hide":
            a.add_argument("--show", action="store_true", help="show the tiles again")
        if name == "dice":
            a.add_argument("--seat", type=number(int, 1, 4), default=None,
                           help="seat 1-4 (smart protocol)")
        if name in ("shuffle", "raise", "lower", "dice", "hide"):
            a.add_argument("--no-wait", action="store_true", help="return after the ACK")
        if name == "monitor":
            a.add_argument("--seconds", type=number(float, 0, 10**7, unit="seconds"), default=None,
                           help="stop after this long")
            a.add_argument("--frames", action="store_true", help="also print every frame")
        a.set_defaults(func=_drive)
    p.set_defaults(func=lambda args: _usage(p))


def _add_common(p: argparse.ArgumentParser, default: Any) -> None:
    def d(value: Any) -> Any:
        return value if default is None else default
    p.add_argument("--port", default=d(os.environ.get("MJTABLE_TABLE_PORT")), metavar="URL",
                   help="device path or pyserial URL (default: $MJTABLE_TABLE_PORT)")
    p.add_argument("--protocol", default=d("default"), help="default or smart")
    p.add_argument("--json", action="store_true", default=d(False), help="print JSON")
    p.add_argument("--timeout", type=number(float, 0, 86_400, above=True, unit="seconds"),
                   default=d(120.0), metavar="S",
                   help="longest wait for a motion (default 120)")
    p.add_argument("--ack-timeout", type=number(float, 0, 60, above=True, unit="seconds"),
                   default=d(0.3), metavar="S",
                   help="first wait for a reply before retrying (default 0.3)")
    p.add_argument("--audit", default=d(None), metavar="FILE",
                   help="append every frame in/out, in hex, to FILE")


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


def _simulate(args: argparse.Namespace) -> int:
    from hardware import start_simulator

    sim = start_simulator(link="tcp" if args.tcp is not None else "pty", port=args.tcp or 0,
                          protocol=args.protocol, faults=args.faults, seed=args.seed,
                          speed=args.speed, tile_count=args.tile_count)
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        print(sim.url, flush=True)
        print(f"simulated table: {args.protocol} protocol, speed {args.speed:g}, faults "
              f"{sim.faults.describe()}; Ctrl-C to stop", file=sys.stderr, flush=True)
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sim.stop()
    return 0


def _drive(args: argparse.Namespace) -> int:
    from hardware import AuditLog, TableDriver, TableError
    from ui.cli import CommandError

    if not args.port:
        raise CommandError("no table port: give --port URL (or set MJTABLE_TABLE_PORT)")
    audit = AuditLog(args.audit) if args.audit else None
    table = TableDriver(args.port, args.protocol, ack_timeout=args.ack_timeout,
                        op_timeout=args.timeout, audit=audit,
                        reconnect=args.action == "monitor")
    if args.action == "monitor":
        _subscribe(table, args)  # before start, so "connected" is not missed
    try:
        table.start()
    except TableError as exc:
        raise CommandError(str(exc)) from None
    try:
        result = _run(table, args)
    except TableError as exc:
        raise CommandError(str(exc)) from None
    finally:
        table.close()
        if audit is not None:
            audit.close()
    if result is not None:
        _print(result, args.json)
    return 0


def _run(table: Any, args: argparse.Namespace) -> tuple[dict[str, Any], str] | None:
    a = args.action
    wait = not getattr(args, "no_wait", False)
    if a == "identify":
        info = table.identify() if table.protocol.reports_status else table.info
        return info.to_dict(), (f"model: {info.model}\nfirmware: {info.firmware}\n"
                                f"tile count: {info.tile_count}\n"
                                f"protocol: {info.protocol} v{info.protocol_version}")
    if a == "status":
        st = table.status()
        return st.to_dict(), _status_text(st)
    if a == "monitor":
        _wait(args.seconds)
        return None
    if a == "dice":
        dice = table.roll_dice(wait=wait, seat=args.seat)
        if dice is None:
            return {"dice": None}, "dice rolled (values not reported; read them with the camera)"
        return {"dice": list(dice)}, f"dice: {dice[0]} {dice[1]}"
    if a == "count":
        table.set_tile_count(args.n)
        return {"tile_count": args.n}, f"tile count set to {args.n}"
    if a == "stop":
        table.stop()
        return {"ok": True}, "stopped"
    st = {"shuffle": table.shuffle, "raise": table.raise_tiles, "lower": table.lower_tiles,
          "hide": lambda wait: table.hide_tiles(not args.show, wait=wait)}[a](wait=wait)
    word = {"shuffle": "shuffle", "raise": "raise", "lower": "lower",
            "hide": "show" if a == "hide" and args.show else "hide"}[a]
    done = "done" if wait and st is not None else "started"
    text = f"{word} {done}" + (f" (shuffles: {st.shuffles})" if st and a == "shuffle" else "")
    return {"ok": True, "done": done == "done", "status": st.to_dict() if st else None}, text


def _status_text(st: Any) -> str:
    tiles = ("raised" if st.tiles_raised else "lowered") + (", hidden" if st.tiles_hidden else "")
    fault = "none" if st.fault.name == "NONE" else \
        f"{st.fault.name.lower().replace('_', ' ')} ({st.severity.name.lower()})"
    dice = f"  last dice: {st.dice[0]} {st.dice[1]}" if st.dice else ""
    lid = "\nlid: open" if st.lid_open else ""
    return (f"state: {st.state.value}\ntiles: {tiles}\ntile count: {st.tile_count}\n"
            f"fault: {fault}{lid}\nshuffles: {st.shuffles}  rolls: {st.rolls}{dice}")


def _subscribe(table: Any, args: argparse.Namespace) -> None:
    lock = threading.Lock()

    def out(obj: dict[str, Any], text: str) -> None:
        with lock:
            if args.json:
                print(json.dumps(obj), flush=True)
            else:
                print(f"{time.strftime('%H:%M:%S')}  {text}", flush=True)

    table.on_state(lambda s: out({"state": s.value, "at": time.time()}, f"state {s.value}"))
    table.on_event(lambda e: out(e.to_dict(), f"event {e.describe()}"))
    if args.frames:
        table.audit.add_sink(lambda e: out({"frame": e.to_dict()}, e.line()))


def _wait(seconds: float | None) -> None:
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.1 if deadline is None else max(0.0, min(0.1, deadline - time.monotonic())))
    except KeyboardInterrupt:
        pass


def _print(result: tuple[dict[str, Any], str], as_json: bool) -> None:
    obj, text = result
    print(json.dumps(obj) if as_json else text)
