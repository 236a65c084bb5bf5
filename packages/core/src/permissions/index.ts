export { PermissionPolicy, compileRuleList } from './permission-policy.js';
export type { PermissionDecision, PermissionPolicyConfig, PolicyEvaluation } from './permission-policy.js';
export { parsePermissionRule, ruleMatches } from './permission-rule.js';
export type { PermissionRule, RuleMatchMode } from './permission-rule.js';
export { ruleSubjects } from './rule-subjects.js';
export { gitToolCommandLines } from './git-rules.js';
export { unquoteDiffPath } from './diff-paths.js';
export type { RuleSubjects } from './rule-subjects.js';
export { compileGlob } from './glob.js';
export { judgeShellCommand } from './shell/shell-judge.js';
export type { ShellJudgement } from './shell/shell-judge.js';
export { defaultPermissionChecker } from './permission-checker.js';
export type { PermissionCheckRequest, PermissionCheckResult, PermissionChecker } from './permission-checker.js';
export {
  NO_APPROVER_REASON,
  noApprover,
  type ConfirmationAnswer,
  type ConfirmationManager,
  type ConfirmationRequest,
} from './confirmation.js';
