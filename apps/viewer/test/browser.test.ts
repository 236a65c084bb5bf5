import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigLog } from './big-log.js';
import { hostileLog } from './hostile-log.js';

// The viewer in a real browser (Debian's chromium through playwright-core), served the way users
// get it: `a3s replay --web` from the built CLI, which ships the built viewer.
const CHROMIUM = '/usr/bin/chromium';
const root = resolve(import.meta.dirname, '..', '..', '..');
const A3S = join(root, 'packages', 'cli', 'dist', 'bin.js');
const corpus = join(root, 'packages', 'effect', 'fixtures', 'v1');
const out = join(root, '.test-results', 'viewer');
const BIG_FACTS = 100_000;
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`viewer browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`);

type Browser = import('playwright-core').Browser;
type Page = import('playwright-core').Page;

let scratch: string;
let server: ChildProcess | undefined;
let url: string;
let browser: Browser | undefined;
let page: Page;

/** A workspace with one real run: a scripted model edits a file, so the log has a recorded diff. */
function editRun(dir: string): void {
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'src', 'range.js'),
    'export function range(start, end) {\n  const out = [];\n  for (let i = start; i < end; i++) out.push(i);\n  return out;\n}\n',
  );
  const model = join(scratch, 'model.json');
  writeFileSync(
    model,
    JSON.stringify({
      turns: [
        {
          text: 'Fixing the bound.',
          tool_calls: [
            {
              id: 'e1',
              name: 'edit',
              args: { file_path: 'src/range.js', old_string: 'i < end', new_string: 'i <= end' },
            },
          ],
        },
        { text: 'Done: range now includes its end.' },
      ],
    }),
  );
  const r = spawnSync(
    process.execPath,
    [A3S, 'run', '--yolo', '--model', `scripted:${model}`, '--cwd', dir, 'include the end'],
    {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  expect(r.stdout).toContain('edit src/range.js');
}

function serve(target: string): Promise<string> {
  server = spawn(process.execPath, [A3S, 'replay', '--web', target], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  return new Promise((ok, fail) => {
    server!.stdout!.on('data', (c: Buffer) => {
      text += c.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
      if (m) ok(m[1]!);
    });
    server!.once('exit', (code) => fail(new Error(`a3s replay --web exited with ${code}: ${text}`)));
  });
}

async function loaded(facts: number): Promise<void> {
  await page.waitForSelector(`body[data-state="loaded"][data-facts="${facts}"]`, { timeout: 30_000 });
}

describe.skipIf(!hasChromium)('viewer in chromium', () => {
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'a3s-viewer-'));
    mkdirSync(out, { recursive: true });
    const ws = join(scratch, 'ws');
    mkdirSync(ws);
    editRun(ws);
    url = await serve(ws);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill('SIGTERM');
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('opens the served log, shows an edit with its diff and permission, and follows a deep link', async () => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await loaded(7);
    // The failed run is highlighted.
    expect(await page.locator('#list .row.s-error').count()).toBeGreaterThan(0);
    await page.locator('#list .row.k-tool', { hasText: 'edit' }).first().click();
    await page.waitForSelector('#detail .diff');
    expect(page.url()).toMatch(/#seq=4$/);
    expect(await page.locator('#detail .diff .d-add').textContent()).toContain('i <= end');
    expect(await page.locator('#detail .diff .d-del').textContent()).toContain('i < end');
    expect(await page.locator('#detail dd[data-key="permission"]').textContent()).toBe('yolo');
    expect(await page.locator('#detail dd[data-key="exit code"]').textContent()).toBe('0');
    await page.screenshot({ path: join(out, 'edit-diff.png'), fullPage: true });

    // A deep link from outside: a fresh load of `#seq=2` lands on the prompt.
    await page.goto(`${url}#seq=2`);
    await page.reload();
    await loaded(7);
    await page.waitForSelector('#detail h2');
    expect(await page.locator('#detail h2').textContent()).toBe('#2 user.message');
    expect(await page.locator('#list .row.selected .seq').textContent()).toBe('2');
    expect(errors).toEqual([]);
  });

  it('opens a corpus log from the file picker and filters it', async () => {
    if (!page.url().startsWith(url)) await page.goto(url);
    await page.setInputFiles('#file', join(corpus, 'permission-denied.jsonl'));
    await loaded(7);
    await page.selectOption('#row-status', 'error');
    await page.waitForFunction(() => document.querySelectorAll('#list .row:not([hidden])').length === 1);
    expect(await page.locator('#list .row:not([hidden]) .title').textContent()).toContain('read');
    await page.click('#list .row:not([hidden])');
    await page.waitForSelector('#detail dd[data-key="permission"]');
    expect(await page.locator('#detail dd[data-key="permission"]').textContent()).toBe('deny');
    await page.selectOption('#row-status', '');

    // Dropped on the page.
    const dropped = await page.evaluateHandle(
      (text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'steer.jsonl'));
        return dt;
      },
      readFileSync(join(corpus, 'steer.jsonl'), 'utf8'),
    );
    await page.dispatchEvent('body', 'drop', { dataTransfer: dropped });
    await page.waitForSelector('#overview .file b:text("steer.jsonl")');
    await loaded(7);
    expect(await page.locator('#list .row', { hasText: 'steer:' }).count()).toBe(1);

    // Not a fact log: the page says which line is wrong.
    await page.setInputFiles('#file', {
      name: 'bad.jsonl',
      mimeType: 'text/plain',
      buffer: Buffer.from('{"seq":1}\nnot json\n'),
    });
    await page.waitForSelector('body[data-state="error"]');
    expect(await page.locator('#status').textContent()).toMatch(/line 1/);
  });

  it('shows a hostile log as text: no markup runs, controls and bidi overrides are marks, odd stamps still show', async () => {
    const errors: string[] = [];
    const onError = (e: Error) => errors.push(e.message);
    page.on('pageerror', onError);
    if (!page.url().startsWith(url)) await page.goto(url);
    await page.setInputFiles('#file', {
      name: 'hostile.jsonl',
      mimeType: 'text/plain',
      buffer: Buffer.from(hostileLog()),
    });
    await page.waitForSelector('#overview .file b:text("hostile.jsonl")');
    await loaded(9);
    for (let seq = 1; seq <= 9; seq++) {
      await page.evaluate((s) => {
        location.hash = `seq=${s}`;
      }, seq);
      // Every fact's detail shows, the ones stamped far outside any date included.
      await page.waitForFunction((s) => document.querySelector('#detail h2')?.textContent?.startsWith(`#${s} `), seq);
    }
    await page.evaluate(() => {
      for (const d of document.querySelectorAll('details')) d.open = true;
    });
    await page.waitForSelector('#overview .turns table');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(
      await page
        .locator('main img, main svg, main script, main style, #overview img, #overview a[href^="javascript"]')
        .count(),
    ).toBe(0);
    const title = await page.locator('#list .row .title').first().textContent();
    expect(title).toContain('<script>');
    expect(title).toContain('reversed <U+202E>gnp.exe<U+202C>');
    expect(title).toContain('^[[31mred');
    // No raw control or bidi override anywhere on the page.
    const text = await page.evaluate(() => (document.body.textContent ?? '') + document.title);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    await page.evaluate(() => {
      location.hash = 'seq=1';
    });
    await page.waitForFunction(() => document.querySelector('#detail h2')?.textContent === '#1 run.started');
    expect(await page.locator('#detail .meta').textContent()).toContain('at_ms 100000000000000000000 (not a date)');
    page.off('pageerror', onError);
    expect(errors).toEqual([]);
  });

  it('refuses a log too large for one browser string with its size, not a log of 0 facts', async () => {
    if (!page.url().startsWith(url)) await page.goto(url);
    // A sparse file: 680 MiB of NULs that take no disk.
    const huge = join(scratch, 'huge.jsonl');
    writeFileSync(huge, '');
    truncateSync(huge, 680 * 1024 * 1024);
    await page.setInputFiles('#file', huge);
    await page.waitForSelector('body[data-state="error"]', { timeout: 60_000 });
    expect(await page.locator('#status').textContent()).toMatch(
      /the log is 680 MiB \(713031680 bytes\); the viewer reads logs of at most 512 MiB/,
    );
    rmSync(huge);
  });

  it('names a dropped file the browser cannot read instead of doing nothing', async () => {
    if (!page.url().startsWith(url)) await page.goto(url);
    // A real file, picked in an input the page does not watch, then deleted before it is dropped:
    // the browser refuses to read a file that is gone (and, having looked again, calls it 0 bytes).
    const gone = join(scratch, 'unreadable.jsonl');
    writeFileSync(gone, 'x');
    await page.evaluate(() => {
      const stash = document.createElement('input');
      stash.type = 'file';
      stash.id = 'stash';
      stash.hidden = true;
      document.body.append(stash);
    });
    await page.setInputFiles('#stash', gone);
    rmSync(gone);
    await page.evaluate(() => {
      const stash = document.getElementById('stash') as HTMLInputElement;
      const drop = new Event('drop', { cancelable: true });
      Object.defineProperty(drop, 'dataTransfer', { value: { files: stash.files } });
      window.dispatchEvent(drop);
      stash.remove();
    });
    await page.waitForSelector('body[data-state="error"]', { timeout: 60_000 });
    expect(await page.locator('#status').textContent()).toMatch(
      /^Could not read unreadable\.jsonl \(\d+ bytes\): Not(Found|Readable)Error: \S/,
    );
  });

  it(`loads and scrolls a ${BIG_FACTS / 1000}k-fact log with no long task over 200 ms`, {
    timeout: 60_000,
    retry: 2,
  }, async () => {
    const big = join(scratch, 'big.jsonl');
    const log = bigLog(BIG_FACTS);
    writeFileSync(big, log.text);
    // A fresh page each attempt (a retry must not find the last attempt's log already shown).
    await page.goto(url);
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[][] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
      }).observe({ type: 'longtask' });
    });
    const started = Date.now();
    await page.setInputFiles('#file', big);
    await loaded(log.facts);
    const loadMs = Date.now() - started;
    const phases: Record<string, number> = {};
    const mark = async (name: string) => {
      phases[name] = Math.round(await page.evaluate(() => performance.now()));
    };
    await mark('loaded');
    // Scroll through the whole list in 40 animation frames, then follow a deep link and filter.
    const scrolled = await page.evaluate(async () => {
      const list = document.getElementById('list')!;
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      for (let i = 1; i <= 40; i++) {
        list.scrollTop = (list.scrollHeight * i) / 40;
        await frame();
      }
      return document.querySelectorAll('#list .row:not([hidden])').length;
    });
    expect(scrolled).toBeGreaterThan(10);
    await mark('scrolled');
    const deep = log.facts - 10;
    await page.evaluate((seq) => {
      location.hash = `seq=${seq}`;
    }, deep);
    await page.waitForFunction(
      (seq) => document.querySelector('#detail h2')?.textContent?.startsWith(`#${seq} `),
      deep,
    );
    await mark('deep-linked');
    await page.fill('#q', 'one test still fails');
    await page.waitForFunction(() => / of \d+ facts shown$/.test(document.getElementById('status')!.textContent ?? ''));
    await mark('filtered');
    // A deep link to a fact the filter hides clears the filter and lands on it.
    await page.evaluate(() => {
      location.hash = 'seq=1';
    });
    await page.waitForFunction(() => document.querySelector('#list .row.selected .seq')?.textContent === '1');
    expect(await page.inputValue('#q')).toBe('');
    const fold = await page.locator('#overview .file').textContent();
    // [start, duration] of each long task on the page's thread, in ms.
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[][] }).longTasks);
    const max = Math.max(0, ...longTasks.map((t) => t[1]!));
    const measures = await page.evaluate(() =>
      performance.getEntriesByType('measure').map((m) => [m.name, Math.round(m.startTime), Math.round(m.duration)]),
    );
    const figures = { facts: log.facts, loadMs, fold, maxLongTaskMs: max, longTasks, measures, phases };
    writeFileSync(join(out, 'big-log.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`viewer ${BIG_FACTS} facts: ${JSON.stringify(figures)}`);
    await page.screenshot({ path: join(out, 'big-log.png') });
    expect(max).toBeLessThan(200);
    // A long task is wall time on the page's thread: on a machine this loaded (the whole suite,
    // language servers and kernels beside the browser) one frame of the scroll was once held 215 ms
    // with the viewer's own work under 50 ms. Retried, so only a slowness that repeats fails.
  });
});
