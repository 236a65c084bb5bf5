// Piped input is read ahead: a line can be waiting before the question it answers is asked. The
// question is still shown, with the line that answered it, so the transcript on stderr says which
// question each line of input answered.
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile, tempRepo } from './kit.js';

describe('questions answered from piped input', () => {
  it('CAP-10: the capability-drift question of a resume is shown with the piped line that answered it', () => {
    const dir = tempRepo();
    const edit = scriptFile([
      {
        text: 'Fixing.',
        tool_calls: [
          {
            id: 'e1',
            name: 'edit',
            args: { file_path: 'src/range.js', old_string: 'i < end', new_string: 'i <= end' },
          },
        ],
      },
    ]);
    const parked = a3s(['run', '--model', `scripted:${edit}`, '--cwd', dir, '--session', 'piped-1', 'fix it']);
    expect(parked.status, parked.stderr).toBe(3);
    const ok = scriptFile([{ text: 'ok' }]);
    // --plan changes the capabilities, so the resume asks before it continues the parked run.
    const resumed = a3s(
      ['sessions', '--resume', 'piped-1', '--plan', '--model', `scripted:${ok}`, '--cwd', dir],
      { NO_COLOR: '1' },
      'y\n',
    );
    expect(resumed.stderr).toContain('its capabilities changed since it started');
    expect(resumed.stderr).toMatch(/\nresume under the current capabilities\? \[y\/N\] y\n/);
  });
});
