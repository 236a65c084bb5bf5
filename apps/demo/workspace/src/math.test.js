import assert from 'node:assert/strict';
import { add } from './math.js';

assert.equal(add(2, 3), 5);
console.log('math: ok');
