/**
 * The files a command writes through its own arguments, not a redirection: the destination of
 * `cp`, `mv`, `install` and `ln`, each operand of `tee`, `touch`, `mkdir`, `rm`, `truncate`,
 * `chmod`, `chown`…, `dd of=`, `sort -o`, `curl -o`, `wget -O`, `sed -i`'s files and sed's `w`
 * commands (`sed-script.ts`), awk's `print > "file"` (`awk-program.ts`), git's (`git-writes.ts`),
 * `tar -cf`, `unzip -d`, `find -fprint`, `uniq in out`, `zip out.zip`, a compiler's `-o`, what a
 * compressor makes and removes (`compressor-writes.ts`), `split`'s prefix, `patch`'s file,
 * `mktemp`'s template, `ssh-keygen -f`, `gpg -o` (`program-writes.ts`). They join the line's
 * redirection targets, so a rule naming the command (`Bash(cp:*)`) does not cover `cp x.pth
 * ~/.local/lib/…` (outside the workspace) as it does not cover `echo … >> ~/.bashrc`. Options are
 * read generously (a word that may be a destination is taken as one) or strictly (an option the
 * judge does not know makes the destination unknown: a hole, which may be anywhere).
 */
import { readAwk } from './awk-program.js';
import { compressorWrites } from './compressor-writes.js';
import { gitWrites } from './git-writes.js';
import { isOption, operands, optionValues } from './option-words.js';
import { programWrites } from './program-writes.js';
import { sedScriptWrites } from './sed-script.js';
import { HOLE, type ShellWord } from './shell-word.js';

/** Writes each of its operands (makes, changes or removes it). */
const EVERY_OPERAND = new Set([
  'tee',
  'touch',
  'mkdir',
  'rm',
  'rmdir',
  'unlink',
  'truncate',
  'shred',
  'mv',
  'mkfifo',
  'mknod',
  // A change of mode, owner or attributes is a write to the file (`chmod +x ~/bin/tool`).
  'chmod',
  'chown',
  'chgrp',
  'chattr',
  'setfacl',
]);
/** Writes its last operand, or the folder `-t`/`--target-directory` names. */
const LAST_OPERAND = new Set(['cp', 'install', 'ln', 'rsync', 'scp']);

interface Outputs {
  /** Short options whose value is a file written (`-o out`, `-oout`). */
  readonly short?: string;
  /** Long options whose value is a file written (`--output=out`, `--output out`). */
  readonly long?: readonly string[];
}

/** Options whose value is a file or folder the command writes. */
const OUTPUT_OPTIONS: Readonly<Record<string, Outputs>> = {
  sort: { short: 'o', long: ['output'] },
  curl: {
    short: 'oDc',
    long: ['output', 'output-dir', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'libcurl', 'stderr'],
  },
  wget: { short: 'OoaP', long: ['output-document', 'output-file', 'append-output', 'directory-prefix'] },
  unzip: { short: 'd' },
  gcc: { short: 'o' },
  'g++': { short: 'o' },
  cc: { short: 'o' },
  clang: { short: 'o' },
  'clang++': { short: 'o' },
  go: { short: 'o' },
  rustc: { short: 'o' },
  iconv: { short: 'o', long: ['output'] },
};

/** Commands that write the operand at this position (`uniq in out`, `zip out.zip files…`). */
const NTH_OPERAND: Readonly<Record<string, number>> = { uniq: 1, xxd: 1, zip: 0 };
// find's actions that write the file named by the next word.
const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

const text = (w: ShellWord): string => w.text;
const AWK = /^(?:awk|gawk|mawk|nawk)$/;

/** The values of the `outputs` options among `args`. */
const outputValues = (args: readonly string[], outputs: Outputs): string[] =>
  optionValues(args, { long: (name) => (outputs.long ?? []).includes(name), short: outputs.short ?? '' });

// tar writes the archive `-f` names when it creates or adds to one, and extracts into `-C`.
function tarWrites(args: readonly string[]): string[] {
  const mode = args.find((a) => /^-?[A-Za-z]+$/.test(a) && !a.startsWith('--')) ?? '';
  const creates = /[cru]/.test(mode) || args.some((a) => /^--(?:create|append|update)$/.test(a));
  const extracts = /x/.test(mode) || args.some((a) => /^--(?:extract|get)$/.test(a));
  const out: string[] = [];
  if (creates) {
    out.push(...outputValues(args, { short: 'f', long: ['file'] }));
    // `tar cf archive.tar …`: the old style takes the f value from the first operand.
    if (/^[A-Za-z]*f[A-Za-z]*$/.test(args[0] ?? '') && args[1] !== undefined) out.push(args[1]);
  }
  if (extracts) out.push(...outputValues(args, { short: 'C', long: ['directory'] }));
  return out;
}

// sed and perl write the files they edit in place (`-i`, `-i.bak`, `--in-place`).
function inPlaceWrites(base: string, args: readonly string[]): string[] {
  if (!args.some((a) => /^-[A-Za-z]*i/.test(a) || a.startsWith('--in-place'))) return [];
  const scripted = args.some((a) => /^-[A-Za-z]*[ef]$/.test(a) || /^--(?:expression|file)/.test(a));
  const plain = operands(args.filter((a, i) => !/^-[A-Za-z]*[ef]$/.test(args[i - 1] ?? '') || isOption(a)));
  // Without -e (sed) the first operand is the script; perl's is after -e, always given for -i edits.
  return base === 'sed' && !scripted ? plain.slice(1) : plain;
}

/**
 * The files the command `base` writes through its arguments `args` (words after the command
 * name), as written; an argument computed at run time keeps its hole.
 */
export function operandWrites(base: string, args: readonly ShellWord[]): string[] {
  const words = args.map(text);
  if (EVERY_OPERAND.has(base)) return operands(words);
  // A link to a file outside (symbolic or hard) lets the next write go there: `ln` writes what it
  // links to, and so does `cp -l`/`-s`, which make links instead of copies.
  if (base === 'ln') return operands(words);
  if (base === 'cp' && words.some((w) => /^-[A-Za-z]*[ls]/.test(w) || /^--(?:link|symbolic-link)$/.test(w)))
    return operands(words);
  // `install -d a b` makes each folder it names.
  if (base === 'install' && words.some((w) => /^-[A-Za-z]*d/.test(w) || w === '--directory')) return operands(words);
  if (LAST_OPERAND.has(base)) {
    const target = outputValues(words, { short: 't', long: ['target-directory'] });
    if (target.length > 0) return target;
    const plain = operands(words);
    return plain.length > 1 || base === 'ln' ? plain.slice(-1) : [];
  }
  if (base === 'dd') return words.filter((w) => w.startsWith('of=')).map((w) => w.slice(3));
  if (base === 'find') return words.filter((_, i) => FIND_WRITES.has(words[i - 1] ?? ''));
  if (base === 'openssl') return words.filter((_, i) => words[i - 1] === '-out');
  const nth = NTH_OPERAND[base];
  if (nth !== undefined) return operands(words).slice(nth, nth + 1);
  if (base === 'git') return gitWrites(words);
  if (base === 'tar' || base === 'gtar' || base === 'bsdtar') return tarWrites(words);
  if (base === 'sed' || base === 'gsed') return [...inPlaceWrites('sed', words), ...sedScriptWrites(args)];
  if (base === 'perl') return inPlaceWrites(base, words);
  if (AWK.test(base)) {
    const awk = readAwk(args);
    return awk.opaque ? [HOLE] : [...awk.writes];
  }
  const written = compressorWrites(base, args) ?? programWrites(base, args);
  if (written !== undefined) return written;
  const outputs = OUTPUT_OPTIONS[base];
  if (outputs !== undefined) return outputValues(words, outputs);
  return [];
}
