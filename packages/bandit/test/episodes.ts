import type { BanditEnv } from '../src/bandit-env.js';

/**
 * Plays `n` one-step episodes with a fixed action and returns their rewards.
 *
 * @param env - the environment
 * @param action - the arm pulled every episode
 * @param n - number of episodes
 * @returns the rewards in order
 */
export function pull(env: BanditEnv, action: number, n: number): Float64Array {
  const rewards = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    env.reset();
    rewards[i] = env.step(action).reward;
  }
  return rewards;
}

/**
 * Plays one episode per action of `actions` and returns the observations and rewards.
 *
 * @param env - the environment
 * @param actions - the arm of each episode
 * @returns observations and rewards in order
 */
export function play(
  env: BanditEnv,
  actions: readonly number[],
): { observations: number[]; rewards: number[] } {
  const observations: number[] = [];
  const rewards: number[] = [];
  for (const action of actions) {
    observations.push(env.reset().observation);
    rewards.push(env.step(action).reward);
  }
  return { observations, rewards };
}

/**
 * Bitwise equality of two number lists (distinguishes −0 from 0, and NaN equals NaN).
 *
 * @param a - first list
 * @param b - second list
 * @returns whether every entry is `Object.is`-equal
 */
export function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
