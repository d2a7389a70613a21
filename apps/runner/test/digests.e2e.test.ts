import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNNER } from './build-cli.js';

// @ts-expect-error: a plain ES module script without declarations (typed by its JSDoc)
const { computeDigests } = await import('../scripts/digests.mjs');

/** Digests of the CLI's results from the code before the training loop moved into @ftw/trainer. */
const PINNED = JSON.parse(readFileSync(join(RUNNER, 'scripts', 'digests.json'), 'utf8')) as Record<
  string,
  Record<string, string>
>;

describe('ftw results', () => {
  // The cheap runs of scripts/digests.mjs (a few seconds in all); `node scripts/digests.mjs --check` runs
  // every one, the Redis-backed async comparison included.
  const cheap = ['reproduce', 'compare-sokoban', 'train-sokoban-linear', 'train-ppo-is-lag'];

  it('are the same bit for bit as before the move (reproduce, sokoban, a lagged PPO)', async () => {
    const digests = (await computeDigests(cheap)) as Record<string, Record<string, string>>;
    for (const name of cheap) expect(digests[name], name).toEqual(PINNED[name]);
  }, 120_000);
});
