/** The read operations of the `lsp` tool, each answering text and metadata. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ToolResult } from '@a3s-code/core';
import { blindExposure, projectExposure } from './exposure.js';
import { diagnosticRecords, FileTexts, formatDiagnostic, formatLocations, hoverText, kindName } from './format.js';
import { type HiddenRule, leftOutNote, NOTHING_HIDDEN, visible } from './hidden-files.js';
import { LspError } from './lsp-errors.js';
import { definedOutside, OutsideCheck, shownDiagnostics } from './outside-text.js';
import { positionOf, toLocations } from './positions.js';
import { loadingNote } from './project-load.js';
import type { LspDiagnostic, LspRange } from './protocol.js';
import { uriOf as uri } from './client.js';
import { settleAfterSync, syncFile } from './session-files.js';
import type { LspSupervisor } from './supervisor.js';
import { blindNote, withheldNote } from './withheld.js';
import { workspaceSymbols } from './workspace-symbols.js';

export { projectDiagnostics } from './project-checker.js';

/** The arguments every operation receives. */
export interface OperationArgs {
  readonly file?: string;
  readonly line?: number;
  readonly symbol?: string;
  readonly query?: string;
}

const REFERENCES_MAX = 50;
/** The navigations whose answer comes from the whole project. */
const PROJECT_WIDE = new Set(['references', 'implementation']);
/** An explicit `diagnostics` call may wait for a cold server's first answer this long. */
const FIRST_DIAGNOSTICS_CAP_MS = 15_000;
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

/**
 * `diagnostics` of one file (after its diagnostics settle); messages that could quote a hidden
 * file are withheld (see `exposure.ts`).
 */
export async function fileDiagnostics(
  sup: LspSupervisor,
  file: string,
  signal: AbortSignal,
  hidden: HiddenRule = NOTHING_HIDDEN,
): Promise<ToolResult> {
  const abs = sup.absolute(file);
  const known = (await sup.clientFor(abs)).client;
  const before = known.isOpen(abs) ? known.publications(abs) : 0;
  const f = await syncFile(sup, file);
  const { diagnostics, settled } = await settleAfterSync(f, before, signal, FIRST_DIAGNOSTICS_CAP_MS);
  let important = diagnostics.filter((d) => (d.severity ?? 1) <= 2);
  // A project reading a file outside the workspace, or a server that read the hidden files: asked
  // whether or not it reports anything, so that the answer does not tell either; then only syntax
  // errors are shown (see `blindExposure`).
  const blind = await blindExposure(f, sup.workspaceRoot, hidden, signal);
  if (blind !== undefined) {
    important = important.filter((d) => d.syntactic === true);
    return {
      output: [...important.map((d) => formatDiagnostic(f.path, d)), blindNote(f.path, blind.why, blind.outside)].join(
        '\n',
      ),
      exitCode: 0,
      metadata: { path: f.path, diagnostics: diagnosticRecords(f.path, important), not_shown: blind.why },
    };
  }
  const project = important.length === 0 ? undefined : await projectExposure(f, sup.workspaceRoot, hidden, signal);
  const { list: shown, withheld: exposure } = shownDiagnostics(important, f.abs, sup.workspaceRoot, project);
  const head = `${shown.length === 0 ? 'No errors or warnings' : `${shown.length} errors/warnings`} in ${f.path}${settled ? '' : ' (the server had not settled; this may be incomplete)'}`;
  return {
    output: [
      head,
      ...shown.map((d) => formatDiagnostic(f.path, d)),
      ...(exposure === undefined ? [] : [withheldNote(exposure)]),
    ].join('\n'),
    exitCode: 0,
    metadata: {
      path: f.path,
      settled,
      diagnostics: diagnosticRecords(f.path, shown),
      ...(exposure === undefined ? {} : { withheld: exposure }),
    },
  };
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
  // References and implementations come from every file of the project: asked while the server is
  // still loading it, it answers from part of it.
  const loaded = !PROJECT_WIDE.has(op) || (await f.client.load.wait(signal));
  signal.throwIfAborted();
  const answer = toLocations(await serverCall(f.client.request<unknown>(NAV[op]!, params, signal), op));
  const { shown: all, left } = await visible(answer, (l) => l.uri, hidden);
  const cap = op === 'references' ? REFERENCES_MAX : 100;
  const { lines, items } = await formatLocations(
    all.slice(0, cap),
    (a) => sup.display(a),
    new FileTexts((a) => sup.realInside(a)),
  );
  const head =
    all.length === 0
      ? `No ${op.replace('_', ' ')} found for '${args.symbol}' at ${f.path}:${args.line}.`
      : `${all.length} location${all.length === 1 ? '' : 's'}${all.length > cap ? `; showing the first ${cap}` : ''}:`;
  return {
    output: [
      head,
      ...lines,
      ...leftOutNote(left, 'location'),
      ...(loaded ? [] : [loadingNote(f.client.load.doing)]),
    ].join('\n'),
    exitCode: 0,
    metadata: {
      total: all.length,
      locations: items,
      ...(left === 0 ? {} : { left_out: left }),
      ...(loaded ? {} : { incomplete: 'project_loading' }),
    },
  };
}

/**
 * `hover`: the signature and doc comment; withheld while the file's project reads a hidden file,
 * since a hover quotes declarations (see `exposure.ts`).
 */
export async function hover(
  sup: LspSupervisor,
  args: OperationArgs,
  signal: AbortSignal,
  hidden: HiddenRule = NOTHING_HIDDEN,
): Promise<ToolResult> {
  const f = await syncFile(sup, needFile(args, 'hover'));
  const position = positionOf(f.path, f.text, args.line, args.symbol);
  const withheld = (exposure: string): ToolResult => ({
    output: `No hover shown for '${args.symbol}' at ${f.path}:${args.line}: it may be declared in a file this session may not read (${exposure}, and a hover quotes declarations).`,
    exitCode: 0,
    metadata: { hover: '', withheld: exposure },
  });
  const exposure =
    (await projectExposure(f, sup.workspaceRoot, hidden, signal)) ??
    (await definedOutside(f, position, new OutsideCheck(sup.workspaceRoot), signal));
  if (exposure !== undefined) return withheld(exposure);
  const answer = await serverCall(
    f.client.request<unknown>('textDocument/hover', { textDocument: { uri: uri(f.abs) }, position }, signal),
    'hover',
  );
  const text = hoverText(answer);
  const named = new OutsideCheck(sup.workspaceRoot).inText(text, dirname(f.abs));
  if (named !== undefined) return withheld(`the hover names ${named}, outside the workspace`);
  return {
    output: text || `No hover information for '${args.symbol}' at ${f.path}:${args.line}.`,
    exitCode: 0,
    metadata: { hover: text },
  };
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

/** `symbols`: workspace symbols for `query` (≤ 100, see `workspace-symbols.ts`), or a document's symbols for `file` (≤ 200). */
export async function symbols(
  sup: LspSupervisor,
  args: OperationArgs,
  signal: AbortSignal,
  hidden: HiddenRule = NOTHING_HIDDEN,
): Promise<ToolResult> {
  if (args.query !== undefined) return workspaceSymbols(sup, args.query, args.file, signal, hidden);
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

/**
 * `code_actions`: the fixes the server offers for the symbol's line; their titles are withheld
 * while the file's project reads a hidden file (a title names declarations and files).
 */
export async function codeActions(
  sup: LspSupervisor,
  args: OperationArgs,
  signal: AbortSignal,
  hidden: HiddenRule = NOTHING_HIDDEN,
): Promise<ToolResult> {
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
        // The server gets the diagnostics as it published them: it matches fixes to them.
        { textDocument: { uri: uri(f.abs) }, range, context: { diagnostics: onLine.map(asPublished) } },
        signal,
      ),
      'code_actions',
    )) ?? [];
  // A project reading a file outside the workspace, or a server that read the hidden files: which
  // fixes it offers, and how many, could depend on them.
  const blind = await blindExposure(f, sup.workspaceRoot, hidden, signal);
  if (blind !== undefined)
    return {
      output: `Code actions not shown for ${f.path}:${args.line}: ${blind.why}, ${blind.outside ? 'which this session may not read' : 'and this workspace cannot keep that file from the server'}, so which fixes it offers could reveal the file's content.`,
      exitCode: 0,
      metadata: { actions: [], not_shown: blind.why },
    };
  const head = `${answer.length} code action${answer.length === 1 ? '' : 's'} at ${f.path}:${args.line}`;
  const titled = (): string | undefined => {
    const check = new OutsideCheck(sup.workspaceRoot);
    const named = answer.map((a) => check.inText(a.title, dirname(f.abs))).find((p) => p !== undefined);
    return named === undefined ? undefined : `a title names ${named}, outside the workspace`;
  };
  const exposure =
    answer.length === 0 ? undefined : ((await projectExposure(f, sup.workspaceRoot, hidden, signal)) ?? titled());
  if (exposure !== undefined)
    return {
      output: [head, ...answer.map((a) => `- ${a.kind ?? 'action'}`), withheldNote(exposure, 'titles')].join('\n'),
      exitCode: 0,
      metadata: { actions: answer.map((a) => ({ kind: a.kind ?? null })), withheld: exposure },
    };
  const out = answer.map((a) => `- ${a.title}${a.kind ? ` (${a.kind})` : ''}`);
  return {
    output: [head, ...out].join('\n'),
    exitCode: 0,
    metadata: { actions: answer.map((a) => ({ title: a.title, kind: a.kind ?? null })) },
  };
}

/** A diagnostic without this pack's own fields. */
function asPublished(d: LspDiagnostic): LspDiagnostic {
  const { syntactic: _, ...published } = d;
  return published;
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

async function serverCall<T>(work: Promise<T>, op: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof LspError) throw error;
    // The first line only: a server's error may go on with its stack, naming host paths.
    const message = String((error as Error).message)
      .split('\n')[0]!
      .slice(0, 300);
    throw new LspError('LSP_SERVER', `${op} failed in the server: ${message}`, {}, error);
  }
}
