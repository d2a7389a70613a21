/**
 * Draws minibatches of C distinct items from 0..n−1, uniformly without replacement, in O(C) time and
 * with no allocation per minibatch.
 *
 * Method: Floyd's algorithm (Bentley & Floyd, "A sample of brilliance", CACM 1987): for j = n−C..n−1 pick
 * t uniform in 0..j and take t, or j when t is already taken. Membership is an open-addressing hash set
 * of 2C to 4C slots whose slots carry the minibatch's stamp, so it never needs clearing.
 */
export class MinibatchDraw {
  readonly #n: number;
  readonly #batchSize: number;
  readonly #uniform: () => number;
  readonly #keys: Uint32Array;
  readonly #stamps: Uint32Array;
  readonly #mask: number;
  readonly #shift: number;
  #stamp = 0;

  constructor(n: number, batchSize: number, uniform: () => number) {
    this.#n = n;
    this.#batchSize = batchSize;
    this.#uniform = uniform;
    const bits = Math.max(2, Math.ceil(Math.log2(2 * batchSize)));
    this.#keys = new Uint32Array(2 ** bits);
    this.#stamps = new Uint32Array(2 ** bits);
    this.#mask = 2 ** bits - 1;
    this.#shift = 32 - bits;
  }

  /** Fills `out[0..C−1]` with a uniform C-subset of 0..n−1. */
  draw(out: Uint32Array): void {
    if (++this.#stamp === 0x1_0000_0000) {
      this.#stamps.fill(0);
      this.#stamp = 1;
    }
    const n = this.#n;
    for (let j = n - this.#batchSize, k = 0; j < n; j++, k++) {
      const t = Math.floor(this.#uniform() * (j + 1));
      if (this.#insert(t)) {
        out[k] = t;
      } else {
        this.#insert(j);
        out[k] = j;
      }
    }
  }

  /** Adds `key` to the current minibatch's set; false when it was there already. */
  #insert(key: number): boolean {
    const stamp = this.#stamp;
    const keys = this.#keys;
    const stamps = this.#stamps;
    let slot = Math.imul(key, 0x9e3779b1) >>> this.#shift;
    while (stamps[slot] === stamp) {
      if (keys[slot] === key) return false;
      slot = (slot + 1) & this.#mask;
    }
    stamps[slot] = stamp;
    keys[slot] = key;
    return true;
  }
}
