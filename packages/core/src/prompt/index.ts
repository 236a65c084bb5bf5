export { EXECUTION_STYLES, RESPONSE_FORMAT, RUNTIME_CONTRACT } from './contracts.js';
export {
  buildSystemPrompt,
  INSTRUCTION_FILES,
  loadWorkspaceInstructions,
  loadWorkspaceInstructionsSync,
  MAX_INSTRUCTION_BYTES,
  type PromptInputs,
  type WorkspaceInstruction,
} from './system-prompt.js';
