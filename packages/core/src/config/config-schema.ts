/**
 * The zod schemas of `CodeConfig`: one for JSON files (data keys only) and one
 * for the object form (plus runtime objects). Every message says what is allowed; the first
 * issue becomes a `SessionConfigurationError` naming its key path (`permissions.deny[2]`).
 */
import type { z } from 'zod';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { baseUrlProblem, parseModelRef, PROVIDER_NAMES } from './model-ref.js';
import { assertNoRenamedKeys } from './renamed-keys.js';
import { acceptedWithoutZod } from './config-fast-path.js';
import { configError } from './config-error.js';
import { lazyZod, type Zod } from '../tools/zod-loader.js';
import { objectIssue, vibeSchema } from './config-schema-vibe.js';
import { governanceSchema } from './config-schema-governance.js';
import { requiredChecksSchema } from './config-schema-gate.js';
import { mcpServersSchema } from './config-schema-mcp.js';

/** The prefix of an offline scripted model file (`scripted:<file.json>`), resolved by the SDK. */
export const SCRIPTED_MODEL_PREFIX = 'scripted:';

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
const field = (v: unknown, key: string): unknown => (isObject(v) ? Reflect.get(v as object, key) : undefined);
const isToolPack = (v: unknown): boolean => typeof field(v, 'name') === 'string' && Array.isArray(field(v, 'tools'));
const CONFIRMATION = 'must be a ConfirmationManager (an object with confirm(request, signal))';
const hasMethods = (v: unknown, ...names: string[]): boolean =>
  isObject(v) && names.every((n) => typeof (v as Record<string, unknown>)[n] === 'function');

function buildConfigSchemas(z: Zod) {
  const intIn = (min: number, max: number) => {
    const error = `must be an integer from ${min} to ${max}`;
    return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
  };
  const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values, { error: `must be one of ${values.map((v) => `'${v}'`).join(', ')}` });
  const str = (what = 'a non-empty string') =>
    z.string({ error: `must be ${what}` }).min(1, { error: `must be ${what}` });
  // What one item must be, said with its article (and, for a rule, its two forms).
  const items: Readonly<Record<string, string>> = {
    'permission rule': "a permission rule: 'Tool' or 'Tool(pattern)', e.g. 'Bash(git status:*)'",
    'skill instruction text': 'a non-empty skill instruction text',
  };
  const strList = (what: string) =>
    z.array(str(items[what] ?? `a non-empty ${what}`), { error: `must be an array of ${what}s` });
  const strRecord = z.record(z.string(), z.string({ error: 'must be a string' }), {
    error: 'must be an object of strings',
  });

  function strict<T extends z.core.$ZodLooseShape>(shape: T) {
    const keys = Object.keys(shape).join(', ');
    return z.strictObject(shape, {
      error: objectIssue(`allowed keys: ${keys}`, `must be an object with keys ${keys}`),
    });
  }

  const providerSettings = strict({
    baseUrl: z
      .string({ error: 'must be an absolute http(s) URL' })
      .superRefine((url, ctx) => {
        const problem = baseUrlProblem(url);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    apiKeyEnv: z
      .string({ error: 'must be an environment variable name' })
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
        error: 'must be an environment variable name ([A-Za-z_][A-Za-z0-9_]*), never the key itself',
      })
      .optional(),
    headers: strRecord.optional(),
    maxOutputTokens: intIn(1, 1_000_000).optional(),
    connectTimeoutMs: intIn(1, 600_000).optional(),
    idleTimeoutMs: intIn(1, 600_000).optional(),
  });

  const providers = z
    .record(z.string(), providerSettings, { error: 'must be an object keyed by provider name' })
    .superRefine((value, ctx) => {
      for (const name of Object.keys(value)) {
        if (!(PROVIDER_NAMES as readonly string[]).includes(name))
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `is not a known provider; allowed: ${PROVIDER_NAMES.join(', ')}`,
          });
      }
    });

  const modelRef = z.string().superRefine((ref, ctx) => {
    try {
      parseModelRef(ref, 'model');
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message.replace(/^model configuration: model: /, '') });
    }
  });

  /** `model` of a config file: `provider/model`, or `scripted:<file.json>` (relative to the file's folder). */
  const fileModelRef = z
    .string({ error: "must be 'provider/model' or 'scripted:<file.json>'" })
    .superRefine((ref, ctx) => {
      if (ref.startsWith(SCRIPTED_MODEL_PREFIX)) {
        if (ref.slice(SCRIPTED_MODEL_PREFIX.length).trim() === '')
          ctx.addIssue({ code: 'custom', message: "must name the script file: 'scripted:<file.json>'" });
        return;
      }
      try {
        parseModelRef(ref, 'model');
      } catch (e) {
        ctx.addIssue({
          code: 'custom',
          message: `${(e as Error).message.replace(/^model configuration: model: /, '')}, or 'scripted:<file.json>'`,
        });
      }
    });

  const price = z
    .number({ error: 'must be a number >= 0 (price per million tokens)' })
    .min(0, { error: 'must be a number >= 0 (price per million tokens)' });
  const pricing = z
    .record(z.string(), strict({ inputPerMTok: price, outputPerMTok: price }), {
      error: 'must be an object keyed by provider/model',
    })
    .superRefine((value, ctx) => {
      for (const key of Object.keys(value)) {
        const slash = key.indexOf('/');
        if (slash <= 0 || slash === key.length - 1)
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: "is not a model id: expected 'provider/model' (e.g. 'openai/gpt-4o')",
          });
      }
    });

  const permissions = strict({
    allow: strList('permission rule').optional(),
    deny: strList('permission rule').optional(),
    ask: strList('permission rule').optional(),
    defaultDecision: oneOf(['allow', 'deny', 'ask']).optional(),
  });

  const mcpServers = mcpServersSchema(z);

  const commandHook = strict({
    matcher: str('a tool-name glob').optional(),
    command: str('a shell command'),
    timeoutMs: intIn(1, 600_000).optional(),
  });

  const tierName = oneOf(['read', 'write', 'exec']);
  const agentInput = strict({
    name: z
      .string({ error: 'must be 1..64 of [A-Za-z0-9_-], starting with a letter' })
      .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, { error: 'must be 1..64 of [A-Za-z0-9_-], starting with a letter' }),
    description: str('a non-empty description'),
    instructions: z.string({ error: 'must be a string' }).optional(),
    tools: strList('permission rule').optional(),
    tier: z
      .union([tierName, z.array(tierName)], { error: "must be 'read', 'write', 'exec' or a list of them" })
      .optional(),
    model: modelRef.optional(),
    maxSteps: intIn(1, 1000).optional(),
  });

  const llmBudget = strict({
    maxTokens: intIn(1, Number.MAX_SAFE_INTEGER).optional(),
    softTokens: intIn(1, Number.MAX_SAFE_INTEGER).optional(),
    maxCalls: intIn(1, Number.MAX_SAFE_INTEGER).optional(),
    softCalls: intIn(1, Number.MAX_SAFE_INTEGER).optional(),
  });
  const vibe = vibeSchema(z, fileModelRef, intIn(1, 32));

  const dataShape = {
    model: modelRef.optional(),
    providers: providers.optional(),
    pricing: pricing.optional(),
    permissions: permissions.optional(),
    mcpServers: mcpServers.optional(),
    skillDirs: strList('folder path').optional(),
    agentDirs: strList('folder path').optional(),
    agents: z.array(agentInput, { error: 'must be an array of agent definitions' }).optional(),
    manualDelegation: z.boolean({ error: 'must be true or false' }).optional(),
    autoParallel: z.boolean({ error: 'must be true or false' }).optional(),
    maxParallelTasks: intIn(1, 32).optional(),
    budgets: strict({
      llm: llmBudget.optional(),
      toolCalls: strict({ limit: intIn(0, 1_000_000), softLimit: intIn(0, 1_000_000).optional() }).optional(),
    }).optional(),
    toolBudget: intIn(0, 10_000).optional(),
    maxToolRounds: intIn(0, 10_000).optional(),
    compactThresholdChars: intIn(1, Number.MAX_SAFE_INTEGER).optional(),
    compactThresholdTokens: intIn(1, Number.MAX_SAFE_INTEGER).optional(),
    hooks: strict({
      pre: z.array(commandHook, { error: 'must be an array of hooks' }).optional(),
      post: z.array(commandHook, { error: 'must be an array of hooks' }).optional(),
      userPromptSubmit: z.array(commandHook, { error: 'must be an array of hooks' }).optional(),
      stop: z.array(commandHook, { error: 'must be an array of hooks' }).optional(),
      preCompact: z.array(commandHook, { error: 'must be an array of hooks' }).optional(),
    }).optional(),
    system: z.array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' }).optional(),
    persistence: oneOf(['file', 'memory']).optional(),
    sessionStore: oneOf(['file', 'memory']).optional(),
    memory: z.union([z.literal('file'), z.literal(false)], { error: "must be 'file' or false" }).optional(),
    queue: strict({
      defaultTimeoutMs: intIn(1, 86_400_000).optional(),
      maxParallelism: intIn(1, 1024).optional(),
      maxDepth: intIn(1, 64).optional(),
    }).optional(),
    parkMode: oneOf(['wait', 'return']).optional(),
    questionCap: intIn(0, 100).optional(),
    questionTimeoutMs: intIn(1, 86_400_000).optional(),
    steerCapacity: intIn(1, 1024).optional(),
    workspaceInstructions: z.boolean({ error: 'must be true or false' }).optional(),
    gate: strict({
      continuation: strict({
        enabled: z.boolean({ error: 'must be true or false' }).optional(),
        maxTurns: intIn(0, 10).optional(),
      }).optional(),
      requiredChecks: requiredChecksSchema(z).optional(),
    }).optional(),
    vibe: vibe.optional(),
  };

  const codeConfigFileSchema = strict({
    ...dataShape,
    model: fileModelRef.optional(),
    $schema: z.string({ error: 'must be a string (the URL or path of the JSON Schema)' }).optional(),
  });

  const obj = (what: string) => z.custom<object>(isObject, { error: `must be ${what}` });
  const toolPack = z.custom<object>(isToolPack, {
    error: 'must be a ToolPack (a name and a tools array: defineToolPack)',
  });
  const fn = (what: string) =>
    z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { error: `must be ${what}` });
  const hookItem = (method: 'before' | 'after') =>
    z.unknown().superRefine((v, ctx) => {
      const o = isObject(v) ? (v as Record<string, unknown>) : {};
      const issue = (path: string, message: string) => void ctx.addIssue({ code: 'custom', path: [path], message });
      if (typeof o[method] === 'function')
        return typeof o.name === 'string' ? undefined : issue('name', 'must be a string naming the hook');
      const wants = `a function ${method}(call${method === 'after' ? ', result' : ''})`;
      if (o[method] !== undefined && o.command === undefined)
        return issue(method, `must be ${wants}, got ${typeof o[method]}`);
      const r = commandHook.safeParse(v);
      const other = `must be a command hook {matcher?, command, timeoutMs?} or an object with ${method}()`;
      for (const i of r.success ? [] : r.error.issues)
        ctx.addIssue({ code: 'custom', path: i.path as PropertyKey[], message: isObject(v) ? i.message : other });
    });

  const eventHook = z.unknown().superRefine((v, ctx) => {
    if (typeof v === 'function') return;
    const r = commandHook.safeParse(v);
    if (!r.success)
      for (const i of r.error.issues)
        ctx.addIssue({
          code: 'custom',
          path: i.path as PropertyKey[],
          message: isObject(v)
            ? i.message
            : 'must be a command hook {command, timeoutMs?} or a function (input) => decision',
        });
  });

  const codeConfigObjectSchema = strict({
    ...dataShape,
    model: z
      .union(
        [modelRef, z.custom<object>((v) => isObject(v) && typeof (v as Record<string, unknown>).stream === 'function')],
        { error: "must be 'provider/model' or an LlmClient" },
      )
      .optional(),
    sessionStore: z
      .custom<object | string>((v) => v === 'file' || v === 'memory' || isObject(v), {
        error: "must be 'file', 'memory' or a SessionStore object",
      })
      .optional(),
    hooks: strict({
      pre: z.array(hookItem('before'), { error: 'must be an array of hooks' }).optional(),
      post: z.array(hookItem('after'), { error: 'must be an array of hooks' }).optional(),
      userPromptSubmit: z.array(eventHook, { error: 'must be an array of hooks' }).optional(),
      stop: z.array(eventHook, { error: 'must be an array of hooks' }).optional(),
      preCompact: z.array(eventHook, { error: 'must be an array of hooks' }).optional(),
    }).optional(),
    workspace: obj('a WorkspaceServices object').optional(),
    memory: z
      .custom<object | string | boolean>((v) => v === 'file' || v === false || hasMethods(v, 'remember', 'recall'), {
        error: "must be 'file', false or a MemoryStore (an object with remember() and recall())",
      })
      .optional(),
    security: z
      .custom<object>((v) => hasMethods(v, 'sanitizeOutput'), {
        error: 'must be a SecurityProvider (an object with sanitizeOutput())',
      })
      .optional(),
    gate: strict({
      continuation: strict({
        enabled: z.boolean({ error: 'must be true or false' }).optional(),
        maxTurns: intIn(0, 10).optional(),
      }).optional(),
      requiredChecks: requiredChecksSchema(z).optional(),
      attestor: z
        .custom<object>((v) => isObject(v) && typeof (v as Record<string, unknown>).attest === 'function', {
          error: 'must be an object with attest()',
        })
        .optional(),
    }).optional(),
    web: z
      .custom<object | boolean>((v) => typeof v === 'boolean' || isObject(v), {
        error: 'must be true, false or an object { allowPrivateNetwork?, fetch?, search? }',
      })
      .optional(),
    toolSources: z
      .array(
        z.custom<object>((v) => isObject(v) && typeof (v as Record<string, unknown>).attach === 'function', {
          error: 'must be an object with attach(registry)',
        }),
        { error: 'must be an array of tool sources' },
      )
      .optional(),
    prompt: strict({
      executionStyle: z
        .union([oneOf(['default', 'plan']), strict({ text: str('the execution-style text') })], {
          error: "must be 'default', 'plan' or { text }",
        })
        .optional(),
      responseFormat: str('the response-format text').optional(),
      skills: strList('skill instruction text').optional(),
    }).optional(),
    tools: z.array(toolPack, { error: 'must be an array of tool packs' }).optional(),
    checker: z
      .custom<unknown>((v) => isObject(v) || typeof v === 'function', { error: 'must be a PermissionChecker' })
      .optional(),
    confirmation: z.custom<object>((v) => hasMethods(v, 'confirm'), { error: CONFIRMATION }).optional(),
    onQuestion: fn('a function (question, signal) => answer').optional(),
    llmRetry: strict({
      maxRetries: intIn(0, 10).optional(),
      baseDelayMs: intIn(0, 600_000).optional(),
      maxDelayMs: intIn(0, 3_600_000).optional(),
    }).optional(),
    governance: governanceSchema(z).optional(),
    clock: fn('a function returning epoch milliseconds').optional(),
    env: obj('an object of environment variables').optional(),
    modelResolver: z
      .custom<object>((v) => hasMethods(v, 'resolveConfig', 'createClient'), {
        error: 'must be a ModelResolver (an object with resolveConfig() and createClient())',
      })
      .optional(),
    sessionId: z
      .string({ error: 'must be a string of 1 to 1024 characters' })
      .min(1, { error: 'must be a string of 1 to 1024 characters' })
      .max(1024, { error: 'must be a string of 1 to 1024 characters' })
      .optional(),
    history: z
      .array(strict({ role: oneOf(['user', 'assistant']), content: z.string({ error: 'must be a string' }) }), {
        error: 'must be an array of {role, content}',
      })
      .optional(),
  });
  return { file: codeConfigFileSchema, object: codeConfigObjectSchema };
}

const configSchemas = lazyZod(buildConfigSchemas);

/**
 * The zod schema of a JSON config file: data keys, `$schema` (an editor's hint, ignored) and a `model`
 * that may be `scripted:<file.json>`. Built (and zod loaded) on the first call, then the same schema.
 */
export function getCodeConfigFileSchema(): ReturnType<typeof buildConfigSchemas>['file'] {
  return configSchemas().file;
}

/** The zod schema of the object form (a layer: agent config or session options), built like the file's. */
export function getCodeConfigObjectSchema(): ReturnType<typeof buildConfigSchemas>['object'] {
  return configSchemas().object;
}

/** Validates one layer in the object form (agent config or session options). */
export function validateConfigObject(value: unknown): void {
  if (!isObject(value)) throw new SessionConfigurationError('(root)', 'must be a configuration object');
  assertNoRenamedKeys(value);
  // The usual layers pass a zod-free check; zod (loaded on first use) decides the rest and names the problem.
  if (acceptedWithoutZod(value)) return;
  const r = getCodeConfigObjectSchema().safeParse(value);
  if (!r.success) throw configError(r.error.issues);
}
