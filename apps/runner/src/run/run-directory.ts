import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../cli/usage-error.js';
import { checkRunTarget, createOutputFolder, type OutputLabel, outputPathError } from './output-path.js';

const RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * A run's output folder, written in a hidden temporary folder beside it and renamed into `<root>/<name>/`
 * only when the run succeeded, so nothing half-written ever looks like a finished run.
 *
 * A finished run of the same name is replaced: the new folder is renamed in first (the old one moved aside
 * to a hidden name, then deleted), so at every moment `<root>/<name>/` is either the old complete run or the
 * new complete run. A failed run leaves at most a hidden `.<name>.partial-*` folder when the process is
 * killed; {@link RunDirectory.discard} removes it otherwise.
 *
 * @example
 * ```ts
 * const dir = RunDirectory.open('runs', 'reproduce');
 * dir.write('summary.json', '{}\n');
 * dir.commit(); // 'runs/reproduce' (absolute path), now holding summary.json
 * ```
 */
export class RunDirectory {
  /** Absolute path the finished run will have. */
  readonly path: string;
  /** Absolute path of the temporary folder being written. */
  readonly partialPath: string;
  private readonly root: string;
  private readonly name: string;
  private state: 'open' | 'committed' | 'discarded' = 'open';

  private readonly where: OutputLabel;

  private constructor(root: OutputLabel, name: string, force: boolean) {
    this.root = createOutputFolder(root);
    this.name = name;
    this.path = join(this.root, name);
    this.where = { label: '--out/--name', path: join(root.path, name) };
    checkRunTarget(this.where, force);
    try {
      this.partialPath = mkdtempSync(join(this.root, `.${name}.partial-`));
    } catch (error) {
      throw outputPathError(error, this.where);
    }
    // mkdtemp creates 0700; a finished run is an ordinary readable folder.
    chmodSync(this.partialPath, 0o755);
  }

  /**
   * Creates the temporary folder of a new run.
   *
   * @param root - folder that holds runs (created with its parents if missing)
   * @param name - the run's name: letters, digits, `.`, `_`, `-`, not starting with `.`, at most 128
   * @param force - whether something other than an earlier run at `<root>/<name>` may be replaced
   * @returns the open run directory
   * @throws {@link UsageError} when `name` is not a valid run name (the CLI's `--name`)
   * @throws `OutputPathError` when `root` cannot be created or written to, or `<root>/<name>` is in the
   *   way (see `checkRunTarget`)
   */
  static open(root: string, name: string, force = false): RunDirectory {
    if (!RUN_NAME.test(name)) {
      throw new UsageError(
        `--name must be 1-128 letters, digits, '.', '_' or '-', not starting with '.', got ${JSON.stringify(name)}`,
      );
    }
    return new RunDirectory({ label: '--out', path: root }, name, force);
  }

  /**
   * Writes one file into the run (a relative path inside it; subfolders are created).
   *
   * @param file - relative path, e.g. `summary.json` or `charts/curve.svg`
   * @param content - text (UTF-8) or bytes
   * @throws Error when the run was already committed or discarded
   */
  write(file: string, content: string | Uint8Array): void {
    writeFileSync(this.target(file), content);
  }

  /**
   * Writes one file in the background (the system call runs on libuv's thread pool while the caller goes on
   * computing); await the promise before {@link RunDirectory.commit} or {@link RunDirectory.discard}.
   *
   * @param file - relative path, e.g. `metrics.ndjson`
   * @param content - text (UTF-8) or bytes
   * @returns a promise settled when the file is written
   * @throws Error at once when the run was already committed or discarded, or the path leaves the run
   */
  writeInBackground(file: string, content: string | Uint8Array): Promise<void> {
    return writeFile(this.target(file), content);
  }

  /**
   * Writes text given as chunks (such as the lines of `ndjsonChunks`) into one file in the background: each
   * chunk is written by libuv's thread pool while the next one is made, so the file's text never exists as
   * one string (a long run's metrics outgrow the longest string V8 can hold). Await the promise before
   * {@link RunDirectory.commit} or {@link RunDirectory.discard}.
   *
   * @param file - relative path, e.g. `metrics.ndjson`
   * @param chunks - the text, in order (UTF-8)
   * @returns a promise settled when the whole file is written and closed; rejected, with the file closed,
   *   when a write fails or the iterator throws
   * @throws Error at once when the run was already committed or discarded, or the path leaves the run
   */
  writeChunksInBackground(file: string, chunks: Iterable<string>): Promise<void> {
    const target = this.target(file);
    return (async () => {
      const handle = await open(target, 'w');
      let pending: Promise<unknown> = Promise.resolve();
      try {
        // One write in flight at a time: writes at the file's position must not overlap (Node's rule for a
        // FileHandle), and the memory stays at two chunks, the one being written and the next.
        for (const chunk of chunks) {
          await pending;
          pending = handle.write(chunk);
        }
        await pending;
      } finally {
        // When the chunks' iterator threw, the last write may still run: wait for it (its own failure, if
        // any, is not the one to report) before closing the file.
        await pending.catch(() => undefined);
        await handle.close();
      }
    })();
  }

  /** The absolute path of a file of the open run, its folder created. */
  private target(file: string): string {
    if (this.state !== 'open') throw new Error(`run ${this.name} is ${this.state}; cannot write ${file}`);
    const target = join(this.partialPath, file);
    if (!target.startsWith(this.partialPath)) throw new Error(`file must stay inside the run, got ${file}`);
    mkdirSync(join(target, '..'), { recursive: true });
    return target;
  }

  /**
   * Renames the finished run into place, replacing an earlier run of the same name.
   *
   * @returns the run's final absolute path
   * @throws Error when the run was already committed or discarded; `OutputPathError` when a rename fails
   *   (the earlier run is then put back, and {@link RunDirectory.discard} removes the new one)
   */
  commit(): string {
    if (this.state !== 'open') throw new Error(`run ${this.name} is already ${this.state}`);
    let previous: string | undefined;
    try {
      if (exists(this.path)) {
        previous = mkdtempSync(join(this.root, `.${this.name}.replaced-`));
        renameSync(this.path, join(previous, 'run'));
      }
      renameSync(this.partialPath, this.path);
    } catch (error) {
      if (previous !== undefined) {
        if (exists(join(previous, 'run'))) renameSync(join(previous, 'run'), this.path);
        rmSync(previous, { recursive: true, force: true });
      }
      throw outputPathError(error, this.where);
    }
    if (previous !== undefined) rmSync(previous, { recursive: true, force: true });
    this.state = 'committed';
    return this.path;
  }

  /** Deletes the temporary folder of a failed run; does nothing after a commit. */
  discard(): void {
    if (this.state !== 'open') return;
    rmSync(this.partialPath, { recursive: true, force: true });
    this.state = 'discarded';
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
