"""Tests for the orders service.

Docstrings mention assert x == y and def test_in_docstring(): and
pytest.skip("nope") but none of it counts.
"""
import sys
from decimal import Decimal

import pytest

from shop.orders import Order, OrderError, total  # def test_in_comment(): assert False


@pytest.fixture
def order():
    o = Order(customer="ada")
    assert o.is_open  # a fixture's assertion counts for the file only
    return o


@pytest.fixture(params=["eur", "usd"])
def currency(request):
    return request.param


def test_empty_order_total(order):
    assert total(order) == Decimal("0")


def test_add_item(order):
    order.add("apple", qty=3, price=Decimal("0.50"))
    assert len(order.items) == 1
    assert order.items[0].qty == 3, f"qty was {order.items[0].qty!r}, not {'3'}"
    assert total(order) == pytest.approx(Decimal("1.50"))


@pytest.mark.parametrize(
    "qty, expected",
    [
        (1, Decimal("0.50")),
        (2, Decimal("1.00")),
        pytest.param(0, Decimal("0"), marks=pytest.mark.xfail(reason="zero qty rejected")),
    ],
)
def test_totals(order, qty, expected):
    order.add("apple", qty=qty, price=Decimal("0.50"))
    assert total(order) == expected


def test_negative_qty_raises(order):
    with pytest.raises(OrderError, match="qty"):
        order.add("apple", qty=-1, price=Decimal("1"))


@pytest.mark.skip(reason="refunds not implemented yet")
def test_refund(order):
    order.refund()
    assert order.refunded


@pytest.mark.skipif(sys.platform == "win32", reason="no fork on windows")
def test_parallel_checkout(order):
    assert order.checkout(workers=4)


@pytest.mark.xfail(strict=True)
def test_known_rounding_bug():
    assert round(Decimal("2.675"), 2) == Decimal("2.68")


def test_always_passes():
    assert True
    assert 1 == 1


def test_not_written_yet():
    pass


def test_docstring_only():
    """TODO: write this test."""


async def test_async_submit(order):
    result = await order.submit()
    assert result.ok


def test_requires_network():
    if not sys.flags.dev_mode:
        pytest.skip("needs dev mode")
    assert True is not False


def test_skips_outright():
    pytest.skip("broken upstream")
    assert total(Order()) == 0


class TestDiscounts:
    @pytest.fixture(autouse=True)
    def setup(self, order):
        self.order = order

    def test_percentage(self, currency):
        self.order.add("pear", qty=1, price=Decimal("10"))
        self.order.discount(percent=10)
        assert total(self.order) == Decimal("9")

    def test_code(self):
        message = """
        def test_inside_triple_quotes():
            assert False
        """
        assert "test" in message

    def helper(self):
        assert self.order is not None

    class TestNested:
        def test_inner(self):
            assert r"\d+" != "x"


class Helpers:
    def test_not_collected(self):
        assert False


def helper_test_not_a_test():
    assert 2 + 2 == 4
