// The runner's own layering, checked on its import graph (tests and test helpers excluded). Floors, from
// the bottom: cli's helpers (usage errors, progress, output options); random; config; train and sokoban
// (environments, policies, the runner's side of training); run (run folders and their reports); async and
// dataset; commands; the entry points (src/cli.ts; src/main.ts, the command table; src/training.ts).
// Charts, tables, statistics and the HTML page are @ftw/report's. A module may import from its own floor
// or below, and no file may reach itself through its imports.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNNER } from './build-cli.js';

const SRC = join(RUNNER, 'src');
const FLOORS: Record<string, number> = {
  cli: 0,
  random: 1,
  config: 3,
  train: 4,
  sokoban: 4,
  run: 5,
  async: 6,
  dataset: 6,
  commands: 7,
  '.': 8,
};
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative(SRC, path)] : [];
  });
}

const IMPORT = /(?:from\s+|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const graph = new Map<string, string[]>(
  sources(SRC).map((file) => {
    const text = readFileSync(join(SRC, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) =>
      normalize(join(dirname(file), m[1]!)).replace(/\.js$/, '.ts'),
    );
    return [file, targets];
  }),
);
const floorOf = (file: string): number => {
  const folder = file.includes('/') ? file.split('/')[0]! : '.';
  const floor = FLOORS[folder];
  if (floor === undefined) throw new Error(`no floor for the folder of ${file}: add it to FLOORS`);
  return floor;
};

describe('the runner’s modules', () => {
  it('import nothing from a floor above their own', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((t) => floorOf(t) > floorOf(file)).map((t) => `${file} -> ${t}`),
    );
    expect(upward).toEqual([]);
  });

  it('form no import circle', () => {
    // Tarjan's strongly connected components; a component of more than one file is a circle.
    let index = 0;
    const order = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const circles: string[] = [];
    const visit = (v: string): void => {
      order.set(v, index);
      low.set(v, index++);
      stack.push(v);
      for (const w of graph.get(v) ?? []) {
        if (!order.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
      }
      if (low.get(v) === order.get(v)) {
        const component: string[] = [];
        for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) component.push(w);
        if (component.length > 1) circles.push(component.sort().join(' '));
      }
    };
    for (const v of graph.keys()) if (!order.has(v)) visit(v);
    expect(circles).toEqual([]);
  });
});
