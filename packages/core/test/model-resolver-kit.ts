/**
 * A stand-in for the model resolver a host injects (the SDK passes `@a3s-code/providers`'): it
 * parses `provider/model`, requires `OPENAI_API_KEY` (or an `apiKey`) for `openai/*` the way a
 * real resolver requires keys, records every selection and answers with scripted clients.
 */
import { ModelConfigurationError } from '../src/errors/model-errors.js';
import { parseModelRef } from '../src/config/model-ref.js';
import type { ModelConfig, ModelEnvironment, ModelResolver, ModelSelection } from '../src/llm/model-resolver.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../src/llm/scripted-llm-client.js';

const CAPS = {
  forcedToolChoice: true,
  strictJsonSchema: false,
  jsonMode: false,
  nonStreaming: false,
  reasoning: false,
  parallelToolCalls: true,
};

/** The resolver and what it was asked. Clients play `turns`. */
export function fakeModelResolver(turns: ScriptedTurn[] = [{ text: 'ok' }]) {
  const selections: ModelSelection[] = [];
  const config = (selection: ModelSelection, env: ModelEnvironment): ModelConfig | undefined => {
    const ref = selection.model ?? env.A3S_MODEL;
    if (ref === undefined || ref === '') return undefined;
    const { provider, model } = parseModelRef(ref, selection.model === undefined ? 'A3S_MODEL' : 'model');
    const key = selection.apiKey ?? (provider === 'openai' ? env.OPENAI_API_KEY : 'none');
    if (!key) throw new ModelConfigurationError('OPENAI_API_KEY', `is not set; it is required for model '${ref}'`);
    return {
      provider,
      family: 'fake',
      model,
      baseUrl: selection.baseUrl ?? 'http://fake.invalid',
      apiKeySource: selection.apiKey === undefined ? undefined : 'apiKey',
      capabilities: CAPS,
    };
  };
  const resolver: ModelResolver = {
    resolveConfig: config,
    createClient: (selection, env) => {
      selections.push(selection);
      const c = config(selection, env);
      return c && new ScriptedLlmClient(turns, { model: c.model });
    },
  };
  return { resolver, selections };
}
