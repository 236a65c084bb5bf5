/**
 * `search_skills` (BM25 over name and description) and `Skill` (loads a skill's instructions
 * into the conversation as the tool result and, inside a run, applies its `allowed_tools` at the
 * permission projection for the rest of the run). A second skill never widens the
 * first: the earlier restriction stays as a restriction of the run.
 */
import type { Zod } from '../tools/zod-loader.js';
import { invocationContextOf } from '../invoker/call-context.js';
import type { GovernanceSnapshot, SkillRestriction } from '../invoker/governance.js';
import { narrowLiveGovernance } from '../invoker/live-governance.js';
import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/tool.js';
import { rankBm25 } from './bm25.js';
import type { SkillDefinition } from './skill-definition.js';
import toolJsonSchemas from '../tool-json-schemas.generated.json' with { type: 'json' };

const searchInput = (z: Zod) =>
  z.strictObject({
    query: z.string().min(1).describe('What the skill should help with.'),
    limit: z.number().int().min(1).max(50).default(5).describe('Most results, 1..50.'),
  });
const skillInput = (z: Zod) =>
  z.strictObject({ name: z.string().min(1).describe('Exact skill name from search_skills.') });

/**
 * The governance after activating `skill` (a skill, or a Skill restriction a run's log recorded):
 * earlier skills stay in force as restrictions.
 */
export function withSkill(
  g: GovernanceSnapshot,
  skill: Pick<SkillDefinition, 'name' | 'allowedTools'> | SkillRestriction,
): GovernanceSnapshot {
  if (skill.allowedTools === undefined) return g;
  const previous = g.skill === undefined ? [] : [{ name: `skill:${g.skill.name}`, allowedTools: g.skill.allowedTools }];
  return {
    ...g,
    skill: { name: skill.name, allowedTools: skill.allowedTools },
    restrictions: [...(g.restrictions ?? []), ...previous],
  };
}

/** Creates `search_skills` and `Skill` over a skill catalog. */
export function createSkillTools(skills: ReadonlyMap<string, SkillDefinition>): readonly Tool[] {
  const all = [...skills.values()];
  const search = defineTool({
    name: 'search_skills',
    description:
      'Find skills (packaged instructions for a kind of task) by what you need; load one with the Skill tool.',
    tier: 'read',
    inputJsonSchema: toolJsonSchemas.search_skills,
    plainInput: true,
    input: searchInput,
    capabilities: { readOnly: true, idempotent: true, outputType: 'json' },
    async execute(args) {
      const ranked = rankBm25(
        all,
        (s) => `${s.name} ${s.name.replace(/[-_.]/g, ' ')} ${s.description}`,
        args.query,
      ).slice(0, args.limit);
      const hits = ranked.map((r) => ({
        name: r.item.name,
        description: r.item.description,
        score: Number(r.score.toFixed(4)),
        ...(r.item.allowedTools ? { allowed_tools: r.item.allowedTools } : {}),
      }));
      return {
        output: JSON.stringify({ skills: hits, total: all.length }),
        exitCode: 0,
        metadata: { matches: hits.length },
      };
    },
  });
  const load = defineTool({
    name: 'Skill',
    description:
      'Load a skill by name: its instructions are returned for you to follow, and its tool restrictions apply for the rest of this run.',
    tier: 'read',
    inputJsonSchema: toolJsonSchemas.Skill,
    plainInput: true,
    input: skillInput,
    capabilities: { readOnly: true, idempotent: true },
    async execute(args, ctx) {
      const skill = skills.get(args.name);
      if (skill === undefined) {
        return {
          output: `Skill: args.name: no skill named '${args.name}'; available: ${all.length > 0 ? all.map((s) => s.name).join(', ') : '(none)'}`,
          exitCode: 1,
        };
      }
      const context = invocationContextOf(ctx);
      const applied =
        skill.allowedTools === undefined ? undefined : { name: skill.name, allowedTools: skill.allowedTools };
      const active = context !== undefined && narrowLiveGovernance(context, (g) => withSkill(g, skill), applied);
      const restriction = skill.allowedTools
        ? `\n\n[Tool restriction for the rest of this run: ${skill.allowedTools.join(', ')}]`
        : '';
      return {
        output: `# Skill: ${skill.name}\n${skill.instructions}${restriction}`,
        exitCode: 0,
        metadata: { skill: skill.name, active, allowed_tools: skill.allowedTools ?? null },
      };
    },
  });
  return [search, load] as readonly Tool[];
}
