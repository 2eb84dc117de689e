// Shared by the UI tests and scripts/screenshots.ts: a listening gateway on a free port, Debian's
// headless Chromium through playwright-core, and a watcher that records everything a page must
// not do (console errors, uncaught exceptions, requests leaving the gateway's origin).
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { bootKernel } from '../helpers.ts';
import type { Kernel } from '../../kernel/kernel.ts';

export const CHROMIUM_PATH = process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null when they can. */
export function chromiumMissing(): string | null {
  return fs.existsSync(CHROMIUM_PATH)
    ? null
    : `${CHROMIUM_PATH} not found: install Debian's chromium (apt-get install chromium) or set VIGIL_CHROMIUM`;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface Gateway {
  kernel: Kernel;
  base: string;
  stop(): Promise<void>;
}

/** Boots a kernel with config overrides and listens on 127.0.0.1 with free ports. */
export async function startGateway(overrides: Record<string, unknown> = {}): Promise<Gateway> {
  const kernel = await bootKernel({ settings: { overrides } });
  await kernel.listen();
  const addr = kernel.gateway.server.address();
  if (!addr || typeof addr === 'string') throw new Error('the gateway is not listening on a TCP port');
  return { kernel, base: `http://127.0.0.1:${addr.port}`, stop: () => kernel.stop() };
}

export interface PageWatch {
  /** Everything that went wrong so far, as readable lines. */
  problems(): string[];
  /** Resource errors with these HTTP statuses are expected (the test provoked them). */
  expectStatus(...statuses: number[]): void;
}

export function watchPage(page: Page, base: string): PageWatch {
  const origin = new URL(base).origin;
  const problems: string[] = [];
  const expected = new Set<number>();
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // Chromium logs every non-2xx fetch as a console error; a status the test asked for is fine.
    const st = /status of (\d{3})/.exec(m.text());
    if (st && expected.has(Number(st[1]))) return;
    problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught exception: ${e.message}`));
  page.on('request', (r) => {
    const u = r.url();
    if (u.startsWith('data:') || u === 'about:blank') return;
    if (new URL(u).origin !== origin) problems.push(`request left the gateway: ${r.method()} ${u}`);
  });
  page.on('requestfailed', (r) => {
    // A stream the page aborted on purpose (Stop, navigation) is not a failure.
    if (/ERR_ABORTED/.test(r.failure()?.errorText ?? '')) return;
    problems.push(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
  return {
    problems: () => [...problems],
    expectStatus: (...s) => s.forEach((x) => expected.add(x)),
  };
}
