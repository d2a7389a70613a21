import { describe, expect, it } from 'vitest';
import { ActorCrew } from './actor-crew.js';

describe('ActorCrew', () => {
  it('with no actors (--actors 0) over many seeds, registers its exit handler once and launches nothing', () => {
    let launches = 0;
    const crew = new ActorCrew<number>(() => {
      launches++;
      throw new Error('no actor should start');
    });
    const before = process.listenerCount('exit');
    for (let seed = 0; seed < 12; seed++) expect(crew.assign([])).toEqual([]);
    expect(process.listenerCount('exit')).toBe(before + 1);
    expect(launches).toBe(0);
    crew.stop();
    expect(process.listenerCount('exit')).toBe(before);
  });
});
