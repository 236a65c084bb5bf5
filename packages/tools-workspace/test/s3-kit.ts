// A real S3 server on loopback for the S3 workspace tests: s3rver, an S3-protocol server in
// Node, in a process of its own (see s3-server.cjs) with a temporary folder and one bucket. It
// checks the access key id (S3RVER) but not Signature Version 4 itself; the signer is checked
// against AWS's published signature examples instead (s3-sigv4.test.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A running server: its endpoint URL, bucket, credentials, and close. */
export interface TestS3 {
  readonly endpoint: string;
  readonly bucket: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  close(): Promise<void>;
}

/** Starts a server with one empty bucket. */
export async function startS3(bucket = 'workspace'): Promise<TestS3> {
  const script = fileURLToPath(new URL('./s3-server.cjs', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'a3s-s3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', script, dir, bucket], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    child.on('exit', (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
