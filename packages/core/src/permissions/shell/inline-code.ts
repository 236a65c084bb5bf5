/**
 * Whether inline code given to a language interpreter (`python -c`, `node -e`, `perl -e`, `ruby
 * -e`, `php -r`, `lua -e`) is opaque: whether it may start a process that cannot be named from the
 * text. Code that names a process call (`os.system`, `child_process`, `system()`, backticks) is,
 * and so is code that may look one up by a name made at run time, which no text search can follow:
 * `getattr(os, 'sys'+'tem')`, `require('child_'+'process')`, `process['bind'+'ing']`,
 * `Kernel.send(…)`, `$f = 'sys'.'tem'; $f(…)`, `os['exe'..'cute']`. Each language's ways to do that
 * are read generously: a dynamic lookup (`getattr`, `vars`, `globals`, a dunder, a private name,
 * `sys.modules`, `importlib`, a module that loads or runs code such as `pickle`, `ctypes`, `pdb`,
 * `timeit`), a module other than a few known not to start processes (JavaScript), any call but a
 * few known ones (PHP), or an escape in a JavaScript identifier makes the code opaque. Plain code
 * (`print(1+1)`, `import json`, `console.log(JSON.stringify({a:1}))`) is not.
 */
import { PYTHON_STDLIB } from './python-modules.js';

/** The languages whose inline code is read here. */
export type CodeLanguage = 'python' | 'javascript' | 'perl' | 'ruby' | 'php' | 'lua';

/** What names or reaches a process call in any of the languages (and `|` in an `open`). */
const SPAWNS =
  /\w*(?:system|exec|spawn|popen|fork)\w*|subprocess|child_process|Popen|getoutput|shell_exec|passthru|proc_open|\beval\b|__import__|importlib|\bFunction\b|\bimport\s*\(|\brequire\s*\(\s*[^'"\s)]|\bpty\b|dlopen|process\.binding|`|\bqx\b|\breadpipe\b|%x|\bopen\s*\(?[^;)]*\|/;

/** Python: lookups by a name made at run time, frames, code loading, and names of modules reaching `os`. */
const PYTHON_DYNAMIC = new RegExp(
  [
    String.raw`(?<![\w.])compile\b`,
    String.raw`\b(?:getattr|setattr|delattr|globals|locals|vars|breakpoint|help|modules|meta_path|path_hooks)\b`,
    String.raw`\b(?:os|posix|nt|ctypes|cffi|ffi|webbrowser|antigravity|tkinter|Tkinter|turtle|idlelib|pipes|mailcap)\b`,
    String.raw`\b[fF]_(?:globals|builtins|locals|back|code)\b|\b(?:tb|gi|cr|ag)_frame\b`,
    String.raw`\w*pickle\w*|\b(?:unsafe_load|unsafe|UnsafeLoader|CLoader|Loader|add_constructor|add_multi_constructor)\b`,
    String.raw`\b(?:get_type_hints|ForwardRef|eval_str|entry_points|EntryPoint|load_extension|ioctl|TIOCSTI|IMAP4_stream|CGIHTTPRequestHandler|dictConfig|fileConfig)\b`,
    String.raw`torch\s*\.\s*load`,
  ].join('|'),
);

/** Dunder names that only read a name or define an operator, which reach nothing else. */
const PYTHON_PLAIN_DUNDERS = new Set(
  `name main file doc version init repr str len eq ne lt le gt ge hash add sub mul truediv floordiv mod iter next
  contains enter exit bool all slots future`
    .split(/\s+/)
    .map((n) => `__${n}__`),
);

// A private or dunder name (`_os`, `sys._getframe`, `__class__`, `__builtins__`), other than the plain dunders.
function pythonPrivateName(code: string): boolean {
  for (const m of code.matchAll(/\b_+[A-Za-z]\w*/g)) if (!PYTHON_PLAIN_DUNDERS.has(m[0])) return true;
  return false;
}

/** Python modules that run code, look names up or reach a process call (imported by name). */
const PYTHON_MODULES = new Set([
  'builtins',
  '__builtin__',
  'bdb',
  'cProfile',
  'code',
  'codeop',
  'copyreg',
  'dill',
  'distutils',
  'doctest',
  'ensurepip',
  'gc',
  'imp',
  'inspect',
  'joblib',
  'marshal',
  'multiprocessing',
  'operator',
  'pdb',
  'pip',
  'pkg_resources',
  'pkgutil',
  'profile',
  'pydoc',
  'runpy',
  'setuptools',
  'shelve',
  'site',
  'sysconfig',
  'termios',
  'timeit',
  'trace',
  'types',
  'unittest',
  'venv',
  'xmlrpc',
  'zipimport',
]);

/**
 * The top-level names of the modules Python code imports (`import a.b, c as d`, `from a.b import
 * x`), read where a statement may begin; a relative import (`from . import x`) names none.
 */
function pythonImports(code: string): string[] {
  const text = code.replace(/\\\r?\n/g, ' ');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[\n\r;:])\s*from\s+(\.*)([\w.]*)/g))
    out.push(m[1] === '' ? m[2]!.split('.')[0]! : '.');
  for (const m of text.matchAll(/(?:^|[\n\r;:])\s*import\s+([^;\n\r#]*)/g))
    for (const part of m[1]!.split(',')) out.push(part.trim().split(/[.\s]/)[0]!);
  return out;
}

// Each module imported is a standard-library one: another may be a file in the working folder,
// which `python -c` looks in first (see `python-modules.ts`).
function pythonImportsKnown(code: string): boolean {
  return pythonImports(code).every((m) => PYTHON_STDLIB.has(m) && !PYTHON_MODULES.has(m));
}

/** JavaScript modules known not to start processes or load code (with or without `node:`). */
const JS_MODULES = new Set([
  'assert',
  'assert/strict',
  'buffer',
  'console',
  'crypto',
  'dns',
  'dns/promises',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'os',
  'path',
  'path/posix',
  'path/win32',
  'perf_hooks',
  'punycode',
  'querystring',
  'readline',
  'readline/promises',
  'stream',
  'stream/promises',
  'string_decoder',
  'timers',
  'timers/promises',
  'tty',
  'url',
  'util',
  'zlib',
]);

/** What `process.` may be followed by: data and the streams, not bindings, modules or loaders. */
const JS_PROCESS_MEMBERS =
  /^\s*\.\s*(?:argv0?|env|stdout|stderr|stdin|exit|exitCode|cwd|platform|versions?|arch|pid|ppid|hrtime|nextTick|memoryUsage|uptime|title|release|execPath|on|once|emitWarning)\b/;

/** JavaScript: ways to the global object, to Function, to modules and loaders, and escapes in names. */
const JS_DYNAMIC =
  /\\u|\b(?:globalThis|global|this|self|window|frames|module|exports|constructor|__proto__|prototype|getPrototypeOf|Reflect|Proxy|vm|worker_threads|Worker|inspector|wasi|Bun|Deno|binding|_linkedBinding|getBuiltinModule|mainModule|createRequire|_load|WebAssembly)\b/;

const moduleName = (m: string): string => m.replace(/^node:/, '');

// Each `require` is a call with a plain string naming a known module; each `import` names one.
function jsModulesKnown(code: string): boolean {
  for (const m of code.matchAll(/\brequire\b/g)) {
    const call = /^\s*\(\s*(['"])([\w./:-]*)\1\s*\)/.exec(code.slice(m.index + m[0].length));
    if (call === null || !JS_MODULES.has(moduleName(call[2]!))) return false;
  }
  for (const m of code.matchAll(/\bimport\b/g)) {
    const rest = code.slice(m.index + m[0].length);
    const stmt = /^\s*(?:[\w$\s{},*]+?\s+from\s*)?(['"])([\w./:-]*)\1/.exec(rest);
    if (stmt === null || !JS_MODULES.has(moduleName(stmt[2]!))) return false;
  }
  for (const m of code.matchAll(/\bprocess\b/g))
    if (!JS_PROCESS_MEMBERS.test(code.slice(m.index + m[0].length))) return false;
  return true;
}

/** Perl: symbolic references, code refs, string evaluation by `s///e`, modules and files loaded. */
const PERL_DYNAMIC =
  /&\s*[${]|\*\{|::\{|->\s*[($]|\bgoto\b|\b(?:do|require|syscall|can|UNIVERSAL|CORE|POSIX|IPC|Safe|Storable|DynaLoader|XSLoader|Module)\b|[/|!#}\]>),.]\s*[msixpodualngcr]*e[msixpodualngcre]*\b|\buse\s+(?!(?:strict|warnings|utf8|feature|integer|constant|List::Util|Scalar::Util|Data::Dumper|JSON::PP|Time::HiRes)\b)/;

/** Ruby: sending a method by name, evaluation, bindings, constants by name, IO pipes, libraries. */
const RUBY_DYNAMIC =
  /\w*_eval\b|\w*_exec\b|\b(?:send|public_send|__send__|method|methods|instance_method|public_method|define_method|to_proc|Symbol|binding|Binding|TOPLEVEL_BINDING|ObjectSpace|Process|PTY|Open3|Fiddle|DL|Kernel|Object|BasicObject|Module|Class|const_get|instance_variable_get|require|require_relative|load|autoload|Marshal|YAML|Psych|syscall|IO|trap|Signal)\b|(?<![.\w])open\b/;

/** PHP calls (and constructs written like calls) known not to start processes or take a callable. */
const PHP_CALLS = new Set(
  `echo print print_r var_dump var_export json_encode json_decode strlen mb_strlen strtoupper strtolower ucfirst
  ucwords lcfirst trim ltrim rtrim str_replace str_repeat str_pad str_split str_contains str_starts_with
  str_ends_with substr mb_substr substr_count strpos stripos strrpos strrev sprintf printf number_format explode
  implode join count sizeof array_keys array_values array_merge array_slice array_sum array_product array_unique
  array_flip array_reverse array_search array_key_exists in_array sort rsort ksort krsort asort arsort range min
  max abs floor ceil round sqrt pow intdiv intval floatval strval boolval is_array is_string is_int is_numeric
  is_bool is_null isset empty unset list array date time microtime mktime strtotime md5 sha1 crc32 hash
  base64_encode base64_decode bin2hex hex2bin urlencode urldecode rawurlencode rawurldecode htmlspecialchars
  nl2br phpversion php_uname getcwd basename dirname pathinfo realpath file_exists is_file is_dir
  file_get_contents file_put_contents file preg_match preg_match_all preg_split preg_quote if elseif foreach for
  while switch match catch exit die return fn function use and or not`.split(/\s+/),
);

// Every call names a known function, none is through a variable, a string or an array, and no
// object is made, no file included.
function phpCallsKnown(code: string): boolean {
  if (/\$\s*\$|\$\{|\$\w+\s*\(|['")\]}]\s*\(|\bnew\b|\b(?:include|require)(?:_once)?\b|->\s*[${]|::\s*\$/.test(code))
    return false;
  for (const m of code.matchAll(/([A-Za-z_\\][\w\\]*)\s*\(/g)) if (!PHP_CALLS.has(m[1]!.toLowerCase())) return false;
  return true;
}

/** Lua: `os` and `io` beyond a few members, and what loads code or reaches every global. */
const LUA_DYNAMIC =
  /\bos\b(?!\s*\.\s*(?:time|date|clock|getenv|difftime)\b)|\bio\b(?!\s*\.\s*(?:write|read|lines|stdout|stderr|stdin)\b)|\b(?:load|loadstring|loadfile|dofile|require|package|debug|_G|_ENV|getfenv|setfenv|rawget|rawset|ffi|jit|module|getmetatable|setmetatable|dump)\b/;

function opaqueText(language: CodeLanguage, text: string): boolean {
  if (SPAWNS.test(text)) return true;
  switch (language) {
    case 'python':
      return PYTHON_DYNAMIC.test(text) || pythonPrivateName(text) || !pythonImportsKnown(text);
    case 'javascript':
      return JS_DYNAMIC.test(text) || !jsModulesKnown(text);
    case 'perl':
      return PERL_DYNAMIC.test(text);
    case 'ruby':
      return RUBY_DYNAMIC.test(text);
    case 'php':
      return !phpCallsKnown(text);
    case 'lua':
      return LUA_DYNAMIC.test(text);
  }
}

/**
 * True when the inline `code` of `language` may start a process that cannot be named from its
 * text (see the module comment). Python reads identifiers in NFKC (`os.ｓｙｓｔｅｍ` is `os.system`),
 * so non-ASCII code is also read in that form.
 */
export function inlineCodeIsOpaque(language: CodeLanguage, code: string): boolean {
  return opaqueText(language, code) || (!/^[\x00-\x7f]*$/.test(code) && opaqueText(language, code.normalize('NFKC')));
}
