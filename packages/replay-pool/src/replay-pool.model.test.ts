import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { expectStored, referenceStaleness, trajectoryInput, versionsOf } from '../test/arbitraries.js';
import { PoolError } from './pool-error.js';
import { ReplayPool } from './replay-pool.js';
import type { TrajectoryInput } from './trajectory-input.js';

// Model-based test: a plain array holds what the pool should hold; every command runs on both and
// compares. The model knows nothing of rings, mirrors or snapshots.
interface Model {
  readonly capacity: number;
  readonly lag: number | undefined;
  items: { sequence: number; input: TrajectoryInput }[];
  pushed: number;
  evicted: number;
}
interface Real {
  pool: ReplayPool;
}
type Command = fc.Command<Model, Real>;

const dir = mkdtempSync(join(tmpdir(), 'replay-pool-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const newest = (m: Model): number => Math.max(0, ...m.items.flatMap((item) => versionsOf(item.input)));

function expectSame(m: Model, real: Real): void {
  const { pool } = real;
  expect([pool.capacity, pool.maxVersionLag, pool.size, pool.pushedCount, pool.evictedCount]).toEqual([
    m.capacity,
    m.lag,
    m.items.length,
    m.pushed,
    m.evicted,
  ]);
}

class Push implements Command {
  constructor(readonly input: TrajectoryInput) {}
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    expect(real.pool.push(this.input)).toBe(m.pushed);
    m.items.push({ sequence: m.pushed++, input: this.input });
    if (m.items.length > m.capacity) {
      m.items.shift();
      m.evicted++;
    }
    expectSame(m, real);
  }
  toString = (): string =>
    `push(${JSON.stringify({ ...this.input, actions: Array.from(this.input.actions) })})`;
}

const breakages: Record<string, (t: TrajectoryInput) => TrajectoryInput> = {
  'NaN return': (t) => ({ ...t, return: Number.NaN }),
  'lengths differ': (t) => ({ ...t, logProbs: [...Array.from(t.logProbs), -1] }),
  'negative version': (t) => ({ ...t, versions: -1 }),
  'fractional version': (t) => ({ ...t, versions: Array.from(t.actions, () => 0.5) }),
  'positive log-probability': (t) => ({ ...t, logProbs: Array.from(t.logProbs, () => 1e-9) }),
  'NaN log-probability': (t) => ({ ...t, logProbs: Array.from(t.logProbs, () => Number.NaN) }),
  'negative action': (t) => ({ ...t, actions: Array.from(t.actions, () => -1) }),
};

class PushInvalid implements Command {
  constructor(
    readonly input: TrajectoryInput,
    readonly breakage: string,
  ) {}
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    const before = real.pool.toBytes();
    expect(() => real.pool.push(breakages[this.breakage]!(this.input))).toThrow(RangeError);
    expect(real.pool.toBytes()).toEqual(before);
    expectSame(m, real);
  }
  toString = (): string => `pushInvalid(${this.breakage})`;
}

class At implements Command {
  constructor(readonly raw: number) {}
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    if (m.items.length === 0) {
      expect(() => real.pool.at(0)).toThrow(RangeError);
      return;
    }
    const position = this.raw % m.items.length;
    const item = m.items[position]!;
    expectStored(real.pool.at(position), item.input, item.sequence);
    expect(real.pool.positionOf(item.sequence)).toBe(position);
    expect(() => real.pool.at(m.items.length)).toThrow(RangeError);
  }
  toString = (): string => `at(${this.raw})`;
}

class Iterate implements Command {
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    const held = [...real.pool];
    expect(held.length).toBe(m.items.length);
    held.forEach((t, k) => {
      expectStored(t, m.items[k]!.input, m.items[k]!.sequence);
    });
  }
  toString = (): string => 'iterate';
}

class Returns implements Command {
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    const expected = m.items.map((item) => item.input.return);
    for (const returns of [real.pool.returns(), real.pool.returnsView()]) {
      expect(Array.from(returns, (r, k) => Object.is(r, expected[k]))).toEqual(expected.map(() => true));
      expect(returns.length).toBe(expected.length);
    }
  }
  toString = (): string => 'returns';
}

class Selectable implements Command {
  constructor(readonly ahead: number) {}
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    const version = newest(m) + this.ahead;
    if (this.ahead < 0) {
      expect(() => real.pool.selectable(version)).toThrow(RangeError);
      return;
    }
    const positions = m.items.flatMap((item, p) =>
      m.lag === undefined || version - Math.min(...versionsOf(item.input)) <= m.lag ? [p] : [],
    );
    const selectable = real.pool.selectable(version);
    expect(Array.from(selectable.positions)).toEqual(positions);
    expect(selectable.returns).toEqual(Float64Array.from(positions, (p) => m.items[p]!.input.return));
  }
  toString = (): string => `selectable(newest + ${this.ahead})`;
}

class SelectableIndexCommand implements Command {
  constructor(readonly ahead: number) {}
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    const version = newest(m) + this.ahead;
    if (this.ahead < 0) {
      expect(() => real.pool.selectableIndex(version)).toThrow(RangeError);
      return;
    }
    const positions = m.items.flatMap((item, p) =>
      m.lag === undefined || version - Math.min(...versionsOf(item.input)) <= m.lag ? [p] : [],
    );
    const index = real.pool.selectableIndex(version);
    expect(index.size).toBe(positions.length);
    const seen = Array.from({ length: index.size }, (_, k) => index.positionAt(k)).sort((a, b) => a - b);
    expect(seen).toEqual(positions);
    for (let k = 0; k < index.size; k++) {
      expect(Object.is(index.returnAt(k), m.items[index.positionAt(k)]!.input.return)).toBe(true);
    }
  }
  toString = (): string => `selectableIndex(newest + ${this.ahead})`;
}

class Staleness implements Command {
  constructor(
    readonly picks: number[],
    readonly ahead: number,
  ) {}
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    const version = newest(m) + this.ahead;
    if (m.items.length === 0) {
      expect(() => real.pool.staleness(version)).toThrow(expect.objectContaining({ code: 'EMPTY_POOL' }));
      return;
    }
    const inputs = m.items.map((item) => item.input);
    expect(real.pool.staleness(version)).toEqual({
      currentVersion: version,
      distinct: inputs.length,
      ...referenceStaleness(inputs, version),
    });
    const positions = this.picks.map((p) => p % inputs.length);
    expect(real.pool.selectionStaleness(positions, version)).toEqual({
      currentVersion: version,
      distinct: new Set(positions).size,
      ...referenceStaleness(
        positions.map((p) => inputs[p]!),
        version,
      ),
    });
  }
  toString = (): string => `staleness(${JSON.stringify(this.picks)}, newest + ${this.ahead})`;
}

class SaveLoad implements Command {
  constructor(readonly viaRestore: boolean) {}
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    const path = join(dir, `model-${files++}.snap`);
    real.pool.save(path);
    if (this.viaRestore) {
      const other = new ReplayPool({ capacity: 1 });
      other.restore(path);
      real.pool = other;
    } else {
      real.pool = ReplayPool.load(path);
    }
    expectSame(m, real);
  }
  toString = (): string => (this.viaRestore ? 'save + restore' : 'save + load');
}

class RestoreDamaged implements Command {
  constructor(
    readonly truncate: boolean,
    readonly at: number,
  ) {}
  check = (): boolean => true;
  run(m: Model, real: Real): void {
    const bytes = real.pool.toBytes();
    const where = this.at % (this.truncate ? bytes.length : bytes.length * 8);
    const damaged = this.truncate ? bytes.slice(0, where) : bytes.slice();
    if (!this.truncate) damaged[where >> 3]! ^= 1 << (where & 7);
    const path = join(dir, `damaged-${files++}.snap`);
    writeFileSync(path, damaged);
    expect(() => real.pool.restore(path)).toThrow(PoolError);
    expect(() => ReplayPool.load(path)).toThrow(PoolError);
    expect(real.pool.toBytes()).toEqual(bytes);
    expectSame(m, real);
  }
  toString = (): string => `restoreDamaged(${this.truncate ? 'truncate' : 'flip'} at ${this.at})`;
}

const input = trajectoryInput({ maxVersion: 12, maxSteps: 4 });
const commands = [
  input.map((t) => new Push(t)),
  input.map((t) => new Push(t)),
  input.map((t) => new Push(t)),
  fc.tuple(input, fc.constantFrom(...Object.keys(breakages))).map(([t, b]) => new PushInvalid(t, b)),
  fc.nat().map((raw) => new At(raw)),
  fc.constant(new Iterate()),
  fc.constant(new Returns()),
  fc.integer({ min: -1, max: 8 }).map((ahead) => new Selectable(ahead)),
  fc.integer({ min: -1, max: 8 }).map((ahead) => new SelectableIndexCommand(ahead)),
  fc.integer({ min: -1, max: 8 }).map((ahead) => new SelectableIndexCommand(ahead)),
  fc
    .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), fc.nat({ max: 8 }))
    .map(([picks, ahead]) => new Staleness(picks, ahead)),
  fc.boolean().map((viaRestore) => new SaveLoad(viaRestore)),
  fc.tuple(fc.boolean(), fc.nat()).map(([truncate, at]) => new RestoreDamaged(truncate, at)),
];

describe('ReplayPool (model-based)', () => {
  it('behaves like a plain array under any sequence of commands', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
        fc.commands(commands, { maxCommands: 40 }),
        (capacity, lag, cmds) => {
          const setup = () => ({
            model: { capacity, lag, items: [], pushed: 0, evicted: 0 } satisfies Model,
            real: { pool: new ReplayPool({ capacity, maxVersionLag: lag }) },
          });
          fc.modelRun(setup, cmds);
        },
      ),
      { numRuns: 150 },
    );
  });
});
