// Installs the packed tarball of the package in the current folder into a fresh project outside the
// repository, then loads it from ESM (`import`) and CommonJS (`require`) and type-checks both, the way a
// user who runs `npm install @ftw/<name>` would. Run by each package's `check:package` script.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const pkgDir = process.cwd();
const { name } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const work = mkdtempSync(join(tmpdir(), 'ftw-pack-'));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

try {
  run('pnpm', ['pack', '--pack-destination', work], pkgDir);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack wrote no tarball for ${name}`);
  const app = join(work, 'app');
  run('mkdir', ['-p', app], work);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'smoke', private: true, type: 'module' }));
  // Workspace dependencies (`workspace:` ranges, e.g. @ftw/selection for @ftw/agent-data, and theirs in
  // turn: @ftw/tfjs → @ftw/trainer → @ftw/objective) are not on the registry yet: pack them too and install
  // their tarballs alongside, as npm would fetch them once published.
  const deps = join(work, 'deps');
  run('mkdir', ['-p', deps], work);
  const packed = new Set();
  const packWorkspaceDeps = (dir) => {
    const { dependencies = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const [dep, range] of Object.entries(dependencies)) {
      if (!String(range).startsWith('workspace:') || packed.has(dep)) continue;
      packed.add(dep);
      const depDir = join(pkgDir, '..', dep.split('/')[1]);
      run('pnpm', ['pack', '--pack-destination', deps], depDir);
      packWorkspaceDeps(depDir);
    }
  };
  packWorkspaceDeps(pkgDir);
  const depTarballs = readdirSync(deps).map((f) => join(deps, f));
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', resolve(work, tarball), ...depTarballs],
    app,
  );

  writeFileSync(
    join(app, 'esm.mjs'),
    `import * as m from '${name}';\nconsole.log(JSON.stringify(Object.keys(m).sort()));\n`,
  );
  writeFileSync(
    join(app, 'cjs.cjs'),
    `const m = require('${name}');\nconsole.log(JSON.stringify(Object.keys(m).sort()));\n`,
  );
  const esm = JSON.parse(run('node', ['esm.mjs'], app));
  const cjs = JSON.parse(run('node', ['cjs.cjs'], app));
  if (esm.length === 0) throw new Error(`${name}: the ESM entry exports nothing`);
  if (JSON.stringify(esm) !== JSON.stringify(cjs.filter((k) => k !== 'default' && k !== '__esModule'))) {
    throw new Error(`${name}: ESM exports ${esm.join(',')} differ from CommonJS exports ${cjs.join(',')}`);
  }

  // Types: both module kinds must resolve the package's declarations (a missing .d.ts is TS7016 here).
  writeFileSync(
    join(app, 'types.mts'),
    `import * as m from '${name}';\nexport const names: string[] = Object.keys(m);\n`,
  );
  writeFileSync(
    join(app, 'types.cts'),
    `import m = require('${name}');\nexport const names: string[] = Object.keys(m);\n`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: ['types.mts', 'types.cts'],
    }),
  );
  run('node', [tsc, '-p', 'tsconfig.json'], app);
  console.log(
    `pack-smoke ${name}: npm install of ${tarball} ok; ESM and CommonJS load ${esm.length} exports; types resolve in both`,
  );
} catch (error) {
  console.error(`pack-smoke ${name} failed:`, error.stderr ?? '', error.stdout ?? '', error.message);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
