import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ActorCrew, CREW_READY } from './actor-crew.js';
import { ActorsLostError } from './actors-lost-error.js';

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

  it('replaces an actor process that dies, with its current task and the restart count, until its restarts are used up', async () => {
    const launches: [string, number][] = [];
    const crew = new ActorCrew<string, ChildProcess>(
      (task, restart) => {
        launches.push([task, restart]);
        return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        });
      },
      { restarts: 1 },
    );
    try {
      const [first] = crew.assign(['seed 0']);
      crew.assign(['seed 1']);
      const dead = once(first!, 'exit');
      first!.kill('SIGKILL');
      await dead;
      expect(launches).toEqual([
        ['seed 0', 0],
        ['seed 1', 1],
      ]);
      expect(crew.exits).toMatchObject([
        { kind: 'actor-exit', actor: 0, code: null, signal: 'SIGKILL', restart: 1 },
      ]);
      const [second] = crew.assign(['seed 2']);
      expect(second).not.toBe(first);
      second!.kill('SIGKILL');
      await expect(crew.failed).rejects.toThrow(
        new ActorsLostError(
          'actor process 0 exited (SIGKILL) with its restarts used up (1 allowed) before the run ended',
        ),
      );
      expect(crew.exits.map((e) => e.restart)).toEqual([1, null]);
      expect(launches).toHaveLength(2);
    } finally {
      crew.stop();
    }
  });

  it('does not record the exits of the processes it stops, nor replace them', async () => {
    let launches = 0;
    const crew = new ActorCrew<number, ChildProcess>(() => {
      launches++;
      return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
    });
    const [child] = crew.assign([0]);
    const dead = once(child!, 'exit');
    crew.stop();
    await dead;
    expect([launches, crew.exits.length]).toEqual([1, 0]);
    expect(() => new ActorCrew(() => child!, { restarts: -1 })).toThrow(
      'options.restarts must be an integer >= 0, got -1',
    );
  });

  it('sends a process that says it listens (CREW_READY) the task that went out before it did', async () => {
    // The process listens only after 300 ms, then echoes what it gets: the task sent at once is lost.
    const script =
      "setTimeout(() => { process.on('message', (m) => process.send(m)); process.send({ ready: true }); }, 300)";
    const crew = new ActorCrew<string, ChildProcess>(() =>
      spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
    );
    try {
      const [child] = crew.assign(['seed 0']);
      const echoed = new Promise((resolve) =>
        child!.on('message', (m) => {
          if (typeof m === 'object' && m !== null && 'task' in m) resolve(m);
        }),
      );
      crew.assign(['seed 1']);
      expect(await echoed).toEqual({ task: 'seed 1' });
      expect(CREW_READY).toEqual({ ready: true });
    } finally {
      crew.stop();
    }
  });
});
