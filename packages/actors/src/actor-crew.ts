import { ActorsLostError } from './actors-lost-error.js';
import type { ActorExit } from './run-faults.js';

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
  on(event: 'exit', listener: (code: number | null, signal: string | null) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/** What a crew sends an actor process that already runs: its next task. */
export interface CrewMessage<T> {
  readonly task: T;
}

/**
 * What an actor process sends its crew once it listens for {@link CrewMessage}s: a task sent before then
 * may be lost, so the crew sends the actor's current task again when it is not the one it launched with.
 * An actor ignores a task it already runs.
 */
export const CREW_READY = { ready: true } as const;

/** Options of {@link ActorCrew}. */
export interface ActorCrewOptions {
  /**
   * Replacements the crew starts per actor over its life, after which an exit fails the crew
   * ({@link ActorCrew.failed}). 0: the first exit fails it.
   * @defaultValue 3
   */
  readonly restarts?: number | undefined;
}

/** How many times a crew replaces one actor by default (see {@link ActorCrewOptions.restarts}). */
export const DEFAULT_ACTOR_RESTARTS = 3;

/**
 * Actor processes started once and handed task after task (e.g. one pool per seed of a run), so that a
 * run of many tasks pays their start (Node, the modules, the environment's data) once. Actor i is launched
 * with its first task; later tasks reach it as an IPC message ({@link CrewMessage}). However this process
 * ends, its actors are killed (and each should exit by itself when its IPC channel closes).
 *
 * Supervision: an actor that exits while the crew runs (a signal, a crash, any exit code) is recorded
 * ({@link ActorCrew.exits}) and replaced at once by a process of the same index launched with its current
 * task and the actor's restart count (1, 2, …), from which the launcher derives fresh random streams and
 * episode ids, so that the replacement replays nothing of its predecessor. After `restarts` replacements
 * of one actor, its next exit rejects {@link ActorCrew.failed}.
 *
 * @example
 * ```ts
 * const crew = new ActorCrew((task, restart) => spawn(process.execPath, ['actor.js'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { TASK: JSON.stringify({ ...task, restart }) } }), { restarts: 3 });
 * crew.assign(tasksOfSeed0); // starts the processes
 * await Promise.race([learn(), crew.failed]); // an actor that dies is replaced; a fourth death fails
 * crew.assign(tasksOfSeed1); // the same processes move on
 * crew.stop();
 * ```
 */
export class ActorCrew<T, P extends ActorProcess = ActorProcess> {
  readonly #launch: (task: T, restart: number) => P;
  readonly #restarts: number;
  #children: P[] = [];
  #tasks: T[] = [];
  #used: number[] = [];
  #exits: ActorExit[] = [];
  #launched = false;
  #fail: (error: ActorsLostError) => void = () => {};
  #failed: Promise<never> = this.#armed();
  readonly #kill = (): void => {
    for (const child of this.#children) child.kill('SIGKILL');
  };

  /**
   * @param launch - how an actor process starts with its task: restart 0 the first time, k for the
   *   k-th replacement of that actor
   * @param options - see {@link ActorCrewOptions}
   * @throws RangeError naming `options.restarts` when it is not an integer >= 0
   */
  constructor(launch: (task: T, restart: number) => P, options: ActorCrewOptions = {}) {
    const restarts = options.restarts ?? DEFAULT_ACTOR_RESTARTS;
    if (!Number.isInteger(restarts) || restarts < 0) {
      throw new RangeError(`options.restarts must be an integer >= 0, got ${String(restarts)}`);
    }
    this.#launch = launch;
    this.#restarts = restarts;
  }

  /**
   * Gives actor i task i: launches it the first time, sends it the task afterwards.
   *
   * @param tasks - one task per actor, the same number at every call
   * @returns the actor processes (a replaced one is no longer among them)
   * @throws RangeError when the number of tasks changed
   */
  assign(tasks: readonly T[]): readonly P[] {
    if (this.#launched && tasks.length !== this.#children.length) {
      throw new RangeError(`tasks must be one per actor (${this.#children.length}), got ${tasks.length}`);
    }
    this.#tasks = [...tasks];
    if (!this.#launched) {
      this.#launched = true;
      this.#used = tasks.map(() => 0);
      this.#children = tasks.map((task, i) => this.#start(i, task, 0));
      process.on('exit', this.#kill);
    } else {
      // An actor that exited is not written to (its replacement starts with its current task).
      this.#children.forEach((child, i) => {
        if (child.connected) child.send({ task: tasks[i]! } satisfies CrewMessage<T>, () => {});
      });
    }
    return this.#children;
  }

  /** Every exit of an actor while the crew ran, oldest first, with the replacement it led to. */
  get exits(): readonly ActorExit[] {
    return this.#exits;
  }

  /**
   * Rejects with an {@link ActorsLostError} once an actor exits with its restarts used up (at once when
   * that already happened). Never resolves.
   */
  get failed(): Promise<never> {
    return this.#failed;
  }

  /** Kills the actor processes (their exits are not recorded). */
  stop(): void {
    this.#launched = false;
    this.#kill();
    this.#children = [];
    this.#failed = this.#armed();
    process.off('exit', this.#kill);
  }

  #armed(): Promise<never> {
    const failed = new Promise<never>((_, reject) => {
      this.#fail = reject;
    });
    failed.catch(() => {});
    return failed;
  }

  #start(actor: number, task: T, restart: number): P {
    const child = this.#launch(task, restart);
    child.on('exit', (code, signal) => {
      if (this.#launched && this.#children[actor] === child) this.#exited(actor, code, signal);
    });
    child.on('message', (message) => {
      const current = this.#tasks[actor]!;
      const ready = typeof message === 'object' && message !== null && 'ready' in message;
      if (ready && this.#launched && this.#children[actor] === child && current !== task && child.connected) {
        child.send({ task: current } satisfies CrewMessage<T>, () => {});
      }
    });
    return child;
  }

  #exited(actor: number, code: number | null, signal: string | null): void {
    const used = this.#used[actor]!;
    const restart = used < this.#restarts ? used + 1 : null;
    this.#exits.push({ kind: 'actor-exit', at: Date.now(), actor, code, signal, restart });
    if (restart === null) {
      this.#fail(
        new ActorsLostError(
          `actor process ${actor} exited (${code ?? signal}) with its restarts used up (${this.#restarts} allowed) before the run ended`,
        ),
      );
      return;
    }
    this.#used[actor] = restart;
    this.#children[actor] = this.#start(actor, this.#tasks[actor]!, restart);
  }
}
