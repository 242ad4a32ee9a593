"""`mjtable score FILE|-`: score a hand record and show the working (or the settlement JSON)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scoring import score
from scoring.jsonlimits import read_json_file
from scoring.record import load_record
from scoring.report import format_settlement

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "hand.json"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score a hand record (JSON; '-' reads stdin)",
                       description="Validate a hand record and print its settlement.")
    p.add_argument("file", nargs="?", default=str(SAMPLE),
                   help="hand record JSON, or '-' for stdin (default: the bundled sample)")
    p.add_argument("--json", action="store_true", help="print the settlement object as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    record = load_record(read_json_file(args.file))
    settlement = score(record)
    if args.json:
        print(json.dumps(settlement.to_json(), ensure_ascii=False, indent=2))
    else:
        print(format_settlement(settlement, dealer=record.dealer))
    return 0
