// A vitest reporter that writes how many errors were thrown outside any test (unhandled
// rejections, errors in a test file's top level after its tests) to the file named by
// A3S_UNHANDLED_ERRORS_FILE: vitest's JSON report does not count them.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onTestRunEnd(_modules, unhandledErrors) {
    const file = process.env.A3S_UNHANDLED_ERRORS_FILE;
    if (file) writeFileSync(file, JSON.stringify({ unhandled: unhandledErrors.length }));
  }
}
