import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Bytes per write call; the loop also copes with short writes. */
const CHUNK_BYTES = 1 << 22;
/** Codes of platforms that cannot open or fsync a directory (Windows); the rename is still atomic there. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF']);

let counter = 0;

function openTemporary(path: string): { fd: number; temporary: string } {
  const directory = dirname(path);
  for (let attempt = 0; ; attempt++) {
    const temporary = join(directory, `.${basename(path)}.${process.pid}.${counter++}.tmp`);
    try {
      // 'wx' is O_CREAT | O_EXCL: never reuse or clobber a file some other writer owns.
      return { fd: openSync(temporary, 'wx', 0o644), temporary };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 100) throw error;
    }
  }
}

function syncDirectory(directory: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(directory, 'r');
    fsyncSync(fd);
  } catch (error) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Replaces the file at `path` with `bytes` so that a reader (or a crash at any instant) sees either the
 * old file or the new one, never a mix: write a temporary file in the same directory, fsync it, rename
 * it over `path`, then fsync the directory so the rename itself is durable. On failure the temporary
 * file is removed and the old file is untouched. Internal.
 *
 * @param path - destination file
 * @param bytes - the new contents
 * @throws the underlying `fs` error (ENOENT, EACCES, ENOSPC…) after cleaning up
 */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const { fd, temporary } = openTemporary(path);
  try {
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(fd, bytes, written, Math.min(CHUNK_BYTES, bytes.length - written));
    }
    fsyncSync(fd);
    closeSync(fd);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // Already closed by the failing step; the original error is the one to report.
    }
    unlinkSync(temporary);
    throw error;
  }
  try {
    renameSync(temporary, path);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
  syncDirectory(dirname(path));
}
