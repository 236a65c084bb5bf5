// Writes dist/config.schema.json from the built package (run by `build`, after tsup).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeConfigJsonSchema, CONFIG_SCHEMA_FILE } from '../dist/index.js';

writeFileSync(
  join(import.meta.dirname, '..', 'dist', CONFIG_SCHEMA_FILE),
  `${JSON.stringify(codeConfigJsonSchema(), null, 2)}\n`,
);
