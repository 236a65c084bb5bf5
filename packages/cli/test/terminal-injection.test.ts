// What the model, its tools or a log file says reaches the terminal as text, never as control
// sequences: no cursor moves, erases, titles, hyperlinks or clipboard writes, no carriage return
// that overwrites a printed line, no bidirectional override that makes a line read backwards.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminalConfirmation, terminalQuestions } from '../src/interactive/prompts.js';
import type { LineReader } from '../src/interactive/line-reader.js';
import { terminalText } from '@a3s-code/core';
import { terminalSafe } from '../src/render/terminal-text.js';
import { styleFor } from '../src/style.js';
import { A3S, runMain, scriptFile, tempRepo } from './kit.js';

const ESC = '\u001b';
/** Control characters that must not reach the terminal raw (tab and newline may). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const HOSTILE = [
  `clear${ESC}[2J${ESC}[H`,
  `title${ESC}]0;pwned${'\u0007'}`,
  `link${ESC}]8;;http://evil.example${'\u0007'}here${ESC}]8;;${'\u0007'}`,
  `clipboard${ESC}]52;c;ZWNobyBwd25lZA==${'\u0007'}`,
  `up${ESC}[3A${ESC}[2Kgone`,
  'overwrite\rDONE',
  'reversed \u202Etxt.exe\u202C',
  `c1 \u009b2J`,
  `bell\u0007 backspace\b`,
  `unterminated${ESC}]0;rest of the text`,
];

// Root reads any file: as root, the built CLI runs as nobody for the unreadable-config case
// (where this checkout is in a folder nobody may enter, that case is skipped).
const asNobody = process.getuid?.() === 0 ? ['setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups'] : [];
const nobodyRunsA3s =
  asNobody.length === 0 ||
  spawnSync(asNobody[0]!, [
    ...asNobody.slice(1),
    process.execPath,
    '-e',
    `require('node:fs').accessSync(${JSON.stringify(A3S)})`,
  ]).status === 0;

describe('terminal text', () => {
  it('removes escape sequences and shows other controls, whatever the model writes', () => {
    for (const s of HOSTILE) {
      const shown = terminalText(s);
      expect(shown, JSON.stringify(s)).not.toMatch(RAW_CONTROL);
      expect(shown).not.toContain(ESC);
    }
    expect(terminalText('overwrite\rDONE')).toBe('overwrite^MDONE');
    expect(terminalText('reversed \u202Etxt.exe\u202C')).toBe('reversed <U+202E>txt.exe<U+202C>');
    expect(terminalText(`up${ESC}[3A${ESC}[2Kgone`)).toBe('upgone');
    expect(terminalText('lines\r\nand\ttabs\n')).toBe('lines\nand\ttabs\n');
    expect(terminalText('plain text, ünïcode ✓')).toBe('plain text, ünïcode ✓');
    let deep: unknown = `bottom${ESC}[2J\u202E`;
    for (let i = 0; i < 100; i++) deep = { next: deep };
    expect(JSON.stringify(terminalSafe(deep))).not.toMatch(/\\u001b|\u202E/);
  });

  it('a run and its replay print hostile model text, tool arguments and outputs without control sequences', async () => {
    const repo = tempRepo();
    const script = scriptFile([
      {
        text: HOSTILE.join(' | '),
        tool_calls: [{ id: 'c1', name: 'read', args: { file_path: `src/${ESC}[2Jrange.js\u202E` } }],
      },
      { text: `done ${HOSTILE[2]}` },
    ]);
    const run = await runMain(['run', '--model', `scripted:${script}`, 'go'], { cwd: repo });
    expect(run.status).toBe(0);
    for (const out of [run.stdout, run.stderr]) {
      expect(out).not.toMatch(RAW_CONTROL);
      expect(out).not.toContain(ESC);
    }
    expect(run.stdout).toContain('reversed <U+202E>txt.exe<U+202C>');
    const log = readdirSync(join(repo, '.a3s', 'effect-log')).find((f) => f.endsWith('.jsonl'))!;
    const replay = await runMain(['replay', join(repo, '.a3s', 'effect-log', log)], { cwd: repo });
    expect(replay.status).toBe(0);
    expect(replay.stdout).toContain('tool table:');
    expect(replay.stdout).not.toMatch(RAW_CONTROL);
  });

  it('a damaged log: the bytes its parse error quotes reach replay and sessions without control sequences', async () => {
    const repo = tempRepo();
    const run = await runMain(
      ['run', '--session', 'ok', '--model', `scripted:${scriptFile([{ text: 'Hi.' }])}`, 'go'],
      {
        cwd: repo,
      },
    );
    expect(run.status).toBe(0);
    const logs = join(repo, '.a3s', 'effect-log');
    // A torn last line (a prefix of a fact, no newline) is ignored with a note that quotes it; a
    // last line holding raw control characters cannot be a torn write and is refused, quoting it;
    // a damaged first line is listed by a3s sessions as unreadable, quoting it too.
    copyFileSync(join(logs, 'ok.jsonl'), join(logs, 'raw.jsonl'));
    appendFileSync(join(logs, 'ok.jsonl'), '{"seq":99,"type":"user.message","payload":{"text":"reversed \u202Etxt.exe');
    appendFileSync(join(logs, 'raw.jsonl'), HOSTILE.slice(1).join(''));
    writeFileSync(join(logs, 'bad.jsonl'), `${HOSTILE.join('')}\n{"seq":1}\n`);
    const replay = await runMain(['replay', 'ok'], { cwd: repo });
    expect(replay.status, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('note: ignored a torn last line');
    const raw = await runMain(['replay', 'raw'], { cwd: repo });
    expect(raw.status).toBe(1);
    expect(raw.stderr).toContain('FACT_PARSE');
    expect(raw.stderr).toContain('title');
    const sessions = await runMain(['sessions'], { cwd: repo });
    expect(sessions.stdout).toContain('unreadable log');
    for (const out of [replay.stdout, raw.stderr, sessions.stdout]) {
      expect(out).not.toMatch(RAW_CONTROL);
      expect(out).not.toContain(ESC);
    }
  });

  it.skipIf(!nobodyRunsA3s)(
    'a hint quoting a path (a workspace whose name holds escape sequences) reaches the terminal without them',
    () => {
      const parent = mkdtempSync(join(tmpdir(), 'a3s-hint-'));
      chmodSync(parent, 0o755);
      const ws = join(parent, `ws${ESC}]0;pwned\u0007${ESC}[2J`);
      mkdirSync(ws, { mode: 0o777 });
      chmodSync(ws, 0o777);
      writeFileSync(join(ws, 'a3s.config.json'), '{}');
      chmodSync(join(ws, 'a3s.config.json'), 0o000);
      const argv = [...asNobody, process.execPath, A3S, 'tools', '--cwd', ws];
      const r = spawnSync(argv[0]!, argv.slice(1), {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', A3S_HOME: join(parent, 'home') },
      });
      try {
        expect(r.stderr).toContain('hint: a3s reads the workspace');
        expect(r.stderr).toContain('chmod u+r');
        expect(r.stderr).not.toMatch(RAW_CONTROL);
        expect(r.stderr).not.toContain(ESC);
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    },
  );

  it('confirmation cards and questions show what the model sent without control sequences; answers keep its labels', async () => {
    let printed = '';
    const out = { write: (t: string) => (printed += t) };
    const reader = { read: async () => 'n' } as unknown as LineReader;
    const style = styleFor({ isTTY: false }, {});
    const confirm = terminalConfirmation(reader, out, style, () => undefined);
    await confirm.confirm(
      {
        toolId: 't1',
        toolName: `bash${ESC}[2K`,
        args: { command: `rm -rf build${ESC}[1A${ESC}[2K\recho safe` },
        rule: 'ask: bash',
        source: 'agent',
        runId: 'r',
        sessionId: 's',
      },
      new AbortController().signal,
    );
    const ask = terminalQuestions({ read: async () => '1' } as unknown as LineReader, out, style, () => undefined);
    const label = `yes${ESC}]0;t${'\u0007'}`;
    const answer = await ask(
      {
        question_id: 'q1',
        question: `Proceed?${ESC}[2J`,
        context: 'ctx\rX',
        options: [{ label }],
        allow_free_text: false,
        multi_select: false,
      } as never,
      new AbortController().signal,
    );
    expect(printed).not.toMatch(RAW_CONTROL);
    expect(printed).toContain('rm -rf build^Mecho safe');
    expect(answer).toEqual({ text: label });
  });
});
