// The CLI saves the images a result references under `.a3s/artifacts/<thread>/`. A command run by
// the model may have made that folder (or `.a3s/artifacts`) a link to a folder outside the
// workspace: the image is then not saved, the line says why, and nothing is written outside.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactSaver } from '../src/render/artifacts.js';
import { styleFor } from '../src/style.js';

const ID = '0123abcd-0000-4000-8000-000000000001';
const metadata = { images: [{ uri: `artifact://${ID}`, mime: 'image/svg+xml', size_bytes: 6, encoding: 'utf8' }] };
const style = styleFor({ isTTY: false }, {});
const tmp = () => mkdtempSync(join(tmpdir(), 'a3s-cli-artifacts-'));
const saver = (ws: string) =>
  artifactSaver(
    style,
    ws,
    () => 'plot-1',
    () => '<svg/>',
  );

describe('saving a result artifact', () => {
  it('saves it in a real folder, with a .gitignore in a new .a3s', () => {
    const ws = tmp();
    expect(saver(ws)(metadata)).toEqual([`  ▣ image/svg+xml, 6 B → .a3s/artifacts/plot-1/${ID}.svg`]);
    expect(readFileSync(join(ws, '.a3s', 'artifacts', 'plot-1', `${ID}.svg`), 'utf8')).toBe('<svg/>');
    expect(readFileSync(join(ws, '.a3s', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('writes nothing through a link in place of the session folder or of .a3s/artifacts', () => {
    for (const linked of [join('.a3s', 'artifacts', 'plot-1'), join('.a3s', 'artifacts')]) {
      const ws = tmp();
      const outside = tmp();
      mkdirSync(join(ws, linked, '..'), { recursive: true });
      symlinkSync(outside, join(ws, linked));
      const [line] = saver(ws)(metadata);
      expect(line, linked).toContain(
        `(not saved: ${linked} is a symbolic link; allowed: a real folder inside the workspace)`,
      );
      expect(readdirSync(outside), linked).toEqual([]);
    }
  });

  it('never writes through a link in place of the file itself', () => {
    const ws = tmp();
    const outside = tmp();
    mkdirSync(join(ws, '.a3s', 'artifacts', 'plot-1'), { recursive: true });
    symlinkSync(join(outside, 'new-file'), join(ws, '.a3s', 'artifacts', 'plot-1', `${ID}.svg`));
    const [line] = saver(ws)(metadata);
    expect(line).toContain('exists and is not a regular file');
    expect(readdirSync(outside)).toEqual([]);
    expect(lstatSync(join(ws, '.a3s', 'artifacts', 'plot-1', `${ID}.svg`)).isSymbolicLink()).toBe(true);
  });
});
