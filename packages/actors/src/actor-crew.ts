/**
 * What a crew needs of an actor process (a `ChildProcess` of `node:child_process` started with an IPC
 * channel fits), so that these types need no Node type declarations.
 */
export interface ActorProcess {
  /** Whether its IPC channel is open. */
  readonly connected: boolean;
  /** Its exit code once it exited, else null. */
  readonly exitCode: number | null;
  /** The signal that ended it, else null. */
  readonly signalCode: string | null;
  kill(signal: 'SIGKILL'): boolean;
  send(message: unknown, callback: (error: Error | null) => void): boolean;
}

/** What a crew sends an actor process that already runs: its next task. */
export interface CrewMessage<T> {
  readonly task: T;
}

/**
 * Actor processes started once and handed task after task (e.g. one pool per seed of a run), so that a
 * run of many tasks pays their start (Node, the modules, the environment's data) once. Actor i is launched
 * with its first task; later tasks reach it as an IPC message ({@link CrewMessage}). However this process
 * ends, its actors are killed (and each should exit by itself when its IPC channel closes).
 *
 * @example
 * ```ts
 * const crew = new ActorCrew((task) => spawn(process.execPath, ['actor.js'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { TASK: JSON.stringify(task) } }));
 * crew.assign(tasksOfSeed0); // starts the processes
 * crew.assign(tasksOfSeed1); // the same processes move on
 * crew.stop();
 * ```
 */
export class ActorCrew<T, P extends ActorProcess = ActorProcess> {
  readonly #launch: (task: T) => P;
  #children: P[] = [];
  #launched = false;
  readonly #kill = (): void => {
    for (const child of this.#children) child.kill('SIGKILL');
  };

  /** @param launch - how an actor process starts with its first task */
  constructor(launch: (task: T) => P) {
    this.#launch = launch;
  }

  /**
   * Gives actor i task i: launches it the first time, sends it the task afterwards.
   *
   * @param tasks - one task per actor, the same number at every call
   * @returns the actor processes
   * @throws RangeError when the number of tasks changed
   */
  assign(tasks: readonly T[]): readonly P[] {
    if (this.#launched && tasks.length !== this.#children.length) {
      throw new RangeError(`tasks must be one per actor (${this.#children.length}), got ${tasks.length}`);
    }
    if (!this.#launched) {
      this.#children = tasks.map((task) => this.#launch(task));
      this.#launched = true;
      process.on('exit', this.#kill);
    } else {
      // An actor that exited is not written to (its learner finds it gone).
      this.#children.forEach((child, i) => {
        if (child.connected) child.send({ task: tasks[i]! } satisfies CrewMessage<T>, () => {});
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
