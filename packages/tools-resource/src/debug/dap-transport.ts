/**
 * How a debug session reaches an adapter that serves DAP over TCP: the port it prints when it
 * listens, and a loopback connection to it.
 */
import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { DebugToolError } from './debug-errors.js';

const START_MS = 30_000;

/** The port `child` (an adapter) says it listens on, within 30 s. */
export function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new DebugToolError('DEBUG_ADAPTER', `the adapter printed no listen address within ${START_MS} ms`)),
      START_MS,
    );
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      const m = /listening at:?\s*\[?[\w.:]*?\]?:(\d+)/i.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new DebugToolError('DEBUG_ADAPTER', `the adapter exited before listening: ${seen.trim().slice(-400)}`));
    });
  });
}

/** A connection to loopback `port`. */
export function connectTo(port: number): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', (e) =>
      reject(new DebugToolError('DEBUG_ADAPTER', `could not connect to port ${port}: ${e.message}`, { port })),
    );
  });
}
