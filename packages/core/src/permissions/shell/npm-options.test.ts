// npm's options that choose the code its scripts run with (`--node-options`), another folder's
// scripts (`--prefix`) or a configuration file (`--userconfig`) make `npm test` opaque, however npm
// lets them be spelled: an allow rule for `npm test` does not cover the code they bring.
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { nodeOptionsLoadNothing } from './npm-options.js';
import { judgeShellCommand } from './shell-judge.js';

const policy = new PermissionPolicy({
  allow: ['Bash(npm test:*)', 'Bash(npm run:*)', 'Bash(pnpm test:*)', 'Bash(yarn test:*)'],
  deny: ['Bash(rm:*)'],
  defaultDecision: 'ask',
});
const decide = (command: string) => policy.evaluate('bash', { command }).decision;

const IMPORT = '--import=data:text/javascript,1';

describe("npm's options that choose code, a folder or a configuration", () => {
  it.each([
    `npm test --node-options="${IMPORT}"`,
    `npm test --node-options "${IMPORT}"`,
    "npm test --node-options='--require ./m.js'",
    'npm test --node-options=--inspect=0.0.0.0:9229',
    `npm test --node-opt="${IMPORT}"`,
    `npm test -node-options="${IMPORT}"`,
    `npm test --node_options="${IMPORT}"`,
    `npm test --nodeOptions="${IMPORT}"`,
    `npm --node-options="${IMPORT}" test`,
    'npm test --node-options="$OPTS"',
    'npm test --prefix /tmp/other',
    'npm --prefix=/tmp/other test',
    'npm test -C /tmp/other',
    'npm test --pref /tmp/other',
    'npm test --userconfig /tmp/x.npmrc',
    'npm test --globalconfig=/tmp/x.npmrc',
    'npm run build --init-module=/tmp/x.js',
    'npm test --git=/tmp/x',
    'npm test --node-gyp=/tmp/x',
    'npm test --editor=/tmp/x',
    'npm test --script_shell=/tmp/x',
    'npm test $EXTRA',
    'pnpm test --dir /tmp/other',
    'pnpm test --pnpmfile /tmp/x.cjs',
    'pnpm test --config.node-options=--require=/tmp/x.js',
    `pnpm test --node-options="${IMPORT}"`,
    'yarn test --cwd /tmp/other',
    'yarn test --use-yarnrc /tmp/x.yml',
    `npm_config_node_options="${IMPORT}" npm test`,
    'NPM_CONFIG_PREFIX=/tmp/other npm test',
    'npm_config_userconfig=/tmp/x npm test',
    "NODE_OPTIONS='--require /tmp/x.js' npm test",
  ])('PERM-02: %j is opaque, not an npm test', (command) => {
    expect(judgeShellCommand(command).opaque).toBe(true);
    expect(decide(command)).toBe('deny');
  });

  it('PERM-03: npm with options that choose nothing stays allowed by a rule naming the command', () => {
    for (const command of [
      'npm test',
      'npm test --silent',
      'npm test --node-options=--max-old-space-size=4096',
      'npm test --node-options "--enable-source-maps --no-warnings"',
      'npm test -- --prefix=x --node-options=--require=x',
      'npm test -w web',
      'npm test --global-style',
      'npm run build --if-present --workspaces',
      'pnpm test -r --filter web',
      'yarn test --watch',
    ]) {
      expect(judgeShellCommand(command).opaque, command).toBe(false);
      expect(decide(command), command).toBe('allow');
    }
    for (const command of ['NODE_OPTIONS=--max-old-space-size=4096 npm test', 'npm_config_loglevel=silent npm test'])
      expect(judgeShellCommand(command).opaque, command).toBe(false);
  });

  it('reads Node options as loading nothing only when each is a known plain one', () => {
    expect(nodeOptionsLoadNothing('--max-old-space-size=4096 --enable-source-maps')).toBe(true);
    expect(nodeOptionsLoadNothing('')).toBe(true);
    for (const value of [
      IMPORT,
      '-r x',
      '--require=x',
      '--loader x',
      '--inspect',
      '--env-file=.env',
      '"--no-warnings"',
    ])
      expect(nodeOptionsLoadNothing(value), value).toBe(false);
  });

  it('npx with a configuration file of its own is opaque', () => {
    expect(judgeShellCommand('npx --cache /tmp/c prettier --check .').opaque).toBe(false);
    expect(judgeShellCommand('npx --userconfig /tmp/x.npmrc prettier --check .').opaque).toBe(true);
  });
});
