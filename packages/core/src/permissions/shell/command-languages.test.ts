import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { sedRunsCommands } from './sed-script.js';

const policy = new PermissionPolicy({ deny: ['Bash(rm:*)'], defaultDecision: 'allow' });
const decision = (command: string) => policy.evaluate('bash', { command }).decision;

// Ways to run `rm x` through a program's own command language, another user or a program that
// reads commands from its input; each once got past `Bash(rm:*)`.
const RUNS_RM: readonly string[] = [
  "sed -n '1e rm x' f",
  "sed 's/.*/rm x/e' f",
  "sed -e 'p' -e '$e rm x' f",
  "sed --expression='e rm x' f",
  "sed ':a;N;$!ba;s/x/rm x/e' f",
  "sed -n '/a/,/b/{e rm x\n}' f",
  'sed -f script.sed f',
  "sed -i.bak 's/a/b/;e rm x' f",
  "sed 'w f\\\ne rm x' f",
  "sed ':a e rm x' f",
  "sed -n ': a\te rm x' f",
  "sed 'ta e rm x' f",
  "sed 'b end; :end e rm x' f",
  "sed p -e 'e rm x' f",
  "sed -n 1p f --expression='e rm x'",
  'sed -n p "$opt" f',
  "sed -n '#x\\\ne rm x' f",
  "sed -n '1{#c\\\ne rm x\n}' f",
  "sed -n 's/[/]/#/;e rm x' f",
  "gsed 's/[]/]/#/;e rm x' f",
  "sed 's/[[:alpha:]/]/#/;e rm x' f",
  "sed -n '/[/]/#/;e rm x' f",
  "grep -rl foo | xargs sed -i 's/foo/bar/'",
  'gawk --source=\'BEGIN { system("rm x") }\' f',
  'awk \'BEGIN { f = "sys" "tem"; @f("rm x") }\'',
  'mawk -W exec prog.awk f',
  "sqlite3 db '.shell rm x'",
  "sqlite3 db '.system rm x'",
  'sqlite3 db ".output \'|rm x\'"',
  "sqlite3 -cmd '.shell rm x' db 'select 1'",
  "sqlite3 db <<< '.shell rm x'",
  "psql -c '\\! rm x'",
  'psql -c "copy t to program \'rm x\'"',
  "psql <<< '\\! rm x'",
  'psql -f script.sql',
  "mysql -e 'system rm x'",
  "echo 'system rm x' | mysql",
  "mysql --pager='rm x' -e 'select 1'",
  "less +'!rm x' f",
  "ssh localhost 'rm x'",
  'ssh -p 22 -l me localhost rm x',
  "ssh localhost <<< 'rm x'",
  'runuser -u me -- rm x',
  "runuser -l me -c 'rm x'",
  'setpriv --reuid=1000 --clear-groups rm x',
  'setpriv --reuid 1000 rm x',
  'pkexec rm x',
  "sg staff 'rm x'",
  "sg staff -c 'rm x'",
  'cpulimit -l 50 rm x',
  'systemd-run --user rm x',
  'bwrap --bind / / rm x',
  'proot rm x',
  'docker run --rm -v "$PWD":/w alpine rm /w/x',
  "ed <<< '!rm x'",
  "echo 'rm x' | at",
  "echo 'rm x' | batch",
  "echo 'rm x' | parallel",
  "csh <<< 'rm x'",
  "echo 'rm x' | tclsh",
  "echo 'syscmd(rm x)' | m4",
  "echo '!rm x' | dc",
  "echo 'spawn rm x' | expect",
];

// Everyday uses of the same programs that run nothing: no deny rule may catch them.
const RUNS_NOTHING: readonly string[] = [
  "sed -i 's/hello/world/g' f",
  "sed -n '1,5p' f",
  "sed 's/e/E/g' f",
  "sed -e 's/a/b/' -e '/exe/d' f",
  "sed '/^$/d' f",
  "sed 's|/usr/e|/opt/e|' f",
  "sed -E 's/(e+)x/\\1/' f",
  "sed ':a;N;$!ba;s/\\n/ /g' f",
  "sed -n '/start/,/end/p' f",
  "sed 'y/abe/xyz/' f",
  "sed '1~2d' f",
  "sed '0,/re/s//x/' f",
  "sed 's/x/y/w out.txt' f",
  "sed --in-place=.bak -e 's/a/b/' f",
  "sed '/foo/{s/a/b/;p}' f",
  "sed '$a\\\nthe end' f",
  "sed '5q' f",
  'sed = f',
  "sed --sandbox 'e rm x' f",
  "sed -n '1p' ./*.txt",
  "sed -n ':a;N;$!ba;p' f -s",
  "sed -n 'b done; :done p' f",
  "find . -name '*.ts' -exec sed -i 's/a/b/g' {} +",
  "sed 's/[a-z/]/X/g' f",
  "sed -n '/[/]/p' f",
  "sed 's/a/[e]/' f",
  "grep -rl foo | xargs sed -i 's/foo/bar/' --",
  "sqlite3 db 'select a || b from t'",
  'sqlite3 -safe db',
  "psql -c 'select 1'",
  'psql -l',
  "mysql -u root -e 'select 1'",
  'less +G f',
  'ssh -N -L 8080:localhost:80 host',
  'ssh host ls -la',
  'ssh -V',
  'docker ps',
  'docker build .',
  'tclsh --version',
];

describe('command languages and run-as wrappers under a deny rule', () => {
  it.each(RUNS_RM.map((c) => [JSON.stringify(c), c]))('PERM-02: %s is denied by Bash(rm:*)', (_, command) => {
    expect(decision(command)).toBe('deny');
  });

  it.each(RUNS_NOTHING.map((c) => [JSON.stringify(c), c]))('PERM-02: %s is not denied by Bash(rm:*)', (_, command) => {
    expect(decision(command)).toBe('allow');
  });

  it('PERM-03: Bash(ssh:*) allows a connection but never, alone, the remote command it carries', () => {
    const allow = new PermissionPolicy({ allow: ['Bash(ssh:*)'], defaultDecision: 'ask' });
    expect(allow.evaluate('bash', { command: 'ssh -N -L 8080:localhost:80 host' }).decision).toBe('allow');
    expect(allow.evaluate('bash', { command: "ssh host 'rm x'" }).decision).toBe('ask');
  });

  it('reads sed scripts the way GNU sed does', () => {
    expect(sedRunsCommands('s/a/b/ge')).toBe(true);
    expect(sedRunsCommands('s/a/b/w e.txt')).toBe(false);
    // A file name runs to the end of its line, a trailing backslash included: the next line is a command.
    expect(sedRunsCommands('w f\\\ne x')).toBe(true);
    expect(sedRunsCommands('a text\\\ne x')).toBe(false);
    expect(sedRunsCommands('/e/ e')).toBe(true);
    expect(sedRunsCommands('a e rm x')).toBe(false);
    expect(sedRunsCommands('#e\np')).toBe(false);
    expect(sedRunsCommands('s/a/b')).toBe(true);
    expect(sedRunsCommands('k')).toBe(true);
  });
});

describe('a sed word computed at run time before the files', () => {
  it.each([
    [
      `for f in *.txt; do sed -i 's/a/b/' "$f"; done`,
      /the word "\$f"/,
      `for f in *.txt; do sed -i 's/a/b/' -- "$f"; done`,
    ],
    [
      "grep -rl foo | xargs sed -i 's/foo/bar/'",
      /a word read at run time \(from xargs\)/,
      "grep -rl foo | xargs sed -i 's/foo/bar/' --",
    ],
  ])(
    'PERM-02: %j is held to Bash(rm:*), and the reason names the word and says to put -- before the files',
    (command, word, fixed) => {
      const evaluated = policy.evaluate('bash', { command });
      expect(evaluated.decision).toBe('deny');
      expect(evaluated.rule).toMatch(word);
      expect(evaluated.rule).toMatch(/could be an option that runs commands .*put `--` before the files/);
      expect(decision(fixed)).toBe('allow');
    },
  );
});
