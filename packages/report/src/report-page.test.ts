import { describe, expect, it } from 'vitest';
import { pageAssets } from './page-assets.js';
import { reportPage } from './report-page.js';
import type { RunData } from './run-data.js';

const run: RunData = {
  name: 'k<3',
  config: { command: 'train', method: 'ftw', environment: { kind: 'gaussian', means: [1, 0.3] } },
  metrics: [0, 1].flatMap((seed) =>
    [1, 2, 3].map((t) => ({ seed, iteration: t, samples: t, reward: t / 4 + seed / 10 })),
  ),
  summary: {},
};

describe('reportPage', () => {
  it('writes one page that inlines the built script after the model, with every text escaped', () => {
    const html = reportPage([run], { describeEnvironment: (env) => `${String(env['kind'])} bandit` });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<title>ftw view: k&lt;3</title>');
    expect(html).toContain('<h2>gaussian bandit</h2>');
    // The model as JSON (no `<` that could end its element), then the script, as built.
    const data = html.indexOf('<script type="application/json" id="ftw-data">');
    const script = html.indexOf('<script data-name="ftw view">');
    expect(data).toBeGreaterThan(0);
    expect(script).toBeGreaterThan(data);
    expect(html.slice(data, script)).not.toMatch(/"k<3"/);
    expect(pageAssets().scripts[0]!.source.length).toBeGreaterThan(100_000);
    // The page asks for nothing: every script and style is inline.
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script[^>]+src=/);
  });
});
