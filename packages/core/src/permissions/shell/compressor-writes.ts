/**
 * The files a compressor writes through its arguments: each file operand, which it removes (or
 * keeps) and replaces by a file beside it (`a` → `a.gz`, `a.gz` → `a`), and the files or folders
 * `-o`, `--output-dir-flat`… name; nothing else when it writes to its output (`-c`), tests or
 * lists. The options are read strictly: one the judge does not know may name a file or undo `-c`,
 * so the command then writes a file that cannot be known (a hole), as does one reading the names
 * of its files from a list (`--files`, `--filelist`).
 */
import { type OptionSpec, scanArguments } from './command-options.js';
import { operands, optionValues } from './option-words.js';
import { HOLE, type ShellWord } from './shell-word.js';

interface Compressor {
  readonly options: OptionSpec;
  /** The suffix of the files it makes. */
  readonly suffix: string;
  /** Options after which it writes no file (to the standard output, test, list, help). */
  readonly noFiles: readonly string[];
  /** Options naming a file or folder written. */
  readonly outputs?: readonly string[];
  /** Options naming a file that lists the files to work on. */
  readonly lists?: readonly string[];
  /** Options setting the suffix. */
  readonly suffixes?: readonly string[];
}

const flags = (names: string): Record<string, boolean> =>
  Object.fromEntries(names.split(' ').map((n) => [n, false] as const));
const valued = (names: string): Record<string, boolean> =>
  Object.fromEntries(names.split(' ').map((n) => [n, true] as const));
const HELP = ['h', 'H', 'help', 'V', 'version'];

const GZIP: Compressor = {
  options: {
    flags: 'acdfhklLnNqrtvV123456789',
    valued: 'S',
    long: {
      ...flags(
        'ascii stdout to-stdout decompress uncompress force help keep list license no-name name quiet recursive rsyncable synchronous test verbose version fast best',
      ),
      suffix: true,
    },
  },
  suffix: '.gz',
  noFiles: ['c', 'stdout', 'to-stdout', 't', 'test', 'l', 'list', 'L', 'license', ...HELP],
  suffixes: ['S', 'suffix'],
};
const BZIP2: Compressor = {
  options: {
    flags: 'cdzkftsqvLVh123456789',
    long: flags(
      'help decompress compress keep force test stdout quiet verbose license version small fast best repetitive-fast repetitive-best exponential',
    ),
  },
  suffix: '.bz2',
  noFiles: ['c', 'stdout', 't', 'test', 'L', 'license', ...HELP],
};
const XZ: Compressor = {
  options: {
    flags: 'zdtlkfceqvhHVQ0123456789',
    valued: 'SFCTM',
    long: {
      ...flags(
        'compress decompress uncompress test list keep force stdout to-stdout single-stream no-sparse files files0 ignore-check extreme no-adjust quiet verbose no-warn robot info-memory help long-help version fast best lzma1 lzma2 x86 arm armthumb arm64 powerpc ia64 sparc riscv delta',
      ),
      ...valued(
        'suffix format check threads block-size block-list flush-timeout memlimit-compress memlimit-decompress memlimit-mt-decompress memlimit memory',
      ),
    },
  },
  suffix: '.xz',
  noFiles: ['c', 'stdout', 'to-stdout', 't', 'test', 'l', 'list', 'long-help', 'info-memory', ...HELP],
  lists: ['files', 'files0'],
  suffixes: ['S', 'suffix'],
};
const ZSTD: Compressor = {
  options: {
    flags: 'VHhvqkdzcfrtl',
    valued: 'oD',
    attached: 'TBMbei',
    numeric: true,
    long: {
      ...flags(
        'keep rm decompress uncompress compress force stdout verbose quiet help version test list ultra rsyncable single-thread adapt exclude-compressed progress no-progress sparse no-sparse check no-check asyncio no-asyncio pass-through no-pass-through no-dictID content-size no-content-size compress-literals no-compress-literals row-match-finder no-row-match-finder mmap-dict no-mmap-dict fast long format patch-from auto-threads stream-size size-hint target-compressed-block-size memory memlimit memlimit-decompress threads block-size priority',
      ),
      ...valued('output-dir-flat output-dir-mirror filelist trace'),
    },
  },
  suffix: '.zst',
  noFiles: ['c', 'stdout', 't', 'test', 'l', 'list', ...HELP],
  outputs: ['o', 'output-dir-flat', 'output-dir-mirror', 'trace'],
  lists: ['filelist'],
};
// lz4 writes its second operand (`lz4 in out`), or each operand's `.lz4` with `-m`: every operand counts.
const LZ4: Compressor = {
  options: {
    flags: 'zdfkhHVvqctmrl',
    valued: 'D',
    attached: 'Bbei',
    numeric: true,
    long: flags(
      'rm no-frame-crc frame-crc content-size no-content-size list sparse no-sparse favor-decSpeed fast best compress decompress uncompress stdout to-stdout force keep test verbose quiet help version multiple',
    ),
  },
  suffix: '.lz4',
  noFiles: ['c', 'stdout', 'to-stdout', 't', 'test', 'list', ...HELP],
};

const COMPRESSORS: Readonly<Record<string, Compressor>> = {
  gzip: GZIP,
  gunzip: GZIP,
  bzip2: BZIP2,
  bunzip2: BZIP2,
  xz: XZ,
  unxz: XZ,
  lzma: XZ,
  unlzma: XZ,
  zstd: ZSTD,
  unzstd: ZSTD,
  lz4: LZ4,
  unlz4: LZ4,
};
// Compressors read generously: every operand, and the values of `-o` and `-S`, are written.
const OTHERS = new Set([
  'pigz',
  'unpigz',
  'pbzip2',
  'lbzip2',
  'pixz',
  'brotli',
  'lzip',
  'plzip',
  'lzop',
  'compress',
  'uncompress',
]);

/**
 * The files the compressor `base` writes through its arguments `args` (see the module comment),
 * or `undefined` when `base` is no compressor.
 */
export function compressorWrites(base: string, args: readonly ShellWord[]): string[] | undefined {
  if (OTHERS.has(base)) {
    const words = args.map((w) => w.text);
    return [...operands(words), ...optionValues(words, { short: 'oS', long: (n) => n === 'output' || n === 'suffix' })];
  }
  const c = COMPRESSORS[base];
  if (c === undefined) return undefined;
  const scan = scanArguments(args, c.options);
  if (scan.kind === 'unknown') return [HOLE];
  const given = (name: string): string | undefined =>
    scan.seen.has(name) ? (scan.values.get(name) ?? (scan.values.has(name) ? HOLE : undefined)) : undefined;
  const out: string[] = [];
  for (const name of c.outputs ?? []) {
    const v = given(name);
    if (v !== undefined) out.push(v);
  }
  if ((c.lists ?? []).some((n) => scan.seen.has(n))) out.push(HOLE);
  if (c.noFiles.some((n) => scan.seen.has(n))) return out;
  const suffix = (c.suffixes ?? []).map(given).find((v) => v !== undefined) ?? c.suffix;
  for (const { text } of scan.operands) {
    if (text === '-') continue;
    // The file, what compressing it makes, and what decompressing it makes.
    out.push(text, `${text}${suffix}`, text.replace(/\.[^./]*$/, ''));
  }
  return out;
}
