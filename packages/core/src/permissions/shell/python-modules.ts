/**
 * The Python modules inline code (`python -c`) and `python -m` may name and still be judged by the
 * interpreter's name. Run with `-c` or `-m`, Python looks a module up in the working folder first,
 * so a name that is not a module of the standard library may be a file the command line (or an
 * earlier one) has just written: `python3 -c "open('m.py','w').write(…); import m"` runs anything.
 * Only standard-library modules present in every build Python 3.8 and later ships for POSIX are
 * known here (not those a distribution packages apart, such as `tkinter` or `distutils`, nor those
 * later versions removed or earlier ones lack, such as `imp`, `tomllib` or `zoneinfo`): a module
 * missing from the installation would be looked up in the working folder too.
 */

/** Standard-library modules always installed (their first dotted part). */
export const PYTHON_STDLIB: ReadonlySet<string> = new Set(
  `__future__ abc argparse array ast asyncio atexit base64 binascii bisect builtins bz2 calendar cmath cmd codecs
  collections colorsys compileall concurrent configparser contextlib contextvars copy csv dataclasses datetime decimal
  difflib dis email enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools genericpath
  getopt getpass gettext glob grp gzip hashlib heapq hmac html http imaplib ipaddress io itertools json keyword
  linecache locale logging lzma mailbox math mimetypes mmap netrc numbers opcode optparse pathlib platform plistlib
  poplib posixpath pprint pstats pwd py_compile queue quopri random re reprlib resource sched secrets select selectors
  shlex shutil signal smtplib socket socketserver sqlite3 ssl stat statistics string stringprep struct symtable sys
  syslog tabnanny tarfile tempfile textwrap threading time token tokenize traceback tracemalloc tty typing
  unicodedata urllib uuid warnings wave weakref xml zipapp zipfile zlib`.split(/\s+/),
);

/**
 * Tools run as `python -m NAME`, judged by that name as their console scripts are: a rule naming
 * one (`Bash(python3 -m pytest:*)`) trusts what it runs, as `Bash(npm test:*)` trusts the test script.
 */
const PYTHON_TOOLS: ReadonlySet<string> = new Set(
  `pytest pip black ruff mypy flake8 pylint isort coverage build twine tox nox pipx poetry pre_commit pyflakes
  pycodestyle pydocstyle autopep8 yapf bandit sphinx mkdocs unittest venv`.split(/\s+/),
);

/**
 * Standard-library modules that, run with `-m`, run code given on the line or read from the input,
 * or import a module named at run time (`python -m timeit CODE`, `-m pdb`, `-m pydoc NAME`).
 */
const RUNS_CODE: ReadonlySet<string> = new Set(
  'asyncio code codeop cProfile pdb pickle profile pydoc runpy timeit trace webbrowser'.split(' '),
);

/** True when `python -m module` may run code its name does not say (see the module comment). */
export function pythonModuleRunIsOpaque(module: string): boolean {
  const top = module.split('.')[0]!;
  if (RUNS_CODE.has(top)) return true;
  return !(PYTHON_STDLIB.has(top) || PYTHON_TOOLS.has(top));
}
