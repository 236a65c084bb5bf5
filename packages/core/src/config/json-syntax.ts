/**
 * Where a JSON text stops being JSON: line and column (1-based) of the first offending character,
 * for config errors a person can jump to. `JSON.parse` on Node 20 names a position only for some
 * mistakes, so this scanner walks the grammar itself; it runs only after `JSON.parse` has failed.
 */

/** The first syntax error of a JSON text. */
export interface JsonSyntaxError {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in UTF-16 code units. */
  readonly column: number;
  readonly message: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

function scan(text: string): void {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const shown = (): string => (i >= text.length ? 'the end of the text' : `'${text[i]}'`);
  const expect = (what: string): never => {
    throw new Stop(i, `expected ${what}, found ${shown()}`);
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) expect(`'${word}'`);
      i++;
    }
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) throw new Stop(i, 'unterminated string');
      const ch = text[i]!;
      if (ch === '"') return void i++;
      if (ch < ' ') throw new Stop(i, 'control character in a string (escape it, e.g. \\n)');
      if (ch === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5)))
            throw new Stop(i, 'bad \\u escape: expected four hex digits');
          i += 5;
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else throw new Stop(i, `bad escape '\\${text[i] ?? ''}'`);
      } else i++;
    }
  };
  const number = (): void => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) expect('a value');
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') expect('a double-quoted property name');
        string();
        ws();
        if (text[i] !== ':') expect("':' after the property name");
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === '}') throw new Stop(i, "trailing comma before '}'");
          continue;
        }
        if (text[i] === '}') return void i++;
        expect("',' or '}' after the property value");
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === ']') throw new Stop(i, "trailing comma before ']'");
          continue;
        }
        if (text[i] === ']') return void i++;
        expect("',' or ']' after the array element");
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    number();
  };
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  value();
  ws();
  if (i < text.length) expect('the end of the text');
}

/** The first syntax error of `text`, or `undefined` when it is valid JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    scan(text);
    return undefined;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    const before = text.slice(0, e.at);
    const lineStart = before.lastIndexOf('\n') + 1;
    return { line: before.split('\n').length, column: e.at - lineStart + 1, message: e.message };
  }
}
