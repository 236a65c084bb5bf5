export { parseSkillFile } from './skill-definition.js';
export type { SkillDefinition } from './skill-definition.js';
export { WORKSPACE_SKILL_DIR, loadSkillCatalog } from './skill-catalog.js';
export { rankBm25, tokenize } from './bm25.js';
export type { Ranked } from './bm25.js';
export { createSkillTools, withSkill } from './skill-tools.js';
