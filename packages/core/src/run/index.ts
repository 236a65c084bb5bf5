export {
  ASK_USER_GUIDANCE,
  ASK_USER_TOOL,
  askUserTool,
  hasAskPort,
  NO_ASK_PORT_MESSAGE,
  withQuestionTimeout,
} from './ask-user.js';
export { COMPACTION_KEPT_MESSAGES } from './compact-executor.js';
export { toLlmMessages, toLlmTools } from './conversation.js';
export { QuestionCapError } from './infer-executor.js';
export type { ParkedAt, ParkMode, QuestionAnswer, QuestionHandler, RunResult, RunUsage } from './run-result.js';
