// Shared fast-check arbitraries and reference helpers for the tests of @ftw/replay-pool.
import { fc } from '@fast-check/vitest';
import { expect } from 'vitest';
import type { JsonValue, Trajectory, TrajectoryColumns, TrajectoryInput } from '../src/index.js';

/** Finite doubles including -0, subnormals and extremes; never NaN or ±Infinity. */
export const finiteDouble = (): fc.Arbitrary<number> => fc.double({ noNaN: true, noDefaultInfinity: true });

/** Valid log-probabilities: finite and <= 0, including -0 and -Number.MAX_VALUE. */
export const logProb = (): fc.Arbitrary<number> => fc.double({ noNaN: true, min: -Number.MAX_VALUE, max: 0 });

/** Either the plain array or the same numbers in a typed array of the given constructor. */
function plainOrTyped(
  values: number[],
  Typed: Int32ArrayConstructor | Float64ArrayConstructor | Uint32ArrayConstructor,
  typed: boolean,
): ArrayLike<number> {
  return typed ? new Typed(values) : values;
}

export interface InputOptions {
  /** Largest policy version drawn. */
  readonly maxVersion?: number;
  /** Most steps per trajectory. */
  readonly maxSteps?: number;
}

/** A valid TrajectoryInput: plain or typed arrays, one version or one per step, optional extras. */
export const trajectoryInput = (options: InputOptions = {}): fc.Arbitrary<TrajectoryInput> => {
  const maxVersion = options.maxVersion ?? 20;
  const version = fc.integer({ min: 0, max: maxVersion });
  return fc.integer({ min: 1, max: options.maxSteps ?? 5 }).chain((steps) =>
    fc
      .record(
        {
          actions: fc.array(fc.integer({ min: 0, max: 0x7fff_ffff }), { minLength: steps, maxLength: steps }),
          logProbs: fc.array(logProb(), { minLength: steps, maxLength: steps }),
          versions: fc.oneof(version, fc.array(version, { minLength: steps, maxLength: steps })),
          return: finiteDouble(),
          observations: fc
            .integer({ min: 1, max: 3 })
            .chain((d) => fc.array(finiteDouble(), { minLength: steps * d, maxLength: steps * d })),
          metadata: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>,
          typed: fc.boolean(),
        },
        { requiredKeys: ['actions', 'logProbs', 'versions', 'return', 'typed'] },
      )
      .map(({ typed, actions, logProbs, versions, observations, ...rest }) => ({
        ...rest,
        actions: plainOrTyped(actions, Int32Array, typed),
        logProbs: plainOrTyped(logProbs, Float64Array, typed),
        versions: typeof versions === 'number' ? versions : plainOrTyped(versions, Uint32Array, typed),
        ...(observations === undefined
          ? {}
          : { observations: plainOrTyped(observations, Float64Array, typed) }),
      })),
  );
};

/** The per-step versions of an input, expanded. */
export function versionsOf(input: TrajectoryInput): number[] {
  const { versions, actions } = input;
  return typeof versions === 'number' ? Array.from(actions, () => versions) : Array.from(versions);
}

/** Asserts that `stored` is exactly what the pool must keep for `input` under `sequence`, bit for bit. */
export function expectStored(stored: Trajectory, input: TrajectoryInput, sequence: number): void {
  const versions = versionsOf(input);
  expect(stored.sequence).toBe(sequence);
  expect(stored.length).toBe(input.actions.length);
  expect(stored.actions).toEqual(Int32Array.from(input.actions));
  expect(stored.logProbs).toEqual(Float64Array.from(input.logProbs));
  expect(Array.from(stored.logProbs, (x) => Object.is(x, -0))).toEqual(
    Array.from(input.logProbs, (x) => Object.is(x, -0)),
  );
  expect(stored.versions).toEqual(Uint32Array.from(versions));
  expect(stored.minVersion).toBe(Math.min(...versions));
  expect(stored.maxVersion).toBe(Math.max(...versions));
  expect(Object.is(stored.return, input.return)).toBe(true);
  if (input.observations === undefined) {
    expect(stored.observations).toBeUndefined();
    expect(stored.observationSize).toBe(0);
  } else {
    expect(stored.observations).toEqual(Float64Array.from(input.observations));
    expect(stored.observationSize).toBe(input.observations.length / input.actions.length);
  }
  expect(stored.metadata).toEqual(
    input.metadata === undefined ? undefined : JSON.parse(JSON.stringify(input.metadata)),
  );
}

/** Staleness computed straight from its definition, step by step, for a list with repeats. */
export function referenceStaleness(trajectories: readonly TrajectoryInput[], currentVersion: number) {
  const trajectoryAges: number[] = [];
  const stepAges: number[] = [];
  let multi = 0;
  for (const t of trajectories) {
    const versions = versionsOf(t);
    trajectoryAges.push(currentVersion - Math.min(...versions));
    for (const v of versions) stepAges.push(currentVersion - v);
    if (Math.min(...versions) !== Math.max(...versions)) multi++;
  }
  const summary = (ages: number[]) => ({
    min: Math.min(...ages),
    mean: ages.reduce((a, b) => a + b, 0) / ages.length,
    max: Math.max(...ages),
  });
  return {
    trajectories: trajectories.length,
    steps: stepAges.length,
    trajectoryAge: summary(trajectoryAges),
    stepAge: summary(stepAges),
    multiVersionShare: multi / trajectories.length,
  };
}

/** Everything a columns view reads, as plain arrays (from the view's methods, step by step). */
export function readColumns(steps: TrajectoryColumns) {
  const d = steps.observationSize;
  return {
    length: steps.length,
    observationSize: d,
    return: steps.return,
    minVersion: steps.minVersion,
    maxVersion: steps.maxVersion,
    actions: Array.from({ length: steps.length }, (_, t) => steps.action(t)),
    logProbs: Array.from({ length: steps.length }, (_, t) => steps.logProb(t)),
    versions: Array.from({ length: steps.length }, (_, t) => steps.version(t)),
    observations: Array.from({ length: steps.length * d }, (_, i) =>
      steps.observation(Math.floor(i / d), i % d),
    ),
  };
}

/** The same, straight from the input pushed (the definition of what the pool holds). */
export function expectedColumns(input: TrajectoryInput) {
  const versions = versionsOf(input);
  const length = input.actions.length;
  const observations = input.observations === undefined ? [] : Array.from(input.observations);
  return {
    length,
    observationSize: observations.length / length,
    return: input.return,
    minVersion: Math.min(...versions),
    maxVersion: Math.max(...versions),
    actions: Array.from(input.actions),
    logProbs: Array.from(input.logProbs),
    versions,
    observations,
  };
}
