import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../src/main.js';

// `ftw view` prints the size of the page it wrote: the file's bytes on disk, in MB (10^6 bytes). Run
// in-process through the CLI's entry point; the page script comes from the runner's build (dist/).

const root = mkdtempSync(join(tmpdir(), 'ftw-view-size-'));
let stdout: string;

beforeEach(() => {
  stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('ftw view', () => {
  it('prints the size of the page as written, in bytes, however many of its characters take several', async () => {
    // A compare run whose scenario name is 3,000 euro signs (3 bytes each in UTF-8, one character): the
    // name is in every label of the page, tens of kilobytes more in bytes than in characters.
    const scenario = '€'.repeat(3_000);
    const dir = join(root, 'euro');
    mkdirSync(dir);
    const environment = { kind: 'bernoulli', probs: [0.2, 0.8] };
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        command: 'compare',
        scenarios: [
          { name: scenario, methods: ['a', 'b'].map((label) => ({ label, config: { environment } })) },
        ],
      }),
    );
    writeFileSync(join(dir, 'summary.json'), '{}');
    const rows = ['a', 'b'].flatMap((method) =>
      [1, 2, 3].map((t) =>
        JSON.stringify({ scenario, method, seed: 0, iteration: t, samples: t, reward: t }),
      ),
    );
    writeFileSync(join(dir, 'metrics.ndjson'), `${rows.join('\n')}\n`);
    const out = join(root, 'page.html');
    expect(await main(['node', 'ftw', 'view', dir, '--out', out])).toBe(0);
    const bytes = statSync(out).size;
    const printed = stdout.match(/; ([\d.]+) MB page written to /);
    expect(printed, stdout).not.toBeNull();
    expect(printed![1]).toBe((bytes / 1e6).toFixed(2));
  });
});
