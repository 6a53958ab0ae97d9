"""``python -m sloth_kernel table create|show|list|close``: shared tables from the command line.

The store is ``--store`` if given, else ``$SLOTH_TABLES``, else the SQLite file in the user's data
directory. With ``--json`` each command prints exactly one JSON object:

- ``create``: ``{"table": ID, "seats": [{"seat": 0, "kind": "human", "url": URL}, ...], "watch": URL,
  "teacher": URL}`` (a bot seat has no "url"). The seat and teacher URLs hold the only copy of their
  tokens: the store keeps their hashes.
- ``show ID``: ``{"table": ID, "game": NAME, "ply": N, "current_player": SEAT, "over": BOOL,
  "seated": [SEAT, ...]}`` (``current_player`` is null once the game is over; ``seated`` lists the
  human seats with a page open now).
- ``list``: ``{"tables": [<show's object>, ...]}``; ``close ID``: ``{"table": ID, "status": "closed"}``.
"""

from __future__ import annotations

import json
from typing import Any

from sloth_kernel.cli import Parser, UsageError, program
from sloth_kernel.core import seat_name
from sloth_kernel.registry import available_games, game_spec
from sloth_kernel.tables.connect import open_store
from sloth_kernel.tables.store import describe
from sloth_kernel.tables.table import DEFAULT_BASE_URL, Tables


def _options(text: str) -> dict[str, Any]:
    if len(text) > 10_000:
        raise UsageError("--options is a JSON object of at most 10000 characters")
    try:
        options = json.loads(text)
    except RecursionError as err:
        raise UsageError("--options is nested too deeply (keep it to a few levels)") from err
    except ValueError as err:
        raise UsageError(f"--options is not JSON: {err}") from err
    if not isinstance(options, dict):
        raise UsageError(f"--options must be a JSON object, not {type(options).__name__}")
    return options


def parser() -> Parser:
    top = Parser(prog=f"{program()} table", description=__doc__.split("\n")[0].replace("``", ""))
    top.add_argument("--store", default=None, help="the table store (default: $SLOTH_TABLES, else a SQLite file)")
    commands = top.add_subparsers(dest="command", required=True, parser_class=Parser)
    create = commands.add_parser("create", help="make a table and print its seat, watch and teacher URLs")
    create.add_argument("--game", required=True, choices=available_games(), help="a registered game (required)")
    create.add_argument(
        "--seats", required=True, help="each seat's kind, comma-separated: human, bot or bot:LEVEL (required)"
    )
    create.add_argument("--options", default="{}", help="the game's options as a JSON object, e.g. '{\"finish\": 9}'")
    create.add_argument("--base-url", default=DEFAULT_BASE_URL, help=f"the Voila server (default {DEFAULT_BASE_URL})")
    create.add_argument("--json", action="store_true", help="print one JSON object")
    show = commands.add_parser("show", help="a table's move, whose turn, who is seated")
    show.add_argument("table", help="the table's id, as create printed it")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    listing = commands.add_parser("list", help="every table in the store")
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    close = commands.add_parser("close", help="close a table: it takes no more moves")
    close.add_argument("table", help="the table's id, as create printed it")
    close.add_argument("--json", action="store_true", help="print one JSON object")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    with open_store(args.store) as store:
        tables = Tables(store)
        if args.command == "create":
            seats = [seat.strip() for seat in args.seats.split(",")]
            made = tables.create(args.game, seats, options=_options(args.options), base_url=args.base_url)
            if args.json:
                print(json.dumps(made.to_json()))
                return 0
            print(
                f"Table {made.table} ({game_spec(made.game).title}). Each person opens their own link; keep them private."
            )
            for link in made.seats:
                where = link.url if link.url is not None else "played by the computer"
                print(f"  {seat_name(link.seat)} ({link.kind}): {where}")
            print(f"  Watch: {made.watch}")
            print(f"  Teacher: {made.teacher}")
        elif args.command == "show":
            summary = tables.show(args.table)
            print(json.dumps(summary.to_json()) if args.json else summary.sentence())
        elif args.command == "list":
            summaries = tables.list()
            if args.json:
                print(json.dumps({"tables": [summary.to_json() for summary in summaries]}))
            else:
                for summary in summaries:
                    print(summary.sentence())
                if not summaries:
                    print(f"No tables in {describe(store.url)}.")
        else:
            tables.close(args.table)
            print(json.dumps({"table": args.table, "status": "closed"}) if args.json else f"Table {args.table} closed.")
    return 0
