/**
 * Planning a patch in memory: each file section applies to the file as the sections before it
 * left it (two sections on one file both apply; a rename's target may then be patched), a file
 * is created only where none exists, and nothing is renamed onto an existing file. The plan
 * keeps the exact bytes each file had, to check them again right before writing and to restore
 * them if a later write fails.
 */
import { A3sError, type WorkspaceFileSystem } from '@a3s-code/core';
import { decodeEditable, describedText, readBytes, type ReadBytes } from '../shared/text-file.js';
import { lineEndView, uniformEol, withEol } from '../shared/line-ends.js';
import { applyHunks } from './apply-patch.js';
import type { FilePatch, Hunk } from './parse-patch.js';

/** A patch that does not apply; nothing was written. */
export class PatchApplyError extends A3sError {
  constructor(path: string, message: string, details: Record<string, unknown>) {
    super('PATCH_FAILED', `${path}: ${message}; no file was changed`, { details: { path, ...details } });
  }
}

/** One file the patch changes. */
export interface PlannedFile {
  readonly path: string;
  /** The bytes read (`undefined`: the file did not exist). */
  readonly original: ReadBytes;
  /** Its text before, with its byte-order mark (`undefined`: did not exist). */
  readonly before: string | undefined;
  /** Its text after, with the byte-order mark it keeps (`undefined`: deleted). */
  readonly after: string | undefined;
  /** The bytes to write instead of `after`: the file's own, for a change of mode alone. */
  readonly data?: Uint8Array;
  /** `true`/`false`: set/clear the executable bits; absent: the mode is kept. */
  readonly executable?: boolean;
}

interface FileState {
  readonly path: string;
  readonly original: ReadBytes;
  /** Byte-order mark of the original. */
  originalBom: string;
  /** Byte-order mark of the current text; a rename carries it to the new path. */
  bom: string;
  /** Text before the patch (decoded on first use; `undefined` when the file did not exist). */
  before: string | undefined;
  decoded: boolean;
  /** Text now, in the plan (`undefined`: does not exist); a CR file's in lines ending in `\n`. */
  current: string | undefined;
  /** `\r` for a file whose only line ends are CR: patched in lines ending in `\n`, written back with CR. */
  eol: '\r' | undefined;
  /** The mode the plan gives it: `true` executable, `false` not; `undefined`: kept. */
  executable: boolean | undefined;
}

/**
 * The hunks with a byte-order mark taken off the start of their first-line lines: `git diff`
 * (and these tools' own diffs) show a file's mark in front of its first line, but the plan's text
 * has it apart (it is kept in front of the file whatever the patch does).
 */
function withoutBom(hunks: readonly Hunk[]): Hunk[] {
  return hunks.map((h) =>
    h.oldStart > 1 && h.newStart > 1
      ? h
      : { ...h, lines: h.lines.map((l) => (l.text.startsWith('\ufeff') ? { ...l, text: l.text.slice(1) } : l)) },
  );
}

/**
 * Plans `files` against the workspace; a section that does not apply is a failed
 * {@link PatchApplyError}. `spell` gives a path's one workspace spelling (`./a` and `a` are one file).
 */
export async function planPatch(
  fs: WorkspaceFileSystem,
  files: readonly FilePatch[],
  signal: AbortSignal,
  spell: (path: string) => string,
): Promise<PlannedFile[] | PatchApplyError> {
  const states = new Map<string, FileState>();
  const stateOf = async (given: string): Promise<FileState> => {
    const path = spell(given);
    let state = states.get(path);
    if (state === undefined) {
      const original = await readBytes(fs, path, signal);
      state = {
        path,
        original,
        originalBom: '',
        bom: '',
        before: undefined,
        decoded: original === undefined,
        current: undefined,
        eol: undefined,
        executable: undefined,
      };
      states.set(path, state);
    }
    return state;
  };
  /** The state's current text; decoding the original (refusing binary and invalid UTF-8) on first use. */
  const textOf = (state: FileState): string | undefined => {
    if (!state.decoded) {
      const { text, bom } = decodeEditable(state.path, state.original!, 'patch');
      state.before = text;
      // An old Mac file (CR line ends only) is patched as lines, and keeps its CRs.
      state.eol = uniformEol(text) === '\r' ? '\r' : undefined;
      state.current = state.eol === undefined ? text : lineEndView(text).text;
      state.bom = bom;
      state.originalBom = bom;
      state.decoded = true;
    }
    return state.current;
  };
  /** Whether the file exists at this point of the plan (without decoding it). */
  const exists = (state: FileState): boolean => (state.decoded ? state.current !== undefined : true);
  for (const file of files) {
    const source = await stateOf(file.oldPath ?? file.newPath!);
    const target = file.newPath === null ? undefined : await stateOf(file.newPath);
    if (target === source && file.hunks.length === 0) {
      // A change of mode alone: the content is not decoded (a binary file's mode may change too).
      if (!exists(source) || source.original === undefined)
        return new PatchApplyError(
          source.path,
          source.original === undefined ? 'no such file' : 'an earlier part of the patch deleted this file',
          {},
        );
      source.executable = file.executable;
      continue;
    }
    let text = '';
    if (file.oldPath === null) {
      if (exists(source))
        return new PatchApplyError(source.path, 'the patch creates this file but it already exists', {});
    } else {
      const current = textOf(source);
      if (current === undefined)
        return new PatchApplyError(
          source.path,
          source.original === undefined ? 'no such file' : 'an earlier part of the patch deleted this file',
          {},
        );
      text = current;
    }
    if (target !== undefined && target !== source && exists(target)) {
      return new PatchApplyError(
        target.path,
        `the patch renames ${source.path} onto this file but it already exists (a rename never replaces a file; delete it in the patch first)`,
        { from: source.path },
      );
    }
    const applied = applyHunks(text, source.bom === '' ? file.hunks : withoutBom(file.hunks));
    if ('failure' in applied) {
      const f = applied.failure;
      return new PatchApplyError(source.path, `hunk ${f.hunk} (patch line ${f.at}) does not apply: ${f.reason}`, {
        hunk: f.hunk,
        patch_line: f.at,
      });
    }
    if (target === undefined) {
      if (applied.text !== '')
        return new PatchApplyError(source.path, 'the patch deletes this file but does not remove all of its lines', {});
      source.current = undefined;
    } else if (target !== source) {
      source.current = undefined;
      target.decoded = true;
      target.bom = source.bom;
      target.eol = source.eol;
      target.current = applied.text;
      // A renamed file keeps its mode unless the patch gives one.
      target.executable =
        file.executable ??
        source.executable ??
        (source.original === undefined ? undefined : (await fs.stat(source.path, { signal }))?.executable);
    } else source.current = applied.text;
    if (target !== undefined && file.executable !== undefined) target.executable = file.executable;
  }
  const plan: PlannedFile[] = [];
  for (const s of states.values()) {
    const mode = s.executable === undefined ? {} : { executable: s.executable };
    if (!s.decoded) {
      if (s.executable === undefined || s.original === undefined) continue;
      const same = describedText(s.original);
      plan.push({ path: s.path, original: s.original, before: same, after: same, data: s.original, ...mode });
      continue;
    }
    const after = s.current === undefined ? undefined : withEol(s.current, s.eol);
    if (after === s.before && s.bom === s.originalBom && (s.executable === undefined || after === undefined)) continue;
    plan.push({
      path: s.path,
      original: s.original,
      before: s.before === undefined ? undefined : s.originalBom + s.before,
      after: after === undefined ? undefined : s.bom + after,
      ...(after === undefined ? {} : mode),
    });
  }
  return plan;
}
