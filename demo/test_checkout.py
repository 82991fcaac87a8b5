"""A small, realistic test suite for `./dev demo`: many passing cases, two real failures.

It is what an agent typically runs: a verbose pytest session whose useful part is a
few lines in a lot of noise.
"""

from __future__ import annotations

import logging

import pytest

log = logging.getLogger("checkout")

PRICES = {f"SKU-{i:04d}": round(1.5 + (i % 37) * 0.75, 2) for i in range(400)}


def total(cart: dict[str, int], coupon: str | None = None) -> float:
    amount = sum(PRICES[sku] * qty for sku, qty in cart.items())
    if coupon == "HALF":
        amount /= 2
    if coupon == "TENOFF":
        amount -= 10  # bug: can go negative
    return round(amount, 2)


@pytest.mark.parametrize("sku", sorted(PRICES))
def test_single_item_price(sku: str) -> None:
    log.info("pricing %s", sku)
    assert total({sku: 1}) == PRICES[sku]


@pytest.mark.parametrize("qty", range(1, 41))
def test_quantity_scales(qty: int) -> None:
    assert total({"SKU-0001": qty}) == round(PRICES["SKU-0001"] * qty, 2)


def test_half_coupon() -> None:
    assert total({"SKU-0002": 2}, "HALF") == PRICES["SKU-0002"]


def test_ten_off_never_negative() -> None:
    print("cart: 1 x SKU-0000 at", PRICES["SKU-0000"])
    assert total({"SKU-0000": 1}, "TENOFF") >= 0, "a coupon must not make the total negative"


def test_unknown_sku_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown sku"):
        total({"SKU-9999": 1})
