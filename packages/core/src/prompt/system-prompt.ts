/**
 * The layered system prompt: the runtime contract, the execution style, the
 * response format, the workspace's instruction files, skills and host context are separate,
 * ordered inputs. None of them can remove another, and none touches the tool list, which comes
 * only from the registry.
 */
import { fstatSync, readSync, realpathSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import { notInside, withRegularFileSync } from '../config/regular-file.js';
import { workspaceFolders } from '../config/workspace-folders.js';
import { EXECUTION_STYLES, RESPONSE_FORMAT, RUNTIME_CONTRACT } from './contracts.js';

/** Workspace files read as instructions, in this order. */
export const INSTRUCTION_FILES = ['AGENTS.md', '.a3s/instructions.md'] as const;

/** Largest instruction file read, in bytes; longer files are cut with a note. */
export const MAX_INSTRUCTION_BYTES = 64 * 1024;

/** An instruction file of the workspace. */
export interface WorkspaceInstruction {
  readonly path: string;
  readonly text: string;
}

/** The inputs of the system prompt. */
export interface PromptInputs {
  /** `default`, `plan`, or custom text for the execution-style section. */
  readonly executionStyle?: 'default' | 'plan' | { readonly text: string };
  /** Custom text for the response-format section. */
  readonly responseFormat?: string;
  readonly workspaceInstructions?: readonly WorkspaceInstruction[];
  /** Skill instructions, one section each. */
  readonly skills?: readonly string[];
  /** Host-supplied context, one section each (e.g. the session option `system`). */
  readonly hostContext?: readonly string[];
}

/**
 * Reads the workspace's instruction files that exist (AGENTS.md, .a3s/instructions.md), in a git
 * repository those of each folder from its root down to `dir` too (see `workspaceFolders`). A file
 * the workspace brings is read only when it is a regular file inside the workspace, and never past
 * {@link MAX_INSTRUCTION_BYTES}: a checked-in link to a file elsewhere (a credentials file, which
 * would go to the model's provider in the prompt, or `/dev/zero`), a FIFO or a device is not read,
 * and the prompt says so in its place. With `policy`, neither is a file its read deny or ask rules
 * cover, by its own name or the one it links to (`AGENTS.md` → `.env`; nobody is asked when a
 * session opens), nor, while it has such rules, a file with other names (hard links), which could
 * be one of the files they keep.
 */
export async function loadWorkspaceInstructions(
  dir: string,
  policy?: PermissionPolicy,
): Promise<WorkspaceInstruction[]> {
  return loadWorkspaceInstructionsSync(dir, policy);
}

/** The same as {@link loadWorkspaceInstructions}, synchronously (for `agent.sessionSync`). */
export function loadWorkspaceInstructionsSync(dir: string, policy?: PermissionPolicy): WorkspaceInstruction[] {
  const out: WorkspaceInstruction[] = [];
  const session = resolve(dir);
  // In a git repository, the folders above the session's up to its root hold the project's
  // instructions too: read from the root down, the session folder's own last.
  for (const folder of workspaceFolders(session)) {
    const above = folder !== session;
    for (const name of INSTRUCTION_FILES) {
      const found = readInstructionFile(
        folder,
        name,
        above ? relative(session, join(folder, name)) : name,
        above,
        policy,
      );
      if (found !== undefined) out.push(found);
    }
  }
  return out;
}

/**
 * The instruction file `name` of the folder `dir` (named `path` in the prompt), a note when it may
 * not be read, or undefined when absent. `above`: `dir` is a folder above the session's, whose
 * file the rules see by its absolute path.
 */
function readInstructionFile(
  dir: string,
  name: string,
  path: string,
  above: boolean,
  policy?: PermissionPolicy,
): WorkspaceInstruction | undefined {
  const file = join(dir, name);
  let real: string;
  try {
    real = realpathSync(file);
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : notRead(path, `it cannot be resolved (${code})`);
  }
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return undefined;
  }
  if (notInside(root, real))
    return notRead(path, `it is a link to a file outside the ${above ? 'folder it is in' : 'workspace'}`);
  const kept = keptBy(policy, above ? [file, real] : [path, relative(root, real)]);
  if (kept !== undefined) return notRead(path, `the read rules keep it (${kept})`);
  const holds = policy !== undefined && (policy.hasReadDenyRules || policy.hasReadAskRules);
  try {
    const buf = withRegularFileSync(real, (fd) => {
      if (holds && fstatSync(fd).nlink > 1) return 'linked' as const;
      const bytes = Buffer.alloc(MAX_INSTRUCTION_BYTES + 1);
      let length = 0;
      while (length < bytes.length) {
        const n = readSync(fd, bytes, length, bytes.length - length, null);
        if (n === 0) break;
        length += n;
      }
      return bytes.subarray(0, length);
    });
    if (buf === 'linked')
      return notRead(path, 'it has other names (hard links), and one of them could be a file the read rules keep');
    return buf === undefined ? notRead(path, 'it is not a regular file') : instruction(path, buf);
  } catch (e) {
    return notRead(path, `it cannot be read (${(e as { code?: string }).code ?? (e as Error).message})`);
  }
}

/** The read deny or ask rule covering one of the names `paths` of a file, or `undefined`. */
function keptBy(policy: PermissionPolicy | undefined, paths: readonly string[]): string | undefined {
  if (policy === undefined) return undefined;
  for (const p of paths) {
    const rule = policy.denyingReadRule([p]) ?? policy.askingReadRule([p]);
    if (rule !== undefined) return rule;
  }
  return undefined;
}

function notRead(path: string, why: string): WorkspaceInstruction {
  return { path, text: `[${path} was not read: ${why}]` };
}

function instruction(path: string, buf: Buffer): WorkspaceInstruction {
  const cut = buf.length > MAX_INSTRUCTION_BYTES;
  const text = buf.subarray(0, MAX_INSTRUCTION_BYTES).toString('utf8');
  return { path, text: cut ? `${text}\n[${path} cut at ${MAX_INSTRUCTION_BYTES} bytes]` : text };
}

/** The ordered sections of the system prompt. The runtime contract is always first. */
export function buildSystemPrompt(inputs: PromptInputs = {}): string[] {
  const style = inputs.executionStyle ?? 'default';
  const sections = [
    RUNTIME_CONTRACT,
    typeof style === 'string' ? EXECUTION_STYLES[style] : `# Execution style\n${style.text}`,
    inputs.responseFormat === undefined ? RESPONSE_FORMAT : `# Response format\n${inputs.responseFormat}`,
  ];
  for (const w of inputs.workspaceInstructions ?? [])
    sections.push(`# Workspace instructions (${w.path})\n${w.text.trim()}`);
  for (const s of inputs.skills ?? []) sections.push(`# Skill\n${s.trim()}`);
  for (const h of inputs.hostContext ?? []) sections.push(h);
  return sections;
}
