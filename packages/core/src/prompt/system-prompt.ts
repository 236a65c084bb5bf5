/**
 * The layered system prompt: the runtime contract, the execution style, the
 * response format, the workspace's instruction files, skills and host context are separate,
 * ordered inputs. None of them can remove another, and none touches the tool list, which comes
 * only from the registry.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/** Reads the workspace's instruction files that exist (AGENTS.md, .a3s/instructions.md). */
export async function loadWorkspaceInstructions(dir: string): Promise<WorkspaceInstruction[]> {
  const out: WorkspaceInstruction[] = [];
  for (const path of INSTRUCTION_FILES) {
    const buf = await readFile(join(dir, path)).catch(() => undefined);
    if (buf) out.push(instruction(path, buf));
  }
  return out;
}

/** The same as {@link loadWorkspaceInstructions}, synchronously (for `agent.sessionSync`). */
export function loadWorkspaceInstructionsSync(dir: string): WorkspaceInstruction[] {
  const out: WorkspaceInstruction[] = [];
  for (const path of INSTRUCTION_FILES) {
    let buf: Buffer | undefined;
    try {
      buf = readFileSync(join(dir, path));
    } catch {
      buf = undefined;
    }
    if (buf) out.push(instruction(path, buf));
  }
  return out;
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
