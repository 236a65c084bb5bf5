/** The largest log the viewer can hold, and how a larger one is refused. */

/** The longest string a JavaScript engine makes (V8's limit), so the largest log text the viewer can hold. */
export const MAX_LOG_TEXT = 0x1fff_ffe8;

/** Why a log of `bytes` bytes is refused (UTF-8 never decodes to more characters than bytes). */
export function tooLargeMessage(bytes: number): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
  return `the log is ${mb(bytes)} (${bytes} bytes); the viewer reads logs of at most ${mb(MAX_LOG_TEXT)} (${MAX_LOG_TEXT} bytes), the longest text a browser holds`;
}
