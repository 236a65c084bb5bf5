/**
 * The Python kernel program, run with `python -u -c <source> <memory limit in bytes> <host|sandbox>`. It speaks
 * framed JSON lines (see `kernel-protocol.ts`) over its own stdin and stdout (the original stdin and
 * stdout are kept for the protocol, fd 1 is pointed at stderr and fd 0 at /dev/null, so child
 * processes can neither corrupt nor consume it; `input()` fails at once). Output is coalesced into
 * messages of at most 64 KiB (flushed every 30 ms, at 16 KiB, and before any other message). The
 * memory limit is set as `RLIMIT_DATA` before any cell runs; a cell ending in `MemoryError` is
 * reported with `memory: true` and the kernel exits (code 86 if even the report failed). Globals
 * persist across cells; the last expression is echoed; `display()`, DataFrame tables, matplotlib
 * figures as PNG (a figure over 40 million pixels is skipped with a note), the IPython idioms (an
 * unknown magic is a SyntaxError naming the ones rewritten) and
 * the `tool(name, args)` bridge are provided here; on the host, `%pip install` and `%pip uninstall`
 * are refused unless the interpreter is a virtual environment (they would change the machine's
 * Python). `sys.stdout.buffer` takes bytes (decoded as UTF-8, bad bytes replaced). One thread reads
 * the protocol (cells for the main loop, bridge results for their callers). A cell's id is in a
 * context variable while it runs (its asyncio tasks, and threads started with its context, carry
 * it): `tool()` from a thread without it, or from what the cell left running after it ended, is
 * refused, and each bridge message names its cell, so the host serves it only while that cell runs.
 */
export const PYTHON_KERNEL_SOURCE = String.raw`
import ast, base64, codecs, contextvars, io, json, os, queue, subprocess, sys, threading, time, timeit, traceback, types, importlib, asyncio, inspect
_FRAME = '\x1ea3s\x1f'
# Orphans of the cells' processes come back to the kernel, not to init, so they die with it.
try:
    import ctypes; ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
except Exception: pass
_MAX_PIXELS = 40_000_000
_ON_HOST = len(sys.argv) > 2 and sys.argv[2] == 'host'
_PID = os.getpid()
_MEM = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 0
if _MEM > 0:
    try:
        import resource
        _soft, _hard = resource.getrlimit(resource.RLIMIT_DATA)
        _lim = _MEM if _hard == resource.RLIM_INFINITY else min(_MEM, _hard)
        resource.setrlimit(resource.RLIMIT_DATA, (_lim, _lim))
    except Exception: pass
_proto = os.fdopen(os.dup(1), 'w', encoding='utf-8', buffering=1)
os.dup2(2, 1)
_stdin = os.fdopen(os.dup(0), 'r', encoding='utf-8')
_devnull = os.open(os.devnull, os.O_RDONLY); os.dup2(_devnull, 0); os.close(_devnull)
class _NoInput(io.TextIOBase):
    def readable(self): return True
    def read(self, size=-1): raise EOFError('eval cells have no standard input: input() and sys.stdin cannot be answered; put the values in the code')
    def readline(self, size=-1): return self.read()
sys.stdin = _NoInput()
try:
    import ctypes; ctypes.CDLL(None).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: orphans of cells stay in our tree
except Exception: pass
_lock = threading.Lock()
_buf = []
_buf_n = [0]
_direct = [False]
_wake = threading.Event()
def _write(msg):
    _proto.write(_FRAME + json.dumps(msg, default=str) + '\n')
def _flush_locked():
    while _buf:
        name, text = _buf.pop(0)
        for i in range(0, len(text), 65536): _write({'type': 'stream', 'stream': name, 'text': text[i:i + 65536]})
    _buf_n[0] = 0
    _proto.flush()
def _send(msg):
    with _lock:
        _flush_locked(); _write(msg); _proto.flush()
def _flusher():
    while True:
        _wake.wait(); time.sleep(0.03); _wake.clear()
        with _lock: _flush_locked()
class _Bytes(io.RawIOBase):
    def __init__(self, text): self._text = text; self._dec = codecs.getincrementaldecoder('utf-8')('replace')
    def writable(self): return True
    def write(self, b):
        b = bytes(b); self._text.write(self._dec.decode(b)); return len(b)
    def flush(self): self._text.flush()
class _Stream(io.TextIOBase):
    encoding = 'utf-8'
    def __init__(self, name): self.name = name; self.buffer = _Bytes(self)
    def writable(self): return True
    def write(self, s):
        if not isinstance(s, str): raise TypeError(f'write() argument must be str, not {type(s).__name__}')
        if not s: return 0
        with _lock:
            if _buf and _buf[-1][0] == self.name: _buf[-1][1] += s
            else: _buf.append([self.name, s])
            _buf_n[0] += len(s)
            if _buf_n[0] >= 16384 or _direct[0]: _flush_locked()
            else: _wake.set()
        return len(s)
    def flush(self):
        with _lock: _flush_locked()
def _after_fork():
    global _lock
    _lock = threading.Lock(); _buf.clear(); _buf_n[0] = 0; _direct[0] = True
os.register_at_fork(before=lambda: _lock.acquire(), after_in_parent=lambda: _lock.release(), after_in_child=_after_fork)
threading.Thread(target=_flusher, daemon=True).start()
sys.stdout = _Stream('stdout'); sys.stderr = _Stream('stderr')
os.environ.setdefault('MPLBACKEND', 'Agg')
_bridge_n = [0]
class ToolError(Exception):
    pass
def _render(value):
    mod = type(value).__module__ or ''
    if mod.startswith('pandas') and hasattr(value, 'to_string'):
        try: return value.to_string(max_rows=60, max_cols=20)
        except TypeError: return value.to_string()
    text = repr(value)
    if len(text) <= 1_000_000: return text
    return text[:500_000] + f'\n[… {len(text) - 1_000_000} characters cut …]\n' + text[-500_000:]
def display(*values):
    for v in values: _send({'type': 'display', 'text': _render(v)})
# The cell running now, and the cell each thread of control belongs to: a context variable, copied
# into the cell's asyncio tasks (and threads started with its context), absent from other threads.
_running = [None]
_cell = contextvars.ContextVar('a3s_cell', default=None)
_ENDED = 'the cell that made this call has ended; tool() works only while its cell runs'
# One thread reads the protocol: cells to run go to the main loop, bridge results to their caller.
_runs = queue.Queue()
_waiting = {}
_wait_lock = threading.Lock()
def _reader():
    for line in _stdin:
        try: msg = json.loads(line)
        except ValueError: continue
        kind = msg.get('type') if isinstance(msg, dict) else None
        if kind == 'run': _runs.put(msg)
        elif kind == 'bridge_result':
            with _wait_lock: w = _waiting.pop(msg.get('id'), None)
            if w is not None: w[1] = msg; w[0].set()
    with _wait_lock:
        for w in _waiting.values(): w[0].set()
        _waiting.clear()
    _runs.put(None)
def tool(name, args=None):
    cell = _cell.get()
    if os.getpid() != _PID: raise ToolError('tool() cannot be called from a forked process')
    if cell is None or cell != _running[0]:
        raise ToolError(_ENDED + (' (this thread was started without the cell\'s context: start it with contextvars.copy_context().run, or use asyncio.to_thread)' if cell is None and threading.current_thread() is not threading.main_thread() else ''))
    w = [threading.Event(), None]
    with _wait_lock:
        _bridge_n[0] += 1
        bid = _bridge_n[0]
        _waiting[bid] = w
    _send({'type': 'bridge', 'id': bid, 'cell': cell, 'name': name, 'args': args or {}})
    w[0].wait()
    msg = w[1]
    if msg is None: raise SystemExit(0)
    if not msg.get('ok'): raise ToolError(msg.get('output', 'tool call failed'))
    return msg.get('output', '')
def _sh(cmd):
    r = subprocess.run(cmd, shell=True, executable='/bin/bash', capture_output=True, text=True)
    if r.stdout: sys.stdout.write(r.stdout)
    if r.stderr: sys.stderr.write(r.stderr)
    if r.returncode != 0: sys.stderr.write(f'[exit code {r.returncode}]\n')
def _pip(argline):
    import shlex
    args = shlex.split(argline)
    verb = next((a for a in args if not a.startswith('-')), '')
    if _ON_HOST and sys.prefix == sys.base_prefix and verb in ('install', 'uninstall'):
        raise RuntimeError(f'%pip {verb} refused: this kernel runs {sys.executable}, which is not a virtual environment, so %pip would change the Python of the whole machine. Create one in the workspace (python3 -m venv .venv) and call eval again with reset: true to run in it, or run !pip ... yourself to mean it')
    r = subprocess.run([sys.executable, '-m', 'pip'] + args, capture_output=True, text=True)
    if r.stdout: sys.stdout.write(r.stdout)
    if r.stderr: sys.stderr.write(r.stderr)
    importlib.invalidate_caches()
    for name in list(sys.modules):
        if name not in _baseline and not name.startswith('_') and name not in ('__main__',):
            del sys.modules[name]
    if r.returncode != 0: sys.stderr.write(f'[pip exit code {r.returncode}]\n')
def _timeit(body, g):
    t = timeit.Timer(body, globals=g)
    n, total = t.autorange()
    print(f'{total / n * 1e6:.3f} us per loop ({n} loops)')
def _time(body, g):
    t0 = time.perf_counter()
    try: exec(compile(body, '<cell>', 'exec', flags=_FLAGS), g)
    finally: print(f'Wall time: {(time.perf_counter() - t0) * 1e3:.3f} ms')
_MAGICS = '%pip, %cd, %timeit, %time, %matplotlib (figures always come back), !cmd, %%bash and %%timeit'
def _magic_args(rest):
    # The options of %timeit and %time (-n 10, -r3, -q, ...) are dropped; the statement remains.
    words = rest.split()
    while words and words[0].startswith('-'):
        opt = words.pop(0)
        if len(opt) == 2 and opt[1] in 'nrp' and words and words[0].isdigit(): words.pop(0)
    return ' '.join(words) if words else ''
def _rewrite(code):
    lines = code.split('\n')
    first = lines[0].strip() if lines else ''
    if first.startswith('%%bash'):
        return '_sh(' + repr('\n'.join(lines[1:])) + ')'
    if first.startswith('%%timeit'):
        return '_timeit(' + repr('\n'.join(lines[1:])) + ', globals())'
    out = []
    # A magic is a line of its own: never one inside a string or brackets, or after a backslash.
    state = {'quote': None, 'depth': 0, 'cont': False}
    for line in lines:
        s = line.lstrip(); ind = line[:len(line) - len(s)]
        free = state['quote'] is None and state['depth'] == 0 and not state['cont']
        if not free or s.startswith('!='):
            _scan(line, state); out.append(line)
        elif s.startswith('%pip ') or s.startswith('!pip '): out.append(ind + '_pip(' + repr(s[5:]) + ')')
        elif s.startswith('%cd '): out.append(ind + 'os.chdir(os.path.expanduser(' + repr(s[4:].strip()) + '))')
        elif s.startswith('%timeit ') or s.startswith('%time '):
            name, _, rest = s.partition(' ')
            out.append(ind + ('_timeit(' if name == '%timeit' else '_time(') + repr(_magic_args(rest)) + ', globals())')
        elif s.startswith('%matplotlib'): out.append(ind + 'pass')
        elif s.startswith('!'): out.append(ind + '_sh(' + repr(s[1:]) + ')')
        else: _scan(line, state); out.append(line)
    return '\n'.join(out)
def _scan(line, state):
    # Carries over a line: the triple-quoted string left open, the brackets, a final backslash.
    i = 0; n = len(line)
    while i < n:
        c = line[i]
        q = state['quote']
        if q is not None:
            if c == '\\': i += 2
            elif line.startswith(q, i): state['quote'] = None; i += 3
            else: i += 1
            continue
        if c == '#': break
        if c in '"' + "'":
            if line.startswith(c * 3, i): state['quote'] = c * 3; i += 3; continue
            i += 1
            while i < n and line[i] != c: i += 2 if line[i] == '\\' else 1
            i += 1; continue
        if c in '([{': state['depth'] += 1
        elif c in ')]}': state['depth'] = max(0, state['depth'] - 1)
        i += 1
    state['cont'] = state['quote'] is None and line.endswith('\\')
_g = {'__name__': '__main__', '__builtins__': __builtins__, 'display': display, 'tool': tool, 'ToolError': ToolError, '_sh': _sh, '_pip': _pip, '_timeit': _timeit, '_time': _time, 'os': os}
_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
_loop = asyncio.new_event_loop()
def _exec(tree, mode):
    code = compile(tree, '<cell>', mode, flags=_FLAGS)
    r = eval(code, _g)
    if inspect.iscoroutine(r): r = _loop.run_until_complete(r)
    return r
def _figures():
    plt = sys.modules.get('matplotlib.pyplot')
    if plt is None: return
    for num in plt.get_fignums():
        fig = plt.figure(num); w, h = fig.get_size_inches() * fig.dpi
        if w * h > _MAX_PIXELS:
            sys.stderr.write(f'[figure {num} not shown: {int(w)}x{int(h)} pixels is over {_MAX_PIXELS} pixels; make it smaller, or save it to a file with savefig]\n')
            continue
        buf = io.BytesIO(); fig.savefig(buf, format='png')
        _send({'type': 'image', 'mime': 'image/png', 'data': base64.b64encode(buf.getvalue()).decode('ascii')})
    plt.close('all')
def _forked():
    if os.getpid() != _PID:  # a fork of the cell that ran on to its end: its parent answers for the cell
        try: sys.stdout.flush()
        finally: os._exit(0)
def _done(msg):
    _forked()
    try:
        os.write(2, ('\x1e\x1fa3s-cell-end %s\n' % msg['id']).encode()); msg['mark'] = True
    except Exception: pass
    _send(msg)
def _run(code):
    src = _rewrite(code)
    try: tree = ast.parse(src, '<cell>', 'exec')
    except SyntaxError as e:
        bad = src.split('\n')[e.lineno - 1].lstrip() if e.lineno and e.lineno <= src.count('\n') + 1 else ''
        if bad and bad.split()[0] in ('%time', '%timeit'):
            raise SyntaxError(f'line {e.lineno}: {bad.split()[0]} needs a statement to time: {bad.split()[0]} <statement>') from None
        if bad.startswith('%') and len(bad) > 1 and (bad[1].isalpha() or bad[1] == '%'):
            raise SyntaxError(f'line {e.lineno}: {bad.split()[0]} is an IPython magic this kernel does not run; it rewrites {_MAGICS}. Write plain Python instead') from None
        raise
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    try:
        _exec(tree, 'exec')
        value = _exec(last, 'eval') if last is not None else None
    finally:
        _forked()
    _figures()
    if value is not None: _send({'type': 'display', 'text': _render(value), 'echo': True})
_baseline = set(sys.modules)
_send({'type': 'ready', 'language': 'python', 'version': sys.version.split()[0], 'pid': os.getpid()})
threading.Thread(target=_reader, daemon=True).start()
while True:
    _msg = _runs.get()
    if _msg is None: break
    _running[0] = _msg['id']; _cell.set(_msg['id'])
    try:
        try: _run(_msg['code'])
        finally: _running[0] = None; _cell.set(None)
        _done({'type': 'done', 'id': _msg['id'], 'ok': True})
    except BaseException as e:
        if isinstance(e, MemoryError):
            _g.clear()  # the kernel is restarted: free the cell's data so the report can be sent
            try:
                tb = [l for l in traceback.format_exception(type(e), e, e.__traceback__) if 'File "<string>"' not in l]
                _done({'type': 'done', 'id': _msg['id'], 'ok': False, 'memory': True, 'error': ''.join(tb).rstrip()})
            except BaseException: pass
            os._exit(86)
        tb = traceback.format_exception(type(e), e, e.__traceback__)
        tb = [l for l in tb if 'File "<string>"' not in l]
        try: _figures()
        except Exception: pass
        _done({'type': 'done', 'id': _msg['id'], 'ok': False, 'error': ''.join(tb).rstrip()})
`;
