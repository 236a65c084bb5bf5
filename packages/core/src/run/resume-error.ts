/** `resumeRun` cannot continue: nothing to resume from. */
import { A3sError } from '@a3s-code/effect';

/** The seed's exact messages: `resume_run requires a session_store on this session`, `no loop checkpoint found for run '<id>'`. */
export class ResumeError extends A3sError {
  constructor(message: string) {
    super('RESUME_UNAVAILABLE', message);
  }
}
