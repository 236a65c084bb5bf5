/**
 * Reading a model client's stream so that a cancel takes effect at once, whether or not the
 * client watches its request's signal. A host's own client (a gateway wrapper, an SDK without
 * abort support) may keep streaming after the signal aborted: its events are not waited for.
 */

const ABORTED: unique symbol = Symbol('aborted');

/**
 * Yields what `source` yields until `signal` aborts, then throws `onAbort()` at once, without
 * waiting for the source's pending step; when `complete()` says what was yielded is already whole
 * (a response whose `finish` arrived), it ends as the source would have instead. The source is
 * then asked to stop (`return()`, not awaited: a source that ignores the signal may settle it only
 * at its next event, or never). Otherwise it reads as `for await` does: a source that throws is
 * not asked to stop, one the consumer stops early is (and that is awaited).
 */
export async function* untilAborted<T>(
  source: AsyncIterable<T> | Iterable<T>,
  signal: AbortSignal,
  onAbort: () => unknown,
  complete: () => boolean = () => false,
): AsyncGenerator<T, void, undefined> {
  const it = iteratorOf(source);
  let open = true;
  try {
    for (;;) {
      let step: IteratorResult<T> | typeof ABORTED;
      try {
        step = await nextOrAbort(it, signal);
      } catch (e) {
        open = false;
        throw e;
      }
      if (step === ABORTED) {
        open = false;
        abandon(it);
        if (complete()) return;
        throw onAbort();
      }
      if (step.done === true) {
        open = false;
        return;
      }
      yield step.value;
    }
  } finally {
    if (open) await it.return?.();
  }
}

function iteratorOf<T>(source: AsyncIterable<T> | Iterable<T>): AsyncIterator<T> {
  if (typeof (source as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function')
    return (source as AsyncIterable<T>)[Symbol.asyncIterator]();
  // A sync iterable (an array of events) is read as `for await` reads it.
  return (async function* () {
    yield* source as Iterable<T>;
  })();
}

/** The source's next step, or `ABORTED` as soon as `signal` aborts (at once when it already has). */
function nextOrAbort<T>(it: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T> | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    let pending: Promise<IteratorResult<T>>;
    try {
      pending = Promise.resolve(it.next());
    } catch (e) {
      done();
      reject(e);
      return;
    }
    // A step that settles after the abort won is dropped; its rejection is handled here.
    pending.then(
      (r) => {
        done();
        resolve(r);
      },
      (e: unknown) => {
        done();
        reject(e);
      },
    );
  });
}

/** Asks an abandoned source to stop; whatever it answers, or throws, is dropped. */
function abandon<T>(it: AsyncIterator<T>): void {
  try {
    const r: unknown = it.return?.();
    if (typeof (r as Partial<PromiseLike<unknown>> | undefined)?.then === 'function')
      Promise.resolve(r).catch(() => undefined);
  } catch {
    // The source is abandoned either way.
  }
}
