"""Newton's law of cooling for a cup of tea: the gap to the room's temperature shrinks by the
same share every minute."""

ROOM = 20.0  # °C
START = 90.0  # °C, just poured
RATE = 0.1  # the share of the gap the tea loses each minute


def temperatures(minutes: int) -> list[float]:
    """The tea's temperature at the end of each minute, from the first."""
    found, now = [], START
    for _ in range(minutes):
        now -= RATE * (now - ROOM)
        found.append(now)
    return found


def minutes_until(target: float) -> int:
    """The first whole minute at whose end the tea is at or below `target`."""
    minute, now = 0, START
    while now > target:
        now -= RATE * (now - ROOM)
        minute += 1
    return minute
