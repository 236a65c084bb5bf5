/**
 * The headless-browser engine (tier `browser`): Debian's `chromium` driven by
 * `playwright-core`, for results pages that need JavaScript. Everything is lazy: playwright-core
 * is imported, the executable discovered and the browser launched only on the first search that
 * reaches this tier. The browser is shared by the session's searches and closed after it has been
 * idle for `idleMs`, or by `close()`.
 *
 * Private-network guard (unless the request allows the private network): the results-page URL
 * is checked before anything is launched, and every request the page makes is checked by a
 * route handler (non-http(s) schemes and internal addresses are aborted). Chromium resolves
 * names itself and Playwright does not route redirect hops, so for this tier a redirect to an
 * internal address is detected only after chromium sent it (the search then fails `blocked`) and
 * a name that changes its answer between the check and chromium's own lookup is not pinned.
 */
import { access, constants } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { parseResultsPage } from './http-engines.js';
import { checkHop, parseWebUrl } from './network-guard.js';
import { SearchEngineError } from './search-engine-error.js';
import type { SearchEngine, SearchHit } from './search-types.js';
import { WebError } from './web-errors.js';

/** Flags for headless chromium on our machines (STACK.md). */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where chromium is looked for, after `executablePath` and `$A3S_CHROMIUM_PATH`. */
export const CHROMIUM_CANDIDATES: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** Options of {@link browserEngine}. */
export interface BrowserEngineOptions {
  /** Engine name. Default `browser`. */
  readonly name?: string;
  /** Results page URL with `{query}`. Default `https://duckduckgo.com/html/?q={query}`. */
  readonly urlTemplate?: string;
  /** Chromium binary; default: `$A3S_CHROMIUM_PATH`, then {@link CHROMIUM_CANDIDATES}. */
  readonly executablePath?: string;
  /** Close the browser after this long without searches, in ms. Default 30000. */
  readonly idleMs?: number;
  /** CSS selector to wait for before reading the page. Default `.result`. */
  readonly waitFor?: string;
}

/** Finds a chromium executable, or `undefined`. */
export async function findChromium(explicit?: string): Promise<string | undefined> {
  const candidates = [explicit, process.env.A3S_CHROMIUM_PATH, ...CHROMIUM_CANDIDATES].filter(
    (p): p is string => typeof p === 'string' && p.length > 0,
  );
  for (const p of candidates) {
    try {
      await access(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  return undefined;
}

/** A browser engine plus a probe for tests and diagnostics. */
export interface BrowserSearchEngine extends SearchEngine {
  /** `true` once a browser has been launched (lazy initialisation is observable). */
  launched(): boolean;
  close(): Promise<void>;
}

/** Creates the browser engine. Nothing is imported or launched until the first search. */
export function browserEngine(o: BrowserEngineOptions = {}): BrowserSearchEngine {
  const name = o.name ?? 'browser';
  const template = o.urlTemplate ?? 'https://duckduckgo.com/html/?q={query}';
  const idleMs = o.idleMs ?? 30_000;
  let browser: Promise<Browser> | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let active = 0;

  const launch = async (): Promise<Browser> => {
    const executablePath = await findChromium(o.executablePath);
    if (executablePath === undefined)
      throw new SearchEngineError(
        name,
        'unavailable',
        `no chromium found (set executablePath or A3S_CHROMIUM_PATH; tried ${CHROMIUM_CANDIDATES.join(', ')})`,
      );
    const { chromium } = await import('playwright-core');
    return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_FLAGS] });
  };
  const close = async (): Promise<void> => {
    if (idle !== undefined) clearTimeout(idle);
    const b = browser;
    browser = undefined;
    if (b !== undefined) await b.then((x) => x.close()).catch(() => undefined);
  };
  const armIdle = (): void => {
    if (idle !== undefined) clearTimeout(idle);
    if (active > 0) return;
    idle = setTimeout(() => void close(), idleMs);
    idle.unref();
  };

  return {
    name,
    tier: 'browser',
    launched: () => browser !== undefined,
    close,
    async search(r): Promise<readonly SearchHit[]> {
      const guarded = r.allowPrivateNetwork !== true;
      const url = template.replace('{query}', encodeURIComponent(r.query));
      // The results page itself is checked before a browser is launched for it.
      if (guarded) await checkHop(parseWebUrl(url));
      active += 1;
      if (idle !== undefined) clearTimeout(idle);
      try {
        if (browser === undefined) {
          const p = launch();
          browser = p;
          p.catch(() => {
            if (browser === p) browser = undefined;
          });
        }
        const b = await browser;
        const context = await b.newContext({ javaScriptEnabled: true });
        const onAbort = (): void => void context.close().catch(() => undefined);
        r.signal.addEventListener('abort', onAbort, { once: true });
        // A refused redirect hop fails the search; a refused subresource is only left out.
        let refusedHop: WebError | undefined;
        let refusedAny: WebError | undefined;
        try {
          if (guarded) {
            await context.route('**/*', async (route) => {
              try {
                await checkHop(parseWebUrl(route.request().url()));
                await route.continue();
              } catch (e) {
                if (e instanceof WebError) refusedAny ??= e;
                await route.abort('blockedbyclient').catch(() => undefined);
              }
            });
            // Playwright does not route redirect hops: check each as it is issued, and fail the search.
            context.on('request', (req) => {
              if (req.redirectedFrom() === null) return;
              checkHop(parseWebUrl(req.url())).catch((e: unknown) => {
                if (!(e instanceof WebError) || e.kind !== 'blocked') return;
                refusedHop ??= e;
                void context.close().catch(() => undefined);
              });
            });
          }
          const page = await context.newPage();
          await page.goto(url, { timeout: r.timeoutMs, waitUntil: 'domcontentloaded' });
          await page.waitForSelector(o.waitFor ?? '.result', { timeout: r.timeoutMs }).catch(() => undefined);
          const html = await page.content();
          if (refusedHop !== undefined) throw refusedHop;
          return parseResultsPage(html, url, r.limit);
        } catch (e) {
          const refused =
            refusedHop ?? (e instanceof Error && /ERR_BLOCKED_BY_CLIENT/.test(e.message) ? refusedAny : undefined);
          if (refused !== undefined)
            throw new SearchEngineError(
              name,
              refused.kind === 'blocked' ? 'blocked' : 'parse',
              refused.message,
              undefined,
              refused,
            );
          if (r.signal.aborted)
            throw new SearchEngineError(name, 'cancelled', 'the search was cancelled', undefined, e);
          const msg = e instanceof Error ? e.message.split('\n')[0]! : String(e);
          throw new SearchEngineError(name, /timeout/i.test(msg) ? 'timeout' : 'transport', msg, undefined, e);
        } finally {
          r.signal.removeEventListener('abort', onAbort);
          await context.close().catch(() => undefined);
        }
      } finally {
        active -= 1;
        armIdle();
      }
    },
  };
}
