/**
 * npm reads its command the way its own command list does: a unique prefix of a command or alias
 * (`npm pub` is `npm publish`), an alias (`npm i`, `npm rm`, `npm x`), a camelCase spelling
 * (`npm installTest`), and options anywhere before it (`npm -w web publish`). A rule written
 * for `npm publish` must see these spellings, so the judge adds the command as npm reads it.
 */

// The commands of npm 10 and 11 (`lib/utils/cmd-list.js`), and the aliases it resolves.
const COMMANDS = [
  'access',
  'adduser',
  'approve-scripts',
  'audit',
  'bugs',
  'cache',
  'ci',
  'completion',
  'config',
  'dedupe',
  'deny-scripts',
  'deprecate',
  'diff',
  'dist-tag',
  'docs',
  'doctor',
  'edit',
  'exec',
  'explain',
  'explore',
  'find-dupes',
  'fund',
  'get',
  'help',
  'help-search',
  'init',
  'install',
  'install-ci-test',
  'install-scripts',
  'install-test',
  'link',
  'll',
  'login',
  'logout',
  'ls',
  'org',
  'outdated',
  'owner',
  'pack',
  'ping',
  'pkg',
  'prefix',
  'profile',
  'prune',
  'publish',
  'query',
  'rebuild',
  'repo',
  'restart',
  'root',
  'run',
  'sbom',
  'search',
  'set',
  'shrinkwrap',
  'stage',
  'star',
  'stars',
  'start',
  'stop',
  'team',
  'test',
  'token',
  'trust',
  'undeprecate',
  'uninstall',
  'unpublish',
  'unstar',
  'update',
  'version',
  'view',
  'whoami',
];
const ALIASES: Readonly<Record<string, string>> = {
  author: 'owner',
  home: 'docs',
  issues: 'bugs',
  info: 'view',
  show: 'view',
  find: 'search',
  add: 'install',
  unlink: 'uninstall',
  remove: 'uninstall',
  rm: 'uninstall',
  r: 'uninstall',
  un: 'uninstall',
  rb: 'rebuild',
  list: 'ls',
  ln: 'link',
  create: 'init',
  i: 'install',
  it: 'install-test',
  cit: 'install-ci-test',
  u: 'update',
  up: 'update',
  c: 'config',
  s: 'search',
  se: 'search',
  tst: 'test',
  t: 'test',
  ddp: 'dedupe',
  v: 'view',
  'run-script': 'run',
  'clean-install': 'ci',
  'clean-install-test': 'install-ci-test',
  x: 'exec',
  why: 'explain',
  la: 'll',
  verison: 'version',
  ic: 'ci',
  innit: 'init',
  in: 'install',
  ins: 'install',
  inst: 'install',
  insta: 'install',
  instal: 'install',
  isnt: 'install',
  isnta: 'install',
  isntal: 'install',
  isntall: 'install',
  'install-clean': 'ci',
  'isntall-clean': 'ci',
  hlep: 'help',
  'dist-tags': 'dist-tag',
  upgrade: 'update',
  udpate: 'update',
  rum: 'run',
  sit: 'install-ci-test',
  urn: 'run',
  ogr: 'org',
  'add-user': 'adduser',
};
const NAMES = [...COMMANDS, ...Object.keys(ALIASES)];

// Options of npm that take the next word as their value (`-w web`, `--registry URL`).
const VALUED = new Set([
  '-w',
  '--workspace',
  '-C',
  '--prefix',
  '--registry',
  '--tag',
  '--otp',
  '--access',
  '--userconfig',
  '--globalconfig',
  '--cache',
  '--loglevel',
  '--include',
  '--omit',
  '--before',
  '--scope',
  '--auth-type',
  '--script-shell',
  '--shell',
  '--editor',
  '--browser',
  '--call',
  '-c',
  '--package',
]);

/** The npm command `word` stands for, or `undefined` when it names none. */
export function npmCommandOf(word: string): string | undefined {
  const c = /[A-Z]/.test(word) ? word.replace(/([A-Z])/g, (m) => `-${m.toLowerCase()}`) : word;
  if (COMMANDS.includes(c)) return c;
  let found = ALIASES[c] === undefined ? undefined : c;
  if (found === undefined && c.length > 0) {
    const longer = NAMES.filter((n) => n.startsWith(c));
    if (longer.length === 1) found = longer[0];
  }
  return found === undefined ? undefined : (ALIASES[found] ?? found);
}

/**
 * The subjects npm's arguments `args` (after `npm`) may be read as, with the command in its own
 * spelling right after `npm` and the other words in their order (`npm -w web pub` →
 * `npm publish -w web`), when that differs from the words as written; an option whose value is
 * unknown may take the next word, so both readings are given.
 */
export function npmSubjects(args: readonly string[]): string[] {
  const out: string[] = [];
  const read = (at: number): void => {
    const command = npmCommandOf(args[at]!);
    if (command === undefined) return;
    const subject = ['npm', command, ...args.slice(0, at), ...args.slice(at + 1)].join(' ');
    if (subject !== ['npm', ...args].join(' ')) out.push(subject);
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w === '--') break;
    if (!w.startsWith('-') || w === '-') {
      read(i);
      break;
    }
    if (w.includes('=')) continue;
    // An option npm may not know takes the next word as its value or not: read both ways.
    if (VALUED.has(w) || (w.startsWith('--') && i + 1 < args.length && !args[i + 1]!.startsWith('-'))) {
      if (!VALUED.has(w)) read(i + 1);
      i++;
    }
  }
  return out;
}
