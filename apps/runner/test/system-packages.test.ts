// The repository's set-up check (scripts/system-packages.mjs), run as `pnpm verify` and `pnpm test:e2e` run
// it: a real node process with a PATH made for each case. FTW_NO_INSTALL=1 keeps it from installing, so
// the "missing" message is what a user without root meets.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = new URL('../../../scripts/system-packages.mjs', import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), 'ftw-system-packages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder holding `node` and an executable stand-in for each named program. */
function pathWith(name: string, programs: string[]): string {
  const dir = join(root, name);
  mkdirSync(dir);
  symlinkSync(process.execPath, join(dir, 'node'));
  for (const program of programs) {
    writeFileSync(join(dir, program), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, program), 0o755);
  }
  return dir;
}

function run(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    env: { FTW_NO_INSTALL: '1', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('scripts/system-packages.mjs', () => {
  it('stops with one line naming each missing program, its Debian package and the install command', () => {
    const { status, stdout, stderr } = run(['redis-server', 'redis-cli', 'chromium'], {
      PATH: pathWith('bare', []),
    });
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('redis-server (Debian package redis-server)');
    expect(stderr).toContain('redis-cli (Debian package redis-tools)');
    expect(stderr).toContain('chromium (Debian package chromium)');
    expect(stderr).toContain('apt-get install -y --no-install-recommends redis-server redis-tools chromium');
  });

  it('names only what is missing', () => {
    const { status, stderr } = run(['redis-server', 'redis-cli', 'chromium'], {
      PATH: pathWith('some', ['redis-server', 'redis-cli']),
    });
    expect(status).toBe(1);
    expect(stderr).toContain('chromium (Debian package chromium)');
    expect(stderr).not.toContain('redis');
  });

  it('passes silently when every program is on PATH, or chromium is named by CHROMIUM', () => {
    const all = pathWith('all', ['redis-server', 'redis-cli', 'chromium']);
    expect(run(['redis-server', 'redis-cli', 'chromium'], { PATH: all })).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
    const redisOnly = pathWith('redis-only', ['redis-server', 'redis-cli']);
    const chromium = join(all, 'chromium');
    expect(run(['chromium'], { PATH: redisOnly, CHROMIUM: chromium }).status).toBe(0);
    expect(run(['chromium'], { PATH: redisOnly, CHROMIUM: join(root, 'no-such-file') }).status).toBe(1);
  });

  it('checks only the programs it is asked for', () => {
    expect(run(['redis-server'], { PATH: pathWith('server-only', ['redis-server']) }).status).toBe(0);
  });

  it('refuses a program it does not know, naming it', () => {
    const { status, stderr } = run(['redis-sever'], { PATH: pathWith('typo', []) });
    expect(status).toBe(2);
    expect(stderr).toContain('unknown program redis-sever');
  });
});
