/**
 * The `ModelResolver` core takes from its host: `provider/model` names resolved with this
 * package's presets and clients. The SDK installs it below every configuration layer.
 */
import type { ModelResolver } from '@a3s-code/core';
import { createLlmClient, resolveModelConfig } from './model-selection.js';

const resolver: ModelResolver = {
  resolveConfig: (selection, env) => resolveModelConfig(selection, env),
  createClient: (selection, env) => createLlmClient(selection, env),
};

/** Resolves `provider/model` selections with this package's presets, environment and clients. */
export const providerModelResolver: ModelResolver = Object.freeze(resolver);
