/**
 * A zod-free check of the common shapes of one configuration layer in the object form (agent
 * config, session options): `true` only for a layer the zod schema accepts as well, `false`
 * whenever it is not sure (a key or a shape it does not know) — then zod decides and names the
 * problem. The usual `Agent.create` and session options need no zod this way.
 */
import { parseModelRef } from './model-ref.js';

type Check = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object made by `{}` or `Object.create(null)` (never a class instance, a proxy's target aside). */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (!isObject(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const isFunction: Check = (v) => typeof v === 'function';
const isBoolean: Check = (v) => typeof v === 'boolean';
const oneOf =
  (...values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const intIn =
  (min: number, max: number): Check =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const withMethods =
  (...methods: readonly string[]): Check =>
  (v) =>
    isObject(v) && methods.every((m) => typeof v[m] === 'function');

/** An array (holes count as `undefined`) whose every item passes `item`. */
const arrayOf =
  (item: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return false;
    for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
    return true;
  };

const nonEmptyString: Check = (v) => typeof v === 'string' && v.length > 0;

/** A plain object whose keys are among `shape`'s, each absent, `undefined` or passing its check. */
const strictShape =
  (shape: Readonly<Record<string, Check>>): Check =>
  (v) => {
    if (!isPlainObject(v)) return false;
    for (const key of Object.keys(v)) {
      const check = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (check === undefined) return false;
      if (v[key] !== undefined && !check(v[key])) return false;
    }
    return true;
  };

function modelRef(v: unknown): boolean {
  if (typeof v !== 'string') return withMethods('stream')(v);
  try {
    parseModelRef(v, 'model');
    return true;
  } catch {
    return false;
  }
}

/** A vibe tier's model: `provider/model` or `scripted:<file.json>`. */
function tierModel(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  if (v.startsWith('scripted:')) return v.slice('scripted:'.length).trim() !== '';
  return modelRef(v);
}

const tierList = arrayOf(oneOf('read', 'write', 'exec'));

/** `governance`: only the common flags; a skill, restrictions or a budget go to zod. */
const GOVERNANCE = strictShape({
  mode: oneOf('default', 'plan'),
  readOnly: isBoolean,
  yolo: isBoolean,
  tiers: tierList,
  delegationDepth: intIn(0, Number.MAX_SAFE_INTEGER),
});

/** The keys the fast path knows, each with a check no looser than the zod schema's. */
const LAYER = strictShape({
  model: modelRef,
  permissions: strictShape({
    allow: arrayOf(nonEmptyString),
    deny: arrayOf(nonEmptyString),
    ask: arrayOf(nonEmptyString),
    defaultDecision: oneOf('allow', 'deny', 'ask'),
  }),
  skillDirs: arrayOf(nonEmptyString),
  agentDirs: arrayOf(nonEmptyString),
  manualDelegation: isBoolean,
  autoParallel: isBoolean,
  workspaceInstructions: isBoolean,
  maxParallelTasks: intIn(1, 32),
  toolBudget: intIn(0, 10_000),
  maxToolRounds: intIn(0, 10_000),
  compactThresholdChars: intIn(1, Number.MAX_SAFE_INTEGER),
  compactThresholdTokens: intIn(1, Number.MAX_SAFE_INTEGER),
  system: arrayOf((v) => typeof v === 'string'),
  persistence: oneOf('file', 'memory'),
  sessionStore: (v) => v === 'file' || v === 'memory' || isObject(v),
  memory: (v) => v === 'file' || v === false || withMethods('remember', 'recall')(v),
  security: withMethods('sanitizeOutput'),
  queue: strictShape({
    defaultTimeoutMs: intIn(1, 86_400_000),
    maxParallelism: intIn(1, 1024),
    maxDepth: intIn(1, 64),
  }),
  parkMode: oneOf('wait', 'return'),
  vibe: (v) =>
    typeof v === 'boolean' ||
    strictShape({
      enabled: isBoolean,
      tiers: strictShape({ fast: tierModel, good: tierModel }),
      maxWorkers: intIn(1, 32),
    })(v),
  questionCap: intIn(0, 100),
  questionTimeoutMs: intIn(1, 86_400_000),
  steerCapacity: intIn(1, 1024),
  workspace: isObject,
  web: (v) => typeof v === 'boolean' || isObject(v),
  toolSources: arrayOf(withMethods('attach')),
  tools: arrayOf((v) => isObject(v) && typeof v.name === 'string' && Array.isArray(v.tools)),
  checker: (v) => isObject(v) || typeof v === 'function',
  confirmation: withMethods('confirm'),
  onQuestion: isFunction,
  llmRetry: strictShape({ maxRetries: intIn(0, 10), baseDelayMs: intIn(0, 600_000), maxDelayMs: intIn(0, 3_600_000) }),
  governance: GOVERNANCE,
  clock: isFunction,
  env: isObject,
  modelResolver: withMethods('resolveConfig', 'createClient'),
  sessionId: (v) => typeof v === 'string' && v.length >= 1 && v.length <= 1024,
});

/**
 * Whether `layer` is certainly valid without asking zod: `true` only when every key is one this
 * check knows and its value has a shape the zod schema accepts; `false` means "ask zod".
 */
export function acceptedWithoutZod(layer: unknown): boolean {
  return LAYER(layer);
}
