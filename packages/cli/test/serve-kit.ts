// `a3s serve` as a real child process for the tests: requests with ids, every line the server
// prints parsed and checked against the shipped JSON Schema (dist/serve.schema.json), and waits
// for notifications.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { A3S, TEST_A3S_HOME } from './kit.js';
import { afterEach } from 'vitest';

/** One message the server printed. */
export type Message = {
  readonly jsonrpc: '2.0';
  readonly id?: string | number | null;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: Record<string, unknown> };
};

/** An `event` notification's params. */
export type Envelope = {
  readonly type: string;
  readonly payload: Record<string, unknown>;
  readonly metadata: { readonly run_id: string; readonly session_id: string; readonly sequence: number };
};

type Validate = ((value: unknown) => boolean) & { errors?: unknown };

let validator: Validate | undefined;
/** The shipped schema, compiled with ajv (core's dependency). */
export function schemaValidator(): Validate {
  if (validator) return validator;
  const fromCore = createRequire(createRequire(import.meta.url).resolve('@a3s-code/core/package.json'));
  const Ajv2020 = fromCore('ajv/dist/2020').default as new (o: object) => { compile(s: object): Validate };
  const schema = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'dist', 'serve.schema.json'), 'utf8'));
  validator = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
  return validator;
}

/** A running `a3s serve`. */
export class Served {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Message[] = [];
  /** Lines that did not match the shipped schema (with ajv's errors). */
  readonly invalid: string[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  #nextId = 1;
  #waiters: (() => void)[] = [];

  constructor(cwd: string, env: Record<string, string> = {}, args: readonly string[] = []) {
    const base = { ...process.env };
    delete base.A3S_MODEL;
    this.child = spawn(process.execPath, [A3S, 'serve', ...args], {
      cwd,
      env: { ...base, A3S_HOME: TEST_A3S_HOME, ...env },
    });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    const validate = schemaValidator();
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Message;
      // A batch's answers come back as one array: each one is a message of the schema.
      for (const one of Array.isArray(message) ? message : [message])
        if (!validate(one))
          this.invalid.push(`${line.slice(0, 2000)}\n${JSON.stringify(validate.errors).slice(0, 2000)}`);
      this.messages.push(message);
      for (const w of this.#waiters.splice(0)) w();
    });
    this.exited = new Promise((r) => this.child.on('exit', (code) => r(code)));
  }

  /** Writes one raw line. */
  line(text: string): void {
    this.child.stdin.write(`${text}\n`);
  }

  /** Writes raw bytes (no newline added). */
  bytes(data: Buffer): void {
    this.child.stdin.write(data);
  }

  /** The next message (at or after index `from`) that is an error with the id null: a parse or batch error. */
  nullError(from: number): Promise<Message> {
    return this.waitFor((m) => m.id === null && m.error !== undefined, from);
  }

  /** Sends a request; resolves with its response (result or error). */
  async request(method: string, params?: unknown): Promise<Message> {
    const id = this.#nextId++;
    this.line(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return this.waitFor((m) => m.id === id && m.method === undefined);
  }

  /** Sends a request; resolves with its result, or rejects with its error. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const r = await this.request(method, params);
    if (r.error) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
    return r.result as T;
  }

  /** The first message (at or after index `from`) matching `match`. */
  waitFor(match: (m: Message) => boolean, from = 0, timeoutMs = 20_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching message in ${timeoutMs} ms; got:\n${this.dump()}`)),
        timeoutMs,
      );
      const check = (): void => {
        const found = this.messages.slice(from).find(match);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else this.#waiters.push(check);
      };
      check();
    });
  }

  /** The `run/result` of a run (the `nth` one, for a run that parked and resumed). */
  async runResult(runId: string, nth = 1): Promise<Record<string, unknown>> {
    const isResult = (x: Message): boolean => x.method === 'run/result' && x.params?.runId === runId;
    await this.waitFor(() => this.messages.filter(isResult).length >= nth);
    return this.messages.filter(isResult)[nth - 1]!.params!;
  }

  /** The events of a run so far, in the order they were sent. */
  events(runId: string): Envelope[] {
    return this.messages
      .filter((m) => m.method === 'event' && (m.params as Envelope).metadata.run_id === runId)
      .map((m) => m.params as unknown as Envelope);
  }

  /** Closes stdin (the server closes every session and exits). */
  end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  dump(): string {
    return `${this.messages.map((m) => JSON.stringify(m).slice(0, 300)).join('\n')}\nstderr: ${this.stderr}`;
  }
}

/**
 * `serve(cwd, args?)` for a test file: each server it starts is killed after the test that
 * started it (registers the `afterEach`).
 */
export function servedPerTest(): (cwd: string, args?: string[]) => Served {
  const running: Served[] = [];
  afterEach(() => {
    for (const s of running.splice(0)) s.child.kill('SIGKILL');
  });
  return (cwd, args = []) => {
    const s = new Served(cwd, {}, args);
    running.push(s);
    return s;
  };
}
