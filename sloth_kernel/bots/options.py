"""Bot options: each bot class declares its options' ranges once, beside the bot, and this checks them.

A bot class may declare

- ``option_ranges``: option -> ``(low, high)``, inclusive; whole numbers when both ends are ints;
- ``option_help``: option -> a few words on what it means (the refusal quotes them);
- ``option_choices``: option -> the values it may take (e.g. the shapes of a lifter's miss).

``make_bot`` checks every option it is given against them before it builds the bot, and each bot's
``__init__`` calls :func:`check_bot_options` too, so a bot built directly refuses the same values.
``python -m sloth_kernel bench --edges`` measures a decision at each end of each range.
"""

from __future__ import annotations

from typing import Any

from sloth_kernel.errors import ConfigError
from sloth_kernel.notation import shown


def check_bot_options(cls: type, **values: Any) -> None:
    """Refuse any of `values` outside what `cls` declares for it (ConfigError naming the option and the
    values it may take). An option the class declares nothing for is not checked here."""
    ranges: dict[str, tuple[float, float]] = getattr(cls, "option_ranges", {})
    choices: dict[str, tuple[Any, ...]] = getattr(cls, "option_choices", {})
    helps: dict[str, str] = getattr(cls, "option_help", {})
    for name, value in values.items():
        because = f" ({helps[name]})" if name in helps else ""
        if name in ranges:
            low, high = ranges[name]
            whole = type(low) is int and type(high) is int
            kinds: tuple[type, ...] = (int,) if whole else (int, float)
            number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
            if number is None or not isinstance(number, kinds) or not low <= number <= high:  # NaN: never
                kind = "a whole number" if whole else "a number"
                raise ConfigError(
                    f"{name} must be {kind} from {low:g} to {high:g}{because}, not {shown(value)}", value=shown(value)
                )
        if name in choices and not any(type(value) is type(c) and value == c for c in choices[name]):
            raise ConfigError(
                f"{name} must be one of {', '.join(map(str, choices[name]))}{because}, not {shown(value)}",
                value=shown(value),
            )
