import { describe, expect, it } from 'vitest';
import type { Episode } from './episode.js';
import { versionSpread } from './version-spread.js';

const episode = (...versions: number[]) =>
  ({ length: versions.length, versions: Uint32Array.from(versions) }) as Pick<Episode, 'versions' | 'length'>;

describe('versionSpread', () => {
  it('sums newest minus oldest version per episode and counts the episodes with more than one', () => {
    expect(versionSpread([episode(3, 3, 4), episode(4), episode(9, 2, 5)])).toEqual({
      spread: 1 + 0 + 7,
      multiVersion: 2,
    });
  });

  it('gives zeros for no episodes', () => {
    expect(versionSpread([])).toEqual({ spread: 0, multiVersion: 0 });
  });
});
