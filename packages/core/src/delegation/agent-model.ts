/**
 * The model of a sub-agent: the session's client, or — when the agent names another
 * `provider/model` — a client created for it (once per model, with the configured provider
 * settings and the session's environment).
 */
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { ResolvedSessionConfig } from '../session/resolved-session-config.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { AgentDefinition } from './agent-definition.js';

/** Returns `modelFor(agent)` for a session. @throws SessionConfigurationError naming `agents.<name>.model` when the client cannot be created. */
export function agentModel(config: ResolvedSessionConfig): (agent: AgentDefinition) => LlmClient {
  const own = config.modelConfig ? `${config.modelConfig.provider}/${config.modelConfig.model}` : undefined;
  const clients = new Map<string, LlmClient>();
  return (agent) => {
    if (agent.model === undefined || agent.model === own) return config.model;
    let client = clients.get(agent.model);
    if (client === undefined) {
      try {
        client = config.clientFor(agent.model);
      } catch (e) {
        if (e instanceof SessionConfigurationError) throw e;
        throw new SessionConfigurationError(
          `agents.${agent.name}.model`,
          `cannot create a client for '${agent.model}': ${(e as Error).message}`,
        );
      }
      if (client === undefined)
        throw new SessionConfigurationError(
          `agents.${agent.name}.model`,
          `no client can be created for '${agent.model}'`,
        );
      clients.set(agent.model, client);
    }
    return client;
  };
}
