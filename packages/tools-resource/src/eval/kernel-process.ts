/**
 * One live kernel: a child process in its own process group speaking JSON lines over its stdio.
 * A cell runs under an inactivity budget that every message from the kernel renews and that is
 * paused while a `tool()` bridge call is outstanding; on expiry, or when the session closes, the
 * whole process group is killed. Output is capped (head and tail kept, exact total reported).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { descendants, killAll } from '../shared/process-tree.js';
import { EvalToolError } from './eval-errors.js';

/** The languages a kernel can run. */
export type EvalLanguage = 'python' | 'javascript';

/** What a bridge call returns to the kernel. */
export interface BridgeReply {
  readonly ok: boolean;
  readonly output: string;
}

/** A PNG (or other image) a cell produced, base64-encoded. */
export interface CellImage {
  readonly mime: string;
  readonly data: string;
}

/** The outcome of one cell. */
export interface CellResult {
  readonly ok: boolean;
  /** stdout, stderr and displays interleaved as they arrived, capped. */
  readonly output: string;
  /** Total characters of output before capping. */
  readonly outputChars: number;
  readonly truncated: boolean;
  /** The echo of the last expression, when there was one. */
  readonly echo?: string;
  /** The formatted error when the cell raised. */
  readonly error?: string;
  readonly images: readonly CellImage[];
  readonly bridgeCalls: number;
}

/** How a cell runs. */
export interface CellOptions {
  /** Inactivity budget in milliseconds. */
  readonly inactivityMs: number;
  /** Output cap in characters (head and tail kept). */
  readonly maxOutputChars: number;
  /** Handles `tool(name, args)` from inside the cell. */
  readonly bridge: (name: string, args: unknown) => Promise<BridgeReply>;
  /** Cancels the cell (the kernel is killed). */
  readonly signal?: AbortSignal;
  /** Live output. */
  readonly onOutput?: (text: string, stream: 'stdout' | 'stderr') => void;
}

/** How to start a kernel. */
export interface KernelCommand {
  readonly language: EvalLanguage;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
}

type Message = Record<string, unknown> & { type?: string };

class Capped {
  readonly #max: number;
  #head = '';
  #tail = '';
  total = 0;
  constructor(max: number) {
    this.#max = max;
  }
  push(text: string): void {
    this.total += text.length;
    const half = Math.floor(this.#max / 2);
    if (this.#head.length < half) {
      const room = half - this.#head.length;
      this.#head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text !== '') this.#tail = (this.#tail + text).slice(-half);
  }
  get truncated(): boolean {
    return this.total > this.#head.length + this.#tail.length;
  }
  text(): string {
    if (!this.truncated) return this.#head + this.#tail;
    const cut = this.total - this.#head.length - this.#tail.length;
    return `${this.#head}\n[… ${cut} characters of output cut …]\n${this.#tail}`;
  }
}

/** A started kernel. */
export class KernelProcess {
  readonly language: EvalLanguage;
  readonly #child: ChildProcess;
  readonly #listeners = new Set<(m: Message) => void>();
  #exit: { code: number | null; signal: string | null } | undefined;
  readonly #exitWaiters = new Set<() => void>();
  #stderr = '';
  #busy = false;
  #runs = 0;
  /** The kernel's process id. */
  readonly pid: number;

  private constructor(language: EvalLanguage, child: ChildProcess) {
    this.language = language;
    this.#child = child;
    this.pid = child.pid ?? -1;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let msg: Message;
      try {
        const parsed: unknown = JSON.parse(line);
        msg =
          typeof parsed === 'object' && parsed !== null
            ? (parsed as Message)
            : { type: 'stream', stream: 'stdout', text: `${line}\n` };
      } catch {
        msg = { type: 'stream', stream: 'stdout', text: `${line}\n` };
      }
      for (const l of this.#listeners) l(msg);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-4000);
      for (const l of this.#listeners) l({ type: 'stream', stream: 'stderr', text: chunk });
    });
    child.on('exit', (code, signal) => {
      this.#exit = { code, signal };
      for (const w of this.#exitWaiters) w();
    });
    child.stdin!.on('error', () => {});
  }

  /** Starts a kernel and waits for its `ready` message; `where` names the host or sandbox in errors. */
  static async start(cmd: KernelCommand, startTimeoutMs = 20_000, where = 'host'): Promise<KernelProcess> {
    const child = spawn(cmd.command, [...cmd.args], {
      cwd: cmd.cwd,
      env: { ...process.env, PYTHONUNBUFFERED: '1', MPLBACKEND: 'Agg', ...cmd.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const kernel = new KernelProcess(cmd.language, child);
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        kernel.#listeners.delete(onMsg);
        kernel.#exitWaiters.delete(onExit);
        kernel.kill();
        reject(
          new EvalToolError(
            'EVAL_KERNEL_START',
            `the ${cmd.language} kernel (${cmd.command}) did not start${where === 'host' ? '' : ` in the ${where}`}: ${why}`,
            { command: cmd.command, runs_in: where },
          ),
        );
      };
      const onMsg = (m: Message) => {
        if (m.type !== 'ready') return;
        clearTimeout(timer);
        kernel.#listeners.delete(onMsg);
        kernel.#exitWaiters.delete(onExit);
        resolve();
      };
      const onExit = () =>
        fail(`it exited (${kernel.#exitText()})${kernel.#stderr ? `: ${kernel.#stderr.trim().slice(-600)}` : ''}`);
      const timer = setTimeout(() => fail(`no ready message within ${startTimeoutMs} ms`), startTimeoutMs);
      child.on('error', (e) => fail(e.message));
      kernel.#listeners.add(onMsg);
      kernel.#exitWaiters.add(onExit);
    });
    return kernel;
  }

  /** True while the process runs. */
  get alive(): boolean {
    return this.#exit === undefined;
  }

  /** Cells run so far. */
  get runs(): number {
    return this.#runs;
  }

  #exitText(): string {
    const e = this.#exit;
    return e === undefined ? 'running' : e.signal !== null ? `signal ${e.signal}` : `exit code ${e.code}`;
  }

  #send(msg: Record<string, unknown>): void {
    this.#child.stdin!.write(`${JSON.stringify(msg)}\n`);
  }

  /** Runs one cell. Throws `EVAL_TIMEOUT` or `EVAL_KERNEL_DIED` (the kernel is then dead). */
  run(code: string, options: CellOptions): Promise<CellResult> {
    if (!this.alive)
      return Promise.reject(
        new EvalToolError('EVAL_KERNEL_DIED', `the ${this.language} kernel is not running (${this.#exitText()})`),
      );
    if (this.#busy)
      return Promise.reject(
        new EvalToolError(
          'EVAL_BUSY',
          `the ${this.language} kernel is already running a cell; eval runs one cell at a time per language`,
        ),
      );
    this.#busy = true;
    this.#runs += 1;
    const id = this.#runs;
    const out = new Capped(options.maxOutputChars);
    const images: CellImage[] = [];
    let echo: string | undefined;
    let bridgeCalls = 0;
    let outstanding = 0;
    return new Promise<CellResult>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = outstanding > 0 ? undefined : setTimeout(onTimeout, options.inactivityMs);
      };
      let settled = false;
      const finish = (error?: EvalToolError, result?: CellResult) => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) clearTimeout(timer);
        this.#listeners.delete(onMsg);
        this.#exitWaiters.delete(onExit);
        options.signal?.removeEventListener('abort', onAbort);
        this.#busy = false;
        if (error) reject(error);
        else resolve(result!);
      };
      const partial = () => ({ output: out.text(), output_chars: out.total });
      const onTimeout = () => {
        this.#exitWaiters.delete(onExit);
        void this.close().then(() =>
          finish(
            new EvalToolError(
              'EVAL_TIMEOUT',
              `the cell produced nothing for ${options.inactivityMs} ms and the ${this.language} kernel was killed; its state is lost and the next call starts a fresh kernel`,
              partial(),
            ),
          ),
        );
      };
      const onExit = () =>
        finish(
          new EvalToolError(
            'EVAL_KERNEL_DIED',
            `the ${this.language} kernel died during the cell (${this.#exitText()}); its state is lost and the next call starts a fresh kernel`,
            partial(),
          ),
        );
      const onAbort = () => {
        this.#exitWaiters.delete(onExit);
        void this.close().then(() =>
          finish(
            new EvalToolError(
              'EVAL_KERNEL_DIED',
              `the cell was cancelled and the ${this.language} kernel was killed`,
              partial(),
            ),
          ),
        );
      };
      const onMsg = (m: Message) => {
        arm();
        switch (m.type) {
          case 'stream': {
            const text = String(m.text ?? '');
            const stream = m.stream === 'stderr' ? 'stderr' : 'stdout';
            out.push(text);
            options.onOutput?.(text, stream);
            return;
          }
          case 'display': {
            const text = String(m.text ?? '');
            if (m.echo === true) echo = text;
            else {
              out.push(`${text}\n`);
              options.onOutput?.(`${text}\n`, 'stdout');
            }
            return;
          }
          case 'image':
            images.push({ mime: String(m.mime ?? 'image/png'), data: String(m.data ?? '') });
            return;
          case 'bridge': {
            bridgeCalls += 1;
            outstanding += 1;
            arm();
            const bid = m.id;
            options
              .bridge(String(m.name ?? ''), m.args ?? {})
              .catch((e: unknown) => ({ ok: false, output: e instanceof Error ? e.message : String(e) }))
              .then((reply) => {
                outstanding -= 1;
                arm();
                if (this.alive) this.#send({ type: 'bridge_result', id: bid, ok: reply.ok, output: reply.output });
              });
            return;
          }
          case 'done':
            if (m.id !== id) return;
            finish(undefined, {
              ok: m.ok === true,
              output: out.text(),
              outputChars: out.total,
              truncated: out.truncated,
              images,
              bridgeCalls,
              ...(echo === undefined ? {} : { echo }),
              ...(m.ok === true ? {} : { error: String(m.error ?? 'the cell failed') }),
            });
            return;
          default:
            return;
        }
      };
      if (options.signal?.aborted) {
        this.#busy = false;
        reject(new EvalToolError('EVAL_KERNEL_DIED', 'the cell was cancelled before it started'));
        return;
      }
      this.#listeners.add(onMsg);
      this.#exitWaiters.add(onExit);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      arm();
      this.#send({ type: 'run', id, code });
    });
  }

  /** Kills the kernel's whole process group. */
  kill(): void {
    // Children that left the group (setsid, detached) are found before the kernel dies and they are reparented.
    const tree = descendants(this.pid);
    try {
      process.kill(-this.pid, 'SIGKILL');
    } catch {
      if (this.#exit === undefined) this.#child.kill('SIGKILL');
    }
    killAll(tree);
  }

  /** Kills the kernel and waits for it to exit. */
  async close(): Promise<void> {
    if (this.#exit !== undefined) {
      this.kill();
      return;
    }
    const exited = new Promise<void>((r) => this.#exitWaiters.add(r));
    this.kill();
    await exited;
  }
}
