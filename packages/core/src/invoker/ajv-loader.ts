/**
 * ajv (draft 2020-12) with ajv-formats, loaded on the first validator built rather than when core
 * is imported: a process that never validates a call's arguments or a generated object does not
 * load it. Both packages ship CommonJS, so they load synchronously and validation stays synchronous.
 */
import { createRequire } from 'node:module';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';

type AjvModule = typeof import('ajv/dist/2020.js');
type AddFormats = (ajv: Ajv2020) => Ajv2020;

const load = createRequire(import.meta.url);
let ajvModule: AjvModule | undefined;
let addFormats: AddFormats | undefined;

/** A new ajv 2020 instance with `options` and every ajv-formats format. */
export function newAjv2020(options: Options): Ajv2020 {
  ajvModule ??= load('ajv/dist/2020.js') as AjvModule;
  if (addFormats === undefined) {
    // ajv-formats is CommonJS with its function on `default` (and as the module itself).
    const formats = load('ajv-formats') as { default?: AddFormats } & AddFormats;
    addFormats = formats.default ?? formats;
  }
  return addFormats(new ajvModule.Ajv2020(options));
}
