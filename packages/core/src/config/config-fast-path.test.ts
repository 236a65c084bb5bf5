import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptedWithoutZod } from './config-fast-path.js';
import { getCodeConfigObjectSchema, validateConfigObject } from './config-schema.js';

const zodAccepts = (v: unknown): boolean => getCodeConfigObjectSchema().safeParse(v).success;

const fn = () => undefined;
class Instance {
  stream(): void {}
  attach(): void {}
}

/** Values near every shape the fast path knows: valid ones, near misses, and anything at all. */
const value = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    fn,
    true,
    false,
    0,
    -0,
    1,
    -1,
    32,
    33,
    100,
    101,
    1024,
    1025,
    10_000,
    10_001,
    86_400_000,
    86_400_001,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    'x',
    'file',
    'memory',
    'wait',
    'return',
    'allow',
    'deny',
    'ask',
    'openai/gpt-4o',
    'nope/model',
    'openai/',
    'scripted:model.json',
    'x'.repeat(1025),
    [],
    [''],
    ['read'],
    ['read', ''],
    [1],
    [undefined],
    // biome-ignore lint/suspicious/noSparseArray: a hole is an item zod sees as undefined
    [, 'read'],
    [{}],
    [{ attach: fn }],
    [{ attach: 1 }],
    [new Instance()],
    {},
    { stream: fn },
    { attach: fn },
    { resolveConfig: fn, createClient: fn },
    { resolveConfig: fn },
    { allow: ['read'] },
    { allow: [''] },
    { allow: ['read'], defaultDecision: 'ask' },
    { defaultDecision: 'maybe' },
    { allow: undefined },
    { other: ['read'] },
    Object.create(null),
    new Instance(),
    new Map(),
  ),
  fc.anything(),
);

/** Mostly `valid`, sometimes a near miss or anything. */
const or = (valid: fc.Arbitrary<unknown>) => fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: value });
const int = (min: number, max: number) => fc.integer({ min: min - 2, max: Math.min(max + 2, Number.MAX_SAFE_INTEGER) });
const rules = fc.array(or(fc.constantFrom('read', 'bash(git *)', '')), { maxLength: 3 });
const strings = fc.array(or(fc.string({ maxLength: 3 })), { maxLength: 3 });
const object = fc.constantFrom({}, new Instance(), { check: fn });

/** For each key the fast path knows, values around what zod accepts. */
const NEAR: Record<string, fc.Arbitrary<unknown>> = {
  model: fc.constantFrom('openai/gpt-4o', 'anthropic/claude', 'nope/x', 'openai', new Instance(), { stream: 1 }),
  permissions: fc.record(
    {
      allow: or(rules),
      deny: or(rules),
      ask: or(rules),
      defaultDecision: or(fc.constantFrom('allow', 'deny', 'ask', 'x')),
    },
    { requiredKeys: [] },
  ),
  skillDirs: rules,
  agentDirs: rules,
  manualDelegation: fc.boolean(),
  autoParallel: fc.boolean(),
  workspaceInstructions: fc.boolean(),
  maxParallelTasks: int(1, 32),
  toolBudget: int(0, 10_000),
  maxToolRounds: int(0, 10_000),
  compactThresholdChars: int(1, Number.MAX_SAFE_INTEGER),
  compactThresholdTokens: int(1, 100),
  system: strings,
  persistence: fc.constantFrom('file', 'memory', 'disk'),
  sessionStore: fc.constantFrom('file', 'memory', 'disk', new Instance()),
  parkMode: fc.constantFrom('wait', 'return', 'park'),
  questionCap: int(0, 100),
  questionTimeoutMs: int(1, 86_400_000),
  steerCapacity: int(1, 1024),
  workspace: object,
  web: fc.oneof(fc.boolean(), object),
  toolSources: fc.array(or(fc.constantFrom({ attach: fn }, new Instance())), { maxLength: 2 }),
  tools: fc.array(or(object), { maxLength: 2 }),
  checker: fc.oneof(object, fc.constant(fn)),
  confirmation: object,
  onQuestion: fc.constant(fn),
  llmRetry: fc.oneof(
    object,
    fc.record(
      { maxRetries: or(int(0, 10)), baseDelayMs: or(int(0, 600_000)), maxDelayMs: or(int(0, 3_600_000)) },
      { requiredKeys: [] },
    ),
  ),
  governance: object,
  clock: fc.constant(fn),
  env: fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
  modelResolver: fc.constantFrom({ resolveConfig: fn, createClient: fn }, { resolveConfig: fn }),
  sessionId: fc.oneof(fc.string({ maxLength: 4 }), fc.constant('x'.repeat(1024)), fc.constant('x'.repeat(1025))),
  vibe: fc.oneof(
    fc.boolean(),
    fc.record(
      {
        enabled: or(fc.boolean()),
        tiers: or(
          fc.record(
            {
              fast: fc.constantFrom('openai/gpt-4o-mini', 'scripted:f.json', 'scripted: ', 'gpt', 'nope/x', 1),
              good: fc.constantFrom('anthropic/claude', 'scripted:', 'openai/'),
              slow: fc.constant('openai/x'),
            },
            { requiredKeys: [] },
          ),
        ),
        maxWorkers: int(1, 32),
        colour: fc.constant('red'),
      },
      { requiredKeys: [] },
    ),
    object,
  ),
};
/** Keys the fast path leaves to zod, and keys nobody knows. */
const OTHER: Record<string, fc.Arbitrary<unknown>> = {
  hooks: fc.constant({}),
  providers: fc.constant({}),
  bogus: fc.constant(1),
};
const KEYS = [...Object.keys(NEAR), ...Object.keys(OTHER)];

const layer = fc
  .record(Object.fromEntries(Object.entries({ ...NEAR, ...OTHER }).map(([k, arb]) => [k, or(arb)])), {
    requiredKeys: [],
  })
  .chain((full) =>
    // A few keys at a time, so that most layers are valid except for one thing.
    fc.subarray(Object.keys(full), { maxLength: 4 }).map((keys) => Object.fromEntries(keys.map((k) => [k, full[k]]))),
  );

describe('the zod-free check of a configuration layer', () => {
  it('never accepts a layer the zod schema rejects', () => {
    let accepted = 0;
    fc.assert(
      fc.property(layer, (v) => {
        if (!acceptedWithoutZod(v)) return true;
        accepted++;
        return zodAccepts(v);
      }),
      { numRuns: 4000 },
    );
    // Not vacuous: plenty of generated layers took the fast path.
    expect(accepted).toBeGreaterThan(1000);
  });

  it('never accepts a single key zod rejects, for each key and each value', () => {
    for (const key of KEYS)
      fc.assert(
        fc.property(value, (v) => !acceptedWithoutZod({ [key]: v }) || zodAccepts({ [key]: v })),
        { numRuns: 200 },
      );
  });

  it('accepts the layers the SDK and the CLI pass, so they need no zod', () => {
    const common = [
      {},
      { sessionStore: 'file', modelResolver: { resolveConfig: fn, createClient: fn }, env: { HOME: '/h' } },
      {
        permissions: { allow: ['read', 'grep'] },
        checker: { check: fn },
        governance: {},
        parkMode: 'return',
        model: new Instance(),
        confirmation: { confirm: fn },
        workspace: new Instance(),
        tools: [{ name: 'p', version: '1', tools: [] }],
        toolSources: [{ name: 'mcp', attach: fn }],
        sessionId: 's1',
      },
      { model: 'openai/gpt-4o', maxToolRounds: 10, persistence: 'memory', web: false },
    ];
    for (const c of common) {
      expect(acceptedWithoutZod(c)).toBe(true);
      expect(zodAccepts(c)).toBe(true);
    }
  });

  it('leaves the rest to zod, which names the problem', () => {
    for (const bad of [{ parkMode: 'later' }, { bogus: 1 }, { hooks: { pre: [{ command: '' }] } }, { sessionId: '' }]) {
      expect(acceptedWithoutZod(bad)).toBe(false);
      expect(() => validateConfigObject(bad)).toThrow(/parkMode|bogus|hooks\.pre\[0\]\.command|sessionId/);
    }
    expect(acceptedWithoutZod({ hooks: {} })).toBe(false);
    expect(() => validateConfigObject({ hooks: {} })).not.toThrow();
  });
});
