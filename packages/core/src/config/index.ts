export type { CodeConfig, ToolQueueConfig, VibeSettings } from './code-config.js';
export {
  getCodeConfigFileSchema,
  getCodeConfigObjectSchema,
  SCRIPTED_MODEL_PREFIX,
  validateConfigObject,
} from './config-schema.js';
export { didYouMean, suggestKey } from './did-you-mean.js';
export { baseUrlProblem, parseModelRef, PROVIDER_NAMES, type ProviderName } from './model-ref.js';
export { codeConfigJsonSchema, CONFIG_SCHEMA_FILE, type JsonSchemaDocument } from './config-json-schema.js';
export {
  CONFIG_FILE_NAMES,
  findConfigFile,
  ignoredConfigFiles,
  loadCodeConfig,
  loadWorkspaceConfig,
  parseCodeConfig,
} from './load-config.js';
export { rebaseConfig } from './rebase-config.js';
export { configFolderOf, workspaceFolders } from './workspace-folders.js';
export { mergeLayers, mergePermissions, mergeVibe, normalizeLayer, type NormalizedLayer } from './merge-config.js';
