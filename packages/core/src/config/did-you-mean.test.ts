import { describe, expect, it } from 'vitest';
import { SessionConfigurationError } from '../errors/index.js';
import { checkCallOptions } from '../session/call-options.js';
import { validateConfigObject } from './config-schema.js';
import { suggestKey } from './did-you-mean.js';

const KEYS = ['model', 'sessionId', 'governance', 'permissions', 'maxToolRounds', 'persistence', 'tools'];

describe('did you mean: a mistyped option key is answered with the key it was meant to be', () => {
  it('a respelling (case, snake_case, kebab-case) or a near typo finds the key; an unrelated word finds none', () => {
    expect(suggestKey('session_id', KEYS)).toBe('sessionId');
    expect(suggestKey('SessionID', KEYS)).toBe('sessionId');
    expect(suggestKey('max-tool-rounds', KEYS)).toBe('maxToolRounds');
    expect(suggestKey('sesionId', KEYS)).toBe('sessionId');
    expect(suggestKey('goverance', KEYS)).toBe('governance');
    expect(suggestKey('permisions', KEYS)).toBe('permissions');
    expect(suggestKey('persistance', KEYS)).toBe('persistence');
    expect(suggestKey('modle', KEYS)).toBe('model');
    expect(suggestKey('tool', KEYS)).toBe('tools');
    for (const word of ['zzz', 'signal', 'workspaceRoot', 'x'.repeat(200)])
      expect(suggestKey(word, KEYS)).toBeUndefined();
  });

  it("another agent SDK's option names (systemPrompt, maxTurns, allowedTools, permissionMode) are answered with ours", () => {
    const message = (config: Record<string, unknown>): string => {
      try {
        validateConfigObject(config);
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    expect(message({ systemPrompt: 'x' })).toContain(
      "did you mean 'system'? ('systemPrompt' is another agent SDK's name for what 'system' sets here)",
    );
    expect(message({ instructions: 'x' })).toContain("did you mean 'system'?");
    expect(message({ max_turns: 3 })).toContain("did you mean 'maxToolRounds'?");
    expect(message({ allowedTools: ['read'] })).toContain("did you mean 'permissions'?");
    expect(message({ permissionMode: 'acceptEdits' })).toContain("did you mean 'permissions'?");
  });

  it('validateConfigObject and the run options name the key, list the allowed ones and suggest the one meant', () => {
    const refusal = (f: () => unknown): SessionConfigurationError => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(SessionConfigurationError);
        return e as SessionConfigurationError;
      }
      throw new Error('not refused');
    };
    const top = refusal(() => validateConfigObject({ sesionId: 'x' }));
    expect(top.field).toBe('sesionId');
    expect(top.message).toMatch(/sesionId: is not a known key; allowed keys: model, .*; did you mean 'sessionId'\?$/);
    expect(top.details.allowed).toContain('sessionId');
    expect(refusal(() => validateConfigObject({ governance: { yolos: true } })).message).toMatch(
      /governance\.yolos: is not a known key; .*did you mean 'yolo'\?$/,
    );
    expect(refusal(() => validateConfigObject({ zzz: 1 })).message).not.toMatch(/did you mean/);
    expect(refusal(() => checkCallOptions('send', { atachments: [] })).message).toMatch(
      /options\.atachments: is not an option of send; allowed: attachments, signal; did you mean 'attachments'\?$/,
    );
  });
});
