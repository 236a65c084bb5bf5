export { ToolRegistry } from './tool-registry.js';
export type { PendingTool, RegistrationReport, ToolDefinition, ToolRegistryOptions } from './tool-registry.js';
export { SessionResources } from './session-resources.js';
export type { ResourceAccess, ResourceState, ResourceStatus } from './session-resources.js';
export type { SourceResourceState, ToolSourceTarget } from './source-target.js';
export type { ToolSource } from './tool-source.js';
export { hiddenReason, modelSurface } from './tool-surface.js';
export type { ToolSurface } from './tool-surface.js';
export { describeTool, type ToolDescriptor } from './tool-descriptor.js';
