import assert from 'node:assert/strict';
import { test } from 'node:test';
import { range } from '../src/range.js';

test('range includes both ends', () => {
  assert.deepEqual(range(1, 3), [1, 2, 3]);
  assert.deepEqual(range(5, 5), [5]);
});

test('range is empty when start is past end', () => {
  assert.deepEqual(range(3, 1), []);
});
