// What the shipped documentation and the model-facing tool guidance tell hosts and script authors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo } from './kit.js';

const root = join(import.meta.dirname, '..', '..', '..');
const readme = (path: string) => readFileSync(join(root, path), 'utf8').replace(/\s+/g, ' ');

/** The section of a README under `heading` (up to the next `## `), whitespace collapsed. */
function section(path: string, heading: string): string {
  const text = readFileSync(join(root, path), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, `${path} has a '## ${heading}' section`).toBeGreaterThan(-1);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end).replace(/\s+/g, ' ');
}

/** The description of `program` the model reads, from a real session's first request. */
async function programDescription(): Promise<string> {
  const model = new ScriptedLlmClient([{ text: 'ok' }]);
  const session = await (await Agent.create({ model })).session(tempRepo());
  try {
    await session.send('hi');
    return model.requests[0]!.tools.find((t) => t.name === 'program')!.description.replace(/\s+/g, ' ');
  } finally {
    await session.close();
  }
}

describe('the documentation of host-direct calls', () => {
  const authorisation =
    /not an end-user authorisation system[\s\S]{0,400}?must authenticate and authorise (?:its|those) users[\s\S]{0,120}?before/;

  it('TOOL-07: the SDK README, where the host-direct helpers are documented, says the application must authorise its users first', () => {
    const sdk = section('packages/sdk-node/README.md', 'Session');
    expect(sdk).toMatch(authorisation);
    expect(readme('README.md')).toMatch(authorisation);
  });

  it('INV-11: host-direct policy is said not to be an end-user authorisation system, in the SDK and core READMEs', () => {
    for (const path of ['packages/sdk-node/README.md', 'packages/core/README.md'])
      expect(readme(path), path).toMatch(authorisation);
    expect(readme('packages/sdk-node/README.md')).toMatch(/before it makes the call/);
  });
});

describe('the guidance on programs', () => {
  it('PROG-09: script authors are told to return summarised findings, evidence references, risks and next steps, not raw output', async () => {
    const seen = await programDescription();
    expect(seen).toMatch(
      /Return summarised findings, evidence references \(file:line\), risks and next steps, not raw tool output/,
    );
    const sdk = section('packages/sdk-node/README.md', 'program');
    expect(sdk).toMatch(/do not return large raw tool output/);
    expect(sdk).toMatch(/summarised findings, evidence references \(`file:line`\), risks and suggested next steps/);
  });

  it('PTC-04: model tool calls when the next step needs judgement, a bounded program when the sequence is fixed', async () => {
    const seen = await programDescription();
    expect(seen).toMatch(/Use it when the sequence of steps is already fixed and you only need the results/);
    expect(seen).toMatch(/use ordinary tool calls when the next step needs judgement/);
    const sdk = section('packages/sdk-node/README.md', 'program');
    expect(sdk).toMatch(
      /sequence of actions is already fixed[^.]*; when the next step needs judgement, leave it to ordinary model tool calls/,
    );
  });
});
