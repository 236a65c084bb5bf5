/**
 * Where a project points a server that does not list its files outside the workspace, read from
 * the project's own files (fail closed: a path that is spelled but cannot be resolved is not
 * counted, one that resolves outside is, links resolved). Manifests: `go.mod` `replace … => path`
 * and `go.work` `use path` (gopls), `path = "…"` in `Cargo.toml` (rust-analyzer), `path:` in
 * `pubspec.yaml` (Dart), include folders and files in `compile_flags.txt` and
 * `compile_commands.json` (clangd, whose `directory` outside counts too). Sources: C and C++
 * `#include "…"` (followed through the workspace's own headers), Rust `include!`,
 * `include_str!`, `include_bytes!` and `#[path = "…"]`, Dart `import`, `export` and `part` of a
 * file URI or a relative path.
 */
import { existsSync, readSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutsideCheck } from './outside-text.js';
import { withRegularFileSync } from '../shared/regular-file.js';

/** A manifest's largest size read; a larger one is not parsed. */
const MAX_MANIFEST = 1 << 20;
/** How many of the workspace's own headers an `#include` chain is followed through. */
const MAX_HEADERS = 200;

const LOCAL = (p: string) => p.startsWith('/') || p.startsWith('./') || p.startsWith('../') || p.startsWith('~/');

const MANIFESTS: readonly { file: string; paths: (text: string) => string[] }[] = [
  { file: 'go.mod', paths: (t) => [...t.matchAll(/=>\s*(\S+)/g)].map((m) => m[1]!).filter(LOCAL) },
  {
    file: 'go.work',
    paths: (t) => [...t.replace(/\/\/.*$/gm, '').matchAll(/(?:^|[\s(])((?:\.{1,2}|~)?\/[^\s)]*)/g)].map((m) => m[1]!),
  },
  { file: 'Cargo.toml', paths: (t) => [...t.matchAll(/\bpath\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]!) },
  { file: 'pubspec.yaml', paths: (t) => [...t.matchAll(/\bpath:\s*["']?([^"'\s#]+)/g)].map((m) => m[1]!) },
  { file: 'compile_flags.txt', paths: (t) => flagPaths(t.split('\n').map((l) => l.trim())) },
];

const PATH_FLAGS = ['-I', '-isystem', '-iquote', '-idirafter', '-include', '-imacros', '--include-directory=', '-F'];

/** The paths compiler arguments name: include folders and files, response files (`@file`). */
function flagPaths(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('@')) out.push(a.slice(1));
    const flag = PATH_FLAGS.find((f) => a.startsWith(f));
    if (flag === undefined) continue;
    const rest = a.slice(flag.length);
    if (rest !== '') out.push(rest);
    else if (args[i + 1] !== undefined) out.push(args[++i]!);
  }
  return out;
}

/** The paths of `compile_commands.json`: each entry's folder and the paths its arguments name. */
function compileCommandPaths(text: string): string[] {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(entries)) return [];
  const out: string[] = [];
  for (const e of entries as { directory?: unknown; arguments?: unknown; command?: unknown }[]) {
    const dir = typeof e?.directory === 'string' ? e.directory : '.';
    const args = Array.isArray(e?.arguments)
      ? e.arguments.filter((a): a is string => typeof a === 'string')
      : typeof e?.command === 'string'
        ? e.command.split(/\s+/)
        : [];
    out.push(dir, ...flagPaths(args).map((p) => (isAbsolute(p) ? p : join(dir, p))));
  }
  return out;
}

/** The text of a regular file of at most {@link MAX_MANIFEST} bytes, else `undefined`. */
function readSmall(path: string): string | undefined {
  try {
    return withRegularFileSync(path, (fd, size) => {
      if (size > MAX_MANIFEST) return undefined;
      const buf = Buffer.alloc(size);
      let n = 0;
      while (n < size) {
        const got = readSync(fd, buf, n, size - n, n);
        if (got === 0) break;
        n += got;
      }
      return buf.subarray(0, n).toString('utf8');
    });
  } catch {
    return undefined;
  }
}

function expand(path: string, from: string): string {
  return path.startsWith('~/') ? join(process.env.HOME ?? '/', path.slice(2)) : resolve(from, path);
}

/**
 * Why a server's answers for the project at `root` could quote a file outside the workspace, as
 * the project's manifests tell (see the module comment), or `undefined`.
 */
export function manifestOutside(root: string, check: OutsideCheck): string | undefined {
  const found: { file: string; paths: string[] }[] = MANIFESTS.map((m) => {
    const text = readSmall(join(root, m.file));
    return { file: m.file, paths: text === undefined ? [] : m.paths(text) };
  });
  const commands = readSmall(join(root, 'compile_commands.json'));
  if (commands !== undefined) found.push({ file: 'compile_commands.json', paths: compileCommandPaths(commands) });
  for (const { file, paths } of found)
    for (const p of paths) {
      const out = check.outside(expand(p, root));
      if (out !== undefined) return `${file} points the server at ${out}, outside the workspace`;
    }
  return undefined;
}

const C_INCLUDE = /^\s*#\s*(?:include|import|include_next)\s*["<]([^">\n]+)[">]/gm;
const RUST_INCLUDE = /\binclude(?:_str|_bytes)?!\s*\(\s*r?#*"([^"]+)"|#\[\s*path\s*=\s*"([^"]+)"/g;
const DART_IMPORT = /\b(?:import|export|part)\s+['"]([^'"]+)['"]/g;

/** The files a source names (spelled as written) by the rules of its language. */
function named(text: string, abs: string): string[] {
  if (/\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm|inc|ipp)$/i.test(abs))
    return [...text.matchAll(C_INCLUDE)].map((m) => m[1]!);
  if (abs.endsWith('.rs')) return [...text.matchAll(RUST_INCLUDE)].map((m) => (m[1] ?? m[2])!);
  if (abs.endsWith('.dart'))
    return [...text.matchAll(DART_IMPORT)]
      .map((m) => m[1]!)
      .filter((u) => !u.startsWith('package:') && !u.startsWith('dart:'))
      .map((u) => (u.startsWith('file:') ? safeFilePath(u) : u));
  return [];
}

function safeFilePath(uri: string): string {
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/**
 * Why the source `text` of the file `abs` could bring a file outside the workspace into the
 * server's answers (an include or import of one, also through the workspace's own headers it
 * includes), or `undefined`. Paths are resolved from the including file's folder.
 */
export function sourceOutside(text: string, abs: string, check: OutsideCheck): string | undefined {
  const seen = new Set<string>([abs]);
  const pending: { text: string; abs: string }[] = [{ text, abs }];
  while (pending.length > 0) {
    const at = pending.pop()!;
    for (const spelled of named(at.text, at.abs)) {
      const target = expand(spelled, dirname(at.abs));
      if (!existsSync(target)) continue;
      const out = check.outside(target);
      if (out !== undefined) return `${at.abs === abs ? 'the file' : at.abs} includes ${out}, outside the workspace`;
      if (seen.has(target) || seen.size >= MAX_HEADERS) continue;
      seen.add(target);
      const next = readSmall(target);
      if (next !== undefined) pending.push({ text: next, abs: target });
    }
  }
  return undefined;
}
