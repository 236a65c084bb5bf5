export { A3sError, StepLimitError } from '@a3s-code/effect';
export type { A3sErrorOptions } from '@a3s-code/effect';
export * from './session-errors.js';
export * from './tool-errors.js';
export * from './persistence-errors.js';
export { ModelConfigurationError } from './model-errors.js';
export { ResourceOpenError, ResourceUnavailableError } from './resource-errors.js';
