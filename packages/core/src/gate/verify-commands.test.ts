import { describe, expect, it } from 'vitest';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { validateVerification } from './verify-commands.js';

/** The field and message of the error `validateVerification` throws for one command. */
function refusal(command: unknown): { field: string; message: string; allowed?: unknown } {
  try {
    validateVerification('release', [command]);
  } catch (e) {
    expect(e).toBeInstanceOf(SessionConfigurationError);
    const error = e as SessionConfigurationError;
    return {
      field: error.field,
      message: error.message,
      ...(error.details.allowed === undefined ? {} : { allowed: error.details.allowed }),
    };
  }
  throw new Error('did not throw');
}

const KEYS = 'id, kind, description, command, required, timeoutMs';

describe('verifyCommands: a wrong command is named as other options are', () => {
  it('an unknown key lists the allowed keys and the one it was probably meant to be, before the key it leaves missing', () => {
    expect(refusal({ id: 'u', kind: 'test', command: 'true', timeout: 5 })).toEqual({
      field: 'commands[0].timeout',
      message: `session configuration: commands[0].timeout: is not a known key; allowed keys: ${KEYS}; did you mean 'timeoutMs'?`,
      allowed: KEYS.split(', '),
    });
    expect(refusal({ id: 'u', kind: 'test', cmd: 'false' })).toEqual({
      field: 'commands[0].cmd',
      message: `session configuration: commands[0].cmd: is not a known key; allowed keys: ${KEYS}`,
      allowed: KEYS.split(', '),
    });
  });

  it('a missing key is said to be missing, a wrong value what it must be', () => {
    expect(refusal({ command: 'true' })).toMatchObject({
      field: 'commands[0].id',
      message:
        'session configuration: commands[0].id: is missing: it must be a non-empty string naming the check (unique in the list), e.g. "unit"',
    });
    expect(refusal({ id: 'u' }).message).toBe(
      'session configuration: commands[0].command: is missing: it must be the shell command to run, a non-empty string, e.g. "npm test"',
    );
    expect(refusal({ id: 'u', command: '' }).message).toBe(
      'session configuration: commands[0].command: must be the shell command to run, a non-empty string, e.g. "npm test"',
    );
    expect(refusal({ id: 'u', command: 'true', timeoutMs: 5 }).message).toBe(
      'session configuration: commands[0].timeoutMs: must be an integer number of milliseconds from 1000 to 3600000',
    );
    expect(refusal({ id: 'u', command: 'true', required: 'yes' }).message).toBe(
      'session configuration: commands[0].required: must be true or false',
    );
    expect(refusal('npm test')).toMatchObject({
      field: 'commands[0]',
      message: `session configuration: commands[0]: must be a command object with keys ${KEYS}`,
    });
  });

  it('good commands pass; a repeated id is still refused', () => {
    expect(() =>
      validateVerification('release', [
        { id: 'unit', kind: 'test', description: 'unit tests', command: 'npm test', required: false, timeoutMs: 1000 },
        { id: 'lint', command: 'npm run lint' },
      ]),
    ).not.toThrow();
    expect(() =>
      validateVerification('release', [
        { id: 'a', command: 'x' },
        { id: 'a', command: 'y' },
      ]),
    ).toThrow("commands[1].id: duplicates 'a'");
  });
});
