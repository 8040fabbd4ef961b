/**
 * Cart tests. A comment with it('not a test', () => {}) and expect(x).toBe(y).
 */
const { Cart, formatPrice } = require('../src/cart');
const api = require('../src/api');

jest.mock('../src/api');

// test('commented out', () => { expect(1).toBe(2); });

const SLASH = /it\('x'\)\/[/]/g;
const ratio = 10 / 2 / 5;

describe('Cart', () => {
  let cart;

  beforeEach(() => {
    cart = new Cart();
    expect(cart.items).toHaveLength(0);
  });

  it('starts empty', () => {
    expect(cart.total()).toBe(0);
  });

  describe('add', () => {
    it('adds an item', () => {
      cart.add({ sku: 'A', price: 250 });
      expect(cart.items).toEqual([{ sku: 'A', price: 250, qty: 1 }]);
      expect(cart.total()).toBe(250);
    });

    it("increments qty for the same sku", () => {
      cart.add({ sku: 'A', price: 250 });
      cart.add({ sku: 'A', price: 250 });
      expect(cart.items[0].qty).toBe(2);
    });

    test.each([
      [1, 100, '$1.00'],
      [3, 250, '$7.50'],
    ])('formats %i x %i as %s', (qty, price, expected) => {
      expect(formatPrice(qty * price)).toBe(expected);
    });

    it.skip('rejects negative prices', () => {
      expect(() => cart.add({ sku: 'B', price: -1 })).toThrow('price');
    });
  });

  describe.skip('discounts', () => {
    it('applies a percentage', () => {
      cart.add({ sku: 'A', price: 1000 });
      cart.discount('10%');
      expect(cart.total()).toBe(900);
    });

    it('stacks codes', () => {
      expect(cart.codes).toEqual([]);
    });
  });

  describe(`checkout ${'flow'}`, () => {
    it('submits the order', async () => {
      api.submit.mockResolvedValue({ id: 42 });
      cart.add({ sku: 'A', price: 1 });
      const order = await cart.checkout();
      expect(api.submit).toHaveBeenCalledTimes(1);
      expect(order.id).toBe(42);
      const msg = `order ${order.id} placed: ${JSON.stringify({ it: "test('x')" })}`;
      expect(msg).toMatch(/placed/);
    });

    it('rejects an empty cart', async () => {
      expect.assertions(1);
      await expect(cart.checkout()).rejects.toThrow('empty');
    });

    it.todo('retries on network errors');

    it('does nothing', () => {});

    it('passes trivially', () => {
      expect(true).toBe(true);
      expect(1).toEqual(1);
      expect(true).toBeTruthy();
    });
  });
});

xit('legacy behaviour', function () {
  expect(Cart.legacy).toBeDefined();
});

test('top level', function () {
  const c = new Cart();
  expect(c).not.toBeNull();
});
