import { seededStreams } from '@ftw/internal/seeded-streams';
import { describe, expect, it } from 'vitest';
import { ChainEnv } from '../test/chain-env.js';
import type { Environment } from './environment.js';
import { EpisodeCollector, MAX_EPISODE_STEPS } from './episode-collector.js';
import { LinearPolicy } from './linear-policy.js';
import { TabularPolicy } from './tabular-policy.js';

describe('EpisodeCollector', () => {
  it('records per step the observation, the action, its behaviour log-probability and the version', () => {
    const env = new ChainEnv({ length: 3, limit: 5, encoding: 'one-hot' });
    const policy = new LinearPolicy(2, 3);
    policy.parameters.set([0, 0.5, -1, 0.2, 0, 1]);
    const collector = new EpisodeCollector(env, policy, 2);
    const batch = collector.collect(7, seededStreams(1).policy);
    let steps = 0;
    let returns = 0;
    for (const e of collector.episodes) {
      steps += e.length;
      returns += e.return;
      expect(e.observations.length).toBe(3 * e.length);
      for (let t = 0; t < e.length; t++) {
        const x = Array.from(e.observations.subarray(3 * t, 3 * t + 3));
        // log π(a | x) by the definition: z = W x, log softmax.
        const z = [0, 1].map((a) => x.reduce((s, v, f) => s + v * policy.parameters[a * 3 + f]!, 0));
        const logZ = Math.log(Math.exp(z[0]!) + Math.exp(z[1]!));
        expect(e.logProbs[t]).toBeCloseTo(z[e.actions[t]!]! - logZ, 12);
        expect(e.versions[t]).toBe(7);
      }
    }
    expect(batch.steps).toBe(steps);
    expect(batch.returnSum).toBe(returns);
    expect(batch.regret).toBeNull();
  });

  it('stops an environment that never ends its episodes, with EPISODE_TOO_LONG', () => {
    const endless: Environment = {
      numActions: 2,
      reset: () => 0,
      step: () => ({ observation: 0, reward: 0, terminated: false, truncated: false }),
    };
    const collector = new EpisodeCollector(endless, new TabularPolicy(2), 1);
    expect(() => collector.collect(0, seededStreams(0).policy)).toThrow(
      `EPISODE_TOO_LONG: the environment did not end an episode within ${MAX_EPISODE_STEPS} steps`,
    );
  });

  it('refuses a vector observation of the wrong length, naming both lengths', () => {
    const short: Environment = {
      numActions: 2,
      observationSize: 3,
      reset: () => [1, 0],
      step: () => ({ observation: [0, 1], reward: 0, terminated: true, truncated: false }),
    };
    const collector = new EpisodeCollector(short, new LinearPolicy(2, 3), 1);
    expect(() => collector.collect(0, seededStreams(0).policy)).toThrow(
      "OBSERVATION_SIZE_MISMATCH: observation has 2 numbers, the policy's observationSize is 3",
    );
  });
});
