import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { newJsonlProgress, readJsonlLines } from './jsonl-lines.js';

async function* chunks(bytes: Buffer, cuts: number[]): AsyncGenerator<Uint8Array> {
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    yield bytes.subarray(start, Math.max(start, cut));
    start = Math.max(start, cut);
  }
  yield bytes.subarray(start);
}

async function collect(source: string | AsyncIterable<Uint8Array>, options = {}) {
  const progress = newJsonlProgress();
  const lines: { text: string; line: number }[] = [];
  for await (const l of readJsonlLines(source, progress, options)) lines.push({ ...l });
  return { lines, progress };
}

/**
 * The reference: drop a byte-order mark opening the text, split it at \n, drop a final \r, keep non-blank
 * lines with their numbers.
 */
function reference(text: string) {
  const parts = (text.startsWith('\uFEFF') ? text.slice(1) : text).split('\n');
  if (parts.at(-1) === '') parts.pop();
  return parts
    .map((part, i) => ({ text: part.endsWith('\r') ? part.slice(0, -1) : part, line: i + 1 }))
    .filter((l) => l.text.trim() !== '' || /[^ \t]/.test(l.text));
}

const dir = mkdtempSync(join(tmpdir(), 'agent-data-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readJsonlLines', () => {
  test.prop([
    fc.array(
      fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom('', ' ', '\r', 'é€😀')),
      { maxLength: 12 },
    ),
    fc.array(fc.nat({ max: 200 }), { maxLength: 8 }),
    fc.boolean(),
    fc.boolean(),
  ])(
    'gives the same lines, numbers and SHA-256 however the bytes are cut into chunks, with a byte-order mark or not',
    async (rows, cuts, finalNewline, mark) => {
      const text = (mark ? '\uFEFF' : '') + rows.join('\n') + (finalNewline ? '\n' : '');
      const bytes = Buffer.from(text, 'utf8');
      const { lines, progress } = await collect(chunks(bytes, cuts));
      expect(lines).toEqual(reference(text).filter((l) => !/^[ \t]*$/.test(l.text)));
      expect(progress.bytes).toBe(bytes.length);
      expect(progress.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    },
  );

  it('reads a file path with CRLF line ends and blank lines', async () => {
    const path = join(dir, 'crlf.jsonl');
    writeFileSync(path, '{"a":1}\r\n\r\n  \n{"b":2}');
    const { lines, progress } = await collect(path);
    expect(lines).toEqual([
      { text: '{"a":1}', line: 1 },
      { text: '{"b":2}', line: 4 },
    ]);
    expect(progress.lines).toBe(4);
  });

  it('drops a UTF-8 byte-order mark opening the file, cut between chunks or not, and no other U+FEFF', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n\uFEFF{"b":2}\n')]);
    for (const cuts of [[], [1], [2], [1, 2], [3]]) {
      const { lines, progress } = await collect(chunks(bytes, cuts));
      expect(lines).toEqual([
        { text: '{"a":1}', line: 1 },
        { text: '\uFEFF{"b":2}', line: 2 },
      ]);
      expect(progress.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    const path = join(dir, 'bom.jsonl');
    writeFileSync(path, bytes);
    expect((await collect(path)).lines[0]).toEqual({ text: '{"a":1}', line: 1 });
    // A file that is only a mark and a line end holds no line.
    expect((await collect(chunks(Buffer.from('\uFEFF \r\n'), []))).lines).toEqual([]);
  });

  it('skips a line longer than maxLineBytes without holding it, and reports its number', async () => {
    const long = 'x'.repeat(5000);
    const overlong: number[] = [];
    const { lines, progress } = await collect(
      chunks(Buffer.from(`{"a":1}\n${long}\n{"b":2}\n`), [3, 1000, 2000, 4000]),
      {
        maxLineBytes: 1024,
        onOverlong: (line: number) => overlong.push(line),
      },
    );
    expect(lines.map((l) => l.line)).toEqual([1, 3]);
    expect(overlong).toEqual([2]);
    expect(progress.overlong).toBe(1);
  });

  it('skips a line longer than maxLineBytes that arrives whole in one chunk, or completed by one', async () => {
    const long = 'y'.repeat(40);
    const overlong: number[] = [];
    const { lines, progress } = await collect(
      // Chunk 1 holds lines 1–3 whole (line 2 is 40 bytes); line 4 starts in chunk 1 and ends in chunk 2.
      chunks(Buffer.from(`{"a":1}\n${long}\n{"b":2}\n${long}\n{"c":3}\n`), [70]),
      { maxLineBytes: 39, onOverlong: (line: number) => overlong.push(line) },
    );
    expect(lines).toEqual([
      { text: '{"a":1}', line: 1 },
      { text: '{"b":2}', line: 3 },
      { text: '{"c":3}', line: 5 },
    ]);
    expect(overlong).toEqual([2, 4]);
    expect(progress.overlong).toBe(2);
    // A line of exactly the limit is kept.
    const exact = await collect(chunks(Buffer.from(`${long}\n`), [100]), { maxLineBytes: 40 });
    expect(exact.lines).toEqual([{ text: long, line: 1 }]);
  });

  it('rejects a maxLineBytes that is not a positive integer, naming it', async () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      await expect(collect(chunks(Buffer.from('{}\n'), [1]), { maxLineBytes: bad })).rejects.toThrow(
        new RegExp(`maxLineBytes must be a positive integer, got ${String(bad)}`),
      );
    }
  });

  it('rejects an input that is neither a path nor chunks', async () => {
    await expect(collect(42 as never)).rejects.toThrow(/input must be a file path or an async iterable/);
  });
});
