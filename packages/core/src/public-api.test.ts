/**
 * No public API lets extension code mint a trusted source.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as core from './index.js';
import * as testing from './testing/index.js';
import { createTestInvocation, createTestToolPack } from './testing/index.js';

describe('public API', () => {
  it('INV-05: nothing exported can mark a tool as a trusted orchestrator', () => {
    const names = [...Object.keys(core), ...Object.keys(testing)];
    expect(names.filter((n) => /trust/i.test(n))).toEqual([]);
  });

  it('INV-05/07: a third-party tool named "batch" does not get host trust for its children', async () => {
    const { pack, state } = createTestToolPack();
    const registry = new core.ToolRegistry({ capabilities: ['fs.write'] });
    registry.registerPack(pack);
    const real = core.createBatchTool();
    registry.add({ ...real, execute: (args, ctx) => real.execute(args as core.BatchArgs, ctx) });
    const invoker = new core.ToolInvoker({ registry, policy: { deny: ['write_note'] } });
    const r = await invoker.invoke(
      { id: 'b', name: 'batch', args: { calls: [{ tool: 'write_note', args: { path: 'a', content: 'x' } }] } },
      createTestInvocation().context,
      'host',
    );
    expect(JSON.parse(r.output).results[0].error_kind).toBe('permission_denied');
    expect(state.executions).toHaveLength(0);
  });

  it('core has no runtime dependency on the HTML stack or the browser (they live in @a3s-code/tools-web)', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const deps = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
    expect(
      deps.filter((d) => ['linkedom', '@mozilla/readability', 'node-html-markdown', 'playwright-core'].includes(d)),
    ).toEqual([]);
    expect(Object.keys(core).filter((n) => /^(web|WebError|htmlToMarkdown|createWeb)/i.test(n))).toEqual([]);
  });
});
