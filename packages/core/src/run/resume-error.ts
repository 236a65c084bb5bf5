/** `resumeRun` cannot continue: nothing to resume from. Declared with the session errors. */
export { ResumeError } from '../errors/session-errors.js';
