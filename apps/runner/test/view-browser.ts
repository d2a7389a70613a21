/// <reference lib="dom" />
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { RUNNER } from './build-cli.js';

/** Where the browser tests save screenshots for a person to look at (git-ignored). */
export const ARTIFACTS = join(RUNNER, 'test-artifacts');

/** Debian's Chromium: `CHROMIUM` if set, else the one on PATH. */
function chromiumPath(): string {
  if (process.env['CHROMIUM'] !== undefined) return process.env['CHROMIUM'];
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    } catch {
      // try the next name
    }
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error(
    'Chromium not found: install Debian chromium (apt-get install -y chromium) or set CHROMIUM',
  );
}

/**
 * Launches headless Chromium (one per test file). The flags keep it from calling Google's services, which
 * are unreachable here and would log errors; playwright gives it a fresh temporary profile and removes it.
 */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Headless Chromium otherwise preloads its omnibox's web UI at each new page, parsing scripts on
      // background threads that compete with the page (and the other test files) for the cores.
      '--disable-features=PreloadTopChromeWebUI',
    ],
  });
}

/** A page opened on a report, with everything it asked for and everything that went wrong. */
export interface OpenedPage {
  readonly page: Page;
  /** Every request the page made (URL), allowed or not. */
  readonly requests: string[];
  /** Requests that were blocked (anything but the file itself and data: URLs) or failed. */
  readonly blocked: string[];
  /** Console errors and uncaught exceptions. */
  readonly errors: string[];
  /** Console warnings. */
  readonly warnings: string[];
  readonly close: () => Promise<void>;
}

/**
 * Opens an HTML file in a fresh browser context whose every request is intercepted: only the file itself
 * and `data:` URLs are served, anything else is aborted and recorded. Waits until the page's `ready`.
 */
export async function openReport(browser: Browser, file: string, width = 1400): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width, height: 1000 } });
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  const blocked: string[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  await context.route('**/*', async (route) => {
    const requested = route.request().url();
    requests.push(requested);
    if (requested === url || requested.startsWith('data:')) await route.continue();
    else {
      blocked.push(requested);
      await route.abort();
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('requestfailed', (request) => blocked.push(`${request.url()} (${request.failure()?.errorText})`));
  await page.goto(url);
  await page.evaluate(() => (window as unknown as { ftwView: { ready: Promise<void> } }).ftwView.ready);
  return { page, requests, blocked, errors, warnings, close: () => context.close() };
}
