/**
 * `symbols` with `query`: a workspace search (`workspace/symbol`). With `file`, the server of that
 * file's project answers; without, every server running for the workspace does, or, when none
 * runs yet, the servers whose root markers are at the workspace root are started (as a file's
 * server is chosen for other operations) and each one that can run answers. The answers are
 * merged, symbols in files the call may not read or outside the workspace are left out, and at
 * most 100 are shown.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolResult } from '@a3s-code/core';
import type { LspClient } from './client.js';
import { FileTexts, formatLocations, kindName } from './format.js';
import { type HiddenRule, leftOutNote, NOTHING_HIDDEN, visible } from './hidden-files.js';
import { LspError } from './lsp-errors.js';
import type { LspRange } from './protocol.js';
import { loadingNote } from './project-load.js';
import { findRoot, type ServerSpec } from './servers.js';
import { serverText, syncFile } from './session-files.js';
import { readRegularFile } from '../shared/regular-file.js';
import type { LspSupervisor } from './supervisor.js';

const WORKSPACE_SYMBOLS_MAX = 100;
/** How many folder entries are looked at for a file to open in a server that has none open. */
const ANCHOR_SCAN_MAX = 5_000;
const ANCHOR_BYTES_MAX = 1024 * 1024;

/** One `workspace/symbol` answer item (a `SymbolInformation`, or a `WorkspaceSymbol` with a location). */
interface FoundSymbol {
  readonly name: string;
  readonly kind: number;
  readonly location?: { readonly uri: string; readonly range?: LspRange };
}

/** A server that answers the search, and for which project. */
interface Searcher {
  readonly client: LspClient;
  readonly spec: ServerSpec;
  readonly root: string;
}

/** The servers that search the workspace when no `file` names a project (see the module comment). */
async function searchers(sup: LspSupervisor): Promise<{ list: Searcher[]; failed: string[] }> {
  const failed: string[] = [];
  const list: Searcher[] = [];
  let targets = sup.running();
  if (targets.length === 0) {
    const marked = sup.servers.filter((spec) => spec.rootMarkers.some((m) => existsSync(join(sup.workspaceRoot, m))));
    if (marked.length === 0)
      throw new LspError(
        'LSP_UNAVAILABLE',
        `symbols with \`query\` and no \`file\`: no language server runs yet, and no project marker of a known server is at the workspace root (${sup.servers.map((s) => `${s.id}: ${s.rootMarkers.join(', ')}`).join('; ')}); give \`file\` to search the project of a file in a subfolder`,
      );
    targets = [];
    for (const spec of marked) {
      const cmd = spec.resolve();
      if ('missing' in cmd) failed.push(`${spec.id}: ${cmd.missing}`);
      else targets.push({ spec, root: sup.workspaceRoot });
    }
    if (targets.length === 0)
      throw new LspError(
        'LSP_UNAVAILABLE',
        `symbols with \`query\` and no \`file\`: no server for the project at the workspace root can run (${failed.join('; ')})`,
      );
  }
  for (const { spec, root } of targets) {
    try {
      const { client } = await sup.clientAt(spec, root);
      list.push({ client, spec, root });
    } catch (error) {
      failed.push(`${spec.id} (${sup.display(root) || '.'}): ${firstLine(error)}`);
    }
  }
  if (list.length === 0)
    throw new LspError('LSP_UNAVAILABLE', `symbols with \`query\`: no server could search (${failed.join('; ')})`);
  return { list, failed };
}

/** `symbols` with `query`: the workspace's symbols matching it (≤ 100), see the module comment. */
export async function workspaceSymbols(
  sup: LspSupervisor,
  query: string,
  file: string | undefined,
  signal: AbortSignal,
  hidden: HiddenRule = NOTHING_HIDDEN,
): Promise<ToolResult> {
  let asked: { list: Searcher[]; failed: string[] };
  if (file !== undefined) {
    const f = await syncFile(sup, file);
    asked = { list: [f], failed: [] };
  } else asked = await searchers(sup);
  const found: FoundSymbol[] = [];
  const failed = [...asked.failed];
  let unanswered = 0;
  /** The servers still loading their project after the wait: their answers may be incomplete. */
  const loading: string[] = [];
  for (const s of asked.list) {
    try {
      if (s.client.openDocuments === 0) await openAnchor(sup, s, hidden);
      if (!(await s.client.load.wait(signal))) loading.push(`${s.spec.id} (${sup.display(s.root) || '.'})`);
      signal.throwIfAborted();
      const answer = await s.client.request<FoundSymbol[] | null>('workspace/symbol', { query }, signal);
      if (Array.isArray(answer)) found.push(...answer.filter((x) => typeof x?.location?.uri === 'string'));
    } catch (error) {
      if (signal.aborted) throw error;
      unanswered++;
      failed.push(`${s.spec.id} (${sup.display(s.root) || '.'}): ${firstLine(error)}`);
    }
  }
  if (unanswered === asked.list.length)
    throw new LspError('LSP_SERVER', `symbols failed in the server: ${failed.join('; ')}`);
  // Symbols of installed packages and of files outside the workspace are not the workspace's.
  const inside = found.filter((s) => {
    const uri = s.location!.uri;
    return uri.startsWith('file:') && sup.realInside(fileURLToPath(uri)) !== undefined;
  });
  const outside = found.length - inside.length;
  const { shown: located, left } = await visible(inside, (s) => s.location!.uri, hidden);
  const { lines } = await formatLocations(
    located.slice(0, WORKSPACE_SYMBOLS_MAX).map((s) => ({
      uri: s.location!.uri,
      range: s.location!.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    })),
    (a) => sup.display(a),
    new FileTexts((a) => sup.realInside(a)),
  );
  const out = lines.map((l, i) => `${l}  [${kindName(located[i]!.kind)} ${located[i]!.name}]`);
  const head = `${located.length} symbol${located.length === 1 ? '' : 's'} matching '${query}'${located.length > WORKSPACE_SYMBOLS_MAX ? `; showing the first ${WORKSPACE_SYMBOLS_MAX}` : ''}`;
  const servers = asked.list.map((s) => `${s.spec.id} (${sup.display(s.root) || '.'})`);
  return {
    output: [
      head,
      ...out,
      ...leftOutNote(left, 'symbol'),
      ...(outside === 0 ? [] : [`(${outside} symbol${outside === 1 ? '' : 's'} outside the workspace left out)`]),
      ...(file === undefined ? [`(searched by ${servers.join(', ')})`] : []),
      ...failed.map((f) => `(not searched: ${f})`),
      ...(loading.length === 0 ? [] : [loadingNote(`loading its project (${loading.join(', ')})`)]),
    ].join('\n'),
    exitCode: 0,
    metadata: {
      total: located.length,
      servers,
      ...(left === 0 ? {} : { left_out: left }),
      ...(outside === 0 ? {} : { outside }),
      ...(failed.length === 0 ? {} : { failed }),
      ...(loading.length === 0 ? {} : { incomplete: 'project_loading', loading }),
    },
  };
}

/** The first line of an error's message (a server's error may go on with its stack, naming host paths). */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
}

/**
 * Opens one file of the searcher's project in it: some servers (TypeScript's) search only the
 * projects of open files. The first file breadth-first from the project root that the server
 * serves, belongs to that project, and the call may read (dot folders and `node_modules` are
 * skipped); none found, nothing is opened and the server answers as it can.
 */
async function openAnchor(sup: LspSupervisor, s: Searcher, hidden: HiddenRule): Promise<void> {
  const pending = [s.root];
  let seen = 0;
  while (pending.length > 0 && seen < ANCHOR_SCAN_MAX) {
    const dir = pending.shift()!;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    seen += entries.length;
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.') && e.name !== 'node_modules') pending.push(abs);
        continue;
      }
      if (!e.isFile() || !s.spec.extensions.includes(extname(e.name).toLowerCase())) continue;
      if (findRoot(s.spec, abs, sup.workspaceRoot) !== s.root || sup.realInside(abs) === undefined) continue;
      if ((await hidden(abs)) !== undefined) continue;
      const data = await readRegularFile(abs).catch(() => undefined);
      if (data === undefined || data.length > ANCHOR_BYTES_MAX) continue;
      s.client.sync(abs, s.spec.languageId(abs), serverText(data.toString('utf8')));
      return;
    }
  }
}
