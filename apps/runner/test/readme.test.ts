// Keeps the runner's README and its hand-written docs/*.md true to the CLI:
// - every generated block (`<!-- generated: <file>[, <part>] -->`) holds what its file in docs/ gives, so a
//   `pnpm run docs` that changed a figure fails here until the blocks are filled again (the files themselves
//   are checked against real runs elsewhere: docs/reproduce-output.txt by src/train/train-seed.test.ts);
// - every `ftw …` command of their ```sh blocks parses with the real commands' options (an unknown or
//   missing option, a missing argument fail), and each `ftw train` command's configuration resolves as the
//   command resolves it before training (a bad value, K > C, an asynchronous option that does not apply
//   fail). The commands are not run: most train for seconds or need a Redis server;
// - every relative link goes to a file that exists, and to a heading of it that exists.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Command, CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { generatedBlocks } from '../scripts/generated-blocks.mjs';
import { ASYNC_OPTIONS, resolveAsyncOptions } from '../src/async/async-options.js';
import { readJobs } from '../src/cli/jobs-option.js';
import { readOutputOptions } from '../src/cli/output-options.js';
import { collectOptions } from '../src/config/option-spec.js';
import { readConfigFile } from '../src/config/read-config-file.js';
import { resolveTrainConfig, TRAIN_OPTIONS } from '../src/config/train-config.js';
import { createProgram } from '../src/main.js';

const runner = new URL('..', import.meta.url).pathname;
const docs = join(runner, 'docs');
/** README.md and the hand-written pages of docs/ (the generated reports hold no block and no command). */
const pages = [
  'README.md',
  ...['async.md', 'bandit-comparison.md', 'benchmark.md', 'sokoban.md'].map((f) => join('docs', f)),
];
const read = (page: string) => readFileSync(join(runner, page), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'runner-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A shell line cut into words: quotes removed, `#` comments dropped; `&&` and `;` end a command, `>`
 * comes out as a word of its own.
 */
function shellCommands(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | null = null;
  let quote: string | null = null;
  const end = () => {
    if (word !== null) commands.at(-1)!.push(word);
    word = null;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === ' ') end();
    else if (c === '#' && word === null) break;
    else if (c === '&' && line[i + 1] === '&') {
      end();
      commands.push([]);
      i++;
    } else if (c === ';' && word === null) commands.push([]);
    else if (c === '>') {
      end();
      commands.at(-1)!.push('>');
    } else word = (word ?? '') + c;
  }
  end();
  return commands.filter((words) => words.length > 0);
}

/** Every command of a page's ```sh blocks, continuation lines joined. */
function pageCommands(page: string): string[][] {
  return [...read(page).matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .flatMap(shellCommands),
  );
}

/** The configuration files the pages' `echo '…' > file` commands write, by name, as files in `dir`. */
const written = new Map<string, string>();

/** Parses `ftw <words>` with the real command; train's configuration is resolved as its action does. */
async function check(words: readonly string[]): Promise<void> {
  const program = await createProgram(words[0]);
  program.configureOutput({ writeOut: () => {}, writeErr: () => {} });
  for (const command of program.commands as Command[]) {
    command.configureOutput({ writeOut: () => {}, writeErr: () => {} });
    command.action(() => {
      if (command.name() !== 'train') return;
      const path = command.opts<{ config?: string }>().config;
      const file = path === undefined ? undefined : readConfigFile(written.get(path) ?? path);
      const config = resolveTrainConfig(collectOptions(TRAIN_OPTIONS, command, file));
      readOutputOptions(command);
      readJobs(command);
      resolveAsyncOptions(collectOptions(ASYNC_OPTIONS, command), config);
    });
  }
  try {
    await program.parseAsync(['node', 'ftw', ...words]);
  } catch (error) {
    if (!(error instanceof CommanderError && error.code === 'commander.helpDisplayed')) throw error;
  }
}

describe('the README and docs/*.md', () => {
  it('hold in each generated block what its file in docs/ gives', () => {
    const counts = pages.map((page) => {
      const blocks = generatedBlocks(read(page), docs);
      for (const { file, part, shown, expected } of blocks) {
        expect(shown, `${page}: ${file}${part === undefined ? '' : `, ${part}`}`).toBe(expected);
      }
      return blocks.length;
    });
    // The README quotes reproduce, compare and evaluate; the docs the comparisons' tables.
    expect(counts).toEqual([3, 3, 2, 0, 4]);
  });

  it("run every ftw command of their sh blocks through the commands' own options", async () => {
    const ftw = ['ftw', 'node apps/runner/dist/cli.js'];
    const checked: string[] = [];
    for (const page of pages) {
      for (const words of pageCommands(page)) {
        const echo = words[0] === 'echo' ? words.indexOf('>') : -1;
        if (echo === 2) {
          const file = join(dir, `config-${written.size}.json`);
          writeFileSync(file, words[1]!);
          written.set(words[3]!, file);
          continue;
        }
        const start = ftw.find((name) => words.join(' ').startsWith(`${name} `));
        if (start === undefined) continue;
        const args = words.slice(start.split(' ').length);
        await expect(check(args), `${page}: ${words.join(' ')}`).resolves.toBeUndefined();
        checked.push(args[0]!);
      }
    }
    // Every command of the CLI is shown at least once.
    expect(new Set(checked)).toEqual(
      new Set([
        '--help',
        'reproduce',
        'train',
        'occupancy',
        'compare',
        'evaluate',
        'actor',
        'dataset',
        'view',
      ]),
    );
  });

  it('link only to files and headings that exist', () => {
    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
    const anchor = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}_\- ]/gu, '')
        .replaceAll(' ', '-');
    const anchors = (text: string) => [...text.matchAll(/^#+ (.*)$/gm)].map((m) => anchor(m[1]!));
    let links = 0;
    for (const page of pages) {
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^https?:/.test(target!)) continue;
        const [path, hash] = target!.split('#');
        const file = path === '' ? join(runner, page) : join(runner, page, '..', path!);
        expect(existsSync(file), `${page}: ${target}`).toBe(true);
        if (hash !== undefined)
          expect(anchors(readFileSync(file, 'utf8')), `${page}: ${target}`).toContain(hash);
        links++;
      }
    }
    expect(links).toBeGreaterThan(20);
  });

  it('fail on a command the CLI would refuse', async () => {
    await expect(check(['train', '--keep', '9'])).rejects.toThrow(/--keep/);
    await expect(check(['train', '--lag', '2', '--redis', 'private'])).rejects.toThrow();
    await expect(check(['compare', '--no-such-option'])).rejects.toThrow(CommanderError);
    await expect(check(['dataset', '--input', 'runs.jsonl'])).rejects.toThrow(CommanderError);
  });
});
