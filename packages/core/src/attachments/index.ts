export { AttachmentError, AttachmentMissingError, type AttachmentProblem } from './attachment-errors.js';
export {
  ATTACHMENT_LIMITS,
  type AttachmentInput,
  type AttachmentLimits,
  type FileAttachment,
  type ImageDataAttachment,
  type ImagePathAttachment,
  type SendOptions,
} from './attachment-input.js';
export { sniffImage, type ImageMediaType } from './sniff.js';
