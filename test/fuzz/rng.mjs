/**
 * A small seeded PRNG (mulberry32): a mutant is a pure function of its seed number, so a finding
 * is reproduced with `npm run fuzz -- --seed N --count 1` on any machine.
 */

/** @typedef {ReturnType<typeof makeRng>} Rng */

/** @param {number} seed */
export function makeRng(seed) {
  let a = (seed >>> 0) ^ 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = {
    /** [0, 1) */
    float: next,
    /** integer in [lo, hi] */
    int: (/** @type {number} */ lo, /** @type {number} */ hi) => lo + Math.floor(next() * (hi - lo + 1)),
    /** true with probability p */
    chance: (/** @type {number} */ p) => next() < p,
    /** @template T @param {readonly T[]} xs @returns {T} */
    pick: (xs) => {
      if (xs.length === 0) throw new Error('pick from an empty list');
      return /** @type {T} */ (xs[Math.floor(next() * xs.length)]);
    },
    /**
     * An item chosen by weight.
     * @template T @param {readonly [number, T][]} table @returns {T}
     */
    weighted: (table) => {
      const total = table.reduce((s, [w]) => s + w, 0);
      let r = next() * total;
      for (const [w, v] of table) if ((r -= w) < 0) return v;
      return /** @type {T} */ (table[table.length - 1]?.[1]);
    },
    /** log-uniform integer in [lo, hi]: as many small values as huge ones */
    logInt: (/** @type {number} */ lo, /** @type {number} */ hi) =>
      Math.round(Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo)))),
  };
  return rng;
}
