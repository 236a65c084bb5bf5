// The TypeScript examples of the core and SDK READMEs type-check against the built declarations,
// as a reader's strict ESM project would: every ```ts block is a module of its own, checked in one
// compiler run. A block that is a fragment (it continues an earlier example: `session`, `agent`
// and the like come from there) says so with `<!-- fragment -->` on the line before its fence and
// is left out. Names an example leaves to the reader (`workspace`, `myPack`, ...) are declared
// below with the types the README gives them.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const READMES = ['packages/core/README.md', 'packages/sdk-node/README.md'];
const FRAGMENT = '<!-- fragment -->';

/** The names the examples leave to the reader, with the types the README text gives them. */
const READER_NAMES = `import type { JsonSchema, LlmClient, ToolPack, WorkspaceServices } from '@a3s-code/core';
declare global {
  /** The workspace the tools run in (a LocalWorkspace, say). */
  const workspace: WorkspaceServices;
  const runId: string;
  const sessionId: string;
  const signal: AbortSignal;
  /** The reader's own model client, if any. */
  const myClient: LlmClient | undefined;
  const model: LlmClient;
  /** The reader's own tool pack. */
  const myPack: ToolPack;
  /** JSON Schemas of a workflow's generate_object steps. */
  const riskSchema: JsonSchema;
  const ownersSchema: JsonSchema;
  /** The host's own way of asking its user. */
  function askMyUser(tool: string, args: unknown): Promise<boolean>;
}
export {};
`;

interface Block {
  readme: string;
  /** Line of the opening fence. */
  line: number;
  body: string;
  fragment: boolean;
}

function tsBlocks(readme: string): Block[] {
  const lines = readFileSync(join(root, readme), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)/.exec(lines[i]!);
    if (open === null) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${readme}:${i + 1}: unclosed fence`);
    if (open[1] === 'ts')
      out.push({
        readme,
        line: i + 1,
        body: lines.slice(i + 1, end).join('\n'),
        fragment: lines[i - 1]?.trim() === FRAGMENT,
      });
    i = end;
  }
  return out;
}

const blocks = READMES.flatMap(tsBlocks);
const scratch = mkdtempSync(join(tmpdir(), 'a3s-readme-ts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Links the built packages and zod into the scratch project, as an install lays them out. */
function linkModules(): void {
  const modules = join(scratch, 'node_modules');
  mkdirSync(join(modules, '@a3s-code'), { recursive: true });
  for (const d of readdirSync(join(root, 'packages'))) {
    const manifest = join(root, 'packages', d, 'package.json');
    if (!existsSync(manifest)) continue;
    const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name;
    if (!existsSync(join(root, 'packages', d, 'dist')))
      throw new Error(`packages/${d} is not built: run 'pnpm exec turbo run build' first`);
    symlinkSync(join(root, 'packages', d), join(modules, name), 'dir');
  }
  const zod = dirname(createRequire(join(root, 'package.json')).resolve('zod/package.json'));
  symlinkSync(zod, join(modules, 'zod'), 'dir');
}

describe('README TypeScript examples', () => {
  it('each README has complete examples to check, not only fragments', () => {
    for (const readme of READMES)
      expect(blocks.filter((b) => b.readme === readme && !b.fragment).length).toBeGreaterThan(0);
  });

  it('every complete ```ts example of the core and SDK READMEs type-checks (one tsgo run)', () => {
    linkModules();
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'readme-host', private: true, type: 'module' }),
    );
    writeFileSync(join(scratch, 'reader-names.d.ts'), READER_NAMES);
    const files = new Map<string, Block>();
    for (const b of blocks.filter((x) => !x.fragment)) {
      const file = `${b.readme.replace(/[/.]/g, '_')}_${b.line}.ts`;
      // `export {}` keeps a block without imports a module of its own.
      writeFileSync(join(scratch, file), `${b.body}\nexport {};\n`);
      files.set(file, b);
    }
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          lib: ['es2022'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
        },
        files: ['reader-names.d.ts', ...files.keys()],
      }),
    );
    const tsgo = join(root, 'node_modules', '@typescript', 'native-preview', 'bin', 'tsgo');
    const r = spawnSync(process.execPath, [tsgo, '-p', 'tsconfig.json', '--pretty', 'false'], {
      cwd: scratch,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.error).toBeUndefined();
    // file(line,col): error TSxxxx: ... → README:line.
    const errors = `${r.stdout}${r.stderr}`
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const m = /^([^(]+)\((\d+),(\d+)\): (.*)$/.exec(l);
        const b = m ? files.get(m[1]!) : undefined;
        return b && m ? `${b.readme}:${b.line + Number(m[2])}: ${m[4]}` : l;
      });
    expect(errors).toEqual([]);
    expect(r.status).toBe(0);
  }, 90_000);
});
