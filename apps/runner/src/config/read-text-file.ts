import { readFileSync } from 'node:fs';

/**
 * Reads a user's text file as UTF-8 without the byte-order mark some editors write at its start (Windows
 * Notepad, PowerShell's `Out-File`), which `JSON.parse` would otherwise refuse.
 *
 * @param path - the file
 * @returns its text, without a leading U+FEFF
 * @throws Error from the file system when the file cannot be read
 * @example
 * ```ts
 * JSON.parse(readTextFile('cfg.json')); // { keep: 2 }, whether or not the file opens with a BOM
 * ```
 */
export function readTextFile(path: string): string {
  const text = readFileSync(path, 'utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
