// Writes dist/serve.schema.json from the built package (run by `build`, after tsup).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVE_SCHEMA_FILE, serveJsonSchema } from '../dist/index.js';

writeFileSync(
  join(import.meta.dirname, '..', 'dist', SERVE_SCHEMA_FILE),
  `${JSON.stringify(serveJsonSchema(), null, 2)}\n`,
);
