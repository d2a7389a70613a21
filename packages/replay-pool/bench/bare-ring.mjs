// Rings for bench/index.mjs, all of capacity N with no validation, no sequence ids, no counters and no
// returns mirror. The two floors: ReferenceRing (stores the input objects themselves: the least any ring
// can do) and TypedCopyRing (copies the same numbers into preallocated typed columns: the least a pool
// that does not alias its caller's arrays can do). The other two build per-record objects as a pool
// might, for scale.

/** Bytes per shared slab, as in the pool's column arena. */
const SLAB_BYTES = 1 << 18;

/** Stores the same records as the pool, built the same way: typed-array views into shared slabs. */
export class SameRecordRing {
  constructor(capacity) {
    this.items = new Array(capacity).fill(undefined);
    this.capacity = capacity;
    this.tail = 0;
    this.slab = new ArrayBuffer(SLAB_BYTES);
    this.used = 0;
  }

  push(t) {
    const steps = t.actions.length;
    if (this.used + 16 * steps > SLAB_BYTES) {
      this.slab = new ArrayBuffer(SLAB_BYTES);
      this.used = 0;
    }
    const at = this.used;
    const logProbs = new Float64Array(this.slab, at, steps);
    const actions = new Int32Array(this.slab, at + 8 * steps, steps);
    const versions = new Uint32Array(this.slab, at + 12 * steps, steps);
    this.used = at + 16 * steps;
    for (let i = 0; i < steps; i++) logProbs[i] = t.logProbs[i];
    for (let i = 0; i < steps; i++) actions[i] = t.actions[i];
    for (let i = 0; i < steps; i++) versions[i] = t.versions[i];
    this.items[this.tail] = { actions, logProbs, versions, return: t.return };
    this.tail = this.tail + 1 === this.capacity ? 0 : this.tail + 1;
  }
}

/** Stores records whose columns are freshly allocated typed arrays (one ArrayBuffer each). */
export class FreshArrayRing {
  constructor(capacity) {
    this.items = new Array(capacity).fill(undefined);
    this.capacity = capacity;
    this.tail = 0;
  }

  push(t) {
    this.items[this.tail] = {
      actions: new Int32Array(t.actions),
      logProbs: new Float64Array(t.logProbs),
      versions: new Uint32Array(t.versions),
      return: t.return,
    };
    this.tail = this.tail + 1 === this.capacity ? 0 : this.tail + 1;
  }
}

/** Stores only the input object references. */
export class ReferenceRing {
  constructor(capacity) {
    this.items = new Array(capacity).fill(undefined);
    this.capacity = capacity;
    this.tail = 0;
  }

  push(t) {
    this.items[this.tail] = t;
    this.tail = this.tail + 1 === this.capacity ? 0 : this.tail + 1;
  }
}

/**
 * Copies each trajectory's numbers (actions as int32, log-probabilities as float64, versions as uint32,
 * the return as float64) into columns allocated once, slot k at offset k · maxSteps, and records its
 * length: the same bytes the pool keeps, with no object per record.
 */
export class TypedCopyRing {
  constructor(capacity, maxSteps) {
    this.capacity = capacity;
    this.maxSteps = maxSteps;
    this.actions = new Int32Array(capacity * maxSteps);
    this.logProbs = new Float64Array(capacity * maxSteps);
    this.versions = new Uint32Array(capacity * maxSteps);
    this.lengths = new Uint32Array(capacity);
    this.returns = new Float64Array(capacity);
    this.tail = 0;
  }

  push(t) {
    const steps = t.actions.length;
    const at = this.tail * this.maxSteps;
    const { actions, logProbs, versions } = this;
    for (let i = 0; i < steps; i++) actions[at + i] = t.actions[i];
    for (let i = 0; i < steps; i++) logProbs[at + i] = t.logProbs[i];
    for (let i = 0; i < steps; i++) versions[at + i] = t.versions[i];
    this.lengths[this.tail] = steps;
    this.returns[this.tail] = t.return;
    this.tail = this.tail + 1 === this.capacity ? 0 : this.tail + 1;
  }
}
