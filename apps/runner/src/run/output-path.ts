import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, type Stats, statSync, unlinkSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from '../cli/usage-error.js';

/**
 * An output path that cannot be written: a folder where a file is expected, a missing or unwritable
 * folder, an existing file without `--force`. One line on stderr and exit code 2 (it is a
 * {@link UsageError}), naming the path and what to do.
 *
 * @example
 * ```ts
 * throw new OutputPathError('--out "runs" is a folder; give the path of a file instead');
 * // stderr: error: --out "runs" is a folder; give the path of a file instead   (exit code 2, one line)
 * ```
 */
export class OutputPathError extends UsageError {
  /**
   * @param message - the path, what is wrong with it and what to do
   */
  constructor(message: string) {
    super(message, { helpHint: false });
    this.name = 'OutputPathError';
  }
}

/** How a path is named in messages: the flag (or what it is) and the path as the user gave it. */
export interface OutputLabel {
  /** `--out`, or `the manifest beside --out`. */
  readonly label: string;
  /** The path as given (relative paths stay relative in messages). */
  readonly path: string;
}

const quote = (path: string): string => JSON.stringify(path);

/** An absolute path found on the way, written as the user wrote theirs (relative stays relative). */
function asGiven(where: OutputLabel, absolute: string): string {
  return isAbsolute(where.path) ? absolute : relative(process.cwd(), absolute) || '.';
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The nearest existing ancestor of `path` (itself included), or undefined at a root that does not exist. */
function nearestExisting(path: string): { path: string; stats: Stats } | undefined {
  for (let p = path; ; p = dirname(p)) {
    const stats = statOrUndefined(p);
    if (stats !== undefined) return { path: p, stats };
    if (dirname(p) === p) return undefined;
  }
}

/**
 * Turns a file-system error about an output path into an {@link OutputPathError} naming the path and what to
 * do; any other error (a full disk, a bug) is returned unchanged.
 *
 * @param error - what the file system threw
 * @param where - the flag and the path as the user gave it
 * @param at - the absolute path whose creation failed, when not `where.path` itself (a parent folder)
 * @returns the error to throw
 * @example
 * ```ts
 * outputPathError(eacces, { label: '--out', path: '/sys/x.html' }).message;
 * // '--out "/sys/x.html": permission denied in "/sys"; choose a folder you can write to'
 * ```
 */
export function outputPathError(error: unknown, where: OutputLabel, at = resolve(where.path)): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const { label, path } = where;
  const folder = quote(asGiven(where, dirname(at)));
  switch (code) {
    case 'EISDIR':
      return folderError(where);
    case 'EEXIST':
      return existsError(where);
    case 'ENOTDIR':
      return notFolderError(where);
    case 'ENOENT':
      return statOrUndefined(dirname(at))?.isDirectory() === true
        ? new OutputPathError(
            `${label} ${quote(path)}: ${folder} does not accept new files; choose another folder`,
          )
        : missingFolderError(where);
    case 'EACCES':
    case 'EPERM':
      return new OutputPathError(
        `${label} ${quote(path)}: permission denied in ${folder}; choose a folder you can write to`,
      );
    case 'EROFS':
      return new OutputPathError(
        `${label} ${quote(path)}: ${folder} is on a read-only file system; choose a writable folder`,
      );
    case 'ENAMETOOLONG':
      return new OutputPathError(`${label} ${quote(path)}: the name is too long; choose a shorter path`);
    default:
      return error;
  }
}

function folderError({ label, path }: OutputLabel): OutputPathError {
  return new OutputPathError(`${label} ${quote(path)} is a folder; give the path of a file instead`);
}

/** A part of the path before its last name is a file (ENOTDIR). */
function notFolderError(where: OutputLabel): OutputPathError {
  const { label, path } = where;
  let file: ReturnType<typeof nearestExisting>;
  try {
    file = nearestExisting(resolve(path));
  } catch {
    // A folder on the way cannot be read: the message names no file then.
  }
  return new OutputPathError(
    file !== undefined && !file.stats.isDirectory()
      ? `${label} ${quote(path)}: ${quote(asGiven(where, file.path))} is a file, not a folder; choose another path`
      : `${label} ${quote(path)}: a part of the path is not a folder; choose another path`,
  );
}

function existsError({ label, path }: OutputLabel): OutputPathError {
  return new OutputPathError(
    `${label} ${quote(path)} already exists; add --force to replace it, or choose another path`,
  );
}

function missingFolderError({ label, path }: OutputLabel): OutputPathError {
  const folder = dirname(path);
  return new OutputPathError(
    `${label} ${quote(path)}: folder ${quote(folder)} does not exist; create it (mkdir -p ${folder}) or choose another folder`,
  );
}

/** Creates and removes a file in `folder`: the one honest test that files can be created there. */
function probeFolder(folder: string, where: OutputLabel): void {
  const probe = join(folder, `.ftw-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (error) {
    throw outputPathError(error, where);
  }
  unlinkSync(probe);
}

/**
 * Checks a file the command will write, before any work, so a bad path costs nothing: refuses a folder, a
 * device or pipe, an existing file (unless `force`), a missing folder (folders of a file are not created:
 * a mistyped path would otherwise become a new tree) and a folder where no file can be created (read-only,
 * permission denied; found by creating and removing a hidden file there).
 *
 * @param where - the flag and the path as the user gave it
 * @param force - whether an existing file may be replaced (`--force`)
 * @returns the absolute path
 * @throws {@link OutputPathError} naming the path and what to do
 * @example
 * ```ts
 * checkOutputFile({ label: '--out', path: 'report.html' }, false); // '/…/report.html', or throws when it exists
 * ```
 */
export function checkOutputFile(where: OutputLabel, force: boolean): string {
  const absolute = resolve(where.path);
  let stats: Stats | undefined;
  try {
    stats = statOrUndefined(absolute);
  } catch (error) {
    throw outputPathError(error, where);
  }
  if (stats?.isDirectory()) throw folderError(where);
  if (stats !== undefined && !stats.isFile()) {
    throw new OutputPathError(
      `${where.label} ${quote(where.path)} is not a regular file (a device, pipe or socket); choose another path`,
    );
  }
  if (stats !== undefined && !force) throw existsError(where);
  let ancestor: ReturnType<typeof nearestExisting>;
  try {
    ancestor = nearestExisting(dirname(absolute));
  } catch (error) {
    throw outputPathError(error, where);
  }
  if (ancestor !== undefined && !ancestor.stats.isDirectory()) throw notFolderError(where);
  if (ancestor?.path !== dirname(absolute)) throw missingFolderError(where);
  probeFolder(dirname(absolute), where);
  return absolute;
}

/**
 * Writes a file atomically: into a hidden temporary file in the same folder, renamed over `path` only once
 * complete, so a reader sees the old file or the new one, never half of one. On any failure (a write, the
 * content's iterator, the rename) the temporary file is removed and nothing is left behind.
 *
 * @param where - the flag and the path (checked before with {@link checkOutputFile})
 * @param content - the text, whole or as chunks written one after another (UTF-8)
 * @param force - whether an existing file may be replaced; without it a file that appeared since the
 *   check is refused
 * @returns a promise settled once the file is in place
 * @throws {@link OutputPathError} for a path that cannot be written; any other error (a full disk, the
 *   iterator's) unchanged
 * @example
 * ```ts
 * await writeOutputFile({ label: '--out', path: 'report.html' }, html, false);
 * ```
 */
export async function writeOutputFile(
  where: OutputLabel,
  content: string | Iterable<string>,
  force: boolean,
): Promise<void> {
  const path = resolve(where.path);
  const temporary = join(
    dirname(path),
    `.${basename(path)}.partial-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  let handle: FileHandle | undefined;
  try {
    handle = await open(temporary, 'wx');
    for (const chunk of typeof content === 'string' ? [content] : content) await handle.write(chunk);
    await handle.close();
    handle = undefined;
    if (!force && existsSync(path)) throw existsError(where);
    await rename(temporary, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw outputPathError(error, where);
  }
}

/**
 * Creates the folder that holds runs (`--out`) and its missing parents, one level at a time (Node's
 * recursive `mkdir` never returns for a path under `/proc`), refusing a file in the way.
 *
 * @param where - the flag and the folder as the user gave it
 * @returns the absolute path of the folder
 * @throws {@link OutputPathError} naming the folder and what to do
 * @example
 * ```ts
 * createOutputFolder({ label: '--out', path: 'runs' }); // '/…/runs', created when missing
 * ```
 */
export function createOutputFolder(where: OutputLabel): string {
  const absolute = resolve(where.path);
  try {
    const existing = nearestExisting(absolute);
    if (existing !== undefined && !existing.stats.isDirectory()) {
      throw new OutputPathError(
        existing.path === absolute
          ? `${where.label} ${quote(where.path)} is a file, not a folder; give the folder that holds runs`
          : `${where.label} ${quote(where.path)}: ${quote(asGiven(where, existing.path))} is a file, not a folder; choose another path`,
      );
    }
    const missing: string[] = [];
    for (let p = absolute; p !== existing?.path && dirname(p) !== p; p = dirname(p)) missing.unshift(p);
    for (const folder of missing) {
      try {
        mkdirSync(folder);
      } catch (error) {
        throw outputPathError(error, where, folder);
      }
    }
  } catch (error) {
    throw outputPathError(error, where);
  }
  return absolute;
}

/**
 * Checks where a run will be renamed to (`<out>/<name>`): an earlier run there (a folder holding a
 * `config.json`) is replaced, as `--name` promises; anything else (a file, a folder that is not a run) only
 * with `force`, so a mistyped `--out`/`--name` never deletes a user's own folder.
 *
 * @param where - `--name` and the run's path
 * @param force - whether something other than a run may be replaced (`--force`)
 * @throws {@link OutputPathError} naming the path and what to do
 * @example
 * ```ts
 * checkRunTarget({ label: '--out/--name', path: 'runs/reproduce' }, false); // fine when absent or a run
 * ```
 */
export function checkRunTarget(where: OutputLabel, force: boolean): void {
  const stats = statOrUndefined(resolve(where.path));
  if (stats === undefined || force) return;
  if (stats.isDirectory() && existsSync(join(resolve(where.path), 'config.json'))) return;
  throw new OutputPathError(
    `${where.label} ${quote(where.path)} already exists and is not an ftw run (${stats.isDirectory() ? 'a folder without config.json' : 'a file'}); add --force to replace it, or choose another --name or --out`,
  );
}
