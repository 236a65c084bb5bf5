/**
 * How much a program may send to the host in `ctx` calls: each call's arguments are copied out of
 * the VM as JSON text, parsed, checked and kept by the host until it answers. The VM's own memory
 * limit does not bound that copy (a string the script holds once can be sent many times), so a
 * script starting many calls with huge arguments at once would exhaust the host's memory and end
 * its process. One call's arguments, and those of all calls waiting for an answer, are bounded
 * instead; a call past either bound throws in the script, which can catch it.
 */

/** Characters of JSON one call's arguments may take (16 Mi). */
export const MAX_CALL_ARGS_CHARS = 16 * 1024 * 1024;

/** Characters of JSON the arguments of all calls waiting for an answer may take together (64 Mi). */
export const MAX_PENDING_ARGS_CHARS = 64 * 1024 * 1024;

/** The `code` of the error a call past a bound throws in the script. */
export const CALL_TOO_LARGE = 'PROGRAM_CALL_TOO_LARGE';

const mib = (chars: number): string => `${(chars / (1024 * 1024)).toFixed(1)} Mi`;

/**
 * Why a `ctx` call `op` whose arguments are `chars` characters of JSON may not start while calls
 * holding `pending` characters wait for answers, or `undefined` when it may.
 */
export function callSizeProblem(op: string, chars: number, pending: number): string | undefined {
  const what = op === 'tool' ? 'ctx.tool' : `ctx.${op === 'read' ? 'readFile' : op}`;
  if (chars > MAX_CALL_ARGS_CHARS)
    return `${what}: the call's arguments are ${mib(chars)} characters of JSON; one call takes at most ${mib(MAX_CALL_ARGS_CHARS)} (pass less, or split the work into several calls)`;
  if (pending + chars > MAX_PENDING_ARGS_CHARS)
    return `${what}: the calls still waiting for answers hold ${mib(pending)} characters of arguments and this one ${mib(chars)}; together they may hold at most ${mib(MAX_PENDING_ARGS_CHARS)} (await some before starting more)`;
  return undefined;
}
