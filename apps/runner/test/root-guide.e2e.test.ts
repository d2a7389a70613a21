// Runs the root README's guide "Your own environment, your own agent logs" as a user would: its TypeScript
// block against @ftw/trainer (types stripped, each console.log checked against the comment line after it),
// and its `ftw dataset` command, verbatim, through the built CLI in a fresh folder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import * as trainer from '@ftw/trainer';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCli, RUNNER } from './build-cli.js';

const ROOT = join(RUNNER, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const guide = /## Your own environment, your own agent logs\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
const root = mkdtempSync(join(tmpdir(), 'ftw-root-guide-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The fenced blocks of a section of the guide, by language. */
function blocks(section: string, lang: string): string[] {
  const text = new RegExp(`### ${section}\\n([\\s\\S]*?)(?=\\n### |$)`).exec(guide)?.[1] ?? '';
  return [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``, 'g'))].map((m) => m[1]!);
}

describe('the root README guide', () => {
  it('trains a user-written environment with @ftw/trainer and prints what its comments say', () => {
    const [block] = blocks('Train with FTW on your environment', 'ts');
    expect(block).toMatch(/class \w+ implements Environment/);
    const lines = block!.split('\n');
    const expected = lines.flatMap((line, k) =>
      line.includes('console.log(') && lines[k + 1]?.startsWith('// ') ? [lines[k + 1]!.slice(3)] : [],
    );
    const js = ts.transpileModule(block!.replace(/import \{[^}]*\} from '@ftw\/trainer';/, ''), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    const printed: string[] = [];
    const console = { log: (...args: unknown[]) => printed.push(format(...args)) };
    new Function('lib', 'console', `const { ${Object.keys(trainer).join(', ')} } = lib;\n${js}`)(
      trainer,
      console,
    );
    expect(expected).toHaveLength(1);
    expect(printed).toEqual(expected);
  });

  it('turns the example agent log into a fine-tuning file with the command it shows', async () => {
    const { cli, remove } = await buildCli();
    try {
      const [command] = blocks('From agent logs to a fine-tuning file', 'sh');
      const [output] = blocks('From agent logs to a fine-tuning file', 'text');
      const args = command!
        .replace(/\\\n\s*/g, '')
        .trim()
        .split(/\s+/);
      expect(args.slice(0, 3)).toEqual(['node', 'apps/runner/dist/cli.js', 'dataset']);
      // A user's folder in which the repository's paths resolve as they do at its root.
      symlinkSync(join(ROOT, 'apps'), join(root, 'apps'));
      const run = spawnSync(process.execPath, [cli, ...args.slice(2)], { cwd: root, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      for (const line of output!.split('\n')) expect(run.stdout).toContain(line);
      const written = readFileSync(join(root, 'sft.jsonl'), 'utf8').trim().split('\n');
      expect(written).toHaveLength(32);
      for (const line of written) expect(JSON.parse(line).messages.at(-1).role).toBe('assistant');
      const manifest = JSON.parse(readFileSync(join(root, 'sft.manifest.json'), 'utf8'));
      expect(manifest.configuration).toMatchObject({
        from: 'openai',
        capacity: 24,
        batchSize: 4,
        keep: 1,
        batches: 32,
      });
    } finally {
      remove();
    }
  });
});
