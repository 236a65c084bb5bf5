import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { results } from '../../test/delegation-kit.js';
import { closeAfterEach, open, workspace } from '../../test/session-kit.js';
import { rankBm25 } from './bm25.js';

const { sessions } = closeAfterEach();

function skillsDir(skills: Record<string, string>, where = '.a3s/skills'): string {
  const ws = workspace();
  for (const [folder, text] of Object.entries(skills)) {
    mkdirSync(join(ws.dir, where, folder), { recursive: true });
    writeFileSync(join(ws.dir, where, folder, 'SKILL.md'), text);
  }
  return ws.dir;
}
const skill = (name: string, description: string, allowed?: string) =>
  `---\nname: ${name}\ndescription: ${description}\n${allowed ? `allowed_tools: [${allowed}]\n` : ''}---\nFollow the ${name} procedure.\n`;
const call = (name: string, args: Record<string, unknown>, id = name) => ({ id, name, args });

describe('skills', () => {
  it('SURF-07: search_skills ranks skills by BM25 over name and description (workspace and configured folders)', async () => {
    const dir = skillsDir({
      review: skill('code-review', 'Review a pull request for bugs and style'),
      docs: skill('docs', 'Write documentation pages'),
    });
    mkdirSync(join(dir, 'extra', 'rel'), { recursive: true });
    writeFileSync(
      join(dir, 'extra', 'rel', 'SKILL.md'),
      skill('release', 'Cut a release: changelog, version bump, tag'),
    );
    const { session } = await open([], { skillDirs: ['extra'] }, dir);
    sessions.push(session);
    const r = await session.tool('search_skills', { query: 'review this pull request' });
    const hits = JSON.parse(r.output) as { skills: { name: string }[]; total: number };
    expect(hits.total).toBe(3);
    expect(hits.skills.map((s) => s.name)).toEqual(['code-review']);
    const rel = JSON.parse((await session.tool('search_skills', { query: 'changelog for the release' })).output) as {
      skills: { name: string }[];
    };
    expect(rel.skills[0]!.name).toBe('release');
    expect(rankBm25(['a b', 'b b c', 'c'], (x) => x, 'b').map((x) => x.item)).toEqual(['b b c', 'a b']);
  });

  it('PERM-08: Skill loads the instructions and its allowed_tools deny other calls at the projection for the rest of the run', async () => {
    const dir = skillsDir({ review: skill('review', 'Review code', 'echo') });
    const { session, state } = await open(
      [
        { tool_calls: [call('Skill', { name: 'review' })] },
        { tool_calls: [call('add', { a: 1, b: 2 }), call('echo', { text: 'ok' })] },
        { text: 'reviewed' },
      ],
      {},
      dir,
    );
    sessions.push(session);
    const events: string[] = [];
    for await (const ev of session.stream('review')) events.push(ev.type);
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
    const r = results(session.store.log.facts);
    expect(r[0]).toEqual(['Skill', true, expect.stringContaining('Follow the review procedure.')]);
    expect(r[1]).toEqual(['add', false, 'Permission denied: skill:review']);
    expect(events).toContain('permission_denied');
    // A new run starts without the skill.
    expect(session.config.governance.skill).toBeUndefined();
  });

  it('PERM-08/CAP-07: a second skill never widens the first, and a delegated child inherits the active skill', async () => {
    const dir = skillsDir({
      a: skill('a', 'first', 'echo, add, task, Skill'),
      b: skill('b', 'second', 'add, noop, task'),
    });
    const { session, state } = await open(
      [
        { tool_calls: [call('Skill', { name: 'a' }, 's1'), call('Skill', { name: 'b' }, 's2')] },
        { tool_calls: [call('echo', { text: 'x' }), call('noop', {}), call('add', { a: 1, b: 1 })] },
        { tool_calls: [call('task', { agent: 'general', description: 'child', prompt: 'go' })] },
        { tool_calls: [call('echo', { text: 'child' }, 'ce'), call('add', { a: 2, b: 2 }, 'ca')] },
        { text: 'child done' },
        { text: 'done' },
      ],
      {},
      dir,
    );
    sessions.push(session);
    await session.send('two skills');
    expect(state.executions.map((e) => [e.tool, (e.args as { a?: number }).a])).toEqual([
      ['add', 1],
      ['add', 2],
    ]);
    const r = results(session.store.log.facts);
    expect(r.filter((x) => !x[1]).map((x) => x[2])).toEqual([
      'Permission denied: skill:b',
      'Permission denied: skill:a',
    ]);
  });

  it('a bad SKILL.md fails the session build naming the file and the field', async () => {
    const dir = skillsDir({ bad: '---\nname: bad\n---\nbody' });
    await expect(open([], {}, dir)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      message: expect.stringMatching(/bad\/SKILL\.md: description/),
    });
    const twice = skillsDir({
      twice: '---\nname: twice\ndescription: d\nallowed_tools: [read]\nallowed-tools: [bash]\n---\nbody',
    });
    await expect(open([], {}, twice)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      message: expect.stringMatching(/twice\/SKILL\.md: allowed_tools.*given twice/),
    });
  });

  it('a SKILL.md linked outside its skills folder, a device or a huge file is refused naming the file, never read', async () => {
    const dir = skillsDir({ ok: skill('ok', 'fine') });
    const outside = join(dir, 'outside.md');
    writeFileSync(outside, '---\nname: stolen\ndescription: secret token\n---\nSECRET BODY\n');
    const linked = join(dir, '.a3s', 'skills', 'linked');
    mkdirSync(linked);
    symlinkSync(outside, join(linked, 'SKILL.md'));
    await expect(open([], {}, dir)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      message: expect.stringMatching(
        /linked\/SKILL\.md: is a link to .*outside its skills folder; allowed: a regular file/,
      ),
    });
    // A device would never end (or fill the memory): refused before a byte is read.
    rmSync(join(linked, 'SKILL.md'));
    symlinkSync('/dev/zero', join(linked, 'SKILL.md'));
    await expect(open([], {}, dir)).rejects.toMatchObject({
      message: expect.stringMatching(/linked\/SKILL\.md: is a link/),
    });
    rmSync(join(linked, 'SKILL.md'));
    writeFileSync(join(linked, 'SKILL.md'), skill('big', 'huge'));
    truncateSync(join(linked, 'SKILL.md'), 600 * 1024 * 1024);
    await expect(open([], {}, dir)).rejects.toMatchObject({
      message: expect.stringMatching(
        /linked\/SKILL\.md: is 629145600 bytes; allowed: a regular file of at most 1048576 bytes/,
      ),
    });
    // A link that stays inside the skills folder is a skill like any other.
    rmSync(join(linked, 'SKILL.md'));
    symlinkSync(join('..', 'ok', 'SKILL.md'), join(linked, 'SKILL.md'));
    const { session } = await open([], {}, dir);
    sessions.push(session);
    const hits = JSON.parse((await session.tool('search_skills', { query: 'fine' })).output) as { total: number };
    expect(hits.total).toBe(1);
  });
});
