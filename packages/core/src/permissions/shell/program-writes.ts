/**
 * The files some programs write where their arguments say, each read as the program reads them:
 * `split`'s and `csplit`'s output prefix, the file `patch` patches (and its `-o`, `-r`, `-d`,
 * backup `-B`/`-Y`/`-z`), the file or folder `mktemp` makes from its template, the key
 * `ssh-keygen -f` writes (`~/.ssh` without `-f`), and what `gpg` writes (`-o`, `--homedir`, the file
 * beside each file it signs or encrypts). Where the options are read strictly, one the judge does
 * not know makes the command write a file that cannot be known (a hole).
 */
import { type OptionSpec, scanArguments } from './command-options.js';
import { operands, optionValues } from './option-words.js';
import { HOLE, type ShellWord } from './shell-word.js';

const flags = (names: string): Record<string, boolean> =>
  Object.fromEntries(names.split(' ').map((n) => [n, false] as const));
const valued = (names: string): Record<string, boolean> =>
  Object.fromEntries(names.split(' ').map((n) => [n, true] as const));

const SPLIT: OptionSpec = {
  flags: 'dxeu',
  valued: 'abClnt',
  numeric: true,
  long: {
    ...valued('suffix-length bytes line-bytes lines number separator additional-suffix filter'),
    ...flags('numeric-suffixes hex-suffixes elide-empty-files unbuffered verbose help version'),
  },
};
const CSPLIT: OptionSpec = {
  flags: 'ksqz',
  valued: 'bfn',
  long: {
    ...valued('suffix-format prefix digits'),
    ...flags('keep-files quiet silent elide-empty-files suppress-matched help version'),
  },
};
const PATCH: OptionSpec = {
  flags: 'lcenuNREZTbtfsv',
  valued: 'pFiorDVBYzgdx',
  long: {
    ...valued(
      'strip fuzz input output reject-file ifdef version-control prefix basename-prefix suffix get directory reject-format quoting-style read-only debug',
    ),
    ...flags(
      'ignore-whitespace context ed normal unified forward reverse merge remove-empty-files set-utc set-time backup backup-if-mismatch no-backup-if-mismatch batch force quiet silent verbose dry-run posix binary version help follow-symlinks',
    ),
  },
};
// patch's options naming a file or folder it writes (or writes under).
const PATCH_WRITES = ['o', 'output', 'r', 'reject-file', 'd', 'directory', 'B', 'prefix', 'Y', 'basename-prefix'];
const PATCH_SUFFIX = ['z', 'suffix'];
const MKTEMP: OptionSpec = {
  flags: 'duqt',
  valued: 'p',
  long: { ...flags('directory dry-run quiet help version tmpdir'), suffix: true },
};
const SSH_KEYGEN: OptionSpec = {
  flags: 'ABHKLQUXceghiklopquvy',
  valued: 'zabCDEFGIJMNOPRVYZfjmnrstw',
};
// ssh-keygen's modes that only read the key `-f` names (print, list, find, verify).
const SSH_KEYGEN_READS = 'lyFBLQDeiY';

// The values of option `names` that were given (a hole for one computed at run time).
function given(
  scan: { readonly seen: ReadonlySet<string>; readonly values: ReadonlyMap<string, string | undefined> },
  names: readonly string[],
): string[] {
  return names.filter((n) => scan.seen.has(n)).map((n) => scan.values.get(n) ?? HOLE);
}

function split(args: readonly ShellWord[], spec: OptionSpec): string[] {
  const scan = scanArguments(args, spec);
  if (scan.kind === 'unknown') return [HOLE];
  if (spec === SPLIT) return scan.operands.slice(1).map((w) => w.text);
  // csplit writes PREFIX (default `xx`) followed by the suffix format's number.
  const prefix = given(scan, ['f', 'prefix']);
  const suffix = given(scan, ['b', 'suffix-format']).join('');
  return (prefix.length > 0 ? prefix : ['xx']).map((p) => `${p}${suffix}`);
}

function patch(args: readonly ShellWord[]): string[] {
  const scan = scanArguments(args, PATCH);
  if (scan.kind === 'unknown') return [HOLE];
  const first = scan.operands[0]?.text;
  const out = [...(first === undefined ? [] : [first]), ...given(scan, PATCH_WRITES)];
  // A backup suffix with a slash in it names another folder.
  for (const suffix of given(scan, PATCH_SUFFIX)) if (suffix.includes('/') || suffix.includes(HOLE)) out.push(suffix);
  return out;
}

// `mktemp [TEMPLATE]` makes TEMPLATE (default `tmp.XXXXXXXXXX`); with `-p DIR`, `--tmpdir[=DIR]` or
// `-t` it is taken under DIR, or under the temporary folder (`$TMPDIR`, read as `/tmp`).
function mktemp(args: readonly ShellWord[]): string[] {
  const scan = scanArguments(args, MKTEMP);
  if (scan.kind === 'unknown') return [HOLE];
  const template = scan.operands[0]?.text;
  const under = ['p', 't', 'tmpdir'].some((n) => scan.seen.has(n)) || template === undefined;
  if (!under) return [template];
  const dirs = [...given(scan, ['p']), ...(scan.values.has('tmpdir') ? given(scan, ['tmpdir']) : [])];
  const dir = dirs.filter((d) => d !== '').at(-1) ?? '/tmp';
  return [`${dir}/${template ?? 'tmp.XXXXXXXXXX'}`];
}

function sshKeygen(args: readonly ShellWord[]): string[] {
  const scan = scanArguments(args, SSH_KEYGEN);
  if (scan.kind === 'unknown') return [HOLE];
  // Signing writes beside each operand (`file.sig`, `key-cert.pub`).
  const out = scan.operands.map((w) => w.text);
  if ([...SSH_KEYGEN_READS].some((o) => scan.seen.has(o))) return out;
  const key = given(scan, ['f']);
  if (key.length === 0) out.push('~/.ssh');
  for (const k of key) out.push(k, `${k}.pub`);
  if (scan.seen.has('A')) out.push('/etc/ssh');
  return out;
}

const GPG_FILES = new Set([
  'output',
  'homedir',
  'trustdb-name',
  'keyring',
  'primary-keyring',
  'secret-keyring',
  'status-file',
  'logger-file',
  'log-file',
  'attribute-file',
]);
const GPG_READS = new Set([
  'verify',
  'decrypt',
  'list-keys',
  'list-public-keys',
  'list-secret-keys',
  'list-sigs',
  'check-sigs',
  'list-packets',
  'fingerprint',
  'import',
  'recv-keys',
  'receive-keys',
  'search-keys',
  'export',
  'export-ssh-key',
  'show-keys',
  'print-md',
  'card-status',
  'version',
  'help',
]);
const GPG_WRITES = new Set([
  'encrypt',
  'sign',
  'symmetric',
  'detach-sign',
  'clearsign',
  'clear-sign',
  'encrypt-files',
  'decrypt-files',
  'store',
  'dearmor',
  'enarmor',
]);

// gpg, read generously: the files its options name, and, unless it only reads (`--verify`,
// `-d`, `--import` and no command that writes), each operand, beside which it writes its output.
function gpg(args: readonly ShellWord[]): string[] {
  const words = args.map((w) => w.text);
  const out = optionValues(words, { short: 'o', long: (n) => GPG_FILES.has(n) });
  if (words.includes('--use-embedded-filename')) out.push(HOLE);
  const long = words.filter((w) => w.startsWith('--')).map((w) => w.slice(2).replace(/=.*/s, ''));
  const writes =
    long.some((n) => GPG_WRITES.has(n)) || words.some((w) => /^-[A-Za-z]*[escb]/.test(w) && !w.startsWith('--'));
  const reads = long.some((n) => GPG_READS.has(n)) || words.some((w) => /^-[dkK]$/.test(w));
  if (writes || !reads) out.push(...operands(words));
  return out;
}

/**
 * The files `base` writes through its arguments `args` (see the module comment), or `undefined`
 * when `base` is none of these programs.
 */
export function programWrites(base: string, args: readonly ShellWord[]): string[] | undefined {
  switch (base) {
    case 'split':
      return split(args, SPLIT);
    case 'csplit':
      return split(args, CSPLIT);
    case 'patch':
      return patch(args);
    case 'mktemp':
      return mktemp(args);
    case 'ssh-keygen':
      return sshKeygen(args);
    case 'gpg':
    case 'gpg2':
      return gpg(args);
    default:
      return undefined;
  }
}
