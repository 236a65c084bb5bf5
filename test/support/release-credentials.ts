// Run before each test file (vitest `setupFiles`): the model keys a file's provider clients were
// given in code (core's `holdCredentials`) are process-wide state, which would make every later
// file of the same worker run its commands apart from the host. Released after each file.
import { releaseCredentials } from '@a3s-code/core';
import { afterAll } from 'vitest';

afterAll(() => releaseCredentials());
