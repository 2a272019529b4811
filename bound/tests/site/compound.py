"""Savings that compound monthly: the tiny package the test site's pages run.

It stands for any project's code: the pages quote its numbers, and the tests change `RATE` to
see the build name every number that moved and `bound-numbers renumber` bring them back.
"""

from __future__ import annotations

RATE = 0.06  # the yearly rate the bank quotes
MONTHS = 12  # interest is paid this many times a year, a share of the rate each time


def monthly_rate(rate: float = RATE) -> float:
    """What one month's interest adds, as a share of the balance."""
    return rate / MONTHS


def balances(deposit: float, months: int = MONTHS, rate: float = RATE) -> list[float]:
    """The balance at the end of each month, the interest of each month left in to earn more."""
    grown, balance = [], deposit
    for _ in range(months):
        balance *= 1 + monthly_rate(rate)
        grown.append(balance)
    return grown


def doubling(rate: float = RATE) -> int:
    """The first month whose closing balance is at least twice the deposit."""
    month, balance = 0, 1.0
    while balance < 2:
        month, balance = month + 1, balance * (1 + monthly_rate(rate))
    return month
