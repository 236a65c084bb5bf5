/**
 * `diagnostics "*"`: the project checkers (tsc --noEmit, pyright) of the workspace root. A checker's
 * lines about hidden files and files outside the workspace go; while its program reads a hidden
 * file (the files it lists, else every workspace file it could read), every message is withheld.
 * While it reads a file outside the workspace (the paths its configuration names, followed
 * through the files it extends, then the files it lists, else the links in the workspace leading
 * out), none of its problems is shown, nor whether it found any: which lines carry an error could
 * spell out that file's text. A checker runs held to the call's read rules as the servers are (see
 * `server-hold.ts`); where it cannot be and it read a hidden file, none of its problems is shown.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { type ToolResult, toolProcessEnv } from '@a3s-code/core';
import { type Exposure, filesExposure, workspaceExposure } from './exposure.js';
import { checkerOutputShown, type HiddenRule, leftOutNote, NOTHING_HIDDEN } from './hidden-files.js';
import { LspError } from './lsp-errors.js';
import { linkOutside } from './project-links.js';
import type { ServerSpec } from './servers.js';
import type { LspSupervisor } from './supervisor.js';
import { withheldNote, withholdCheckerOutput } from './withheld.js';
import { inPackage, realOrSelf } from './workspace-paths.js';

/** What a checker's output shows at most. */
const SHOWN_MAX = 20_000;
/** What is read of a checker's output (its file list may be long). */
const CAPTURE_MAX = 8 * 1024 * 1024;

interface CheckerRun {
  readonly exit: number | null;
  readonly output: string;
  /** The output was longer than what was read. */
  readonly cut: boolean;
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
    // Held as the servers are: the files the call's read rules hide are out of the checker's reach.
    const launch = await sup.launch(cmd);
    const run = await runChecker(launch.command.command, launch.command.args, sup.workspaceRoot, signal);
    const split = spec.checkerFiles?.(run.output) ?? { problems: run.output };
    // It read a file outside the workspace, or a hidden file it could not be kept from: which
    // problems it reports, and whether any (its exit code), could depend on that file.
    const outside = await checkerExposure(sup, spec, run, split.files, NOTHING_HIDDEN, signal);
    const exposure = outside ?? (await checkerExposure(sup, spec, run, split.files, hidden, signal));
    if (outside !== undefined || (!launch.kept && exposure !== undefined)) {
      const unkept =
        outside === undefined
          ? 'and this workspace cannot keep that file from the checker'
          : 'which this session may not read';
      runs.push({
        server: spec.id,
        exit: null,
        output: `(problems not shown: ${exposure}, ${unkept}, so whether it reports a problem could reveal the file's content)`,
      });
      continue;
    }
    const at = (p: string): string => (isAbsolute(p) ? p : resolve(sup.workspaceRoot, p));
    const { text, left } = await checkerOutputShown(split.problems.slice(0, SHOWN_MAX), at, shownRule(sup, hidden));
    const lines = [...leftOutNote(left, 'problem')];
    let shown = text;
    if (exposure !== undefined) {
      const withheld = withholdCheckerOutput(text);
      shown = withheld.text;
      lines.push(
        withheldNote(exposure),
        ...(withheld.dropped === 0 ? [] : [`(${withheld.dropped} other lines left out)`]),
      );
    }
    runs.push({ server: spec.id, exit: run.exit, output: [shown, ...lines].join('\n') });
  }
  if (runs.length === 0)
    throw new LspError(
      'LSP_UNAVAILABLE',
      'no project checker applies: no tsconfig.json, jsconfig.json or Python project marker at the workspace root',
    );
  const out = runs.map((r) => `== ${r.server} (exit ${r.exit}) ==\n${r.output.trim() || 'no problems'}`).join('\n');
  return { output: out, exitCode: 0, metadata: { checkers: runs.map((r) => ({ server: r.server, exit: r.exit })) } };
}

/**
 * Whether the checker's program read a hidden file or a file outside the workspace: its listed
 * files when complete, and its configuration (followed through the files it extends); else the
 * links in the workspace leading out and the workspace (for hidden files).
 */
async function checkerExposure(
  sup: LspSupervisor,
  spec: ServerSpec,
  run: CheckerRun,
  files: readonly string[] | undefined,
  hidden: HiddenRule,
  signal: AbortSignal,
): Promise<Exposure> {
  const configured = () => spec.outsidePaths?.(sup.workspaceRoot, sup.workspaceRoot);
  if (files !== undefined && !run.cut && run.exit !== null) {
    const listed = files.map((f) => resolve(sup.workspaceRoot, f));
    return (await filesExposure(spec, listed, hidden, sup.workspaceRoot)) ?? configured();
  }
  const why = configured();
  if (why !== undefined) return why;
  if (files === undefined) {
    const linked = await linkOutside(spec, sup.workspaceRoot, signal);
    if (linked !== undefined) return linked;
  }
  if (hidden === NOTHING_HIDDEN) return undefined;
  return workspaceExposure(spec, sup.workspaceRoot, hidden);
}

/**
 * The rule leaving a checker's lines out: those about a hidden file, and those about a file outside
 * the workspace (also through a link) that is not part of an installed package (by its real path:
 * a `node_modules` link leading out to a folder of no package counts as outside).
 */
function shownRule(sup: LspSupervisor, hidden: HiddenRule): HiddenRule {
  return async (abs) =>
    sup.realInside(abs) === undefined && !inPackage(realOrSelf(abs)) && existsSync(abs)
      ? 'outside the workspace'
      : hidden(abs);
}

function runChecker(command: string, args: readonly string[], cwd: string, signal: AbortSignal): Promise<CheckerRun> {
  return new Promise((resolve) => {
    const child = spawn(command, [...args], { cwd, signal, env: toolProcessEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let cut = false;
    const take = (b: Buffer): void => {
      if (size + b.length > CAPTURE_MAX) cut = true;
      if (size < CAPTURE_MAX) chunks.push(b.subarray(0, CAPTURE_MAX - size));
      size += b.length;
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (e) => resolve({ exit: null, output: e.message, cut }));
    child.on('close', (code) => resolve({ exit: code, output: Buffer.concat(chunks).toString('utf8'), cut }));
  });
}
