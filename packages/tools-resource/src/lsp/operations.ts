/** The read operations of the `lsp` tool, each answering text and metadata. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolResult } from '@a3s-code/core';
import { diagnosticRecords, formatDiagnostic, formatLocations, hoverText, kindName } from './format.js';
import { checkerOutputShown, type HiddenRule, leftOutNote, NOTHING_HIDDEN, visible } from './hidden-files.js';
import { LspError } from './lsp-errors.js';
import { positionOf, toLocations } from './positions.js';
import type { LspDiagnostic, LspPosition, LspRange } from './protocol.js';
import { uriOf as uri } from './client.js';
import { type SyncedFile, settleAfterSync, syncFile } from './session-files.js';
import type { LspSupervisor } from './supervisor.js';

/** The arguments every operation receives. */
export interface OperationArgs {
  readonly file?: string;
  readonly line?: number;
  readonly symbol?: string;
  readonly query?: string;
}

const REFERENCES_MAX = 50;
/** An explicit `diagnostics` call may wait for a cold server's first answer this long. */
const FIRST_DIAGNOSTICS_CAP_MS = 15_000;
const WORKSPACE_SYMBOLS_MAX = 100;
const DOCUMENT_SYMBOLS_MAX = 200;

function needFile(args: OperationArgs, op: string): string {
  if (args.file === undefined) throw new LspError('LSP_ARGS', `${op} needs \`file\``);
  return args.file;
}

/** `status`: every known server, whether it can serve this workspace and why not; running servers and roots. */
export function status(sup: LspSupervisor, file: string | undefined): ToolResult {
  const lines: string[] = [];
  const servers = sup.servers.map((spec) => {
    const cmd = spec.resolve();
    const marker = spec.rootMarkers.find((m) => existsSync(join(sup.workspaceRoot, m)));
    return {
      server: spec.id,
      binary: 'missing' in cmd ? `missing: ${cmd.missing}` : 'resolves',
      root_marker: marker ?? `missing at the workspace root (${spec.rootMarkers.join(', ')})`,
    };
  });
  for (const s of servers) lines.push(`${s.server}: binary ${s.binary}; root marker ${s.root_marker}`);
  let fileState: Record<string, unknown> | undefined;
  if (file !== undefined) {
    const a = sup.availability(sup.absolute(file));
    fileState = a.ok ? { file, server: a.spec.id, root: sup.display(a.root) || '.' } : { file, unavailable: a.reason };
    lines.push(
      a.ok ? `${file}: served by ${a.spec.id} for root ${sup.display(a.root) || '.'}` : `${file}: ${a.reason}`,
    );
  }
  const running = sup.states();
  lines.push(running.length === 0 ? 'No server started yet (servers start on first use).' : 'Servers:');
  for (const r of running)
    lines.push(
      `  ${r.server} root=${r.root} ${r.state}${r.restarts > 0 ? ` restarts=${r.restarts}` : ''}${r.reason === undefined ? '' : ` (${r.reason})`}`,
    );
  return {
    output: lines.join('\n'),
    exitCode: 0,
    metadata: { servers, running, ...(fileState ? { file: fileState } : {}) },
  };
}

/** `diagnostics` of one file (after its diagnostics settle). */
export async function fileDiagnostics(sup: LspSupervisor, file: string, signal: AbortSignal): Promise<ToolResult> {
  const abs = sup.absolute(file);
  const known = (await sup.clientFor(abs)).client;
  const before = known.isOpen(abs) ? known.publications(abs) : 0;
  const f = await syncFile(sup, file);
  const { diagnostics, settled } = await settleAfterSync(f, before, signal, FIRST_DIAGNOSTICS_CAP_MS);
  const shown = diagnostics.filter((d) => (d.severity ?? 1) <= 2);
  const head = `${shown.length === 0 ? 'No errors or warnings' : `${shown.length} errors/warnings`} in ${f.path}${settled ? '' : ' (the server had not settled; this may be incomplete)'}`;
  return {
    output: [head, ...shown.map((d) => formatDiagnostic(f.path, d))].join('\n'),
    exitCode: 0,
    metadata: { path: f.path, settled, diagnostics: diagnosticRecords(f.path, shown) },
  };
}

/** `diagnostics "*"`: runs each project checker whose root marker is at the workspace root. */
export async function projectDiagnostics(
  sup: LspSupervisor,
  signal: AbortSignal,
  hidden: HiddenRule = NOTHING_HIDDEN,
): Promise<ToolResult> {
  const runs: { server: string; exit: number | null; output: string }[] = [];
  for (const spec of sup.servers) {
    if (spec.checker === undefined) continue;
    const marker = spec.id === 'typescript' ? ['tsconfig.json', 'jsconfig.json'] : spec.rootMarkers;
    if (!marker.some((m) => existsSync(join(sup.workspaceRoot, m)))) continue;
    const cmd = spec.checker(sup.workspaceRoot);
    if ('missing' in cmd) {
      runs.push({ server: spec.id, exit: null, output: cmd.missing });
      continue;
    }
    const run = await runChecker(cmd.command, cmd.args, sup.workspaceRoot, signal);
    const at = (p: string): string => (isAbsolute(p) ? p : resolve(sup.workspaceRoot, p));
    const { text, left } = await checkerOutputShown(run.output, at, hidden);
    runs.push({ server: spec.id, exit: run.exit, output: [text, ...leftOutNote(left, 'problem')].join('\n') });
  }
  if (runs.length === 0)
    throw new LspError(
      'LSP_UNAVAILABLE',
      'no project checker applies: no tsconfig.json, jsconfig.json or Python project marker at the workspace root',
    );
  const out = runs.map((r) => `== ${r.server} (exit ${r.exit}) ==\n${r.output.trim() || 'no problems'}`).join('\n');
  return { output: out, exitCode: 0, metadata: { checkers: runs.map((r) => ({ server: r.server, exit: r.exit })) } };
}

function runChecker(
  command: string,
  args: readonly string[],
  cwd: string,
  signal: AbortSignal,
): Promise<{ exit: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, [...args], { cwd, signal, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (b: Buffer): void => {
      if (output.length < 20_000) output += b.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (e) => resolve({ exit: null, output: e.message }));
    child.on('close', (code) => resolve({ exit: code, output: output.slice(0, 20_000) }));
  });
}

const NAV: Record<string, string> = {
  definition: 'textDocument/definition',
  type_definition: 'textDocument/typeDefinition',
  implementation: 'textDocument/implementation',
  references: 'textDocument/references',
};

/** `definition`, `type_definition`, `implementation`, `references`. */
export async function navigate(
  sup: LspSupervisor,
  op: string,
  args: OperationArgs,
  signal: AbortSignal,
  hidden: HiddenRule = NOTHING_HIDDEN,
): Promise<ToolResult> {
  const f = await syncFile(sup, needFile(args, op));
  const position = positionOf(f.path, f.text, args.line, args.symbol);
  const params = {
    textDocument: { uri: uri(f.abs) },
    position,
    ...(op === 'references' ? { context: { includeDeclaration: true } } : {}),
  };
  const answer = toLocations(await serverCall(f.client.request<unknown>(NAV[op]!, params, signal), op));
  const { shown: all, left } = await visible(answer, (l) => l.uri, hidden);
  const cap = op === 'references' ? REFERENCES_MAX : 100;
  const { lines, items } = await formatLocations(all.slice(0, cap), (a) => sup.display(a));
  const head =
    all.length === 0
      ? `No ${op.replace('_', ' ')} found for '${args.symbol}' at ${f.path}:${args.line}.`
      : `${all.length} location${all.length === 1 ? '' : 's'}${all.length > cap ? `; showing the first ${cap}` : ''}:`;
  return {
    output: [head, ...lines, ...leftOutNote(left, 'location')].join('\n'),
    exitCode: 0,
    metadata: { total: all.length, locations: items, ...(left === 0 ? {} : { left_out: left }) },
  };
}

/** `hover`: the signature and doc comment. */
export async function hover(
  sup: LspSupervisor,
  args: OperationArgs,
  signal: AbortSignal,
  hidden: HiddenRule = NOTHING_HIDDEN,
): Promise<ToolResult> {
  const f = await syncFile(sup, needFile(args, 'hover'));
  const position = positionOf(f.path, f.text, args.line, args.symbol);
  if (hidden !== NOTHING_HIDDEN && (await declaredHidden(sup, f, position, hidden, signal)))
    return {
      output: `No hover shown for '${args.symbol}' at ${f.path}:${args.line}: it is declared in a file this session may not read.`,
      exitCode: 0,
      metadata: { hover: '', left_out: 1 },
    };
  const answer = await serverCall(
    f.client.request<unknown>('textDocument/hover', { textDocument: { uri: uri(f.abs) }, position }, signal),
    'hover',
  );
  const text = hoverText(answer);
  return {
    output: text || `No hover information for '${args.symbol}' at ${f.path}:${args.line}.`,
    exitCode: 0,
    metadata: { hover: text },
  };
}

/**
 * Whether the symbol at `position` is declared in a hidden file: a hover shows the declaration
 * (its type, a constant's literal type, its doc comment). Definitions are followed a few hops,
 * since an imported name's definition is its import first.
 */
async function declaredHidden(
  sup: LspSupervisor,
  f: SyncedFile,
  position: LspPosition,
  hidden: HiddenRule,
  signal: AbortSignal,
): Promise<boolean> {
  let at = { uri: uri(f.abs), position };
  const seen = new Set<string>();
  for (let hop = 0; hop < 4; hop++) {
    seen.add(`${at.uri}:${at.position.line}:${at.position.character}`);
    const params = { textDocument: { uri: at.uri }, position: at.position };
    const where = toLocations(await serverCall(f.client.request<unknown>(NAV.definition!, params, signal), 'hover'));
    if ((await visible(where, (l) => l.uri, hidden)).left > 0) return true;
    const next = where.find((l) => !seen.has(`${l.uri}:${l.range.start.line}:${l.range.start.character}`));
    if (next === undefined || !next.uri.startsWith('file:')) return false;
    const rel = sup.display(fileURLToPath(next.uri));
    // Hidden files are workspace files: a declaration outside the workspace ends the walk.
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
    if (next.uri !== uri(f.abs)) await syncFile(sup, rel);
    at = { uri: next.uri, position: next.range.start };
  }
  return false;
}

interface DocSymbol {
  name: string;
  kind: number;
  range?: LspRange;
  selectionRange?: LspRange;
  location?: { uri: string; range: LspRange };
  children?: DocSymbol[];
  containerName?: string;
}

/** `symbols`: workspace symbols for `query` (≤ 100), or a document's symbols for `file` (≤ 200). */
export async function symbols(
  sup: LspSupervisor,
  args: OperationArgs,
  signal: AbortSignal,
  hidden: HiddenRule = NOTHING_HIDDEN,
): Promise<ToolResult> {
  if (args.query !== undefined) {
    const f = await syncFile(sup, args.file ?? anchorFile(sup));
    const answer =
      (await serverCall(
        f.client.request<DocSymbol[] | null>('workspace/symbol', { query: args.query }, signal),
        'symbols',
      )) ?? [];
    const { shown: located, left } = await visible(
      answer.filter((s) => s.location !== undefined),
      (s) => s.location!.uri,
      hidden,
    );
    const { lines } = await formatLocations(
      located.slice(0, WORKSPACE_SYMBOLS_MAX).map((s) => ({
        uri: s.location!.uri,
        range: s.location!.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      })),
      (a) => sup.display(a),
    );
    const out = lines.map((l, i) => `${l}  [${kindName(located[i]!.kind)} ${located[i]!.name}]`);
    const head = `${located.length} symbol${located.length === 1 ? '' : 's'} matching '${args.query}'${located.length > WORKSPACE_SYMBOLS_MAX ? `; showing the first ${WORKSPACE_SYMBOLS_MAX}` : ''}`;
    return {
      output: [head, ...out, ...leftOutNote(left, 'symbol')].join('\n'),
      exitCode: 0,
      metadata: { total: located.length, ...(left === 0 ? {} : { left_out: left }) },
    };
  }
  const f = await syncFile(sup, needFile(args, 'symbols (or give `query`)'));
  const answer =
    (await serverCall(
      f.client.request<DocSymbol[] | null>(
        'textDocument/documentSymbol',
        { textDocument: { uri: uri(f.abs) } },
        signal,
      ),
      'symbols',
    )) ?? [];
  const flat: { depth: number; s: DocSymbol }[] = [];
  const walk = (list: DocSymbol[], depth: number): void => {
    for (const s of list) {
      flat.push({ depth, s });
      if (s.children) walk(s.children, depth + 1);
    }
  };
  walk(answer, 0);
  const shown = flat.slice(0, DOCUMENT_SYMBOLS_MAX);
  const out = shown.map(
    ({ depth, s }) =>
      `${f.path}:${(s.selectionRange ?? s.range ?? s.location!.range).start.line + 1}: ${'  '.repeat(depth)}${kindName(s.kind)} ${s.name}`,
  );
  const head = `${flat.length} symbol${flat.length === 1 ? '' : 's'} in ${f.path}${flat.length > DOCUMENT_SYMBOLS_MAX ? `; showing the first ${DOCUMENT_SYMBOLS_MAX}` : ''}`;
  return { output: [head, ...out].join('\n'), exitCode: 0, metadata: { total: flat.length } };
}

/** `code_actions`: the fixes the server offers for the symbol's line. */
export async function codeActions(sup: LspSupervisor, args: OperationArgs, signal: AbortSignal): Promise<ToolResult> {
  const file = needFile(args, 'code_actions');
  const abs = sup.absolute(file);
  const known = (await sup.clientFor(abs)).client;
  const before = known.isOpen(abs) ? known.publications(abs) : 0;
  const f = await syncFile(sup, file);
  const position = positionOf(f.path, f.text, args.line, args.symbol);
  const { diagnostics } = await settleAfterSync(f, before, signal, FIRST_DIAGNOSTICS_CAP_MS);
  const onLine = diagnostics.filter(
    (d: LspDiagnostic) => d.range.start.line <= position.line && d.range.end.line >= position.line,
  );
  const range = {
    start: position,
    end: { line: position.line, character: position.character + (args.symbol?.length ?? 0) },
  };
  const answer =
    (await serverCall(
      f.client.request<{ title: string; kind?: string }[] | null>(
        'textDocument/codeAction',
        { textDocument: { uri: uri(f.abs) }, range, context: { diagnostics: onLine } },
        signal,
      ),
      'code_actions',
    )) ?? [];
  const out = answer.map((a) => `- ${a.title}${a.kind ? ` (${a.kind})` : ''}`);
  return {
    output: [`${answer.length} code action${answer.length === 1 ? '' : 's'} at ${f.path}:${args.line}`, ...out].join(
      '\n',
    ),
    exitCode: 0,
    metadata: { actions: answer.map((a) => ({ title: a.title, kind: a.kind ?? null })) },
  };
}

/** `reload`: restarts the server serving `file`, or every started server. */
export async function reload(sup: LspSupervisor, file: string | undefined): Promise<ToolResult> {
  const targets: { id: string; root: string }[] = [];
  if (file !== undefined) {
    const a = sup.availability(sup.absolute(file));
    if (!a.ok) throw new LspError('LSP_UNAVAILABLE', a.reason, { path: file });
    await sup.reload(a.spec, a.root);
    targets.push({ id: a.spec.id, root: a.root });
  } else {
    for (const s of sup.states()) {
      const spec = sup.servers.find((x) => x.id === s.server)!;
      const root = sup.absolute(s.root);
      await sup.reload(spec, root);
      targets.push({ id: spec.id, root });
    }
  }
  const names = targets.map((t) => `${t.id} (${sup.display(t.root) || '.'})`);
  return {
    output: names.length === 0 ? 'No server to reload.' : `Restarted ${names.join(', ')}.`,
    exitCode: 0,
    metadata: { reloaded: names },
  };
}

function anchorFile(sup: LspSupervisor): string {
  throw new LspError(
    'LSP_ARGS',
    `symbols with \`query\` needs \`file\`: any file of the project whose server should search (workspace ${sup.workspaceRoot})`,
  );
}

async function serverCall<T>(work: Promise<T>, op: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof LspError) throw error;
    throw new LspError('LSP_SERVER', `${op} failed in the server: ${(error as Error).message}`, {}, error);
  }
}
