import type { ChildProcess } from 'node:child_process';
import type { ActorLauncher, ActorTask, CrewMessage } from './actor-protocol.js';

/**
 * The actor processes of a run over Redis, started once and handed each seed's task in turn, so that a
 * run of many seeds pays their start (Node, the modules, the level set) once rather than once per seed.
 * Actor i is launched with its first task; later tasks reach it as an IPC message ({@link CrewMessage}),
 * and it leaves the pool it acts in for the new one (see `followTasks`). However this process ends, its
 * actors are killed (and each exits by itself when the IPC channel closes).
 *
 * @example
 * ```ts
 * const crew = new ActorCrew(cliLauncher);
 * crew.assign(tasksOfSeed0); // starts the processes
 * crew.assign(tasksOfSeed1); // the same processes move to seed 1's pool
 * crew.stop();
 * ```
 */
export class ActorCrew {
  readonly #launch: ActorLauncher;
  #children: ChildProcess[] = [];
  /** Whether the processes were launched (and the exit handler registered): once per crew until stopped. */
  #launched = false;
  readonly #kill = (): void => {
    for (const child of this.#children) child.kill('SIGKILL');
  };

  /** @param launch - how an actor process starts */
  constructor(launch: ActorLauncher) {
    this.#launch = launch;
  }

  /**
   * Gives actor i task i: launches it the first time, sends it the task afterwards.
   *
   * @param tasks - one task per actor, the same number at every call
   * @returns the actor processes
   * @throws RangeError when the number of tasks changed
   */
  assign(tasks: readonly ActorTask[]): readonly ChildProcess[] {
    if (this.#launched && tasks.length !== this.#children.length) {
      throw new RangeError(`tasks must be one per actor (${this.#children.length}), got ${tasks.length}`);
    }
    if (!this.#launched) {
      this.#children = tasks.map((task) => this.#launch(task));
      this.#launched = true;
      process.on('exit', this.#kill);
    } else {
      // An actor that exited is not written to (the seed's learner finds it gone: ActorsLostError).
      this.#children.forEach((child, i) => {
        if (child.connected) child.send({ task: tasks[i]! } satisfies CrewMessage, () => {});
      });
    }
    return this.#children;
  }

  /** Kills the actor processes. */
  stop(): void {
    this.#kill();
    this.#children = [];
    this.#launched = false;
    process.off('exit', this.#kill);
  }
}
