import { seededStreams } from '@ftw/internal/seeded-streams';
import { describe, expect, it } from 'vitest';
import { ChainEnv } from '../test/chain-env.js';
import { EpisodeCollector } from './episode-collector.js';
import { LinearPolicy } from './linear-policy.js';
import { createOptimizer } from './optimizer.js';
import { PolicyStep } from './policy-step.js';
import { SimulatedActors } from './simulated-actors.js';
import { TabularPolicy } from './tabular-policy.js';

const chain = () => new ChainEnv({ length: 4, limit: 6, encoding: 'id' });

describe('SimulatedActors', () => {
  it('with one actor and lag 0, collects the episodes EpisodeCollector collects from the same stream', () => {
    const policy = new TabularPolicy(2, 4);
    policy.parameters.set([0.3, -0.1, 0, 0.5, 1, -1, 0.2, 0.2]);
    const a = seededStreams(4).policy;
    const b = seededStreams(4).policy;
    const actors = new SimulatedActors([chain()], policy, { lag: 0, hotLoad: 'episode' });
    const collector = new EpisodeCollector(chain(), policy, 3);
    for (let round = 0; round < 5; round++) {
      const batch = actors.collect(3, 0, a);
      const reference = collector.collect(0, b);
      expect(batch.steps).toBe(reference.steps);
      expect(batch.returnSum).toBe(reference.returnSum);
      expect(batch.episodes.map((e) => ({ ...e, observations: Array.from(e.observations) }))).toEqual(
        collector.episodes.map((e) => ({ ...e, observations: Array.from(e.observations) })),
      );
    }
  });

  it.each(['episode', 'step'] as const)(
    'acts with the version lag updates old, loaded per %s, and logs each step’s behaviour under it',
    (hotLoad) => {
      const lag = 2;
      const policy = new TabularPolicy(2, 4);
      const step = new PolicyStep(policy, createOptimizer('sgd', 0.5));
      const actors = new SimulatedActors([chain(), chain(), chain()], policy, { lag, hotLoad });
      const random = seededStreams(9).policy;
      // θ of every version, kept whole: the definition the snapshots must match.
      const thetas = [Float64Array.from(policy.parameters)];
      let version = 0;
      let spanning = 0;
      for (let iteration = 0; iteration < 12; iteration++) {
        const batch = actors.collect(2, version, random);
        const visible = Math.max(0, version - lag);
        for (const e of batch.episodes) {
          // The last step is taken in this call: with per-step loading, by the version visible now.
          if (hotLoad === 'step') expect(e.versions[e.length - 1]).toBe(visible);
          if (new Set(e.versions).size > 1) spanning++;
          for (let t = 0; t < e.length; t++) {
            const v = e.versions[t]!;
            expect(v).toBeLessThanOrEqual(visible);
            if (hotLoad === 'episode') expect(v).toBe(e.versions[0]);
            // log q_v(a | o) from θ_v, by the definition log softmax.
            const z = thetas[v]!.subarray(e.observations[t]! * 2, e.observations[t]! * 2 + 2);
            const logQ = z[e.actions[t]!]! - Math.log(Math.exp(z[0]!) + Math.exp(z[1]!));
            expect(e.logProbs[t]).toBeCloseTo(logQ, 12);
          }
        }
        // An update moving row 1 toward action 1, and row 0 toward action 0.
        step.begin();
        step.apply(Int32Array.of(0, 1), 2, Float64Array.of(-1, 1, 1, -1));
        actors.updated(++version, step.moved());
        thetas.push(Float64Array.from(policy.parameters));
      }
      // Episodes that span versions: only when weights are loaded between steps.
      if (hotLoad === 'step') expect(spanning).toBeGreaterThan(0);
      else expect(spanning).toBe(0);
      const versions = new Set<number>();
      const batch = actors.collect(6, version, random);
      for (const e of batch.episodes) for (const v of e.versions) versions.add(v);
      expect(Math.max(...versions)).toBe(version - lag);
    },
  );

  it('copies vector observations (an environment may hand out the same array every step)', () => {
    const env = new ChainEnv({ length: 4, limit: 6, encoding: 'one-hot' });
    const actors = new SimulatedActors([env], new LinearPolicy(2, 4), { lag: 0, hotLoad: 'episode' });
    const { episodes } = actors.collect(1, 0, seededStreams(2).policy);
    const e = episodes[0]!;
    expect(e.observations.length).toBe(4 * e.length);
    expect(Array.from(e.observations.subarray(0, 4))).toEqual([1, 0, 0, 0]);
    for (let t = 0; t < e.length; t++) {
      expect(Array.from(e.observations.subarray(4 * t, 4 * t + 4)).reduce((s, x) => s + x, 0)).toBe(1);
    }
  });

  it('refuses bad options, naming them', () => {
    const policy = new TabularPolicy(2);
    expect(() => new SimulatedActors([], policy, { lag: 0, hotLoad: 'episode' })).toThrow(
      'envs.length must be an integer >= 1, got 0',
    );
    expect(() => new SimulatedActors([chain()], policy, { lag: -1, hotLoad: 'episode' })).toThrow(
      'lag must be an integer >= 0, got -1',
    );
    expect(() => new SimulatedActors([chain()], policy, { lag: 0, hotLoad: 'never' as never })).toThrow(
      'hotLoad must be one of episode, step, got never',
    );
    expect(() => new SimulatedActors([chain()], new TabularPolicy(3), { lag: 0, hotLoad: 'step' })).toThrow(
      /ACTION_COUNT_MISMATCH/,
    );
  });
});
