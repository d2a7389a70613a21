// Test-only seeded uniforms: two independent xoroshiro128+ streams of one seed (the runner's layout, so
// that tests here and there draw the same numbers).
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Uniform streams on [0, 1) for actions (`policy`) and minibatches (`selection`). */
export interface SeededStreams {
  readonly policy: () => number;
  readonly selection: () => number;
}

/**
 * @param seed - an integer
 * @returns the two streams of the seed
 */
export function seededStreams(seed: number): SeededStreams {
  const policyGenerator = xoroshiro128plus(seed);
  policyGenerator.jump();
  const selectionGenerator = policyGenerator.clone();
  selectionGenerator.jump();
  return {
    policy: () => uniformFloat64(policyGenerator),
    selection: () => uniformFloat64(selectionGenerator),
  };
}
