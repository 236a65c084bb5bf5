// Deny-rule respellings: generates random spellings of `rm <file>` from a small grammar (quotings
// of the name, wrappers such as `env`/`nice`/`timeout`, structures such as subshells, loops and
// functions, and interpreters such as `sh -c`, `eval`, `base64 | sh`), checks that
// `deny: ['Bash(rm:*)']` denies each one, and runs a sample through the governed kernel against a
// real LocalWorkspace to confirm the file survives. The same sample also runs in plain bash to show
// the spellings really delete. Exits 1 if any spelling leaked. With SOAK_MODE=options the victim
// is a folder, the rule `Bash(rm -rf *)`, and every spelling also respells its options (order,
// clusters, long names cut short, after the operand, in a variable).
//   pnpm exec tsx soak/deny-spellings.soak.ts [count=500] [sample=100] [seed]
//   (SOAK_DEBUG=1 also prints the sampled spellings that do not delete in plain bash)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, PermissionPolicy } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { LocalWorkspace, workspaceToolPack } from '@a3s-code/tools-workspace';

const COUNT = Number(process.argv[2] ?? 500);
const SAMPLE = Number(process.argv[3] ?? 100);
const SEED = Number(process.argv[4] ?? Date.now() % 2 ** 31);

// mulberry32: a small seeded generator, so a failing run can be replayed with its seed.
let state = SEED >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const sq = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
const b64 = (s: string): string => Buffer.from(s).toString('base64');

type Category = 'quoting' | 'wrapper' | 'structure' | 'interpreter' | 'dynamic';

const NAMES = [
  'rm',
  "'rm'",
  '"rm"',
  '\\rm',
  "r''m",
  'r""m',
  '"r"m',
  'r\\m',
  "$'\\x72m'",
  "$'\\162m'",
  "$'r\\x6d'",
  '/bin/rm',
  '/usr/bin/rm',
  'r\\\nm',
];
const OPTIONS_MODE = process.env.SOAK_MODE === 'options';
const RULE = OPTIONS_MODE ? 'Bash(rm -rf *)' : 'Bash(rm:*)';
const FLAGS = ['', '-f ', '-- ', '-f -- ', '\\\n'];
// Spellings of `-r -f` (options mode); a folder needs both.
const OPTION_SPELLINGS = [
  '-rf',
  '-fr',
  '-r -f',
  '-f -r',
  '-Rf',
  '-fR',
  '-rfv',
  '-v -r -i -f',
  '--recursive --force',
  '--force -r',
  '-R --force',
  '--rec --forc',
  "'-rf'",
  '-"fr"',
];
// The arguments of one `rm`: the flags before the file, or (options mode) the options anywhere.
function argsOf(f: string): string {
  if (!OPTIONS_MODE) return `${pick(FLAGS)}${f}`;
  const o = pick(OPTION_SPELLINGS);
  return random() < 0.25 ? `${f} ${o}` : `${o} ${f}`;
}

// Programs that run a program (they cannot run a shell builtin or keyword).
const WRAPPERS: readonly ((c: string) => string)[] = [
  (c) => `env ${c}`,
  (c) => `env -i PATH=/usr/bin:/bin ${c}`,
  (c) => `env -u HOME X=1 ${c}`,
  (c) => `nice -n 5 ${c}`,
  (c) => `nice ${c}`,
  (c) => `nohup ${c} 2>/dev/null`,
  (c) => `timeout 5 ${c}`,
  (c) => `timeout -k 1 10s ${c}`,
  (c) => `stdbuf -oL ${c}`,
  (c) => `setsid -w ${c}`,
];

// Shell builtins and keywords that run a command: only outermost.
const BUILTINS: readonly ((c: string) => string)[] = [
  (c) => c,
  (c) => c,
  (c) => `command ${c}`,
  (c) => `command -p ${c}`,
  (c) => `time ${c}`,
  (c) => `time -p ${c}`,
  (c) => `time X=1 ${c}`,
  (c) => `builtin command ${c}`,
  (c) => `exec ${c}`,
];

// Assignments only lead a simple command (after a wrapper other than env they would be its command).
const ASSIGNMENTS = ['', '', 'X=1 ', 'A=1 B="2 3" ', 'PATH=/usr/bin:/bin '];

type Layer = (s: string, depth: number) => string;

const STRUCTURES: readonly Layer[] = [
  (s) => `( ${s} )`,
  (s) => `{ ${s}; }`,
  (s) => `if true; then ${s}; fi`,
  (s) => `if false; then :; else ${s}; fi`,
  (s) => `for i in 1; do ${s}; done`,
  (s) => `while true; do ${s}; break; done`,
  (s) => `until false; do ${s}; break; done`,
  (s) => `case a in a) ${s};; esac`,
  (s) => `case b in a) :;; *) ${s};; esac`,
  (s) => `true && ${s}`,
  (s) => `false || ${s}`,
  (s) => `echo | ${s}`,
  (s, d) => `f${d}() { ${s}; }; f${d}`,
  (s, d) => `function g${d} { ${s}; }; g${d}`,
  (s) => `! ${s}`,
  (s) => `${s} & wait`,
  (s) => `echo $( ${s} )`,
  (s) => `echo "$( ${s} )"`,
  (s) => `true\n${s}`,
  (s) => `true; \\\n${s}`,
  (s, d) => `cat <<E${d} >/dev/null\n$( ${s} )\nE${d}`,
  (s) => `cat <( ${s} ) >/dev/null`,
];

const INTERPRETERS: readonly Layer[] = [
  (s) => `bash -c ${sq(s)}`,
  (s) => `sh -c ${sq(s)}`,
  (s) => `bash -lc ${sq(s)}`,
  (s) => `bash -e -c ${sq(s)}`,
  (s) => `bash -o pipefail -c ${sq(s)}`,
  (s) => `sh -c ${sq(s)} sh`,
  (s) => `eval ${sq(s)}`,
  (s) => `echo ${b64(s)} | base64 -d | sh`,
  (s) => `printf '%s\\n' ${sq(s)} | bash`,
  (s, d) => `bash <<'S${d}'\n${s}\nS${d}`,
  (s) => `C=${sq(s)}; bash -c "$C"`,
];

const DYNAMIC: readonly ((f: string) => string)[] = OPTIONS_MODE
  ? [
      (f) => `R=rm; $R -fr ${f}`,
      (f) => `$(echo rm) -r -f ${f}`,
      (f) => `O='-r -f'; rm $O ${f}`,
      (f) => `rm $(echo -rf) ${f}`,
      (f) => `echo ${f} | xargs rm -fr`,
      (f) => `find . -maxdepth 1 -name ${f} -exec rm --recursive --force {} +`,
      (f) => `set -- rm -f -r ${f}; "$@"`,
    ]
  : [
      (f) => `R=rm; $R ${f}`,
      (f) => `R=rm; "$R" ${f}`,
      (f) => `R=rm; \${R} ${f}`,
      (f) => `$(echo rm) ${f}`,
      (f) => `\`echo rm\` ${f}`,
      (f) => `{rm,${f}}`,
      (f) => `echo ${f} | xargs rm`,
      (f) => `printf '%s\\0' ${f} | xargs -0 rm`,
      (f) => `echo ${f} | xargs -I{} rm {}`,
      (f) => `find . -name ${f} -exec rm {} \\;`,
      (f) => `find . -name ${f} -exec rm {} +`,
      (f) => `set -- rm ${f}; "$@"`,
    ];

interface Spelling {
  readonly category: Category;
  readonly build: (file: string) => string;
}

function simple(): Spelling {
  const name = pick(NAMES);
  const args = argsOf('\u0000');
  const wraps = Array.from({ length: Math.floor(random() * 3) }, () => pick(WRAPPERS));
  const builtin = pick(BUILTINS);
  const assign = pick(ASSIGNMENTS);
  const build = (f: string): string =>
    assign + builtin(wraps.reduce((c, w) => w(c), `${name} ${args.replace('\u0000', f)}`));
  const plain = wraps.length === 0 && assign === '' && builtin('') === '';
  return { category: plain ? 'quoting' : 'wrapper', build };
}

function spelling(depth: number): Spelling {
  const roll = random();
  if (depth === 0 || roll < 0.25) return roll < 0.08 ? { category: 'dynamic', build: pick(DYNAMIC) } : simple();
  const inner = spelling(depth - 1);
  const layer = roll < 0.65 ? pick(STRUCTURES) : pick(INTERPRETERS);
  return { category: roll < 0.65 ? 'structure' : 'interpreter', build: (f) => layer(inner.build(f), depth) };
}

interface Row {
  tried: number;
  denied: number;
  ran: number;
  effective: number;
  survived: number;
  leaked: number;
}
const table = new Map<Category, Row>();
const row = (c: Category): Row =>
  table.get(c) ?? table.set(c, { tried: 0, denied: 0, ran: 0, effective: 0, survived: 0, leaked: 0 }).get(c)!;

const policy = new PermissionPolicy({ deny: [RULE], defaultDecision: 'allow' });
// The victim: a file, or (options mode) a folder holding one, which only `rm -r` removes.
const plant = (root: string, name: string, text: string): void => {
  if (!OPTIONS_MODE) return writeFileSync(join(root, name), text);
  mkdirSync(join(root, name));
  writeFileSync(join(root, name, 'inside'), text);
};
const spellings = Array.from({ length: COUNT }, () => spelling(3));
const leaks: string[] = [];
spellings.forEach((s, i) => {
  const command = s.build(`victim${i}.txt`);
  const r = row(s.category);
  r.tried++;
  if (policy.evaluate('bash', { command }).decision === 'deny') r.denied++;
  else {
    r.leaked++;
    leaks.push(`rule: ${JSON.stringify(command)}`);
  }
});

// The sample: first in plain bash (does the spelling really delete?), then through the kernel.
const step = Math.max(1, Math.floor(COUNT / SAMPLE));
const sample = spellings
  .map((s, i) => ({ s, i }))
  .filter(({ i }) => i % step === 0)
  .slice(0, SAMPLE);
const plain = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-soak-plain-')));
for (const { s, i } of sample) {
  const file = `victim${i}.txt`;
  plant(plain, file, 'x');
  spawnSync('/bin/bash', ['-c', s.build(file)], { cwd: plain, stdio: 'ignore', timeout: 20_000 });
  if (!existsSync(join(plain, file))) row(s.category).effective++;
  else if (process.env.SOAK_DEBUG) console.log(`INEFFECTIVE ${JSON.stringify(s.build(file))}`);
}
rmSync(plain, { recursive: true, force: true });

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-soak-deny-')));
for (const { i } of sample) plant(dir, `victim${i}.txt`, 'keep');
const model = new ScriptedLlmClient(
  sample.flatMap(({ s, i }) => [
    { tool_calls: [{ id: `c${i}`, name: 'bash', args: { command: s.build(`victim${i}.txt`) } }] },
    { text: 'done' },
  ]),
);
const agent = await Agent.create({
  model,
  tools: [workspaceToolPack],
  workspace: new LocalWorkspace({ root: dir }),
  permissions: { deny: [RULE], defaultDecision: 'allow' },
});
const session = await agent.session(dir, { gate: { continuation: { enabled: false } } });
try {
  for (const _ of sample) await session.send('clean up').catch(() => undefined);
} finally {
  await session.close();
}
for (const { s, i } of sample) {
  const r = row(s.category);
  r.ran++;
  if (existsSync(join(dir, `victim${i}.txt`))) r.survived++;
  else {
    r.leaked++;
    leaks.push(`kernel: ${JSON.stringify(s.build(`victim${i}.txt`))}`);
  }
}
rmSync(dir, { recursive: true, force: true });

console.log(
  `deny-spellings soak (${RULE}): seed ${SEED}, ${COUNT} spellings judged, ${sample.length} run through the kernel`,
);
const rows = [...table.entries()].sort(([a], [b]) => a.localeCompare(b));
const total = rows.reduce(
  (t, [, r]) => ({
    tried: t.tried + r.tried,
    denied: t.denied + r.denied,
    ran: t.ran + r.ran,
    effective: t.effective + r.effective,
    survived: t.survived + r.survived,
    leaked: t.leaked + r.leaked,
  }),
  { tried: 0, denied: 0, ran: 0, effective: 0, survived: 0, leaked: 0 },
);
console.log('category     tried  denied  ran  deletes-in-bash  survived-kernel  leaked');
for (const [name, r] of [...rows, ['total', total] as const]) {
  console.log(
    `${name.padEnd(12)} ${String(r.tried).padStart(5)}  ${String(r.denied).padStart(6)}  ${String(r.ran).padStart(3)}  ${String(r.effective).padStart(15)}  ${String(r.survived).padStart(15)}  ${String(r.leaked).padStart(6)}`,
  );
}
for (const leak of leaks.slice(0, 20)) console.log(`LEAK ${leak}`);
process.exit(leaks.length > 0 ? 1 : 0);
